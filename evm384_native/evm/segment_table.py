"""The segments of decoded code as arrays (:mod:`.code` builds them): what the native loops
run, and what the group finders (:mod:`.fp2_products`, :mod:`.record_groups` and the
squarings) and :mod:`.segment_edges` read."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class SegmentTable:
    """Every segment of the code, as arrays (one row per EVM384 op, one entry per segment)."""
    records: np.ndarray   # (ops, 6) uint32: PUSH opcode, EVM384 opcode, out, x, y, mod
    first: np.ndarray     # per segment: its first row of records
    count: np.ndarray     # its ops
    start_pc: np.ndarray
    next_pc: np.ndarray
    gas: np.ndarray       # static gas of all its instructions
    end: np.ndarray       # memory all its operands need

    def __len__(self) -> int:
        return len(self.first)

    @property
    def nbytes(self) -> int:
        return sum(array.nbytes for array in (self.records, self.first, self.count,
                                              self.start_pc, self.next_pc, self.gas, self.end))
