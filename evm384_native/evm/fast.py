"""The "fast" engine: the C interpreter loop of ``csrc/evm_fast.c``.

The C loop runs every instruction that needs no world state, with the same gas,
memory and halt rules as the Python engine, and releases the GIL while it runs.
It stops before the others (INVALID, undefined bytes, opcodes needing state),
which all halt: the Python engine's handler then raises that halt, with its
reason. So no instruction copies memory or the stack between C and Python.
Tracing always runs in the Python engine's step loop.

The opcode set is data handed to the loop: its table (static gas, stack depths,
which opcodes the loop or the set's C extension runs) and, for EVMMAX, the
extension (``fast_evmmax``) with its per-run state; an EVMMAX instruction that
fails an assert is left to the host, whose Python handler raises the halt on a
frame built from the C state.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, NoReturn, Optional, Tuple

import numpy as np

from .._native import ffi, lib
from . import fp2_products
from .backends import Backend
from .costs import EIP_6690, EvmmaxCosts
from .cache import SizedCache
from .code import SegmentTable, decode
from .frame import Frame
from .gas import MAX_GAS, Evm384Schedule
from .halts import (ExceptionalHalt, InvalidJump, OutOfGas, ReturnDataOutOfBounds,
                    StackOverflow, StackUnderflow)
from .instructions import op_invalid, op_unsupported
from .interpreter import run_python
from .opcode_sets import DEFAULT_OPCODE_SET, OpcodeSet
from .result import ExecutionResult
from .tracing import Tracer

ANALYSIS_CACHE_BYTES = 256 << 20
_HALTS = {lib.EVM_OUT_OF_GAS: OutOfGas, lib.EVM_STACK_UNDERFLOW: StackUnderflow,
          lib.EVM_STACK_OVERFLOW: StackOverflow, lib.EVM_INVALID_JUMP: InvalidJump,
          lib.EVM_RETURNDATA_OUT_OF_BOUNDS: ReturnDataOutOfBounds}


@lru_cache(maxsize=16)
def _opcode_table(schedule: Evm384Schedule, opcodes: OpcodeSet):
    """The C view of an opcode set's table (one source: :mod:`.opcodes`) for a schedule.
    Bytes the table lacks (0x1e before Osaka) stay zero entries, not native: the C loop
    leaves them to the host, which halts as the Python engine does."""
    table = ffi.new("evm_opcode_table *")
    evm384_gas = schedule.by_opcode() if opcodes.scheduled else {}
    extension = opcodes.fast_extension
    extended = extension.opcodes if extension is not None else frozenset()
    if extension is not None:
        table.extension = extension.step
    for code, info in opcodes.table.items():
        entry = table.op[code]
        entry.static_gas = evm384_gas.get(code, info.gas)
        entry.stack_inputs = info.inputs
        entry.stack_outputs = info.outputs
        entry.extended = code in extended
        entry.native = code in extended or (not info.needs_state and info.name != "INVALID"
                                            and bool(lib.evm_fast_implements(code)))
    return table


class _Analysis:
    """The decoded code (for the halts left to the host) and what the C loop reads: the
    opcode table, JUMPDEST flags and the fused EVM384 segments, by pc. Holds the buffers
    those pointers need."""

    def __init__(self, bytecode: bytes, schedule: Evm384Schedule, fuse: bool,
                 opcodes: OpcodeSet) -> None:
        self.code = decode(bytecode, schedule, fuse, opcodes)
        self.table = _opcode_table(schedule, opcodes)
        self.jumpdests = self.code.jumpdest_flags
        table = self.code.segments
        # (ops, EVM_SEGMENT_RECORD_FIELDS), Fp2 products marked for the loop to run as one
        self.records = fp2_products.marked(table)
        assert self.records.shape[1] == lib.EVM_SEGMENT_RECORD_FIELDS
        self.segment_at = ffi.from_buffer("int32_t[]", self.code.segment_at)
        # evm_segment entries built as one numpy array with the C struct's layout
        entries = np.zeros(max(len(table), 1), dtype=_SEGMENT_DTYPE)
        base = int(ffi.cast("uintptr_t", ffi.from_buffer(self.records))) if len(table) else 0
        row_bytes = self.records.strides[0]
        gas = table.gas
        if gas.dtype == object:     # a wide schedule's Python ints, capped to fit the C field:
            gas = np.minimum(gas, MAX_GAS + 1)  # more gas than any frame holds is declined
        entries["gas"][:len(table)] = gas
        entries["memory_end"][:len(table)] = table.end
        entries["records"][:len(table)] = base + table.first * row_bytes
        entries["count"][:len(table)] = table.count
        entries["next_pc"][:len(table)] = table.next_pc
        self.tally, first_tally, entries["tally_size"][:len(table)] = _segment_tallies(table)
        tally_base = int(ffi.cast("uintptr_t", ffi.from_buffer(self.tally)))
        entries["tally"][:len(table)] = tally_base + first_tally * self.tally.strides[0]
        self.entries = entries
        self.segments = ffi.from_buffer("evm_segment[]", entries)
        # the opcode set's own analysis for its C extension (EVMMAX: runs of vector ops)
        extension = opcodes.fast_extension
        self.extension_runs = extension.analyse(self.code) if extension and fuse else None

    def memory_size(self) -> int:
        """An estimate of the bytes it holds (the decoded code included)."""
        extension = self.extension_runs.nbytes if self.extension_runs is not None else 0
        return (self.code.memory_size() + self.records.nbytes + self.entries.nbytes
                + self.tally.nbytes + extension)


def _segment_tallies(table: SegmentTable) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each segment's instructions per opcode (its PUSHes and EVM384 ops), for the C loop
    to add to its counts once per segment run: the (opcode, how many) rows of all segments
    in order, each segment's first row and its number of rows."""
    segment_of_row = np.repeat(np.arange(len(table), dtype=np.int64), table.count)
    keys = np.concatenate([segment_of_row * 256 + table.records[:, 0],
                           segment_of_row * 256 + table.records[:, 1]])
    keys, how_many = np.unique(keys, return_counts=True)  # sorted: by segment, then opcode
    tally = np.ascontiguousarray(np.column_stack([keys % 256, how_many]).astype(np.uint32))
    if not len(tally):
        tally = np.zeros((1, 2), dtype=np.uint32)  # a buffer to point at
    segment_of_key = keys // 256
    first = np.searchsorted(segment_of_key, np.arange(len(table)))
    size = np.bincount(segment_of_key, minlength=len(table))
    return tally, first, size


_SEGMENT_FIELDS = ("gas", "memory_end", "records", "tally", "count", "tally_size", "next_pc")
_SEGMENT_DTYPE = np.dtype({
    "names": list(_SEGMENT_FIELDS),
    "formats": ["=u8", "=u8", f"=u{ffi.sizeof('void *')}", f"=u{ffi.sizeof('void *')}",
                "=u4", "=u4", "=u4"],
    "offsets": [ffi.offsetof("evm_segment", name) for name in _SEGMENT_FIELDS],
    "itemsize": ffi.sizeof("evm_segment")})
_ANALYSES: SizedCache[_Analysis] = SizedCache(ANALYSIS_CACHE_BYTES, _Analysis.memory_size)


def _analysed(bytecode: bytes, schedule: Evm384Schedule, fuse: bool,
              opcodes: OpcodeSet) -> _Analysis:
    return _ANALYSES.get((bytecode, schedule, fuse, opcodes.key),  # the fork too: 0x1e
                         lambda: _Analysis(bytecode, schedule, fuse, opcodes))


class _Run:
    """One execution's C frame and everything it points to.

    The frame holds raw pointers, so this object keeps their owners alive for the
    whole run: the analysis (opcode table, JUMPDEST flags, segments), the code and
    calldata buffers and the opcode set's state (EVMMAX's contexts and registers). The
    caches that produced the analysis may evict it at any time, from another thread
    too, while the C loop runs without the GIL."""

    def __init__(self, bytecode: bytes, calldata: bytes, gas: int, analysis: _Analysis,
                 opcodes: OpcodeSet, costs: EvmmaxCosts) -> None:
        self.analysis = analysis
        self.costs = costs
        self.extension = opcodes.fast_extension
        self.extension_state = self.extension.new_state(analysis.extension_runs, costs) \
            if self.extension else ffi.NULL
        self.bytecode = ffi.from_buffer(bytecode)
        self.calldata = ffi.from_buffer(calldata)
        self.jumpdests = ffi.from_buffer(analysis.jumpdests)
        frame = self.frame = ffi.new("evm_frame *")
        frame.code, frame.code_size = self.bytecode, len(bytecode)
        frame.jumpdest = self.jumpdests
        frame.segment_at, frame.segments = analysis.segment_at, analysis.segments
        frame.calldata, frame.calldata_size = self.calldata, len(calldata)
        frame.table = analysis.table
        frame.extension = self.extension_state
        frame.gas = gas

    def extends(self, opcode: int) -> bool:
        """True for the opcode set's own instructions, run by its C extension."""
        return self.extension is not None and opcode in self.extension.opcodes

    def host_frame(self, instruction: Any, backend: Backend) -> Frame:
        """The Python-engine frame on which the instruction the C loop left to the host
        raises its halt: an empty one, except for the opcode set's own instructions."""
        code = self.analysis.code
        if not self.extends(instruction.opcode):
            return Frame(code, b"", 0, None)
        return self.extension.host_frame(self.frame, self.extension_state, code,
                                         instruction.inputs, backend.modx, self.costs)


def _host_halt(run: _Run, backend: Backend, host_counts: Dict[str, int]) -> NoReturn:
    """The instruction at the C frame's pc, which the C loop left to the host. It halts:
    INVALID, undefined and state opcodes before reading the stack, memory or gas (see
    ``code._instruction``), so their handlers run on an empty frame; the opcode set's
    own instructions (EVMMAX) at a failed assert, so theirs run on the C frame's state."""
    pc = run.frame.pc
    ins = run.analysis.code.instruction_at[pc]
    if ins is None or (ins.handler not in (op_invalid, op_unsupported)
                       and not run.extends(ins.opcode)):
        raise RuntimeError(f"internal error: the C loop left pc {pc} to the host "
                           f"({ins.name if ins else 'no instruction boundary'})")
    host_counts[ins.name] = host_counts.get(ins.name, 0) + 1
    ins.handler(run.host_frame(ins, backend), ins.arg)
    raise RuntimeError(f"internal error: {ins.name} did not halt")


def _opcode_counts(frame, opcodes: OpcodeSet, host_counts: Dict[str, int]) -> Dict[str, int]:
    by_opcode = np.frombuffer(ffi.buffer(frame.counts), dtype=np.uint64)
    ran = np.flatnonzero(by_opcode)  # the few opcodes that ran; whole-array steps are cheap
    counts = dict(zip([opcodes.table[code].name for code in ran.tolist()],
                      by_opcode[ran].tolist()))
    for name, count in host_counts.items():
        counts[name] = counts.get(name, 0) + count
    return counts


def run_fast(bytecode: bytes, calldata: bytes, gas: int, backend: Backend,
             schedule: Evm384Schedule, tracer: Optional[Tracer],
             fuse_evm384: bool = True, opcodes: OpcodeSet = DEFAULT_OPCODE_SET,
             costs: EvmmaxCosts = EIP_6690) -> ExecutionResult:
    """Run ``bytecode`` in the C loop; see the module docstring."""
    if tracer is not None:
        return run_python(bytecode, calldata, gas, backend, schedule, tracer, fuse_evm384,
                          opcodes, costs)
    if backend.name != "native":
        raise ValueError(f"engine 'fast' runs the native kernels; backend {backend.name!r} "
                         "needs engine='python'")
    run = _Run(bytecode, calldata, gas, _analysed(bytecode, schedule, fuse_evm384, opcodes),
               opcodes, costs)
    frame = run.frame
    host_counts: Dict[str, int] = {}
    output, error, gas_left = b"", None, 0
    try:
        status = lib.evm_fast_run(frame)
        if status == lib.EVM_NEEDS_HOST:
            _host_halt(run, backend, host_counts)
        if status == lib.EVM_OUT_OF_MEMORY:
            raise MemoryError("the fast engine could not grow EVM memory")
        if status in _HALTS:
            error = _HALTS[status].reason
        else:
            gas_left = int(frame.gas)
            if status in (lib.EVM_RETURN, lib.EVM_REVERT):
                output = bytes(ffi.buffer(frame.memory + frame.output_offset, frame.output_size))
            error = "revert" if status == lib.EVM_REVERT else None
    except ExceptionalHalt as halt:
        output, error, gas_left = b"", halt.reason, 0
    finally:
        opcode_counts = _opcode_counts(frame, opcodes, host_counts)
        lib.evm_frame_release(frame)
    return ExecutionResult(success=error is None, output=output, gas_used=gas - gas_left,
                           gas_left=gas_left, error=error, steps=sum(opcode_counts.values()),
                           opcode_counts=opcode_counts)
