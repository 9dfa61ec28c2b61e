"""The bound of the GLV split (evm384_native/ec/glv.py, step 1 of its doc) proved on its
parts against exact rationals: q1, q2 recovered from (k1, k2) by the basis (determinant r)
are of the parities that make k1, k2 odd and within 1 + |g_i r - 2^256 c_i| / 2^256 +
2^-126 of the exact c_i k / r (g_i = round(2^256 c_i / r)), for BN254 (ECMUL) and
secp256k1 (ECRECOVER); at the extremes (c_i k / r on an
integer of the wrong parity, where the error is 1) and for any k (hypothesis). The old
rule (round, then fix the parity) misses the bound at k's where c_i k / r is an odd
integer plus 1/2 (error 3/2): a mutant the extremes catch."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.curves import BN254
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.ec import glv

CURVES = {"bn254": BN254, "secp256k1": SECP256K1}


def _quotients(k, k1, k2, curve):
    """q1, q2 with (k1, k2) = (k, 0) + q1 v1 + q2 v2, by Cramer's rule (exact)."""
    (a1, b1), (a2, b2) = curve.glv.basis
    det = a1 * b2 - a2 * b1
    n1, n2 = (k1 - k) * b2 - a2 * k2, a1 * k2 - b1 * (k1 - k)
    assert det == curve.r and n1 % det == 0 and n2 % det == 0
    return n1 // det, n2 // det


def _exact(k, curve):
    """c_i k / r: (k, 0) + x1 v1 + x2 v2 = 0."""
    (a1, b1), (a2, b2) = curve.glv.basis
    return Fraction(-b2 * k, curve.r), Fraction(b1 * k, curve.r)


def _errors(k, curve):
    k1, k2 = glv.split(k, curve.glv, curve.r)
    assert (k1 + k2 * curve.glv.lam - k) % curve.r == 0
    assert k1 % 2 == k2 % 2 == 1
    q1, q2 = _quotients(k, k1, k2, curve)
    assert q2 % 2 == 1 and q1 % 2 == k % 2
    bound = glv.bound(curve.glv, curve.r)
    assert abs(k1) < bound and abs(k2) < bound, k
    return [abs(q - x) / allowed for q, x, allowed in zip((q1, q2), _exact(k, curve),
                                                          _allowed(curve))]


def _allowed(curve):
    """Each quotient's error bound: 1, g_i's rounding error times k < r, the dropped bits."""
    multipliers = [round(2**256 * c) for c in _exact(1, curve)]
    return [1 + abs(g - 2**256 * c) * Fraction(curve.r, 2**256) + Fraction(1, 2**126)
            for g, c in zip(multipliers, _exact(1, curve))]


def _extremes(curve, count=200):
    """k's where |c_i k / r| falls on (and next to) an integer, even or odd (one of them
    the wrong parity for q_i), or on an odd integer plus 1/2 (the old rule's worst), at the
    bottom and the top of [0, r)."""
    out = []
    for c in (abs(x) for x in _exact(1, curve)):
        top = int(c * (curve.r - 1))
        for m in range(count):
            for t in (2 * m, 2 * m + 1, 2 * m + Fraction(3, 2), top - 2 * m,
                      top - 2 * m - 1, top - 2 * m - Fraction(1, 2)):
                k = round(t / c)
                out += [k + d for d in (-1, 0, 1) if 0 <= k + d < curve.r]
    return out


@pytest.mark.parametrize("name", sorted(CURVES))
def test_the_quotients_are_within_one_of_their_parity_at_the_extremes(name):
    curve = CURVES[name]
    worst = max(max(_errors(k, curve)) for k in _extremes(curve) + [0, 1, curve.r - 1])
    assert Fraction(9, 10) < worst < 1                 # errors as fractions of the bounds


def test_bn254_halves_fit_two_bit_lowest_digit():
    """25 digits of 5 bits above one of 2: 2^127 must bound |k_i|."""
    assert glv.bound(BN254.glv, BN254.r) < 2**127
    (a1, b1), (a2, b2) = BN254.glv.basis
    e1, e2 = _allowed(BN254)
    assert max(e1 * abs(a1) + e2 * abs(a2), e1 * abs(b1) + e2 * abs(b2)) < 2**127


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(CURVES)), st.data())
def test_the_quotients_are_within_one_of_their_parity(name, data):
    curve = CURVES[name]
    k = data.draw(st.integers(0, curve.r - 1))
    assert max(_errors(k, curve)) < 1
