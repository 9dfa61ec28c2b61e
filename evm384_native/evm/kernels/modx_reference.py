"""Pure-Python reference of the EVMMAX (EIP-6690) kernels, written from the EIP.

Same API and behaviour as :mod:`.modx`: :class:`FieldContext`,
:class:`RegisterFile` and the ``*modx_batch`` functions. The Montgomery product
is the EIP's own ``mulmont`` (one reduction by R), not the word-by-word CIOS of
the C, so the two are independent computations of the same function.
"""
from __future__ import annotations

from typing import Callable, List

import numpy as np

from .modx_common import (LIMB_BITS, FieldContextBase, RegisterFileBase, VectorProgram,
                          batch_functions,
                          check_batch_pair, check_operation, ints_to_rows, rows_to_ints,
                          unreduced_error, vector_indices)

__all__ = ["FieldContext", "RegisterFile", "VectorProgram", "addmodx_batch", "submodx_batch",
           "mulmodx_batch"]


class FieldContext(FieldContextBase):
    """SETMODX's precomputation for ``modulus`` (an int), or from the big-endian
    bytes SETMODX reads with :meth:`from_bytes`."""

    def _setup(self, modulus_be: bytes) -> None:
        self._describe(modulus_be)
        r = 1 << (LIMB_BITS * self.limbs)
        self._r = r
        if self.is_power_of_two:
            self.inv = self.r_squared = self._mont_const = 0
        else:
            self.inv = pow(-self.modulus, -1, 1 << LIMB_BITS)
            self.r_squared = r * r % self.modulus
            self._mont_const = pow(-self.modulus, -1, r)

    def mulmont(self, x: int, y: int) -> int:
        """The EIP's mulmont: x * y * R**-1 mod m for x, y < m."""
        t = x * y
        m = ((t % self._r) * self._mont_const) % self._r
        t = (t + m * self.modulus) // self._r
        return t - self.modulus if t >= self.modulus else t

    def operation(self, name: str) -> Callable[[int, int], int]:
        """The element operation of ADDMODX/SUBMODX/MULMODX on internal forms."""
        m = self.modulus
        if name == "add":
            return lambda x, y: (x + y) % m
        if name == "sub":
            return lambda x, y: (x - y) % m
        if self.is_plain:
            return lambda x, y: x * y % m
        return self.mulmont


class RegisterFile(RegisterFileBase):
    __doc__ = RegisterFileBase.__doc__

    def __init__(self, context: FieldContext, count: int) -> None:
        super().__init__(context, count)
        self._values: List[int] = [0] * count

    def _run_program(self, program: VectorProgram) -> None:
        for operation, immediates in program.operations:
            self._run_vector(operation, immediates)

    def _run_vector(self, operation: str, immediates: tuple) -> None:
        out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count = immediates
        op = self.context.operation(operation)  # type: ignore[attr-defined]
        xs = [self._values[i] for i in vector_indices(x_idx, x_stride, count)]
        ys = [self._values[i] for i in vector_indices(y_idx, y_stride, count)]
        results = [op(x, y) for x, y in zip(xs, ys)]  # all read before any is written
        for index, result in zip(vector_indices(out_idx, out_stride, count), results):
            self._values[index] = result

    def _store(self, dest: int, data: bytes, count: int) -> None:
        first = self._first_unreduced(data, count)
        if first is not None:
            raise unreduced_error("data", first, self.context.modulus)
        size = self.context.element_size
        self._values[dest:dest + count] = [
            self.context.to_internal(int.from_bytes(data[i * size:(i + 1) * size], "big"))
            for i in range(count)]

    def _load(self, source: int, count: int) -> bytes:
        size = self.context.element_size
        return b"".join(self.context.from_internal(v).to_bytes(size, "big")
                        for v in self._values[source:source + count])

    def _internal(self, index: int) -> int:
        return self._values[index]


def _batch(operation: str, context: FieldContext, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    check_operation(operation)
    check_batch_pair(x, y, context.limbs)
    xs, ys = rows_to_ints(x), rows_to_ints(y)
    for row, (a, b) in enumerate(zip(xs, ys)):
        if a >= context.modulus or b >= context.modulus:
            raise unreduced_error("x" if a >= context.modulus else "y", row, context.modulus)
    op = context.operation(operation)
    return ints_to_rows([op(a, b) for a, b in zip(xs, ys)], context.limbs)


addmodx_batch, submodx_batch, mulmodx_batch = batch_functions(_batch)
