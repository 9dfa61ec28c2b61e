"""modexp/deferred.py's Montgomery square and product of 2048-bit numbers (nine 248-bit
limbs, deferred carries), run alone by tests/modexp_deferred_harness.py, against
Python's integers: (A B + Q M) / R is A B R**-1 mod M and below 2 M."""
from __future__ import annotations

import random

import pytest

import modexp_deferred_harness as dc


def _moduli():
    rng = random.Random(7)
    yield rng.getrandbits(2048) | 1 << 2047 | 1
    yield (1 << 2048) - 1                          # every limb full
    yield (1 << 2047) + 1                          # one bit and the unit
    yield rng.getrandbits(1800) | 1 << 1799 | 1    # a short top word


@pytest.mark.parametrize("square", [True, False], ids=["square", "product"])
def test_against_integers(square):
    rng = random.Random(int(square))
    for m in _moduli():
        r_inverse = pow(2, -dc.R_BITS, m)
        for a, b in [(m - 1, m - 1), (0, m - 1), (m - 1, 1), (1, 1),
                     (rng.randrange(m), rng.randrange(m)), (rng.randrange(m), rng.randrange(m))]:
            value, _ = dc.run(a, b, m, square)
            assert value % m == a * (a if square else b) * r_inverse % m and value < 2 * m
