"""Fp2 squarings in EVM384 segments that the engines' native loops (the fast engine's, and
``evm384_run_records`` under the python engine) may run as two Montgomery products of
unreduced sums (``csrc/fp2_square.h``), where the ops take five records.

The shape is the five ops ``tower.fp2.sqr`` emits for u^2 = -1 (another non-residue's
squaring has other ops, run one by one)::

    t0 = a0 + a1   t1 = a0 - a1   c1 = a0 * a1   c1 = c1 + c1   c0 = t0 * t1

When both inputs are below a modulus under 2^382 that comes with its inv, each op returns
the canonical residue, and so do the step's products; the C step checks that at run time
and runs the records otherwise. What this module proves once per code, and marks in the
first record (``FP2_SQUARE_FLAG``):

- five records of one segment have the shape, every role at one location, one modulus;
- the locations are pairwise apart and apart from the modulus and its inv, except that c0
  and c1 may be a0 and a1 (a squaring in place): the step writes c1 and c0 after every
  read of a0 and a1, as the ops do (:func:`.record_groups.located`);
- t0 and t1, which the step never writes, are dead (as :func:`.fp2_products.dead_before_read`
  decides for an Fp2 product's temporaries).
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from .._native import lib
from .evm384 import ADDMOD384, MULMODMONT384, SUBMOD384
from .record_groups import OPCODE, candidates, marked as mark
from .segment_table import SegmentTable

FP2_SQUARE_FLAG = lib.EVM_FP2_SQUARE_GROUP      # = EVM384_FP2_SQUARE_GROUP (both loops)
SHAPE: Tuple[Tuple[int, str, str, str], ...] = (
    (ADDMOD384, "t0", "a0", "a1"), (SUBMOD384, "t1", "a0", "a1"),
    (MULMODMONT384, "c1", "a0", "a1"), (ADDMOD384, "c1", "c1", "c1"),
    (MULMODMONT384, "c0", "t0", "t1"))
RECORDS = len(SHAPE)
TEMPORARIES = ("t0", "t1")
IN_PLACE = frozenset({("a0", "c0"), ("a1", "c1")})
assert RECORDS == lib.EVM384_FP2_SQUARE_RECORDS


def marked(segments: SegmentTable, records: np.ndarray) -> np.ndarray:
    """A copy of ``records`` (the segments' records, maybe marked already) with
    FP2_SQUARE_FLAG set in the EVM384 opcode of the first record of every group the
    engines may run as one step. (No group of another kind starts at such a record: their
    shapes start with other operations or do not contain this one.)"""
    starts = candidates(segments, SHAPE)
    starts = starts[records[starts, OPCODE] == ADDMOD384]
    return mark(segments, records, starts, SHAPE, TEMPORARIES, FP2_SQUARE_FLAG,
                may_coincide=IN_PLACE)
