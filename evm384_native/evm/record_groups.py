"""Fixed-shape groups of EVM384 records, the kind the engines' native loops run as one step
(:mod:`.fp4_squares`, :mod:`.fp2_squares`): a shape is a tuple of (operation, out, x, y)
over named roles, each role one 48-byte location. This module finds where a shape's
operations appear in one segment, where its roles sit, and marks the groups whose
temporaries (the locations the step does not write) are dead.
"""
from __future__ import annotations

from typing import AbstractSet, Dict, Sequence, Tuple

import numpy as np

from .fp2_products import DEAD_WINDOW, dead_before_read
from .kernels.limbs import BYTES384
from .kernels.operands import MODULUS_WITH_INV_BYTES
from .segment_table import SegmentTable

Shape = Sequence[Tuple[int, str, str, str]]
# record columns (the fast engine's layout: PUSH opcode, EVM384 opcode, out, x, y, mod)
OPCODE, OUT, X, Y, MOD = 1, 2, 3, 4, 5


def segment_ends(segments: SegmentTable) -> np.ndarray:
    """Per record: the row after the last record of its segment."""
    return np.repeat(segments.first + segments.count, segments.count)


def candidates(segments: SegmentTable, shape: Shape) -> np.ndarray:
    """The rows where the shape's operations start, in order and in one segment."""
    records, length = segments.records, len(shape)
    if len(records) < length:
        return np.zeros(0, dtype=np.int64)
    starts = np.arange(len(records) - length + 1)
    found = starts + length <= segment_ends(segments)[starts]
    for k, (operation, _, _, _) in enumerate(shape):
        found &= records[starts + k, OPCODE] == operation
    return np.flatnonzero(found)


def located(records: np.ndarray, starts: np.ndarray, shape: Shape,
            may_coincide: AbstractSet[Tuple[str, str]] = frozenset()
            ) -> Tuple[np.ndarray, Dict[str, np.ndarray]]:
    """For the groups at ``starts`` (rows where the shape's operations begin), all at once:
    whether each names its roles consistently, with one modulus, every location apart
    from the others and from the modulus (the pairs in ``may_coincide`` may also be one
    location); and each role's location, group by group."""
    rows = records[np.asarray(starts, dtype=np.int64)[:, None]
                   + np.arange(len(shape))].astype(np.int64)
    modulus = rows[:, 0, MOD]
    ok = np.ones(len(rows), dtype=bool)
    at: Dict[str, np.ndarray] = {}
    for k, (_, out, x, y) in enumerate(shape):
        ok &= rows[:, k, MOD] == modulus
        for role, column in ((x, X), (y, Y), (out, OUT)):
            location = rows[:, k, column]
            if role in at:
                ok &= location == at[role]
            else:
                at[role] = location
    names = list(at)
    for i, first in enumerate(names):
        ok &= (at[first] >= modulus + MODULUS_WITH_INV_BYTES) | (modulus >= at[first] + BYTES384)
        for second in names[i + 1:]:
            apart = np.abs(at[first] - at[second]) >= BYTES384
            if (first, second) in may_coincide or (second, first) in may_coincide:
                apart |= at[first] == at[second]
            ok &= apart
    return ok, at


def marked(segments: SegmentTable, records: np.ndarray, starts: np.ndarray, shape: Shape,
           temporaries: Sequence[str], flag: int, window: int = DEAD_WINDOW,
           may_coincide: AbstractSet[Tuple[str, str]] = frozenset()) -> np.ndarray:
    """A copy of ``records`` with ``flag`` set in the EVM384 opcode of the groups at
    ``starts`` that :func:`located` accepts and whose ``temporaries`` are dead
    (:func:`.fp2_products.dead_before_read`, at most ``window`` records on)."""
    records = records.copy()
    ok, at = located(segments.records, starts, shape, may_coincide)
    first = np.asarray(starts, dtype=np.int64)[ok]
    after, end = first + len(shape), segment_ends(segments)[first]
    dead = np.ones(len(first), dtype=bool)
    for temporary in temporaries:                   # all groups at once, per temporary
        dead &= dead_before_read(segments.records, at[temporary][ok], after, end, window)
    records[first[dead], OPCODE] |= flag
    return records
