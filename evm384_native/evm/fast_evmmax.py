"""EVMMAX (EIP-6690) in the fast engine: the Python side of ``csrc/evm_fast_evmmax.c``.

The C module runs SETMODX, LOADX, STOREX, ADDMODX, SUBMODX and MULMODX inside the fast
engine's loop, through the opcode table's extension. :data:`EVMMAX_FAST` is what the
engine needs of it: the opcodes it runs, its C entry point, the per-run state (field
contexts and their registers, owned by the run) and, for an instruction that fails an
assert (left to the host untouched), a Python-engine frame with the C frame's state, on
which the Python handler raises the halt with its reason.
"""
from __future__ import annotations

from typing import Any, FrozenSet

from .._native import ffi, lib
from ..modx_common import LIMB_BITS, MAX_REGISTER_BYTES, MAX_REGISTERS
from .evmmax import (ADD_SUB_GAS, EVMMAX_HANDLERS, MAX_CONTEXT_ID, MUL_GAS, SETMODX_ODD_GAS,
                     FieldContexts)
from .frame import Frame

assert (lib.EVM_EVMMAX_CONTEXTS, lib.EVM_EVMMAX_MAX_REGISTERS, lib.EVM_EVMMAX_REGISTER_BYTES) \
    == (MAX_CONTEXT_ID + 1, MAX_REGISTERS, MAX_REGISTER_BYTES)


def _gas_tables() -> Any:
    tables = ffi.new("struct evm_evmmax_gas *")
    tables.setmodx_odd, tables.add_sub, tables.mul = SETMODX_ODD_GAS, ADD_SUB_GAS, MUL_GAS
    return tables


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

    def new_state(self) -> Any:
        """One run's contexts and registers, all empty: the run keeps it alive."""
        state = ffi.new("struct evm_fast_evmmax *")
        state.gas = self._gas
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
