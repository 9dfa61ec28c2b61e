"""modexp/deferred.py's Montgomery square and product of 2048-bit numbers (nine 248-bit
limbs, deferred carries), run alone by tests/modexp_deferred_harness.py, against
Python's integers: (A B + Q M) / R is A B R**-1 mod M and below 2 M; runs of squarings
(each square's digits the next one's limbs, below M) against the same steps in integers."""
from __future__ import annotations

import random

import pytest

from evm384_native.modexp import deferred

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


def _square(a: int, m: int) -> int:
    """Montgomery's square as the columns make it: (A**2 + Q M) / R with Q < R the one
    that makes R divide it (unique), so the value, not only its residue, is known."""
    r = 1 << dc.R_BITS
    q = -a * a * pow(m, -1, r) % r
    return (a * a + q * m) // r


def _runs():
    """(A, M): edge and random operands, and pairs whose squares land in [M, 2 M) (the
    subtraction) or whose top limbs tie M's (the full comparison)."""
    rng = random.Random(3)
    for m in _moduli():
        yield from [(m - 1, m), (0, m), (1, m), (rng.randrange(m), m)]
    top = (1 << 2048) - 1                          # V >= M often: A near M near R
    for _ in range(40):
        m = top - 2 * rng.getrandbits(1000)
        yield rng.randrange(m - (1 << 1900), m), m
    short = rng.getrandbits(1900) | 1 << 1899 | 1  # M's limb 8 is 0: the tie on limb 8
    yield short - 1, short
    yield rng.randrange(short), short


def test_runs_of_squarings():
    """Three squares in a row against the integers, every step's input below M; the cases
    take the subtraction (a square in [M, 2 M)) and the tie on the top limb."""
    taken = tied = 0
    for a, m in _runs():
        value, expected = a, a
        for i in range(3):
            if i:
                taken += expected >= m
                tied += expected >> 1984 == m >> 1984
                expected -= m * (expected >= m)
            expected = _square(expected, m)
        value, _ = dc.run(a, a, m, square=True, squarings=3)
        assert value == expected, (hex(a), hex(m))
    assert taken >= 5 and tied >= 5


def test_below_modulus():
    """The next square's limbs from D's digits, V - M when V >= M: every way the top limbs
    compare (below, tied on limb 8 and below or above on limb 7, tied on both, above)."""
    rng = random.Random(4)
    limb = 1 << deferred.BITS
    for m in list(_moduli()) + [((1 << 64) - 1 << 1984) | rng.getrandbits(1984) | 1]:
        for v in [0, 1, m - 1, m, m + 1, 2 * m - 1, rng.randrange(m), rng.randrange(m, 2 * m),
                  m + limb ** 7, m - limb ** 7, m + limb ** 7 // 2, m + limb ** 6, m - limb ** 6,
                  (m >> 1736 << 1736) + limb ** 7 - 1, m >> 1736 << 1736]:
            if 0 <= v < 2 * m:
                assert dc.below(v, m) == v - m * (v >= m), (hex(v), hex(m))
