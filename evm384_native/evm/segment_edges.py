"""The fast engine's entries: what its loop runs as one step from a pc, built from the
code's segments (:class:`.segment_table.SegmentTable`) and the instructions around them,
since each of those costs more to dispatch on its own than it does (in the two-pairing
check: 2,050 JUMPDESTs, 1,598 JUMPs, 666 MCOPYs and their PUSHes against 2,050 segments).

- A *run* is a sequence of items that follow each other in the code with nothing between:
  segments, and *fixed copies* (``PUSHa size; PUSHb source; PUSHc dest; MCOPY``, each PUSH
  of at most four bytes), which run as MCOPY records in their place (``csrc/evm_fast.c``).
  A run has an entry at its start, and one at the JUMPDEST right before it if there is one
  (a jump into a subroutine lands there), charged its gas and counting it. Execution meets
  a run nowhere else: no JUMPDEST is inside one, and a run its entry declines goes on
  instruction by instruction.
- A run's *exit*, what follows its last item, runs with it when it is ``JUMP`` (a
  subroutine's return: the loop checks the destination on the stack before it runs the
  entry, and leaves an invalid one to the step loop, which halts), ``PUSHn dest; JUMP`` or
  ``PUSHn ret; PUSHm dest; JUMP`` (a call, ret left on the stack; PUSHes of at most four
  bytes) with dest a JUMPDEST (checked here). Otherwise the run goes on at its end. A
  JUMPDEST with such an exit right after it is an entry of no records (a call's return
  point where the next call follows).

The gas of all these instructions is static (a copy's words and the memory it reaches are
known) and joins the entry's, and their counts its tally: an entry runs whole or not at all
(then instruction by instruction), so gas, halts and counts are a step-by-step run's. Every
step is a numpy pass: time and memory linear in the code's size.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Tuple

import numpy as np

from .._native import lib
from .gas import COPY_WORD_GAS
from .opcodes import BY_NAME
from .segment_table import SegmentTable

FALL, RETURN, JUMP, CALL = (lib.EVM_SEGMENT_FALL, lib.EVM_SEGMENT_RETURN,
                            lib.EVM_SEGMENT_JUMP, lib.EVM_SEGMENT_CALL)
OP_JUMP, OP_JUMPDEST, OP_MCOPY, OP_PUSH1, OP_PUSH4 = (
    BY_NAME[name].code for name in ("JUMP", "JUMPDEST", "MCOPY", "PUSH1", "PUSH4"))
RECORD_FIELDS = lib.EVM_SEGMENT_RECORD_FIELDS
NONE = -1                       # no opcode (in a padded row of opcodes)


@dataclass(frozen=True)
class Entries:
    """Per entry: its rows of ``records`` (every run's records in code order: segments'
    rows as given, fixed copies as MCOPY records (out, x, y = dest, source, size)), its
    pc, where its run ends, its exit (FALL .. CALL) with jump_pc and pushed (JUMP and
    CALL), its static gas, the memory it reaches, the stack slots above the current
    height it needs; and the (opcode, how many) rows of all entries' instructions
    (``tally``), entry by entry (``tally_first``, ``tally_size``)."""
    records: np.ndarray
    first: np.ndarray
    count: np.ndarray
    pc: np.ndarray
    next_pc: np.ndarray
    exit: np.ndarray
    jump_pc: np.ndarray
    pushed: np.ndarray
    gas: np.ndarray
    memory_end: np.ndarray
    stack_room: np.ndarray
    tally: np.ndarray
    tally_first: np.ndarray
    tally_size: np.ndarray

    def tally_of(self, entry: int) -> dict:
        """Entry ``entry``'s instructions per opcode."""
        first, size = int(self.tally_first[entry]), int(self.tally_size[entry])
        return {int(op): int(n) for op, n in self.tally[first:first + size]}


def entries(bytecode: bytes, jumpdests: bytes, data_flags: bytes, table: SegmentTable,
            records: np.ndarray, gas_of: Callable[[int], int]) -> Entries:
    """The entries of ``bytecode`` (``jumpdests`` and ``data_flags``: one byte per code
    byte, 1 at a valid jump destination and at immediate data), its segments ``table``
    with their ``records`` (maybe marked); ``gas_of(opcode)`` is the static gas of PUSH1 ..
    PUSH4, JUMP, JUMPDEST and MCOPY. None without segments."""
    code = np.frombuffer(bytecode, dtype=np.uint8)
    is_jumpdest = np.frombuffer(jumpdests, dtype=np.uint8).astype(bool)
    if not len(table):
        return _assemble(np.zeros((0, RECORD_FIELDS), dtype=np.uint32), [])
    gas = np.zeros(256, dtype=np.int64)
    for op in list(range(OP_PUSH1, OP_PUSH4 + 1)) + [OP_JUMP, OP_JUMPDEST, OP_MCOPY]:
        gas[op] = gas_of(op)
    copy_start, copy_end, copy_ops, copy_values = _copies(code, data_flags)
    size_, source, dest = copy_values
    words = (size_ + 31) // 32
    copies = len(copy_start)
    # the items, segments first, then copies; then in code order
    start = np.concatenate([table.start_pc, copy_start]).astype(np.int64)
    end = np.concatenate([table.next_pc, copy_end]).astype(np.int64)
    wide = table.gas.dtype == object
    item_gas = np.concatenate([table.gas.astype(object if wide else np.int64),
                               (gas[copy_ops].sum(axis=1) + COPY_WORD_GAS * words)
                               .astype(object if wide else np.int64)])
    item_memory = np.concatenate([table.end.astype(np.int64),
                                  np.where(size_ > 0, np.maximum(dest, source) + size_, 0)])
    item_room = np.concatenate([np.ones(len(table), dtype=np.int64),
                                np.full(copies, 3, dtype=np.int64)])
    item_rows = np.concatenate([table.count, np.ones(copies, dtype=np.int64)]).astype(np.int64)
    source_first = np.concatenate([table.first, len(records) + np.arange(copies)])
    order = np.argsort(start, kind="stable")
    start, end, item_gas, item_memory, item_room, item_rows, source_first = (
        a[order] for a in (start, end, item_gas, item_memory, item_room, item_rows,
                           source_first))
    # the records in code order
    copy_records = np.zeros((copies, RECORD_FIELDS), dtype=np.uint32)
    copy_records[:, 1] = OP_MCOPY
    copy_records[:, 2], copy_records[:, 3], copy_records[:, 4] = dest, source, size_
    row_first = np.cumsum(item_rows) - item_rows
    if copies:
        gather = np.repeat(source_first - row_first, item_rows) + np.arange(item_rows.sum())
        all_records = np.concatenate([records.astype(np.uint32), copy_records])[gather]
    else:                   # the segments' rows are in code order already
        all_records = records.astype(np.uint32, copy=False)
    # runs: items that start where the one before ended
    new_run = np.ones(len(start), dtype=bool)
    new_run[1:] = start[1:] != end[:-1]
    run_first = np.flatnonzero(new_run)
    run_last = np.append(run_first[1:] - 1, len(start) - 1)
    run_of_item = np.cumsum(new_run) - 1
    runs = len(run_first)
    exits = _exits(code, is_jumpdest, end[run_last], gas)
    run = {"first": row_first[run_first], "count": np.add.reduceat(item_rows, run_first),
           "pc": start[run_first], "next_pc": end[run_last],
           "gas": np.add.reduceat(item_gas, run_first) + exits["gas"],
           "memory_end": np.maximum.reduceat(item_memory, run_first),
           "stack_room": np.maximum(np.maximum.reduceat(item_room, run_first), exits["room"]),
           **{name: exits[name] for name in ("exit", "jump_pc", "pushed")}}
    # each run's instructions per opcode: its records' PUSHes and ops, its copies' PUSHes,
    # its exit's
    run_of_row = np.repeat(run_of_item, item_rows)
    is_copy = all_records[:, 1] == OP_MCOPY
    run_of_copy = run_of_item[np.searchsorted(start, copy_start)]
    counted = [(run_of_row[~is_copy], all_records[~is_copy, 0]),
               (run_of_row, all_records[:, 1] & 0xff),
               (np.repeat(run_of_copy, 3), copy_ops[:, :3].ravel()),
               (np.repeat(np.arange(runs), 3), exits["opcodes"].ravel())]
    # the entries: the runs; the JUMPDESTs right before them; JUMPDESTs with only an exit
    before = run["pc"] - 1
    lead = np.flatnonzero((before >= 0) & is_jumpdest[np.maximum(before, 0)])
    # (only those followed by a JUMP or a short PUSH can have an exit)
    follows = np.append(code[1:], 0)
    bare = np.flatnonzero(is_jumpdest & ((follows == OP_JUMP)
                                         | ((follows >= OP_PUSH1) & (follows <= OP_PUSH4))))
    bare = bare[~np.isin(bare, before)]
    bare_exits = _exits(code, is_jumpdest, bare + 1, gas)
    bare_kept = bare_exits["exit"] != FALL
    bare = bare[bare_kept]
    bare_exits = {name: value[bare_kept] for name, value in bare_exits.items()}
    columns = {name: [value, value[lead]] for name, value in run.items()}
    columns["pc"][1] = before[lead]
    columns["gas"][1] = columns["gas"][1] + gas[OP_JUMPDEST]
    bare_run = {"first": np.full(len(bare), len(all_records), dtype=np.int64),
                "count": np.zeros(len(bare), dtype=np.int64), "pc": bare,
                "next_pc": bare + 1, "gas": bare_exits["gas"] + gas[OP_JUMPDEST],
                "memory_end": np.zeros(len(bare), dtype=np.int64),
                "stack_room": bare_exits["room"],
                **{name: bare_exits[name] for name in ("exit", "jump_pc", "pushed")}}
    for name in columns:
        columns[name].append(bare_run[name])
    lead_entry = np.full(runs, -1, dtype=np.int64)
    lead_entry[lead] = runs + np.arange(len(lead))
    entry_count = runs + len(lead) + len(bare)
    bare_entries = runs + len(lead) + np.arange(len(bare))
    keys = []
    for owner, opcodes in counted:
        owner, opcodes = owner.astype(np.int64), opcodes.astype(np.int64)
        counts = opcodes != NONE
        keys.append(owner[counts] * 256 + opcodes[counts])
        with_lead = lead_entry[owner[counts]] >= 0
        keys.append(lead_entry[owner[counts]][with_lead] * 256 + opcodes[counts][with_lead])
    keys.append((runs + np.arange(len(lead))) * 256 + OP_JUMPDEST)
    bare_ops = bare_exits["opcodes"].astype(np.int64)
    keys.append((np.repeat(bare_entries, 3) * 256 + bare_ops.ravel())[bare_ops.ravel() != NONE])
    keys.append(bare_entries * 256 + OP_JUMPDEST)
    return _assemble(all_records, [np.concatenate(columns[name]) for name in _COLUMNS],
                     np.concatenate(keys), entry_count)


_COLUMNS = ("first", "count", "pc", "next_pc", "exit", "jump_pc", "pushed", "gas",
            "memory_end", "stack_room")


def _assemble(records: np.ndarray, columns: list, keys: np.ndarray = np.zeros(0, np.int64),
              entry_count: int = 0) -> Entries:
    """Entries from their columns (in ``_COLUMNS`` order) and their tally keys (entry *
    256 + opcode, one per instruction)."""
    if not columns:
        columns = [np.zeros(0, dtype=np.int64)] * len(_COLUMNS)
    keys, how_many = np.unique(keys, return_counts=True)   # sorted: by entry, then opcode
    tally = np.column_stack([keys % 256, how_many]).astype(np.uint32)
    if not len(tally):
        tally = np.zeros((1, 2), dtype=np.uint32)          # a buffer to point at
    entry_of_key = keys // 256
    tally_first = np.searchsorted(entry_of_key, np.arange(entry_count))
    tally_size = np.bincount(entry_of_key, minlength=entry_count)
    first, count, pc, next_pc, kind, jump_pc, pushed, gas, memory_end, room = columns
    return Entries(np.ascontiguousarray(records), first.astype(np.int64),
                   count.astype(np.int64), pc.astype(np.int64), next_pc.astype(np.int64),
                   kind.astype(np.uint32), jump_pc.astype(np.uint32), pushed.astype(np.uint32),
                   gas, memory_end.astype(np.int64), room.astype(np.int64),
                   np.ascontiguousarray(tally), tally_first, tally_size)


def _small_pushes(code: np.ndarray, pcs: np.ndarray) -> Tuple[np.ndarray, np.ndarray,
                                                             np.ndarray, np.ndarray]:
    """For instructions at ``pcs`` (maybe past the end): whether each is PUSH1 .. PUSH4
    with all its data in the code, its opcode, its value and the pc after it."""
    size = len(code)
    inside = pcs < size
    at = np.minimum(pcs, size - 1)
    opcode = code[at].astype(np.int64)
    length = opcode - OP_PUSH1 + 1
    is_push = inside & (opcode >= OP_PUSH1) & (opcode <= OP_PUSH4) & (pcs + length < size)
    value = np.zeros(len(pcs), dtype=np.int64)
    for i in range(OP_PUSH4 - OP_PUSH1 + 1):
        byte = code[np.minimum(pcs + 1 + i, size - 1)].astype(np.int64)
        value = np.where(i < length, value * 256 + byte, value)
    return is_push, opcode, np.where(is_push, value, 0), pcs + 1 + np.where(is_push, length, 0)


def _copies(code: np.ndarray, data_flags: bytes
            ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Tuple[np.ndarray, ...]]:
    """Every fixed copy: (start, end, its four opcodes, (size, source, dest))."""
    data = np.frombuffer(data_flags, dtype=np.uint8).astype(bool)
    pushes = np.flatnonzero((code >= OP_PUSH1) & (code <= OP_PUSH4) & ~data)
    is_push, opcode, value, after = _small_pushes(code, pushes)
    k = np.flatnonzero(is_push[:-2] & is_push[1:-1] & is_push[2:]
                       & (after[:-2] == pushes[1:-1]) & (after[1:-1] == pushes[2:])) \
        if len(pushes) >= 3 else np.zeros(0, dtype=np.int64)
    mcopy = after[k + 2]
    k = k[(mcopy < len(code)) & (code[np.minimum(mcopy, len(code) - 1)] == OP_MCOPY)]
    ops = np.column_stack([opcode[k], opcode[k + 1], opcode[k + 2],
                           np.full(len(k), OP_MCOPY)]).astype(np.int64)
    return (pushes[k].astype(np.int64), after[k + 2] + 1, ops,
            (value[k], value[k + 1], value[k + 2]))


EXIT_CHUNK = 1 << 16             # pcs per pass of _exits_of: bounds its temporaries


def _exits(code: np.ndarray, is_jumpdest: np.ndarray, pcs: np.ndarray,
           gas: np.ndarray) -> dict:
    """The exit at each of ``pcs``: its kind (FALL .. CALL), jump_pc, pushed, its three
    opcodes (NONE-padded), their gas and the stack room they need."""
    parts = [_exits_of(code, is_jumpdest, pcs[i:i + EXIT_CHUNK].astype(np.int64), gas)
             for i in range(0, max(len(pcs), 1), EXIT_CHUNK)]
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}


def _exits_of(code: np.ndarray, is_jumpdest: np.ndarray, pcs: np.ndarray,
              gas: np.ndarray) -> dict:
    size = len(code)

    def opcode_at(at: np.ndarray) -> np.ndarray:
        return np.where(at < size, code[np.minimum(at, size - 1)].astype(np.int64), NONE)

    def valid(dest: np.ndarray) -> np.ndarray:
        return (dest < size) & is_jumpdest[np.minimum(dest, size - 1)]
    push1, op1, value1, after1 = _small_pushes(code, pcs)
    push2, op2, value2, after2 = _small_pushes(code, after1)
    is_return = opcode_at(pcs) == OP_JUMP
    is_jump = push1 & (opcode_at(after1) == OP_JUMP) & valid(value1)
    is_call = push1 & push2 & (opcode_at(after2) == OP_JUMP) & valid(value2)
    kind = np.select([is_return, is_jump, is_call], [RETURN, JUMP, CALL], FALL)
    opcodes = np.full((len(pcs), 3), NONE, dtype=np.int64)
    opcodes[is_return, 0] = OP_JUMP
    opcodes[is_jump, 0], opcodes[is_jump, 1] = op1[is_jump], OP_JUMP
    opcodes[is_call] = np.column_stack([op1[is_call], op2[is_call],
                                        np.full(int(is_call.sum()), OP_JUMP)])
    return {"exit": kind, "jump_pc": np.select([is_jump, is_call], [value1, value2], 0),
            "pushed": np.where(is_call, value1, 0), "opcodes": opcodes,
            "gas": np.where(opcodes == NONE, 0, gas[np.maximum(opcodes, 0)]).sum(axis=1),
            "room": np.where(kind == CALL, 2, 1)}
