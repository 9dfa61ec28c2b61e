"""Fp2 products (:mod:`..fp2_shape`) in EVM384 segments that the fast engine may run as
three Montgomery products.

When every input is below a modulus under 2^382 that comes with its inv, each of the six
ops returns the canonical residue, so Karatsuba, c1 = (a0 + a1)(b0 + b1) - t0 - t1, leaves
the same bytes in t0, t1, c1 and c0; the C loop checks that at run time
(``csrc/fp2_product.h``) and runs the six records otherwise. What this module proves once
per code, and marks in the first record (``FP2_PRODUCT_FLAG``):

- the six records have the shape, one modulus, and lie in one segment;
- t0, t1, t2, c1, c0 are disjoint, t0, t1, t2 disjoint from the inputs, no output overlaps
  the modulus: every read in the group sees what it would see op by op;
- t2, which Karatsuba never computes, is dead: a later record of the same segment writes
  exactly its 48 bytes before any record reads one of them (a segment runs whole or not at
  all, ``csrc/evm_fast.c``), looking at most ``DEAD_WINDOW`` records ahead.
"""
from __future__ import annotations

from typing import Iterator

import numpy as np

from .._native import lib
from ..fp2_shape import DEAD_WINDOW, SHAPE, match
from ..limbs import BYTES384
from ..operands import MODULUS_WITH_INV_BYTES
from .code import SegmentTable
from .evm384 import ADDMOD384, MULMODMONT384, SUBMOD384

FP2_PRODUCT_FLAG = lib.EVM_FP2_PRODUCT_GROUP
_OPERATION = {MULMODMONT384: "mul", ADDMOD384: "add", SUBMOD384: "sub"}
_OPCODE_OF = {name: opcode for opcode, name in _OPERATION.items()}
GROUP_OPS = tuple(_OPCODE_OF[name] for name in SHAPE)
# record columns
_OPCODE, _OUT, _X, _Y, _MOD = 1, 2, 3, 4, 5


def marked(table: SegmentTable) -> np.ndarray:
    """A copy of the table's records with FP2_PRODUCT_FLAG set in the EVM384 opcode of the
    first record of every group the fast engine may run as a Karatsuba product."""
    records = table.records.copy()
    for start in _groups(table):
        records[start, _OPCODE] |= FP2_PRODUCT_FLAG
    return records


def _groups(table: SegmentTable) -> Iterator[int]:
    """The first row of every group that qualifies, in code order."""
    records, ops = table.records, len(table.records)
    if ops < len(GROUP_OPS):
        return
    segment_end = np.repeat(table.first + table.count, table.count)
    starts = np.arange(ops - len(GROUP_OPS) + 1)
    shape = starts + len(GROUP_OPS) <= segment_end[starts]
    for k, opcode in enumerate(GROUP_OPS):
        shape &= records[starts + k, _OPCODE] == opcode
    taken_until = 0
    for start in np.flatnonzero(shape):
        if start < taken_until:       # groups do not overlap
            continue
        if _qualifies(records, int(start), int(segment_end[start])):
            yield int(start)
            taken_until = start + len(GROUP_OPS)


def _span(offset: int, size: int = BYTES384) -> range:
    return range(offset, offset + size)


def _overlap(a: range, b: range) -> bool:
    return a.start < b.stop and b.start < a.stop


def _qualifies(records: np.ndarray, start: int, segment_end: int) -> bool:
    rows = records[start:start + len(GROUP_OPS)]
    product = match([(_OPERATION[int(r[_OPCODE])], int(r[_OUT]), int(r[_X]), int(r[_Y]))
                     for r in rows])
    if product is None or len({int(m) for m in rows[:, _MOD]}) != 1:
        return False
    outputs = [_span(o) for o in product.outputs]
    temporaries, inputs = outputs[:3], [_span(i) for i in product.inputs]
    modulus = _span(int(rows[0, _MOD]), MODULUS_WITH_INV_BYTES)
    if any(_overlap(p, q) for i, p in enumerate(outputs) for q in outputs[i + 1:]):
        return False
    if any(_overlap(t, i) for t in temporaries for i in inputs):
        return False
    if any(_overlap(o, modulus) for o in outputs):
        return False
    return _dead(records, _span(product.t2), start + len(GROUP_OPS), segment_end)
def _dead(records: np.ndarray, slot: range, row: int, segment_end: int) -> bool:
    """Whether a record in rows [row, segment_end) writes exactly ``slot`` before any reads
    from it (looking DEAD_WINDOW records ahead at most)."""
    for record in records[row:min(segment_end, row + DEAD_WINDOW)]:
        mod_bytes = MODULUS_WITH_INV_BYTES if record[_OPCODE] == MULMODMONT384 else BYTES384
        reads = (_span(int(record[_X])), _span(int(record[_Y])),
                 _span(int(record[_MOD]), mod_bytes))
        if any(_overlap(read, slot) for read in reads):
            return False
        written = _span(int(record[_OUT]))
        if written == slot:
            return True
        if _overlap(written, slot):
            return False
    return False
