"""The instructions around the segments (:class:`.code.SegmentTable`) that the fast
engine's loop runs as part of them, since each costs more to dispatch on its own than the
jumps of a subroutine call save: in the two-pairing check, 2,050 JUMPDESTs, 1,598 JUMPs and
their PUSHes against 2,050 segments.

- A segment right after a JUMPDEST gets a second entry at that JUMPDEST, charged its gas and
  counting it (a jump into a subroutine lands there).
- A segment's *exit*, what follows its last op, runs with it when it is
  ``JUMP`` (a subroutine's return: the loop checks the destination on the stack before it
  runs the segment, and leaves an invalid one to the step loop, which halts),
  ``PUSHn dest; JUMP`` or ``PUSHn ret; PUSHm dest; JUMP`` (a call, ret left on the stack)
  with dest a JUMPDEST (checked here; ret must fit 32 bits). Otherwise it goes on at
  ``next_pc``.

The gas of these instructions is static and joins the segment's, and their counts its
tally: a segment runs whole or not at all (then instruction by instruction), so gas, halts
and counts are those of a step-by-step run.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Tuple

import numpy as np

from .._native import lib
from .code import SegmentTable

FALL, RETURN, JUMP, CALL = (lib.EVM_SEGMENT_FALL, lib.EVM_SEGMENT_RETURN,
                            lib.EVM_SEGMENT_JUMP, lib.EVM_SEGMENT_CALL)
OP_JUMP, OP_JUMPDEST, OP_PUSH1, OP_PUSH32 = 0x56, 0x5B, 0x60, 0x7F


@dataclass(frozen=True)
class Entries:
    """The fast engine's segment entries: first one per segment of the table (index i is
    segment i), then one per segment with a JUMPDEST before it. Per entry: its segment,
    its pc, its exit (FALL .. CALL), jump_pc and pushed (for JUMP and CALL), the gas of
    its instructions outside the segment's pairs, and their opcodes."""
    segment: np.ndarray
    pc: np.ndarray
    exit: np.ndarray
    jump_pc: np.ndarray
    pushed: np.ndarray
    extra_gas: List[int]
    extra_opcodes: List[Tuple[int, ...]]


def entries(bytecode: bytes, jumpdests: bytes, table: SegmentTable,
            gas_of: Callable[[int], int]) -> Entries:
    """The entries of ``table``'s segments in ``bytecode`` (``jumpdests``: one flag byte per
    code byte, 1 at a valid jump destination); ``gas_of(opcode)`` is its static gas."""
    count = len(table)
    exits = [_exit(bytecode, jumpdests, int(pc)) for pc in table.next_pc]
    before = [int(pc) - 1 for pc in table.start_pc]
    lead = [i for i in range(count) if before[i] >= 0 and jumpdests[before[i]] == 1]
    segment = np.array(list(range(count)) + lead, dtype=np.int64)
    pc = np.array([int(pc) for pc in table.start_pc] + [before[i] for i in lead],
                  dtype=np.int64)
    chosen = [exits[i] for i in segment.tolist()]
    opcodes = [ops for _, _, _, ops in chosen]
    opcodes[count:] = [(OP_JUMPDEST,) + ops for ops in opcodes[count:]]
    return Entries(segment, pc,
                   np.array([kind for kind, _, _, _ in chosen], dtype=np.uint32),
                   np.array([jump for _, jump, _, _ in chosen], dtype=np.uint32),
                   np.array([pushed for _, _, pushed, _ in chosen], dtype=np.uint32),
                   [sum(gas_of(op) for op in ops) for ops in opcodes], opcodes)


def _exit(bytecode: bytes, jumpdests: bytes, pc: int) -> Tuple[int, int, int,
                                                                Tuple[int, ...]]:
    """(kind, jump_pc, pushed, opcodes) of the instructions at ``pc``, after a segment."""
    pushes: List[Tuple[int, int]] = []          # (opcode, value) of up to two PUSHes
    while pc < len(bytecode) and len(pushes) < 2 and \
            OP_PUSH1 <= bytecode[pc] <= OP_PUSH32:
        size = bytecode[pc] - OP_PUSH1 + 1
        if pc + size >= len(bytecode):           # the data runs past the code
            return FALL, 0, 0, ()
        pushes.append((bytecode[pc], int.from_bytes(bytecode[pc + 1:pc + 1 + size], "big")))
        pc += 1 + size
    if pc >= len(bytecode) or bytecode[pc] != OP_JUMP:
        return FALL, 0, 0, ()
    opcodes = tuple(op for op, _ in pushes) + (OP_JUMP,)
    if not pushes:
        return RETURN, 0, 0, opcodes
    dest = pushes[-1][1]
    if dest >= len(bytecode) or jumpdests[dest] != 1:
        return FALL, 0, 0, ()
    if len(pushes) == 1:
        return JUMP, dest, 0, opcodes
    ret = pushes[0][1]
    return (CALL, dest, ret, opcodes) if ret < 2**32 else (FALL, 0, 0, ())


def tallies(table: SegmentTable, found: Entries) -> Tuple[np.ndarray, np.ndarray,
                                                          np.ndarray]:
    """Each entry's instructions per opcode (its segment's PUSHes and EVM384 ops and its
    own), for the C loop to add to its counts once per run: the (opcode, how many) rows of
    all entries in order, each entry's first row and its number of rows."""
    entries_count = len(found.segment)
    counts = table.count[found.segment].astype(np.int64)
    # each entry's rows: its segment's first row, then on by one
    rows = (np.repeat(table.first[found.segment].astype(np.int64) - np.cumsum(counts) + counts,
                      counts) + np.arange(counts.sum()))
    entry_of_row = np.repeat(np.arange(entries_count, dtype=np.int64), counts)
    extra = [(entry, op) for entry, ops in enumerate(found.extra_opcodes) for op in ops]
    keys = np.concatenate([entry_of_row * 256 + table.records[rows, 0],
                           entry_of_row * 256 + table.records[rows, 1],
                           np.array([e * 256 + op for e, op in extra], dtype=np.int64)])
    keys, how_many = np.unique(keys, return_counts=True)  # sorted: by entry, then opcode
    tally = np.ascontiguousarray(np.column_stack([keys % 256, how_many]).astype(np.uint32))
    if not len(tally):
        tally = np.zeros((1, 2), dtype=np.uint32)  # a buffer to point at
    entry_of_key = keys // 256
    first = np.searchsorted(entry_of_key, np.arange(entries_count))
    size = np.bincount(entry_of_key, minlength=entries_count)
    return tally, first, size
