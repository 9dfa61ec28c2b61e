"""The fast engine's entries: what its loop runs as one step from a pc, built from the
code's segments (:class:`.code.SegmentTable`) and the instructions around them, since each
of those costs more to dispatch on its own than it does (in the two-pairing check: 2,050
JUMPDESTs, 1,598 JUMPs, 666 MCOPYs and their PUSHes against 2,050 segments).

- A *run* is a sequence of items that follow each other in the code with nothing between:
  segments, and *fixed copies* (``PUSHa size; PUSHb source; PUSHc dest; MCOPY`` with all
  three below 2^32), which run as MCOPY records in their place (``csrc/evm_fast.c``).
- Each item starts an entry that runs the rest of its run; an item right after a JUMPDEST
  gets a second entry at that JUMPDEST, charged its gas and counting it (a jump into a
  subroutine lands there). A JUMPDEST with an exit right after it is an entry of its own
  (a call's return point where the next call follows).
- A run's *exit*, what follows its last item, runs with it when it is ``JUMP`` (a
  subroutine's return: the loop checks the destination on the stack before it runs the
  entry, and leaves an invalid one to the step loop, which halts), ``PUSHn dest; JUMP`` or
  ``PUSHn ret; PUSHm dest; JUMP`` (a call, ret left on the stack) with dest a JUMPDEST
  (checked here; ret must fit 32 bits). Otherwise the run goes on at its end.

The gas of all these instructions is static (a copy's words and the memory it reaches are
known) and joins the entry's, and their counts its tally: an entry runs whole or not at all
(then instruction by instruction), so gas, halts and counts are a step-by-step run's.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Dict, List, Tuple

import numpy as np

from .._native import lib
from .code import SegmentTable

FALL, RETURN, JUMP, CALL = (lib.EVM_SEGMENT_FALL, lib.EVM_SEGMENT_RETURN,
                            lib.EVM_SEGMENT_JUMP, lib.EVM_SEGMENT_CALL)
OP_JUMP, OP_JUMPDEST, OP_MCOPY, OP_PUSH1, OP_PUSH32 = 0x56, 0x5B, 0x5E, 0x60, 0x7F
COPY_WORD_GAS = 3
RECORD_FIELDS = lib.EVM_SEGMENT_RECORD_FIELDS


@dataclass(frozen=True)
class Entries:
    """Per entry: its rows of ``records`` (every run's records in code order: segments'
    rows as given, fixed copies as MCOPY records (out, x, y = dest, source, size)), its
    pc, where its run ends, its exit (FALL .. CALL) with jump_pc and pushed (JUMP and
    CALL), its static gas, the memory it reaches, the stack slots above the current
    height it needs, and its instructions per opcode."""
    records: np.ndarray
    first: np.ndarray
    count: np.ndarray
    pc: np.ndarray
    next_pc: np.ndarray
    exit: np.ndarray
    jump_pc: np.ndarray
    pushed: np.ndarray
    gas: List[int]
    memory_end: np.ndarray
    stack_room: np.ndarray
    tallies: List[Dict[int, int]]


@dataclass
class _Item:
    start: int
    end: int
    rows: np.ndarray            # its records
    gas: int
    memory_end: int
    room: int                   # stack slots it needs above the height it starts at
    tally: Counter


def entries(bytecode: bytes, jumpdests: bytes, data_flags: bytes, table: SegmentTable,
            records: np.ndarray, gas_of: Callable[[int], int]) -> Entries:
    """The entries of ``bytecode`` (``jumpdests`` and ``data_flags``: one byte per code
    byte, 1 at a valid jump destination and at immediate data), its segments ``table``
    with their ``records`` (maybe marked); ``gas_of(opcode)`` is the static gas of an
    instruction outside the segments."""
    items = sorted(_segments(table, records) + _copies(bytecode, data_flags, gas_of)
                   if len(table) else [], key=lambda item: item.start)
    rows: List[np.ndarray] = []
    out: Dict[str, list] = {name: [] for name in Entries.__dataclass_fields__
                            if name != "records"}
    row = 0
    for run in _runs(items):
        kind, jump_pc, pushed, exit_ops = _exit(bytecode, jumpdests, run[-1].end)
        exit_room = 2 if kind == CALL else 1
        exit_tally = Counter(exit_ops)
        offsets = np.cumsum([0] + [len(item.rows) for item in run])
        for i, item in enumerate(run):
            rest = run[i:]
            tally = sum((it.tally for it in rest), Counter()) + exit_tally
            gas = sum(it.gas for it in rest) + sum(gas_of(op) for op in exit_ops)
            room = max([it.room for it in rest] + [exit_room])
            memory_end = max(it.memory_end for it in rest)
            starts = [(item.start, gas, tally)]
            if item.start > 0 and jumpdests[item.start - 1] == 1:
                starts.append((item.start - 1, gas + gas_of(OP_JUMPDEST),
                               tally + Counter({OP_JUMPDEST: 1})))
            for pc, entry_gas, entry_tally in starts:
                for name, value in (("first", row + int(offsets[i])),
                                    ("count", int(offsets[-1] - offsets[i])), ("pc", pc),
                                    ("next_pc", run[-1].end), ("exit", kind),
                                    ("jump_pc", jump_pc), ("pushed", pushed),
                                    ("gas", entry_gas), ("memory_end", memory_end),
                                    ("stack_room", room), ("tallies", dict(entry_tally))):
                    out[name].append(value)
        rows.extend(item.rows for item in run)
        row += int(offsets[-1])
    # a JUMPDEST with a jump right after it and nothing between (a return point where the
    # next call follows): an entry of no records
    taken = set(out["pc"])
    for pc in (np.flatnonzero(np.frombuffer(jumpdests, dtype=np.uint8)).tolist()
               if items else []):
        kind, jump_pc, pushed, exit_ops = _exit(bytecode, jumpdests, pc + 1)
        if kind == FALL or pc in taken:
            continue
        for name, value in (("first", row), ("count", 0), ("pc", pc), ("next_pc", pc + 1),
                            ("exit", kind), ("jump_pc", jump_pc), ("pushed", pushed),
                            ("gas", sum(gas_of(op) for op in (OP_JUMPDEST,) + exit_ops)),
                            ("memory_end", 0), ("stack_room", 2 if kind == CALL else 1),
                            ("tallies", dict(Counter((OP_JUMPDEST,) + exit_ops)))):
            out[name].append(value)
    all_rows = (np.ascontiguousarray(np.concatenate(rows)).astype(np.uint32) if rows
                else np.zeros((0, RECORD_FIELDS), dtype=np.uint32))
    return Entries(all_rows, *(np.array(out[name], dtype=np.int64)
                               for name in ("first", "count", "pc", "next_pc")),
                   *(np.array(out[name], dtype=np.uint32)
                     for name in ("exit", "jump_pc", "pushed")),
                   out["gas"], np.array(out["memory_end"], dtype=np.int64),
                   np.array(out["stack_room"], dtype=np.int64), out["tallies"])


def _segments(table: SegmentTable, records: np.ndarray) -> List[_Item]:
    items = []
    for s in range(len(table)):
        rows = records[table.first[s]:table.first[s] + table.count[s]]
        tally = Counter(table.records[table.first[s]:table.first[s] + table.count[s], 0]
                        .tolist()) + Counter((rows[:, 1] & 0xff).tolist())
        items.append(_Item(int(table.start_pc[s]), int(table.next_pc[s]), rows,
                           int(table.gas[s]), int(table.end[s]), 1, tally))
    return items


def _copies(bytecode: bytes, data_flags: bytes, gas_of: Callable[[int], int]
            ) -> List[_Item]:
    """Every fixed copy: three PUSHes of values below 2^32 right before an MCOPY."""
    code = np.frombuffer(bytecode, dtype=np.uint8)
    data = np.frombuffer(data_flags, dtype=np.uint8).astype(bool)
    pushes = np.flatnonzero((code >= OP_PUSH1) & (code <= OP_PUSH32) & ~data)
    ends = pushes + 1 + (code[pushes].astype(np.int64) - OP_PUSH1 + 1)
    found = []
    # three consecutive PUSHes, the MCOPY right after the third
    chained = np.flatnonzero((ends[:-2] == pushes[1:-1]) & (ends[1:-1] == pushes[2:])) \
        if len(pushes) >= 3 else np.zeros(0, dtype=np.int64)
    for k in chained.tolist():
        mcopy = int(ends[k + 2])
        if mcopy >= len(code) or code[mcopy] != OP_MCOPY:
            continue
        size, source, dest = (int.from_bytes(bytecode[p + 1:e], "big")
                              for p, e in zip(pushes[k:k + 3].tolist(), ends[k:k + 3].tolist()))
        if max(size, source, dest) >= 2**32:
            continue
        words = (size + 31) // 32
        opcodes = [int(code[p]) for p in pushes[k:k + 3].tolist()] + [OP_MCOPY]
        record = np.array([[0, OP_MCOPY, dest, source, size, 0]], dtype=np.uint32)
        found.append(_Item(int(pushes[k]), mcopy + 1, record,
                           sum(gas_of(op) for op in opcodes) + COPY_WORD_GAS * words,
                           max(dest, source) + size if size else 0, 3, Counter(opcodes)))
    return found


def _runs(items: List[_Item]) -> List[List[_Item]]:
    """The items in runs: each next one starting where the last ended."""
    runs: List[List[_Item]] = []
    for item in items:
        if runs and runs[-1][-1].end == item.start:
            runs[-1].append(item)
        else:
            runs.append([item])
    return runs


def _exit(bytecode: bytes, jumpdests: bytes, pc: int) -> Tuple[int, int, int,
                                                                Tuple[int, ...]]:
    """(kind, jump_pc, pushed, opcodes) of the instructions at ``pc``, after a run."""
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


def tallies(found: Entries) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The entries' tallies for the C loop to add to its counts once per run: the
    (opcode, how many) rows of all entries in order, each entry's first row and its number
    of rows."""
    rows = [(opcode, count) for tally in found.tallies for opcode, count in sorted(tally.items())]
    size = np.array([len(tally) for tally in found.tallies], dtype=np.int64)
    first = np.cumsum(size) - size
    table = (np.array(rows, dtype=np.uint32) if rows else np.zeros((1, 2), dtype=np.uint32))
    return np.ascontiguousarray(table), first, size
