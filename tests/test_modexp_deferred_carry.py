"""bench/modexp_deferred_carry.py's Montgomery square and product (nine 248-bit limbs,
deferred carries) against Python's integers: the value mod M, below 2 M, limbs in range."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import modexp_deferred_carry as dc  # noqa: E402


def _moduli():
    rng = random.Random(7)
    yield rng.getrandbits(2048) | 1 << 2047 | 1
    yield (1 << 2048) - 1                          # all limbs full
    yield (1 << 2047) + 1                          # one bit and the unit
    yield rng.getrandbits(2000) | 1 << 1999 | 1    # shorter than R / 4 by more


@pytest.mark.parametrize("square", [True, False], ids=["square", "product"])
def test_against_integers(square):
    rng = random.Random(int(square))
    for m in _moduli():
        r_inverse = pow(2, -dc.R_BITS, m)
        for a, b in [(2 * m - 1, 2 * m - 1), (0, 2 * m - 1), (m, 1), (1, 1),
                     (rng.randrange(2 * m), rng.randrange(2 * m)),
                     (rng.randrange(2 * m), rng.randrange(2 * m))]:
            value, _ = dc.run(a, b, m, square)
            expected = a * (a if square else b) * r_inverse % m
            assert value % m == expected and value < 2 * m
