"""Fp4 squarings in EVM384 segments that the engines' native loops (the fast engine's, and
``evm384_run_records`` under the python engine) may run as one step at double width
(``csrc/fp4_square.h``: six 768-bit products, four reductions).

The shape is the 23 ops ``tower.fp12._sqr_fp4`` emits for blst's tower (u^2 = -1,
xi = 1 + u), each an (operation, out, x, y) over named roles: the inputs a0, a1, b0, b1
(a = a0 + a1 u, b = b0 + b1 u), the outputs o00, o01, o10, o11, and the temporaries ta0,
ta1, tb0, tb1 (each half squaring keeps its sum and difference in its own outputs until it
writes them). When every input
is below a modulus under 2^382 that comes with its inv, each op returns the canonical
residue, so the step's outputs have the ops' bytes; the C step checks that at run time and
runs the records otherwise. What this module proves once per code, and marks in the first
record (``FP4_SQUARE_FLAG``):

- 23 consecutive records of one segment have the shape, every role at one location, and
  one modulus;
- the 12 locations are pairwise apart and apart from the modulus and its inv: every read
  in the group sees what it would see op by op, the outputs are written after every input
  is read;
- the four temporaries, which the C step never writes, are dead (as
  :func:`.fp2_products.dead_before_read` decides for t0, t1, t2 of an Fp2 product).
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from .._native import lib
from .evm384 import ADDMOD384, MULMODMONT384, SUBMOD384
from .record_groups import candidates, marked as mark
from .segment_table import SegmentTable

FP4_SQUARE_FLAG = lib.EVM_FP4_SQUARE_GROUP    # = EVM384_FP4_SQUARE_GROUP (both loops)
_A, _S, _M = ADDMOD384, SUBMOD384, MULMODMONT384
# (operation, out, x, y), in tower.fp12._sqr_fp4's order (fp.dbl is x + x)
SHAPE: Tuple[Tuple[int, str, str, str], ...] = (
    (_A, "o00", "a0", "b0"), (_A, "o01", "a1", "b1"),                # a + b in o0
    (_A, "o10", "o00", "o01"), (_S, "o11", "o00", "o01"),            # its half squaring
    (_M, "o10", "o10", "o11"), (_M, "o11", "o00", "o01"),
    (_A, "ta0", "a0", "a1"), (_S, "ta1", "a0", "a1"),                # a's
    (_M, "ta0", "ta0", "ta1"), (_M, "ta1", "a0", "a1"),
    (_A, "tb0", "b0", "b1"), (_S, "tb1", "b0", "b1"),                # b's
    (_M, "tb0", "tb0", "tb1"), (_M, "tb1", "b0", "b1"),
    (_A, "ta0", "ta0", "tb0"), (_A, "ta1", "ta1", "tb1"),
    (_S, "o10", "o10", "ta0"), (_S, "o11", "o11", "ta1"), (_A, "o11", "o11", "o11"),
    (_A, "tb1", "tb1", "tb1"), (_S, "o00", "ta0", "tb1"), (_A, "ta1", "ta1", "ta1"),
    (_A, "o01", "ta1", "tb0"))
RECORDS = len(SHAPE)
TEMPORARIES = ("ta0", "ta1", "tb0", "tb1")
# how far the search for a temporary's next write goes (the caller's next squaring can be
# two Fp4 products away: ~70 records); groups are few, so the search may be long
DEAD_WINDOW = 256
assert RECORDS == lib.EVM384_FP4_SQUARE_RECORDS


def marked(segments: SegmentTable, records: np.ndarray) -> np.ndarray:
    """A copy of ``records`` (the segments' records, maybe marked already) with
    FP4_SQUARE_FLAG set in the EVM384 opcode of the first record of every group the
    engines may run as one step."""
    return mark(segments, records, candidates(segments, SHAPE), SHAPE, TEMPORARIES,
                FP4_SQUARE_FLAG, DEAD_WINDOW)
