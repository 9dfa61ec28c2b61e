"""EVMMAX (EIP-6690) arithmetic on the native (C, via cffi) kernels.

:class:`FieldContext` is SETMODX's precomputation for one modulus (odd, or a
power of two; 1 to 12 64-bit limbs), :class:`RegisterFile` its registers with
the vector operations ADDMODX/SUBMODX/MULMODX and the LOADX/STOREX conversions,
and ``addmodx_batch``/``submodx_batch``/``mulmodx_batch`` run one operation
over numpy rows of limbs. :mod:`.modx_reference` is the same API
in pure Python. The Montgomery product follows the one implementation switch of
:func:`.kernel.use_implementation` ("mulx" or "portable").
"""
from __future__ import annotations

import numpy as np

from ..._native import ffi, lib
from .modx_common import (LIMB_BITS, FieldContextBase, RegisterFileBase, VectorProgram,
                          batch_functions,
                          check_batch_pair, check_operation, rows_to_ints, unreduced_error)

__all__ = ["FieldContext", "RegisterFile", "VectorProgram", "addmodx_batch", "submodx_batch",
           "mulmodx_batch"]

_OPERATIONS = {"add": lib.EVMMAX_OP_ADD, "sub": lib.EVMMAX_OP_SUB, "mul": lib.EVMMAX_OP_MUL}
_LIMB_ARRAY = ffi.typeof("uint64_t[]")


def _check_ok(status: int) -> None:
    # Arguments are validated in Python first (modx_common), so the C's own
    # checks (tested directly in tests/test_modx.py) must agree and pass.
    assert status == lib.EVMMAX_OK, f"the C kernel refused checked arguments: status {status}"


class FieldContext(FieldContextBase):
    """SETMODX's precomputation for ``modulus`` (an int), or from the big-endian
    bytes SETMODX reads with :meth:`from_bytes`."""

    def _setup(self, modulus_be: bytes) -> None:
        self._describe(modulus_be)
        self.c_context = ffi.new("struct evmmax_context *")
        _check_ok(lib.evmmax_setup(self.c_context, modulus_be, len(modulus_be)))
        assert self.c_context.limbs == self.limbs
        self.inv = int(self.c_context.inv)
        self.r_squared = sum(int(self.c_context.r_squared[i]) << (LIMB_BITS * i)
                             for i in range(self.limbs))


class RegisterFile(RegisterFileBase):
    __doc__ = RegisterFileBase.__doc__

    def __init__(self, context: FieldContext, count: int) -> None:
        super().__init__(context, count)
        self._registers = np.zeros((count, context.limbs), dtype=np.uint64)
        self._pointer = ffi.from_buffer(_LIMB_ARRAY, self._registers)

    def _run_vector(self, operation: str, immediates: tuple) -> None:
        _check_ok(lib.evmmax_vector_op(self.context.c_context, _OPERATIONS[operation],  # type: ignore[attr-defined]
                                       self._pointer, self.count, *immediates))

    def _run_program(self, program: VectorProgram) -> None:
        # run() has checked the program's bounds: one check for all its operations
        _check_ok(lib.evmmax_vector_run_bounded(self.context.c_context, self._pointer,  # type: ignore[attr-defined]
                                                self.count, program.encoded, len(program),
                                                program.register_end))

    def _store(self, dest: int, data: bytes, count: int) -> None:
        status = lib.evmmax_storex(self.context.c_context, self._pointer, self.count, dest,  # type: ignore[attr-defined]
                                   ffi.from_buffer(data), len(data), count)
        if status == lib.EVMMAX_NOT_REDUCED:
            raise unreduced_error("data", self._first_unreduced(data, count), self.context.modulus)
        _check_ok(status)

    def _load(self, source: int, count: int) -> bytes:
        size = count * self.context.element_size
        memory = ffi.new("uint8_t[]", max(1, size))
        _check_ok(lib.evmmax_loadx(self.context.c_context, self._pointer, self.count, source,  # type: ignore[attr-defined]
                                   memory, size, count))
        return bytes(ffi.buffer(memory, size))

    def _internal(self, index: int) -> int:
        return rows_to_ints(self._registers[index:index + 1])[0]


def _batch(operation: str, context: FieldContext, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    check_operation(operation)
    check_batch_pair(x, y, context.limbs)
    out = np.empty_like(x)
    bad_row = ffi.new("size_t *")
    status = lib.evmmax_batch(context.c_context, _OPERATIONS[operation],
                              ffi.from_buffer(_LIMB_ARRAY, out), ffi.from_buffer(_LIMB_ARRAY, x),
                              ffi.from_buffer(_LIMB_ARRAY, y), len(x), bad_row)
    if status == lib.EVMMAX_NOT_REDUCED:
        row = bad_row[0]
        operand = "x" if rows_to_ints(x[row:row + 1])[0] >= context.modulus else "y"
        raise unreduced_error(operand, row, context.modulus)
    _check_ok(status)
    return out


addmodx_batch, submodx_batch, mulmodx_batch = batch_functions(_batch)
