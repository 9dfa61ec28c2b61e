"""The "fast" engine: the C interpreter loop of ``csrc/evm_fast.c``.

The C loop runs every instruction it implements (all but SDIV, SMOD, ADDMOD,
MULMOD, EXP, RETURNDATACOPY, DIV and MOD of operands wider than 64 bits, and the
halting INVALID/undefined/state opcodes)
with the same gas, memory and halt rules as the Python engine, and releases
the GIL while it runs. Before any other instruction it hands the frame back;
that one instruction then runs through the Python engine's own step, and the
C loop resumes. Tracing always runs in the Python engine's step loop.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Optional

import numpy as np

from .._native import ffi, lib
from .backends import Backend
from .cache import SizedCache
from .code import Code, decode
from .frame import Frame
from .gas import Evm384Schedule
from .halts import (ExceptionalHalt, InvalidJump, OutOfGas, StackOverflow, StackUnderflow,
                    Stopped)
from .interpreter import _step as step, run_python
from .opcodes import OPCODES
from .result import ExecutionResult
from .tracing import Tracer

LIMB_BITS = 64
LIMB_MASK = (1 << LIMB_BITS) - 1
ANALYSIS_CACHE_BYTES = 256 << 20
_HALTS = {lib.EVM_OUT_OF_GAS: OutOfGas, lib.EVM_STACK_UNDERFLOW: StackUnderflow,
          lib.EVM_STACK_OVERFLOW: StackOverflow, lib.EVM_INVALID_JUMP: InvalidJump}


@lru_cache(maxsize=16)
def _opcode_table(schedule: Evm384Schedule):
    """The C view of the opcode table (one source: :mod:`.opcodes`) for a schedule."""
    table = ffi.new("evm_opcode_table *")
    evm384_gas = schedule.by_opcode()
    for code, info in OPCODES.items():
        entry = table.op[code]
        entry.static_gas = evm384_gas.get(code, info.gas)
        entry.stack_inputs = info.inputs
        entry.stack_outputs = info.outputs
        entry.native = (not info.needs_state and info.name != "INVALID"
                        and bool(lib.evm_fast_implements(code)))
    return table


class _Analysis:
    """The decoded code (for host steps) and what the C loop reads: JUMPDEST flags and
    the fused EVM384 segments, by pc. Holds the buffers those pointers need."""

    def __init__(self, bytecode: bytes, schedule: Evm384Schedule, fuse: bool) -> None:
        self.code = decode(bytecode, schedule, fuse)
        self.jumpdests = self.code.jumpdest_flags
        table = self.code.segments
        self.records = table.records                  # (ops, EVM_SEGMENT_RECORD_FIELDS)
        assert self.records.shape[1] == lib.EVM_SEGMENT_RECORD_FIELDS
        self.segment_at = ffi.from_buffer("int32_t[]", self.code.segment_at)
        # evm_segment entries built as one numpy array with the C struct's layout
        entries = np.zeros(max(len(table), 1), dtype=_SEGMENT_DTYPE)
        base = int(ffi.cast("uintptr_t", ffi.from_buffer(self.records))) if len(table) else 0
        row_bytes = self.records.strides[0]
        entries["gas"][:len(table)] = table.gas
        entries["memory_end"][:len(table)] = table.end
        entries["records"][:len(table)] = base + table.first * row_bytes
        entries["count"][:len(table)] = table.count
        entries["next_pc"][:len(table)] = table.next_pc
        self.entries = entries
        self.segments = ffi.from_buffer("evm_segment[]", entries)

    def memory_size(self) -> int:
        """An estimate of the bytes it holds (the decoded code included)."""
        return self.code.memory_size() + self.entries.nbytes


_SEGMENT_DTYPE = np.dtype({
    "names": ["gas", "memory_end", "records", "count", "next_pc"],
    "formats": ["=u8", "=u8", f"=u{ffi.sizeof('void *')}", "=u4", "=u4"],
    "offsets": [ffi.offsetof("evm_segment", name) for name in
                ("gas", "memory_end", "records", "count", "next_pc")],
    "itemsize": ffi.sizeof("evm_segment")})
_ANALYSES: SizedCache[_Analysis] = SizedCache(ANALYSIS_CACHE_BYTES, _Analysis.memory_size)


def _analysed(bytecode: bytes, schedule: Evm384Schedule, fuse: bool) -> _Analysis:
    return _ANALYSES.get((bytecode, schedule, fuse), lambda: _Analysis(bytecode, schedule, fuse))


def _stack_ints(frame) -> List[int]:
    words = frame.stack
    return [sum(words[i].limb[j] << (LIMB_BITS * j) for j in range(4))
            for i in range(frame.stack_size)]


def _store_stack(frame, stack: List[int]) -> None:
    for i, value in enumerate(stack):
        frame.stack[i].limb = [(value >> (LIMB_BITS * j)) & LIMB_MASK for j in range(4)]
    frame.stack_size = len(stack)


def _host_step(frame, code: Code, calldata: bytes, backend: Backend,
               host_counts: Dict[str, int]) -> None:
    """Run the instruction at frame.pc with the Python engine's semantics."""
    f = Frame(code, calldata, int(frame.gas), backend)
    f.stack = _stack_ints(frame)
    f.memory = bytearray(ffi.buffer(frame.memory, frame.memory_size))
    f.pc = frame.pc
    ins = code.instruction_at[f.pc]
    assert ins is not None, "the C loop stops only at instruction boundaries"
    host_counts[ins.name] = host_counts.get(ins.name, 0) + 1
    try:
        step(f, ins)
    finally:
        f.unpin()
        if len(f.memory) > frame.memory_size and lib.evm_frame_grow_memory(frame, len(f.memory)):
            raise MemoryError("the fast engine could not grow EVM memory")
        ffi.memmove(frame.memory, f.memory, len(f.memory))
        _store_stack(frame, f.stack)
        frame.gas = f.gas
        frame.pc = f.pc


def _opcode_counts(frame, host_counts: Dict[str, int]) -> Dict[str, int]:
    counts = dict(host_counts)
    by_opcode = np.frombuffer(ffi.buffer(frame.counts), dtype=np.uint64)
    for code in np.flatnonzero(by_opcode).tolist():  # the few opcodes that ran
        name = OPCODES[code].name
        counts[name] = counts.get(name, 0) + int(by_opcode[code])
    return counts


def run_fast(bytecode: bytes, calldata: bytes, gas: int, backend: Backend,
             schedule: Evm384Schedule, tracer: Optional[Tracer],
             fuse_evm384: bool = True) -> ExecutionResult:
    """Run ``bytecode`` in the C loop; see the module docstring."""
    if tracer is not None:
        return run_python(bytecode, calldata, gas, backend, schedule, tracer, fuse_evm384)
    if backend.name != "native":
        raise ValueError(f"engine 'fast' runs the native kernels; backend {backend.name!r} "
                         "needs engine='python'")
    analysis = _analysed(bytecode, schedule, fuse_evm384)
    code = analysis.code
    frame = ffi.new("evm_frame *")
    frame.code, frame.code_size = ffi.from_buffer(bytecode), len(bytecode)
    frame.jumpdest = ffi.from_buffer(analysis.jumpdests)
    frame.segment_at, frame.segments = analysis.segment_at, analysis.segments
    frame.calldata, frame.calldata_size = ffi.from_buffer(calldata), len(calldata)
    frame.table = _opcode_table(schedule)
    frame.gas = gas
    host_counts: Dict[str, int] = {}
    output, error, gas_left = b"", None, 0
    try:
        status = lib.evm_fast_run(frame)
        while status == lib.EVM_NEEDS_HOST:
            _host_step(frame, code, calldata, backend, host_counts)
            status = lib.evm_fast_run(frame)
        if status == lib.EVM_OUT_OF_MEMORY:
            raise MemoryError("the fast engine could not grow EVM memory")
        if status in _HALTS:
            error = _HALTS[status].reason
        else:
            gas_left = int(frame.gas)
            if status in (lib.EVM_RETURN, lib.EVM_REVERT):
                output = bytes(ffi.buffer(frame.memory + frame.output_offset, frame.output_size))
            error = "revert" if status == lib.EVM_REVERT else None
    except Stopped as stop:
        output, error = stop.output, "revert" if stop.reverted else None
        gas_left = int(frame.gas)
    except ExceptionalHalt as halt:
        output, error, gas_left = b"", halt.reason, 0
    finally:
        opcode_counts = _opcode_counts(frame, host_counts)
        lib.evm_frame_release(frame)
    return ExecutionResult(success=error is None, output=output, gas_used=gas - gas_left,
                           gas_left=gas_left, error=error, steps=sum(opcode_counts.values()),
                           opcode_counts=opcode_counts)
