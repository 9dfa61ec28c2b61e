"""EVMMAX (EIP-6690) in the fast engine: the Python side of ``csrc/evm_fast_evmmax.c``.

The C module runs SETMODX, LOADX, STOREX, ADDMODX, SUBMODX and MULMODX inside the fast
engine's loop, through the opcode table's extension. :data:`EVMMAX_FAST` is what the
engine needs of it: the opcodes it runs, its C entry point, the per-run state (field
contexts and their registers, owned by the run) and, for an instruction that fails an
assert (left to the host untouched), a Python-engine frame with the C frame's state, on
which the Python handler raises the halt with its reason.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, FrozenSet, Optional

import numpy as np

from .._native import ffi, lib
from ..modx_common import LIMB_BITS, MAX_REGISTER_BYTES, MAX_REGISTERS
from .evmmax import (ADD_SUB_GAS, EVMMAX_HANDLERS, MAX_CONTEXT_ID, MUL_GAS, SETMODX_ODD_GAS,
                     FieldContexts)
from .frame import Frame

if TYPE_CHECKING:   # code.py imports the opcode sets, which import this module
    from .code import Code

assert (lib.EVM_EVMMAX_CONTEXTS, lib.EVM_EVMMAX_MAX_REGISTERS, lib.EVM_EVMMAX_REGISTER_BYTES) \
    == (MAX_CONTEXT_ID + 1, MAX_REGISTERS, MAX_REGISTER_BYTES)


def _gas_tables() -> Any:
    tables = ffi.new("struct evm_evmmax_gas *")
    tables.setmodx_odd, tables.add_sub, tables.mul = SETMODX_ODD_GAS, ADD_SUB_GAS, MUL_GAS
    return tables


VECTOR_OPCODES = (0xC3, 0xC4, 0xC5)      # ADDMODX, SUBMODX, MULMODX: enum evmmax_op + 0xC3
_RECORD = lib.EVMMAX_RECORD_BYTES        # the operation, then the seven immediates


class VectorRuns:
    """The code's runs of consecutive ADDMODX/SUBMODX/MULMODX whose own asserts on the
    immediates hold (count != 0, out_stride != 0; a truncated one reads zeros), as the C
    reads them (struct evm_evmmax_run); see evm_fast_evmmax.h."""

    def __init__(self, code: "Code") -> None:
        bytecode = np.frombuffer(code.bytecode, dtype=np.uint8)
        data = np.frombuffer(code.data_flags, dtype=np.uint8).astype(bool)
        pcs = np.flatnonzero(np.isin(bytecode, VECTOR_OPCODES) & ~data)
        pcs = pcs[pcs + _RECORD <= len(bytecode)]            # all seven immediates present
        records = bytecode[pcs[:, None] + np.arange(_RECORD)].astype(np.int64)
        records[:, 0] -= VECTOR_OPCODES[0]
        pcs, records = pcs[(records[:, 7] != 0) & (records[:, 2] != 0)], \
            records[(records[:, 7] != 0) & (records[:, 2] != 0)]
        follows = np.zeros(len(pcs), dtype=bool)
        follows[1:] = pcs[1:] == pcs[:-1] + _RECORD
        first = np.flatnonzero(~follows)                     # each run's first operation
        count = np.diff(np.append(first, len(pcs)))
        keep = count >= 2                                    # one alone gains nothing
        first, count = first[keep], count[keep]
        self.program = np.ascontiguousarray(records.astype(np.uint8))
        operand_end = (records[:, 1:7:2] + records[:, 2:7:2] * records[:, 7:8]).max(axis=1)
        elements = np.where(records[:, 0] == 2, 0, records[:, 7]), \
            np.where(records[:, 0] == 2, records[:, 7], 0)
        entries = ffi.new("struct evm_evmmax_run[]", max(len(first), 1))
        base = ffi.from_buffer(self.program) if len(pcs) else ffi.NULL
        run_at = np.full(max(len(bytecode), 1), -1, dtype=np.int32)
        for index, (start, size) in enumerate(zip(first.tolist(), count.tolist())):
            span = slice(start, start + size)
            entry = entries[index]
            entry.program = ffi.cast("const char *", base) + _RECORD * start
            entry.add_sub_elements = int(elements[0][span].sum())
            entry.mul_elements = int(elements[1][span].sum())
            entry.count, entry.register_end = size, int(operand_end[span].max())
            entry.adds, entry.subs, entry.muls = (
                int((records[span, 0] == op).sum()) for op in range(3))
            entry.next_pc = int(pcs[start + size - 1]) + _RECORD
            run_at[pcs[start]] = index
        self.entries, self.run_at = entries, run_at
        self.run_at_pointer = ffi.from_buffer("int32_t[]", run_at)

    @property
    def nbytes(self) -> int:
        return self.program.nbytes + self.run_at.nbytes + ffi.sizeof(self.entries)


class _ExistingContext:
    """Stands for a context the failing instruction does not use (SETMODX of an existing
    id only activates it, so a SETMODX left to the host never names one)."""


def _word(word: Any) -> int:
    return sum(int(limb) << (64 * i) for i, limb in enumerate(word.limb))


class EvmmaxFast:
    """The fast engine's EVMMAX extension (see the module docstring)."""

    opcodes: FrozenSet[int] = frozenset(EVMMAX_HANDLERS)
    step = ffi.addressof(lib, "evm_fast_evmmax_step")

    def __init__(self) -> None:
        assert all(lib.evm_fast_evmmax_implements(code) for code in self.opcodes)
        self._gas = _gas_tables()   # read by every run's state, for the module's lifetime

    @staticmethod
    def analyse(code: "Code") -> VectorRuns:
        """What the C reads of ``code`` besides the instructions: its vector runs."""
        return VectorRuns(code)

    def new_state(self, runs: Optional[VectorRuns]) -> Any:
        """One run's contexts and registers, all empty, and the code's ``runs`` (None:
        each instruction alone): the run keeps it and ``runs`` alive."""
        state = ffi.new("struct evm_fast_evmmax *")
        state.gas = self._gas
        if runs is not None:
            state.run_at, state.runs = runs.run_at_pointer, runs.entries
        return state

    def host_frame(self, c_frame: Any, state: Any, code: Any, inputs: int, modx: Any) -> Frame:
        """A Python-engine frame as the instruction at ``c_frame.pc`` sees it: its
        ``inputs`` stack operands, memory, gas, register bytes and field contexts (the
        active one with its modulus and register count; its registers are not read)."""
        f = Frame(code, b"", int(c_frame.gas), None)
        size = int(c_frame.stack_size)
        f.stack = [_word(c_frame.stack[i]) for i in range(size - inputs, size)]
        f.memory = bytearray(ffi.buffer(c_frame.memory, c_frame.memory_size))
        f.register_bytes = int(c_frame.extra_memory_bytes)
        f.evmmax = FieldContexts(modx)
        for context_id in range(lib.EVM_EVMMAX_CONTEXTS):
            if state.slots[context_id].context != ffi.NULL:
                f.evmmax.by_id[context_id] = _ExistingContext()
        if state.active != ffi.NULL:
            context = state.active.context
            limbs = int(context.limbs)
            modulus = sum(int(context.mod_inv[i]) << (LIMB_BITS * i) for i in range(limbs))
            f.evmmax.active = modx.RegisterFile(
                modx.FieldContext(modulus), int(state.active.register_count))
        return f


EVMMAX_FAST = EvmmaxFast()
