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
from typing import Any, Dict, List, NoReturn, Optional, Tuple

import numpy as np

from .._native import ffi, lib
from .backends import Backend
from .costs import EIP_6690, EvmmaxCosts
from .cache import SizedCache
from . import segment_edges
from .code import Code, Instruction, decode
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
    evm384_gas = opcodes.schedule_costs(schedule)
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
    opcode table, JUMPDEST flags and the entries by pc (runs of fused EVM384 segments and
    fixed copies with the jumps around them, :mod:`.segment_edges`). Holds the buffers
    those pointers need, and the idle C frames that point at them."""

    def __init__(self, bytecode: bytes, schedule: Evm384Schedule, fuse: bool,
                 opcodes: OpcodeSet) -> None:
        self.code = decode(bytecode, schedule, fuse, opcodes)
        self.table = _opcode_table(schedule, opcodes)
        self.jumpdests = self.code.jumpdest_flags
        # the entries: runs of segments (Fp2 products marked for the loop to run as one)
        # and fixed copies, with the JUMPDESTs before them and the jumps after them
        found = segment_edges.entries(
            self.code.bytecode, self.jumpdests, self.code.data_flags, self.code.segments,
            self.code.marked_records, lambda op: opcodes.table[op].gas)
        self.records = found.records
        assert self.records.shape[1] == lib.EVM_SEGMENT_RECORD_FIELDS
        count = len(found.pc)
        at = np.full(max(len(self.code.bytecode), 1), -1, dtype=np.int32)
        at[found.pc] = np.arange(count, dtype=np.int32)
        self.entry_at = at
        # no entries (EVMMAX's and plain EVM's code): NULL, so the loop reads no entry by pc
        self.segment_at = ffi.from_buffer("int32_t[]", at) if count else ffi.NULL
        # evm_segment entries built as one numpy array with the C struct's layout
        entries = np.zeros(max(count, 1), dtype=_SEGMENT_DTYPE)
        base = int(ffi.cast("uintptr_t", ffi.from_buffer(self.records))) if count else 0
        gas = found.gas
        if gas.dtype == object:     # a wide schedule's Python ints, capped to fit the C field:
            gas = np.minimum(gas, MAX_GAS + 1)  # more gas than any frame holds is declined
        entries["gas"][:count] = gas
        entries["memory_end"][:count] = found.memory_end
        entries["records"][:count] = base + found.first * self.records.strides[0]
        entries["count"][:count] = found.count
        entries["next_pc"][:count] = found.next_pc
        entries["exit"][:count] = found.exit
        entries["jump_pc"][:count] = found.jump_pc
        entries["pushed"][:count] = found.pushed
        entries["stack_room"][:count] = found.stack_room
        self.tally = found.tally
        entries["tally_size"][:count] = found.tally_size
        tally_base = int(ffi.cast("uintptr_t", ffi.from_buffer(self.tally)))
        entries["tally"][:count] = tally_base + found.tally_first * self.tally.strides[0]
        self.entries = entries
        self.segments = ffi.from_buffer("evm_segment[]", entries)
        # the opcode set's own analysis for its C extension (EVMMAX: runs of vector ops)
        extension = opcodes.fast_extension
        self.extension_runs = (extension.analyse(self.code.bytecode, self.code.data_flags)
                               if extension and fuse else None)
        self.bytecode = ffi.from_buffer(self.code.bytecode)
        self.jumpdest_flags = ffi.from_buffer(self.jumpdests)
        # Idle frames, their code inputs set, with a view of their counts: one per thread
        # that ran this code at once. A frame is 33 KB (its stack) that ffi.new zeroes,
        # which costs more than a short run; list.pop and append are atomic.
        self.idle_frames: List[Tuple[Any, Any]] = []

    def new_frame(self) -> Tuple[Any, Any]:
        """A frame for this code and its counts' buffer: all but its machine state and run
        inputs (calldata, gas, extension state) set (``evm_fast_start`` sets those)."""
        frame = ffi.new("evm_frame *")
        frame.code, frame.code_size = self.bytecode, len(self.code.bytecode)
        frame.jumpdest = self.jumpdest_flags
        frame.segment_at, frame.segments = self.segment_at, self.segments
        frame.table = self.table
        return frame, ffi.buffer(frame.counts)

    def memory_size(self) -> int:
        """An estimate of the bytes it holds (the decoded code included)."""
        extension = self.extension_runs.nbytes if self.extension_runs is not None else 0
        return (self.code.memory_size() + self.entries.nbytes + self.entry_at.nbytes
                + self.records.nbytes
                + self.tally.nbytes + extension
                # the frame of the run that made it is counted before that run returns it
                + _FRAME_BYTES * max(1, len(self.idle_frames)))


_SEGMENT_FIELDS = ("gas", "memory_end", "records", "tally", "count", "tally_size", "next_pc",
                   "exit", "jump_pc", "pushed", "stack_room")
_SEGMENT_DTYPE = np.dtype({
    "names": list(_SEGMENT_FIELDS),
    "formats": ["=u8", "=u8", f"=u{ffi.sizeof('void *')}", f"=u{ffi.sizeof('void *')}",
                "=u4", "=u4", "=u4", "=u4", "=u4", "=u4", "=u4"],
    "offsets": [ffi.offsetof("evm_segment", name) for name in _SEGMENT_FIELDS],
    "itemsize": ffi.sizeof("evm_segment")})
_FRAME_BYTES = ffi.sizeof("evm_frame")
_ANALYSES: SizedCache[_Analysis] = SizedCache(ANALYSIS_CACHE_BYTES, _Analysis.memory_size)
# (bytecode, schedule, fuse, opcode set, analysis) of the last run: a call repeating it with
# the same objects (a loop over one contract: tests, benchmarks, fuzzers' seeds) finds its
# analysis by four identity tests, without the cache's lookup, which costs a tenth of a
# short run. Replaced whole (one store, atomic under the GIL); it keeps at most one
# analysis alive beyond the cache's budget.
_NO_RUN: Tuple[Any, ...] = (None, None, None, None, None)
_last_run = _NO_RUN


def forget_analyses() -> None:
    """Drops every analysis kept for the fast engine (the cache and the last run's)."""
    global _last_run
    _last_run = _NO_RUN
    _ANALYSES.clear()


def _left_to_host(frame: Any, code: Code, opcodes: OpcodeSet) -> Instruction:
    """The instruction at the C frame's pc, which the C loop left to the host. It halts:
    INVALID, undefined and state opcodes before reading the stack, memory or gas (see
    ``code._instruction``), so their handlers run on an empty frame; the opcode set's
    own instructions (EVMMAX) at a failed assert, so theirs run on the C frame's state."""
    pc = frame.pc
    ins = code.instruction_at[pc]
    if ins is None or (ins.handler not in (op_invalid, op_unsupported)
                       and not _extends(opcodes, ins.opcode)):
        raise RuntimeError(f"internal error: the C loop left pc {pc} to the host "
                           f"({ins.name if ins else 'no instruction boundary'})")
    return ins


def _extends(opcodes: OpcodeSet, opcode: int) -> bool:
    """True for the opcode set's own instructions, run by its C extension."""
    extension = opcodes.fast_extension
    return extension is not None and opcode in extension.opcodes


def _host_halt(ins: Instruction, frame: Any, extension_state: Any, code: Code,
               opcodes: OpcodeSet, backend: Backend, costs: EvmmaxCosts) -> NoReturn:
    """Runs the handler of ``ins`` (see ``_left_to_host``), which raises its halt, on the
    Python-engine frame it needs: an empty one, except for the opcode set's own
    instructions, whose frame the extension builds from the C state."""
    if _extends(opcodes, ins.opcode):
        host = opcodes.fast_extension.host_frame(frame, extension_state, code, ins.inputs,
                                                 backend.modx, costs)
    else:
        host = Frame(code, b"", 0, None)
    ins.handler(host, ins.arg)
    raise RuntimeError(f"internal error: {ins.name} did not halt")


def _opcode_counts(counts: bytes, opcodes: OpcodeSet, host_name: Optional[str]
                   ) -> Dict[str, int]:
    """Mnemonic -> instructions run, from the C frame's counts by opcode (a copy) and the
    instruction the host ran (None: none)."""
    by_opcode = np.frombuffer(counts, dtype=np.uint64)
    ran = np.flatnonzero(by_opcode)  # the few opcodes that ran; whole-array steps are cheap
    named = dict(zip([opcodes.table[code].name for code in ran.tolist()],
                     by_opcode[ran].tolist()))
    if host_name is not None:
        named[host_name] = named.get(host_name, 0) + 1
    return named


# looked up once: a cffi lib attribute costs a call
_START, _RELEASE = lib.evm_fast_start, lib.evm_frame_release
_STOP, _RETURN, _REVERT = lib.EVM_STOP, lib.EVM_RETURN, lib.EVM_REVERT
_NEEDS_HOST, _OUT_OF_MEMORY = lib.EVM_NEEDS_HOST, lib.EVM_OUT_OF_MEMORY
_READ_MEMORY = frozenset((_RETURN, _REVERT, _NEEDS_HOST))  # the host reads memory after these


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
    # The frame holds raw pointers: these locals keep their owners alive for the whole run
    # (the caches may evict the analysis at any time, from another thread too, while the
    # C loop runs without the GIL): the analysis, the calldata, the opcode set's state
    # (EVMMAX's contexts and registers, which the host's halts read after the run too).
    global _last_run
    last_code, last_schedule, last_fuse, last_opcodes, analysis = _last_run
    if (bytecode is not last_code or schedule is not last_schedule
            or opcodes is not last_opcodes or fuse_evm384 != last_fuse):
        analysis = _ANALYSES.get(bytecode, (schedule, fuse_evm384, opcodes), _Analysis)
        _last_run = (bytecode, schedule, fuse_evm384, opcodes, analysis)
    extension = opcodes.fast_extension
    extension_state = extension.new_state(analysis.extension_runs, costs) \
        if extension is not None else ffi.NULL
    try:
        frame, counts_buffer = analysis.idle_frames.pop()
    except IndexError:
        frame, counts_buffer = analysis.new_frame()
    host_name = None
    output, error, gas_left = b"", None, 0
    status = _START(frame, calldata, len(calldata), gas, extension_state)
    try:
        if status == _STOP:
            gas_left = frame.gas
        elif status == _NEEDS_HOST:
            ins = _left_to_host(frame, analysis.code, opcodes)
            host_name = ins.name
            _host_halt(ins, frame, extension_state, analysis.code, opcodes, backend, costs)
        elif status == _OUT_OF_MEMORY:
            raise MemoryError("the fast engine could not grow EVM memory")
        elif status in _HALTS:
            error = _HALTS[status].reason
        elif status == _RETURN or status == _REVERT:
            gas_left = frame.gas
            output = bytes(ffi.buffer(frame.memory + frame.output_offset, frame.output_size))
            error = "revert" if status == _REVERT else None
        else:
            raise RuntimeError(f"internal error: the C loop returned status {status}")
    except ExceptionalHalt as halt:
        output, error, gas_left = b"", halt.reason, 0
    finally:
        counts = counts_buffer[:]
        if status in _READ_MEMORY:          # else evm_fast_start released it
            _RELEASE(frame)
        analysis.idle_frames.append((frame, counts_buffer))
    return ExecutionResult.lazy(output, gas - gas_left, gas_left, error,
                                (_opcode_counts, (counts, opcodes, host_name)))
