"""Decoding: what the engines need to know about bytecode, in time and memory linear in its
size with small constants, and cached by the memory it holds.

Up front, in a few passes that run in C (a regular expression over the bytes and numpy),
``decode`` finds the PUSH data, the jump destinations (the JUMPDEST bytes that are not
PUSH data) and the *segments*: with ``fuse``, each straight run of ``PUSHn; EVM384-op``
pairs (at most ``MAX_SEGMENT_OPS`` of them) becomes one record table that a backend runs
in one call, its gas and memory growth known in advance. The fast engine needs nothing
more (:mod:`.segment_edges` joins its segments with the instructions around them).

Everything else decodes when execution first reaches it. ``instruction_at[pc]`` is the
instruction at ``pc`` (None inside PUSH data). ``dispatch_at[pc]`` is the *block* starting
at ``pc``, for the Python engine's block dispatcher, which checks the stack bounds and the
static gas of a whole block once and then runs its *body* without checks. A block starts
where execution enters it (pc 0, a jump destination, the end of the previous block); it
ends after any instruction that jumps (unless decoding knows where, below), halts, or
whose gas depends on operands or on the gas counter (``instructions.GAS_DEPENDENT``), or
after ``MAX_BLOCK_INSTRUCTIONS``. It runs on through JUMPDESTs: a jump into it starts
another block there, so blocks may overlap. So only a block's last instruction charges
dynamic gas, and it sees the exact remaining gas. A segment is one body entry whose memory
growth the dispatcher adds to the block's gas check, so it need not end the block.

Decoding follows the values of PUSHes through the entries that leave the stack alone
(segments, JUMPDESTs and the fixed MCOPYs below) to the instruction that pops them:
``PUSH dest; JUMPI`` becomes one body entry with the destination checked when decoding; a
JUMP to a known valid destination (``PUSH dest; JUMP``, or a return address pushed before
a subroutine's segments) gets no entry: the block goes on at the destination, so a call,
the subroutine and its return can be one block (each block that jumps somewhere holds its
own copy of the code there); three known values before an MCOPY make one entry whose gas
is static (the copy in the block's gas, the memory it grows to in the dispatcher's check,
like a segment's), and it need not end the block. Decoding also follows DUPs and the ADDs of
a known constant (``DUPn; PUSH c; ADD``: a stack item plus c): an MCOPY whose operands are
so known relative to the items below is one entry that reads them there when it runs (its
gas stays dynamic; a loop's copies at a moving offset). Segments that only PUSHes separate run
in one native call. The step loop never sees these fusions: it runs the instructions one
by one. A block is a function of the code and its start pc alone.

A block is decoded when execution reaches it and then runs whole (or the run ends in it),
so decoding costs time in proportion to the gas spent; what is kept of decoded blocks and
instructions is bounded by ``KEPT_BYTES`` per program (beyond it they are decoded again on
each visit), so memory stays bounded whatever the code.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Dict, FrozenSet, List, Optional, Tuple

import numpy as np

from .._native import ffi, lib
from . import fp2_products, fp2_squares, fp4_squares
from .cache import SizedCache
from .evm384 import MULMODMONT384, Segment, op_segment
from .gas import Evm384Schedule, copy_cost
from .instructions import (UINT256_MASK, Handler, op_add, op_dup, op_invalid, op_jump_to,
                           op_jumpi_to, op_mcopy_found, op_mcopy_static, op_push)
from .kernels.limbs import BYTES384
from .kernels.operands import MODULUS_WITH_INV_BYTES
from .opcode_sets import DEFAULT_OPCODE_SET, OpcodeSet
from .opcodes import BY_NAME, EVM384_OPCODES, STACK_LIMIT
from .segment_table import SegmentTable

JUMPDEST = BY_NAME["JUMPDEST"].code
STOP = BY_NAME["STOP"].code
JUMP, MCOPY = BY_NAME["JUMP"].code, BY_NAME["MCOPY"].code
STATIC_JUMPS = {JUMP: op_jump_to, BY_NAME["JUMPI"].code: op_jumpi_to}
# Instructions whose operands, when PUSHed right before them, decoding fixes: how many.
_FUSED_PUSHES = {JUMP: 1, BY_NAME["JUMPI"].code: 1, MCOPY: 3}
_ENDS_FLOW = frozenset(BY_NAME[name].code for name in
                       ("STOP", "JUMP", "JUMPI", "RETURN", "REVERT", "INVALID"))
# Bounds on the work one block or one segment costs to decode before any of it runs.
MAX_BLOCK_INSTRUCTIONS = 1024
MAX_SEGMENT_OPS = 256


@dataclass(frozen=True, eq=False)
class _SetTables:
    """What decoding reads from an opcode set, precomputed once per set."""
    # An instruction with immediate data (PUSHn, EVMMAX's arithmetic; PUSH0 too), cut
    # short by the end of the code. Searching from the start, the bytes skipped between
    # matches are one-byte instructions, so every match starts at an instruction.
    with_data: "re.Pattern[bytes]"
    immediate: np.ndarray       # immediate bytes by opcode byte
    static_gas: List[int]       # by opcode byte (0 for undefined bytes)
    ends_block: FrozenSet[int]


@lru_cache(maxsize=None)   # by the object: resolve_opcodes makes one per (set, fork)
def _set_tables(opcodes: OpcodeSet) -> _SetTables:
    table = opcodes.table
    with_data = re.compile(b"|".join(
        re.escape(bytes([info.code])) + (b"[\\s\\S]{0,%d}" % info.immediate if info.immediate else b"")
        for info in table.values() if info.immediate or info.name == "PUSH0"))
    immediate = np.array([table[code].immediate if code in table else 0 for code in range(256)],
                         dtype=np.int32)
    static_gas = [table[code].gas if code in table else 0 for code in range(256)]
    return _SetTables(with_data, immediate, static_gas, opcodes.gas_dependent | _ENDS_FLOW)


# What memory estimates count per kept block, body entry, mnemonic count, mnemonic in a
# block's list and instruction (objects, tuples, dict entries).
_BLOCK_BYTES, _BODY_ENTRY_BYTES, _NAME_COUNT_BYTES, _NAME_BYTES, _INSTRUCTION_BYTES = \
    400, 100, 80, 8, 300
DECODE_CACHE_BYTES = 256 << 20
KEPT_BYTES = 64 << 20       # lazily decoded blocks and instructions kept, per program


# Instructions and blocks are never changed after decoding; not frozen dataclasses because
# their __init__ costs several times more, and a million tiny blocks can decode in one run.
@dataclass
class Instruction:
    __slots__ = ("pc", "opcode", "name", "handler", "arg", "gas", "inputs", "outputs",
                 "next_pc", "ends_block")
    pc: int
    opcode: int
    name: str
    handler: Handler
    arg: object     # see instructions.py
    gas: int        # static gas; 0 for instructions that halt before anything else
    inputs: int
    outputs: int
    next_pc: int
    ends_block: bool


class _Lazy(dict):
    """A dict whose missing entries are made by ``make(key)``, which stores them if they are
    to be kept. Hits cost a plain dict lookup, which is what the dispatch loops need."""

    def __init__(self, make: Callable[[int], object]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: int) -> object:
        return self.make(key)


def _instruction(bytecode: bytes, pc: int, evm384_gas: Dict[int, int],
                 opcodes: OpcodeSet) -> Instruction:
    opcode = bytecode[pc] if pc < len(bytecode) else STOP  # running off the end is STOP
    info = opcodes.table.get(opcode)
    handlers = opcodes.handlers
    if info is None:
        return Instruction(pc, opcode, f"UNDEFINED_0x{opcode:02x}", op_invalid, opcode,
                           0, 0, 0, pc + 1, True)
    if info.needs_state or info.name == "INVALID":
        return Instruction(pc, opcode, info.name, handlers[opcode], opcode, 0, 0, 0, pc + 1, True)
    arg: object = None
    if info.immediate and not info.name.startswith("PUSH"):
        # EVMMAX's immediate bytes, zeros past the end of the code as for PUSH data
        arg = tuple(bytecode[pc + 1:pc + 1 + info.immediate].ljust(info.immediate, b"\0"))
    elif info.immediate or info.name == "PUSH0":
        # PUSH data cut off by the end of the code reads as zero bytes on the right,
        # and execution continues at the end (STOP).
        data = bytecode[pc + 1:pc + 1 + info.immediate]
        arg = int.from_bytes(data.ljust(info.immediate, b"\0"), "big")
    elif info.name.startswith("DUP"):
        arg = info.inputs       # DUPn copies the item n deep
    elif info.name.startswith("SWAP"):
        arg = info.inputs - 1   # SWAPn exchanges the top with the item n below it
    elif info.name == "PC":
        arg = pc
    elif opcode in EVM384_OPCODES:
        arg = opcode
    next_pc = min(pc + 1 + info.immediate, len(bytecode))
    return Instruction(pc, opcode, info.name, handlers[opcode], arg,
                       evm384_gas.get(opcode, info.gas), info.inputs, info.outputs,
                       next_pc, opcode in _set_tables(opcodes).ends_block)


def _push_spans(bytecode: bytes, code: np.ndarray,
                tables: _SetTables) -> Tuple[np.ndarray, np.ndarray]:
    """(start, end) of every instruction with immediate data (PUSH data, EVMMAX
    immediates), in code order."""
    starts = np.array([match.start() for match in tables.with_data.finditer(bytecode)],
                      dtype=np.int32)
    ends = np.minimum(starts + 1 + tables.immediate[code[starts]], len(code))
    return starts, ends


def _push_data_mask(size: int, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """True at every byte that is immediate data."""
    delta = np.zeros(size + 1, dtype=np.int32)
    delta[starts + 1] += 1                    # data runs from after the opcode to the end
    delta[ends] -= 1
    return np.cumsum(delta[:size]) > 0


def _segment_table(code: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                   evm384_gas: Dict[int, int], static_gas: List[int]) -> SegmentTable:
    """The segments: runs of PUSH + EVM384-op pairs, split every MAX_SEGMENT_OPS ops."""
    size = len(code)
    followed = ends < size
    pair = np.zeros(len(starts), dtype=bool)
    pair[followed] = np.isin(code[ends[followed]], EVM384_OPCODES)
    push_pc, op_pc = starts[pair], ends[pair]
    ops = len(op_pc)
    # The low 16 bytes of each PUSH value (zeros left of its data) hold out, x, y, mod.
    low = np.zeros((ops, 16), dtype=np.uint8)
    for column in range(16):
        at = op_pc - 16 + column
        inside = at > push_pc
        low[inside, column] = code[at[inside]]
    offsets = low.view(">u4").astype(np.uint32)
    opcodes = code[op_pc]
    records = np.column_stack([code[push_pc], opcodes, offsets]).astype(np.uint32)
    # A segment starts at a pair that does not follow the previous one, or every
    # MAX_SEGMENT_OPS pairs of a longer run.
    joined = np.zeros(ops, dtype=bool)
    joined[1:] = push_pc[1:] == op_pc[:-1] + 1
    run = np.cumsum(~joined)
    run_start = np.flatnonzero(~joined)
    place = np.arange(ops) - run_start[run - 1]
    first = np.flatnonzero(~joined | (place % MAX_SEGMENT_OPS == 0))
    count = np.diff(np.append(first, ops))
    last = first + count - 1
    costs = list(static_gas)
    for opcode, gas in evm384_gas.items():
        costs[opcode] = gas
    # a schedule may give any gas: Python ints where int64 sums could overflow
    wide = max(evm384_gas.values(), default=0) >= 2**31
    gas_table = np.array(costs, dtype=object if wide else np.int64)
    op_gas = gas_table[code[push_pc]] + gas_table[opcodes]
    # memory_end of evm384.py, for every op at once
    mod_bytes = np.where(opcodes == MULMODMONT384, MODULUS_WITH_INV_BYTES, BYTES384)
    op_end = np.maximum(offsets[:, :3].astype(np.int64).max(axis=1) + BYTES384,
                        offsets[:, 3].astype(np.int64) + mod_bytes)
    if ops == 0:
        gas = end = np.zeros(0, dtype=np.int64)
    else:
        gas = np.add.reduceat(op_gas, first)
        end = np.maximum.reduceat(op_end, first)
    return SegmentTable(np.ascontiguousarray(records), first, count, push_pc[first],
                        op_pc[last] + 1, gas, end)


def _stack_bounds(instructions: List[Instruction]) -> Tuple[int, int]:
    """(stack_min, stack_max) on entry for the block to run without stack errors."""
    height = need = growth = 0
    for ins in instructions:
        need = max(need, ins.inputs - height)
        height += ins.outputs - ins.inputs
        growth = max(growth, height)
    return need, STACK_LIMIT - growth


def _joined(parts: List[Segment]) -> Segment:
    """One segment that runs the parts in order (their records as they are: an Fp2 product
    proven in one stays proven when more records follow or precede it)."""
    records = np.concatenate([np.frombuffer(ffi.buffer(part.records), dtype=np.uint32)
                              for part in parts])
    return Segment(sum((part.operations for part in parts), ()), parts[0].start_pc,
                   parts[-1].next_pc, sum(part.gas for part in parts),
                   max(part.end for part in parts), ffi.from_buffer("uint32_t[]", records))


def _copy_record(dest: int, source: int, size: int, end: int, pc: int) -> Optional[Segment]:
    """A fixed MCOPY (``op_mcopy_static``'s operands) as a one-record segment to join, if
    its operands fit the records' 32-bit fields (gas 0: the block charges it)."""
    if not (0 < size and end < 1 << 32):
        return None
    operation = (MCOPY, dest, source, size, 0)
    return Segment((operation,), pc, pc, 0, end,
                   ffi.from_buffer("uint32_t[]", np.array(operation, dtype=np.uint32)))


class _BlockBuilder:
    """Collects one block's instructions and the body that runs them."""

    def __init__(self, code: "Code") -> None:
        self.code = code
        self.instructions: List[Instruction] = []
        # (handler, arg, how many of the block's instructions have run once it returns)
        self.body: List[Tuple[Handler, object, int]] = []
        self.segment_end = 0
        self.copy_gas = 0           # of the MCOPYs whose operands are fixed
        # The top stack items whose values decoding knows (the last on top), each as
        # (depth, addend, the body indexes of the entries that make it): the constant
        # ``addend`` (depth 0), or the item ``depth`` deep (1: the top) below all of them
        # plus ``addend``, mod 2**256. Only entries that leave the stack alone follow them.
        self.known: List[Tuple[int, int, List[int]]] = []

    def add(self, ins: Instruction, follow: bool = True) -> Tuple[bool, Optional[int]]:
        """(whether ``ins`` ends the block, where a JUMP whose destination decoding fixed,
        a valid one, goes if ``follow``: the block may continue there; else None)."""
        self.instructions.append(ins)
        if ins.opcode == JUMPDEST:
            return False, None      # costs gas (charged with the block) and does nothing
        operands = self._take_known(_FUSED_PUSHES[ins.opcode], constant=ins.opcode != MCOPY) \
            if ins.opcode in _FUSED_PUSHES else None
        if operands is None:
            self._append(ins.handler, ins.arg)
            self._follow(ins)
            return ins.ends_block, None
        if ins.opcode == MCOPY and any(depth for depth, _ in operands):
            # read from the stack when it runs: its gas stays dynamic, it ends the block
            self.known.clear()
            self._append(op_mcopy_found, tuple(reversed(operands)))
            return ins.ends_block, None
        operands = tuple(addend for _, addend in operands)
        if ins.opcode == MCOPY:
            dest, source, size = reversed(operands)  # the last PUSH is on top
            # its gas is then static: the copy joins the block's gas, the memory it grows to
            # the dispatcher's memory check, as for a segment; the stack is left alone
            end = max(dest, source) + size if size else 0
            self.copy_gas += copy_cost(size)
            self.segment_end = max(self.segment_end, end)
            self._append(op_mcopy_static, (dest, source, size, end))
            return False, None
        dest = operands[0] if self.code.is_jumpdest(operands[0]) else None
        if ins.opcode == JUMP and dest is not None and follow:
            return True, dest       # no body entry at all
        self.known.clear()
        self._append(STATIC_JUMPS[ins.opcode], dest)
        return True, None

    def _follow(self, ins: Instruction) -> None:
        """After ``ins``'s entry: what decoding knows of the value it leaves on top (see
        ``known``), or nothing more once it changes the stack otherwise."""
        known, index = self.known, len(self.body) - 1
        if ins.handler is op_push:
            known.append((0, ins.arg, [index]))
        elif ins.handler is op_dup:
            # a copy of a known item, or of the item as deep below all of them
            depth, addend = known[-ins.arg][:2] if ins.arg <= len(known) \
                else (ins.arg - len(known), 0)
            known.append((depth, addend, [index]))
        elif ins.handler is op_add and len(known) >= 2 and not (known[-1][0] and known[-2][0]):
            (depth, addend, indexes), (other_depth, other_addend, other_indexes) = known[-2:]
            del known[-2:]
            known.append((depth or other_depth, (addend + other_addend) & UINT256_MASK,
                          indexes + other_indexes + [index]))
        else:
            known.clear()

    def _take_known(self, count: int, constant: bool
                    ) -> Optional[Tuple[Tuple[int, int], ...]]:
        """The top ``count`` stack items as (depth, addend) in push order, when decoding
        knows them (see ``known``; only constants if ``constant``): the entries that make
        them leave the body, and the depths count from the stack as it then is. Else None."""
        taken = self.known[-count:]
        if len(taken) < count or (constant and any(depth for depth, _, _ in taken)):
            return None
        del self.known[-count:]
        for index in sorted((i for _, _, indexes in taken for i in indexes), reverse=True):
            del self.body[index]
        below = len(self.known)                   # their entries still push theirs
        return tuple((depth + below if depth else 0, addend) for depth, addend, _ in taken)

    def _delete_entries(self, indexes: List[int]) -> None:
        """Removes these body entries; the known values' entries (see ``known``) keep
        pointing at theirs."""
        for index in sorted(indexes, reverse=True):
            del self.body[index]
        for _, _, entries in self.known:
            entries[:] = [i - sum(1 for gone in indexes if gone < i) for i in entries]

    def _append(self, handler: Handler, arg: object) -> None:
        self.body.append((handler, arg, len(self.instructions)))

    def add_run(self, run: List[Instruction], handler: Handler, arg: object) -> None:
        """A run of instructions the opcode set runs as one step (it ends the block)."""
        self.instructions.extend(run)
        self.known.clear()
        self._append(handler, arg)

    def add_segment(self, segment: Segment, pairs: List[Instruction]) -> None:
        self.instructions.extend(pairs)
        self.segment_end = max(self.segment_end, segment.end)
        earlier, copies = len(self.body) - 1, []
        while earlier >= 0 and self.body[earlier][0] in (op_push, op_mcopy_static):
            if self.body[earlier][0] is op_mcopy_static:
                copy = _copy_record(*self.body[earlier][1], pc=segment.start_pc)
                if copy is None:
                    break
                copies.append((earlier, copy))
            earlier -= 1
        if earlier >= 0 and self.body[earlier][0] is op_segment:
            # only PUSHes and fixed MCOPYs since that segment: PUSHes leave memory alone
            # and segments the stack, the copies are records in their place, so one native
            # call runs them all (none halts: the dispatcher checked the gas and memory of
            # the whole block)
            parts = [self.body[earlier][1]] + [copy for _, copy in reversed(copies)]
            self.body[earlier] = (op_segment, _joined(parts + [segment]),
                                  len(self.instructions))
            self._delete_entries([index for index, _ in copies])
        else:
            self._append(op_segment, segment)  # leaves the stack alone: ``known`` stays

    def dispatch_entry(self, next_pc: int) -> tuple:
        """What the block dispatcher reads (see ``Code.dispatch_at``)."""
        stack_min, stack_max = _stack_bounds(self.instructions)
        return (sum(ins.gas for ins in self.instructions) + self.copy_gas, stack_min, stack_max,
                self.segment_end, next_pc, tuple(self.body))


def _name_counts(instructions: List[Instruction]) -> Tuple[Tuple[str, int], ...]:
    """Instructions per mnemonic, in first-seen order."""
    counts: Dict[str, int] = {}
    for ins in instructions:
        counts[ins.name] = counts.get(ins.name, 0) + 1
    return tuple(counts.items())


class Code:
    """Decoded bytecode; see the module docstring. Built by :func:`decode`."""

    def __init__(self, bytecode: bytes, schedule: Evm384Schedule, fuse: bool,
                 opcodes: OpcodeSet = DEFAULT_OPCODE_SET) -> None:
        self.bytecode = bytecode
        self.opcodes = opcodes
        self.evm384_gas = opcodes.schedule_costs(schedule)
        size = len(bytecode)
        code = np.frombuffer(bytecode, dtype=np.uint8)
        tables = _set_tables(opcodes)
        starts, ends = _push_spans(bytecode, code, tables)
        data = _push_data_mask(size, starts, ends)
        # 1 at every JUMPDEST that is not PUSH data (what the C engine reads)
        self.jumpdest_flags = ((code == JUMPDEST) & ~data).view(np.uint8).tobytes()
        if not (fuse and opcodes.fuses_evm384):
            starts = ends = np.zeros(0, dtype=np.int32)
        self.segments = _segment_table(code, starts, ends, self.evm384_gas, tables.static_gas)
        self.segment_at = np.full(max(size, 1), -1, dtype=np.int32)  # segment index by pc
        self.segment_at[self.segments.start_pc] = np.arange(len(self.segments))
        self.data_flags = data.view(np.uint8).tobytes()  # 1 at every byte of immediate data
        self._fuse_runs = fuse and opcodes.run_entry is not None
        self._decoding = threading.Lock()
        self._kept_bytes = 0                        # estimated, of what the dicts below keep
        self.instruction_at = _Lazy(self._make_instruction)
        # What the block dispatcher reads, by start pc, unpacked in one step because
        # attribute loads would cost as much as the instructions:
        # (gas, stack_min, stack_max, segment_end, next_pc, body)
        self.dispatch_at = _Lazy(self._make_dispatch)
        # The tallies of the kept blocks, by start pc, made when they decode: instructions
        # per mnemonic (for the blocks that ran whole) and the mnemonics in order (for a
        # block a halt ended partway, which every run's last block is: STOP and RETURN
        # halt). Blocks alike share one tuple (a run of blocks of one JUMPDEST each would
        # make a million of them).
        self._block_counts: Dict[int, Tuple[Tuple[str, int], ...]] = {}
        self._block_names: Dict[int, Tuple[str, ...]] = {}
        self._shared: Dict[tuple, tuple] = {}

    def __getattr__(self, name: str) -> object:
        # made on first use and then plain attributes (a property would cost a call per
        # jump): ``jumpdests``, the set of jump destination pcs that dynamic jumps look in;
        # ``marked_records``, the segments' records with their proven Fp2 products, Fp4
        # squarings and Fp2 squarings marked (:mod:`.fp2_products`, :mod:`.fp4_squares`,
        # :mod:`.fp2_squares`), which the native loops read
        if name == "jumpdests":
            flags = np.frombuffer(self.jumpdest_flags, dtype=np.uint8)
            self.jumpdests: FrozenSet[int] = frozenset(np.flatnonzero(flags).tolist())
            return self.jumpdests
        if name == "marked_records":
            self.marked_records: np.ndarray = fp2_squares.marked(
                self.segments, fp4_squares.marked(self.segments,
                                                  fp2_products.marked(self.segments)))
            return self.marked_records
        raise AttributeError(name)

    def is_jumpdest(self, pc: object) -> bool:
        return isinstance(pc, int) and 0 <= pc < len(self.bytecode) and \
            self.jumpdest_flags[pc] == 1

    def memory_size(self) -> int:
        """An estimate of the bytes this object holds now (it grows as code runs)."""
        # the code (the cache's key), the PUSH data and JUMPDEST flags, the segment tables
        eager = 3 * len(self.bytecode) + self.segment_at.nbytes + self.segments.nbytes
        jumpdests = 64 * len(self.__dict__.get("jumpdests", ()))
        marked = self.__dict__.get("marked_records")
        return eager + jumpdests + (marked.nbytes if marked is not None else 0) \
            + self._kept_bytes

    def block_instructions(self, start: int) -> List[Instruction]:
        """The instructions of the block starting at ``start``, in order."""
        return self._walk_block(start)[0].instructions

    def block_name_counts(self, start: int) -> Tuple[Tuple[str, int], ...]:
        """Instructions per mnemonic of the block starting at ``start``."""
        counts = self._block_counts.get(start)
        return counts if counts is not None else _name_counts(self.block_instructions(start))

    def block_names(self, start: int) -> Tuple[str, ...]:
        """The mnemonics of the block starting at ``start``'s instructions, in order."""
        names = self._block_names.get(start)
        if names is None:
            names = tuple(ins.name for ins in self.block_instructions(start))
        return names

    def segment(self, index: int) -> Segment:
        """The segment with this index as the Python engine runs it."""
        table = self.segments
        first, count = int(table.first[index]), int(table.count[index])
        rows = table.records[first:first + count]
        # what evm384_run_records reads: the opcode (Fp2 products marked), out, x, y, mod
        records = np.ascontiguousarray(self.marked_records[first:first + count, 1:])
        assert records.shape[1] == lib.EVM384_RECORD_FIELDS
        return Segment(tuple(map(tuple, rows[:, 1:].tolist())), int(table.start_pc[index]),
                       int(table.next_pc[index]), int(table.gas[index]), int(table.end[index]),
                       ffi.from_buffer("uint32_t[]", records))

    def _keep(self, nbytes: int) -> bool:
        """Whether to keep ``nbytes`` more of decoded state (counted if so)."""
        if self._kept_bytes + nbytes > KEPT_BYTES:
            return False
        self._kept_bytes += nbytes
        return True

    def _make_instruction(self, pc: int) -> Optional[Instruction]:
        size = len(self.bytecode)
        if pc > size or (pc < size and self.data_flags[pc]):
            return None                            # past the end, or PUSH data
        ins = _instruction(self.bytecode, pc, self.evm384_gas, self.opcodes)
        if self._keep(_INSTRUCTION_BYTES):
            ins = self.instruction_at.setdefault(pc, ins)
        return ins

    def _make_dispatch(self, pc: int) -> tuple:
        with self._decoding:                     # one block kept per pc
            entry = dict.get(self.dispatch_at, pc)
            if entry is not None:                # a thread waiting on the lock decoded it
                return entry
            builder, next_pc = self._walk_block(pc)
            entry = builder.dispatch_entry(next_pc)
            counts = _name_counts(builder.instructions)
            names = tuple(ins.name for ins in builder.instructions)
            nbytes = _BLOCK_BYTES + _BODY_ENTRY_BYTES * len(entry[5])
            if counts not in self._shared:
                nbytes += _NAME_COUNT_BYTES * len(counts)
            if names not in self._shared:
                nbytes += _NAME_BYTES * len(names)
            if self._keep(nbytes):
                self._block_counts[pc] = self._shared.setdefault(counts, counts)
                self._block_names[pc] = self._shared.setdefault(names, names)
                dict.__setitem__(self.dispatch_at, pc, entry)
            return entry

    def _walk_block(self, start: int) -> Tuple[_BlockBuilder, int]:
        """The block starting at ``start``, and the pc after it. Should the block fill up
        past a jump it followed, it ends at that jump instead (walked again, not following
        it from there): blocks cut where a jump took them would start anywhere in a long
        straight run, a new set of blocks on each pass through it."""
        builder, pc, last_followed = self._walk(start, MAX_BLOCK_INSTRUCTIONS)
        if len(builder.instructions) >= MAX_BLOCK_INSTRUCTIONS and last_followed is not None:
            builder, pc, _ = self._walk(start, last_followed)
        return builder, pc

    def _walk(self, start: int, follow_before: int
              ) -> Tuple[_BlockBuilder, int, Optional[int]]:
        """A block from ``start`` following the known jumps among its first
        ``follow_before`` instructions; also where the last one it followed is in it."""
        size = len(self.bytecode)
        builder = _BlockBuilder(self)
        pc = start
        entered = last_followed = None             # where it followed a jump to, if it did
        while len(builder.instructions) < MAX_BLOCK_INSTRUCTIONS:
            if pc == size and builder.instructions:
                break                              # the end's STOP is a block of its own
            if entered is not None and pc != entered and self.jumpdest_flags[pc]:
                break                              # past a followed jump, as at its end
            segment = int(self.segment_at[pc]) if pc < size else -1
            if segment >= 0:
                found = self.segment(segment)
                builder.add_segment(found, self._instructions(pc, found.next_pc))
                pc = found.next_pc
                continue
            ins = _instruction(self.bytecode, pc, self.evm384_gas, self.opcodes)
            if self._fuse_runs and self.opcodes.joins_run(ins.opcode, ins.arg):
                run = self._run_from(ins, MAX_BLOCK_INSTRUCTIONS - len(builder.instructions))
                builder.add_run(run, *self.opcodes.run_entry(run))
                pc = run[-1].next_pc
                break
            position = len(builder.instructions)
            ends, jumps_to = builder.add(ins, follow=position < follow_before)
            if jumps_to is not None:                    # it goes on at a known destination
                pc = entered = jumps_to
                last_followed = position
                continue
            pc = ins.next_pc
            if ends:
                break
        return builder, pc, last_followed

    def _run_from(self, first: Instruction, most: int) -> List[Instruction]:
        """``first`` and the instructions after it that join its run (see OpcodeSet)."""
        run = [first]
        while len(run) < most and run[-1].next_pc < len(self.bytecode):
            ins = _instruction(self.bytecode, run[-1].next_pc, self.evm384_gas, self.opcodes)
            if not self.opcodes.joins_run(ins.opcode, ins.arg):
                break
            run.append(ins)
        return run

    def _instructions(self, start: int, end: int) -> List[Instruction]:
        found = []
        while start < end:
            ins = _instruction(self.bytecode, start, self.evm384_gas, self.opcodes)
            found.append(ins)
            start = ins.next_pc
        return found


_CACHE: SizedCache[Code] = SizedCache(DECODE_CACHE_BYTES, Code.memory_size)


def decode(bytecode: bytes, schedule: Evm384Schedule, fuse: bool = True,
           opcodes: OpcodeSet = DEFAULT_OPCODE_SET) -> Code:
    """The analysed program, cached (by the code bytes, schedule, ``fuse`` and opcode
    set with its fork) within ``DECODE_CACHE_BYTES`` of estimated memory."""
    return _CACHE.get(bytecode, (schedule, fuse, opcodes), Code)
