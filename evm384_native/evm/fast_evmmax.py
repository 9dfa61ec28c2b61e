"""EVMMAX (EIP-6690) in the fast engine: the Python side of ``csrc/evm_fast_evmmax.c``.

The C module runs SETMODX, LOADX, STOREX, ADDMODX, SUBMODX and MULMODX inside the fast
engine's loop, through the opcode table's extension. :data:`EVMMAX_FAST` is what the
engine needs of it: the opcodes it runs, its C entry point, the per-run state (field
contexts and their registers, owned by the run) and, for an instruction that fails an
assert (left to the host untouched), a Python-engine frame with the C frame's state, on
which the Python handler raises the halt with its reason.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

import numpy as np

from .._native import ffi, lib
from .costs import EvmmaxCosts
from .evmmax import (EVMMAX_HANDLERS, MAX_CONTEXT_ID, VECTOR_OPCODES, FieldContexts,
                     joins_vector_run, vector_run)
from .frame import Frame
from .kernels.modx_common import LIMB_BITS, MAX_REGISTER_BYTES, MAX_REGISTERS

assert (lib.EVM_EVMMAX_CONTEXTS, lib.EVM_EVMMAX_MAX_REGISTERS, lib.EVM_EVMMAX_REGISTER_BYTES) \
    == (MAX_CONTEXT_ID + 1, MAX_REGISTERS, MAX_REGISTER_BYTES)


def _gas_tables(costs: EvmmaxCosts) -> Any:
    tables = ffi.new("struct evm_evmmax_gas *")
    tables.setmodx_odd, tables.add_sub, tables.mul = costs.setmodx, costs.add_sub, costs.mul
    return tables


_RECORD = lib.EVMMAX_RECORD_BYTES        # the operation, then the seven immediates
_IMMEDIATES = _RECORD - 1


class VectorRuns:
    """The code's runs of consecutive ADDMODX/SUBMODX/MULMODX, the Python engine's
    (``evmmax.joins_vector_run``, ``evmmax.vector_run``) as the C reads them (struct
    evm_evmmax_run, see evm_fast_evmmax.h): entries, and run_at, a run's index at its
    first instruction's pc (else -1). ``data_flags``: 1 at every byte of immediate data."""

    def __init__(self, bytecode: bytes, data_flags: bytes) -> None:
        data = np.frombuffer(data_flags, dtype=np.uint8).astype(bool)
        at = np.flatnonzero(np.isin(np.frombuffer(bytecode, dtype=np.uint8),
                                    sorted(VECTOR_OPCODES)) & ~data)
        groups: List[List[Tuple[int, Tuple[int, ...]]]] = []
        for pc in at.tolist():
            # immediates cut off by the end of the code read as zeros (count 0: it halts)
            immediates = tuple(bytecode[pc + 1:pc + _RECORD].ljust(_IMMEDIATES, b"\0"))
            if not joins_vector_run(bytecode[pc], immediates):
                continue
            if groups and groups[-1][-1][0] + _RECORD == pc:
                groups[-1].append((pc, immediates))
            else:
                groups.append([(pc, immediates)])
        runs = [vector_run([(bytecode[pc], immediates) for pc, immediates in group],
                           group[0][0])
                for group in groups if len(group) >= 2]    # one alone gains nothing
        self.programs = [ffi.from_buffer(run.program.encoded) for run in runs]
        self.entries = ffi.new("struct evm_evmmax_run[]", max(len(runs), 1))
        self.run_at = np.full(max(len(bytecode), 1), -1, dtype=np.int32)
        for index, (run, program) in enumerate(zip(runs, self.programs)):
            entry = self.entries[index]
            entry.program = ffi.cast("const char *", program)
            entry.add_sub_elements, entry.mul_elements = run.add_elements, run.mul_elements
            entry.count, entry.register_end = len(run.program), run.program.register_end
            per_operation = Counter(operation for operation, _ in run.program.operations)
            entry.adds, entry.subs, entry.muls = (per_operation[operation]
                                                  for operation in ("add", "sub", "mul"))
            entry.next_pc = run.start_pc + _RECORD * len(run.program)
            self.run_at[run.start_pc] = index
        self.run_at_pointer = ffi.from_buffer("int32_t[]", self.run_at)
        self.nbytes = (sum(len(program) for program in self.programs) + self.run_at.nbytes
                       + ffi.sizeof(self.entries))


class _ExistingContext:
    """Stands for a context the failing instruction does not use (SETMODX of an existing
    id only activates it, so a SETMODX left to the host never names one)."""


def _word(word: Any) -> int:
    return sum(int(limb) << (64 * i) for i, limb in enumerate(word.limb))


# A run's state is 115 KB, which ffi.new would clear: more time than a short run takes.
_ALLOCATE_UNCLEARED = ffi.new_allocator(should_clear_after_alloc=False)
_INIT = lib.evm_fast_evmmax_init


class EvmmaxFast:
    """The fast engine's EVMMAX extension (see the module docstring)."""

    opcodes: FrozenSet[int] = frozenset(EVMMAX_HANDLERS)
    step = ffi.addressof(lib, "evm_fast_evmmax_step")

    def __init__(self) -> None:
        assert all(lib.evm_fast_evmmax_implements(code) for code in self.opcodes)
        # the C tables of each cost model used, kept for the module's lifetime (runs read
        # them); models are frozen and compare by value, so a user's table is built once.
        # The last one used is found by identity: hashing a model costs ~0.5 us a run.
        self._gas: Dict[EvmmaxCosts, Any] = {}
        self._last_gas: Tuple[Optional[EvmmaxCosts], Any] = (None, None)

    @staticmethod
    def analyse(bytecode: bytes, data_flags: bytes) -> VectorRuns:
        """What the C reads of the code besides the instructions: its vector runs
        (``data_flags`` as :class:`.code.Code` has them)."""
        return VectorRuns(bytecode, data_flags)

    def new_state(self, runs: Optional[VectorRuns], costs: EvmmaxCosts) -> Any:
        """One run's contexts and registers, all empty, the code's ``runs`` (None: each
        instruction alone) and the cost model: the run keeps it and ``runs`` alive."""
        last_costs, gas = self._last_gas
        if last_costs is not costs:
            gas = self._gas.get(costs)
            if gas is None:
                gas = self._gas[costs] = _gas_tables(costs)
            self._last_gas = (costs, gas)
        state = _ALLOCATE_UNCLEARED("struct evm_fast_evmmax *")   # evm_fast_evmmax_init
        if runs is None:
            _INIT(state, gas, ffi.NULL, ffi.NULL)
        else:
            _INIT(state, gas, runs.run_at_pointer, runs.entries)
        return state

    def host_frame(self, c_frame: Any, state: Any, code: Any, inputs: int, modx: Any,
                   costs: EvmmaxCosts) -> Frame:
        """A Python-engine frame as the instruction at ``c_frame.pc`` sees it: its
        ``inputs`` stack operands, memory, gas, register bytes and field contexts (the
        active one with its modulus and register count; its registers are not read)."""
        f = Frame(code, b"", int(c_frame.gas), None)
        size = int(c_frame.stack_size)
        f.stack = [_word(c_frame.stack[i]) for i in range(size - inputs, size)]
        f.memory = bytearray(ffi.buffer(c_frame.memory, c_frame.memory_size))
        f.register_bytes = int(c_frame.extra_memory_bytes)
        f.evmmax = FieldContexts(modx, costs)
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
