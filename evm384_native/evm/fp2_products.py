"""Fp2 products (:mod:`.kernels.fp2_shape`) in EVM384 segments that the engines' native loops
(the fast engine's, and ``evm384_run_records`` under the python engine) may run as three
products and two reductions (Karatsuba at double width).

When every input is below a modulus under 2^382 that comes with its inv, each of the six
ops returns the canonical residue, so Karatsuba, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1,
leaves the same bytes in c1 and c0; the C loop checks that at run time
(``csrc/fp2_product.h``) and runs the six records otherwise. What this module proves once
per code, and marks in the first record (``FP2_PRODUCT_FLAG``):

- the six records have the shape, one modulus, and lie in one segment;
- t0, t1, t2, c1, c0 are disjoint, t0, t1, t2 disjoint from the inputs, no output overlaps
  the modulus: every read in the group sees what it would see op by op;
- t0, t1 and t2, which the C step never writes, are dead: for each, a later record of the
  same segment writes exactly its 48 bytes before any record reads one of them (a segment
  runs whole or not at all, ``csrc/evm_fast.c``), looking at most ``DEAD_WINDOW`` records
  ahead.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .._native import lib
from .evm384 import ADDMOD384, MULMODMONT384, SUBMOD384
from .kernels.fp2_shape import DEAD_WINDOW, SHAPE, Fp2Product, match, separate
from .kernels.limbs import BYTES384
from .kernels.operands import MODULUS_WITH_INV_BYTES
from .segment_table import SegmentTable

FP2_PRODUCT_FLAG = lib.EVM_FP2_PRODUCT_GROUP    # = EVM384_FP2_PRODUCT_GROUP (both loops)
_OPERATION = {MULMODMONT384: "mul", ADDMOD384: "add", SUBMOD384: "sub"}
_OPCODE_OF = {name: opcode for opcode, name in _OPERATION.items()}
GROUP_OPS = tuple(_OPCODE_OF[name] for name in SHAPE)
# record columns
_OPCODE, _OUT, _X, _Y, _MOD = 1, 2, 3, 4, 5


def marked(table: SegmentTable) -> np.ndarray:
    """A copy of the table's records with FP2_PRODUCT_FLAG set in the EVM384 opcode of the
    first record of every group the engines may run as a Karatsuba product."""
    records = table.records.copy()
    records[_groups(table), _OPCODE] |= FP2_PRODUCT_FLAG
    return records


def _groups(table: SegmentTable) -> np.ndarray:
    """The first row of every group that qualifies. (Two groups cannot overlap: the shape
    shifted by one to five rows puts an addition where it needs a multiplication.)"""
    records, ops = table.records, len(table.records)
    if ops < len(GROUP_OPS):
        return np.zeros(0, dtype=np.int64)
    segment_end = np.repeat(table.first + table.count, table.count)
    starts = np.arange(ops - len(GROUP_OPS) + 1)
    shape = starts + len(GROUP_OPS) <= segment_end[starts]
    for k, opcode in enumerate(GROUP_OPS):
        shape &= records[starts + k, _OPCODE] == opcode
    products = [(int(start), product) for start in np.flatnonzero(shape)
                for product in [_unaliased(records, int(start))] if product is not None]
    if not products:
        return np.zeros(0, dtype=np.int64)
    starts = np.array([start for start, _ in products], dtype=np.int64)
    after, end = starts + len(GROUP_OPS), segment_end[starts]
    dead = np.ones(len(starts), dtype=bool)
    for temporary in range(len(products[0][1].dead)):
        slots = np.array([product.dead[temporary] for _, product in products],
                         dtype=np.int64)
        dead &= dead_before_read(records, slots, after, end)
    return starts[dead]


def _unaliased(records: np.ndarray, start: int) -> Optional[Fp2Product]:
    """The product at ``start`` if it has the shape, one modulus, and no aliasing that would
    change what a read of the group sees (:func:`..fp2_shape.separate`, nothing written over
    the modulus)."""
    rows = records[start:start + len(GROUP_OPS)]
    product = match([(_OPERATION[int(r[_OPCODE])], int(r[_OUT]), int(r[_X]), int(r[_Y]))
                     for r in rows])
    if product is None or len({int(m) for m in rows[:, _MOD]}) != 1:
        return None
    modulus = int(rows[0, _MOD])
    if not separate(product, BYTES384) or any(
            out < modulus + MODULUS_WITH_INV_BYTES and modulus < out + BYTES384
            for out in product.outputs):
        return None
    return product


def dead_before_read(records: np.ndarray, slot: np.ndarray, after: np.ndarray,
                     segment_end: np.ndarray, window: int = DEAD_WINDOW) -> np.ndarray:
    """Per group: whether a record in rows [after, segment_end) writes exactly the 48 bytes
    at ``slot`` before any record reads one of them (at most ``window`` records on; a record
    reads before it writes). All groups at once, a window of rows each."""
    rows = after[:, None] + np.arange(window)[None, :]
    inside = rows < segment_end[:, None]
    window = records[np.minimum(rows, len(records) - 1)].astype(np.int64)
    slot = slot[:, None]

    def touches(offset: np.ndarray, size: object) -> np.ndarray:
        return (offset < slot + BYTES384) & (slot < offset + size)
    mod_bytes = np.where(window[..., _OPCODE] == MULMODMONT384, MODULUS_WITH_INV_BYTES,
                         BYTES384)
    reads = (touches(window[..., _X], BYTES384) | touches(window[..., _Y], BYTES384)
             | touches(window[..., _MOD], mod_bytes))
    writes = window[..., _OUT] == slot
    decides = inside & (reads | touches(window[..., _OUT], BYTES384))
    first = np.argmax(decides, axis=1)             # the first record that reads or writes it
    at = np.arange(len(slot))
    return decides[at, first] & writes[at, first] & ~reads[at, first]
