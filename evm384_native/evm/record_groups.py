"""Fixed-shape groups of EVM384 records, the kind the engines' native loops run as one step
(:mod:`.fp4_squares`, :mod:`.cyclotomic_squares`): a shape is a tuple of (operation, out,
x, y) over named roles, each role one 48-byte location. This module finds where a shape's
operations appear in one segment and where its roles sit; each shape's module adds its own
proof that the step may replace the records.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Dict, Optional, Sequence, Tuple

import numpy as np

from ..limbs import BYTES384
from ..operands import MODULUS_WITH_INV_BYTES

if TYPE_CHECKING:
    from .code import SegmentTable

Shape = Sequence[Tuple[int, str, str, str]]
# record columns (the fast engine's layout: PUSH opcode, EVM384 opcode, out, x, y, mod)
OPCODE, OUT, X, Y, MOD = 1, 2, 3, 4, 5


def segment_ends(segments: "SegmentTable") -> np.ndarray:
    """Per record: the row after the last record of its segment."""
    return np.repeat(segments.first + segments.count, segments.count)


def candidates(segments: "SegmentTable", shape: Shape) -> np.ndarray:
    """The rows where the shape's operations start, in order and in one segment."""
    records, length = segments.records, len(shape)
    if len(records) < length:
        return np.zeros(0, dtype=np.int64)
    starts = np.arange(len(records) - length + 1)
    found = starts + length <= segment_ends(segments)[starts]
    for k, (operation, _, _, _) in enumerate(shape):
        found &= records[starts + k, OPCODE] == operation
    return np.flatnonzero(found)


def roles(records: np.ndarray, start: int, shape: Shape,
          may_coincide: AbstractSet[Tuple[str, str]] = frozenset()) -> Optional[Dict[str, int]]:
    """Each role's location in the group at ``start`` if the records name them
    consistently, with one modulus, and every location apart from the others and from the
    modulus, except that the pairs in ``may_coincide`` may also be one location; else
    None."""
    rows = records[start:start + len(shape)]
    if len(set(rows[:, MOD].tolist())) != 1:
        return None
    at: Dict[str, int] = {}
    for (_, out, x, y), row in zip(shape, rows):
        for role, column in ((x, X), (y, Y), (out, OUT)):
            if at.setdefault(role, int(row[column])) != int(row[column]):
                return None
    coinciding = {(a, b) for a, b in may_coincide if at[a] == at[b]}
    merged = {role: at[role] for role in at if not any(role == b for _, b in coinciding)}
    modulus = int(rows[0, MOD])
    spans = sorted([(location, location + BYTES384) for location in merged.values()]
                   + [(modulus, modulus + MODULUS_WITH_INV_BYTES)])
    if any(end > next_start for (_, end), (next_start, _) in zip(spans, spans[1:])):
        return None
    return at
