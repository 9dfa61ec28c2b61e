"""BLS12-377's description (curves/bls12_377.py) against EIP-2539's parameters, and the
pure-Python reference pairing the tests use (tests/bls12_377_reference.py) checked by
properties that need no other library: the family's polynomials, the tower's
non-residues, the generators on their curves and in their subgroups, and the pairing's
bilinearity, non-degeneracy and order."""
import random

import pytest

from evm384_native.curves import CURVES, resolve_curve
from evm384_native.curves.bls12_377 import BLS12_377

import bls12_377_reference as ref
from primes import is_prime


def test_the_description_is_the_eips():
    curve = BLS12_377
    assert (curve.p, curve.r, curve.x) == (ref.P, ref.R, ref.X)
    assert (curve.g1, curve.g2, curve.twist_b) == (ref.G1, ref.G2, ref.TWIST_B)
    assert (curve.p - 5, curve.twist, curve.xi) == (ref.NON_RESIDUE, "D", (0, 1))
    assert resolve_curve("bls12_377") is curve and CURVES["bls12_377"] is curve
    assert curve.field_bytes == 48                  # six limbs: EVM384's size fits


def test_the_family_polynomials():
    x = BLS12_377.x
    assert BLS12_377.r == x**4 - x**2 + 1
    assert BLS12_377.p == (x - 1) ** 2 * BLS12_377.r // 3 + x
    assert BLS12_377.p.bit_length() == 377 and BLS12_377.r.bit_length() == 253
    for n in (BLS12_377.p, BLS12_377.r):      # Miller-Rabin to 40 bases: prime
        assert is_prime(n)


def test_the_tower_non_residues():
    p = BLS12_377.p
    assert pow(p - 5, (p - 1) // 2, p) == p - 1          # -5: no square, Fp2 is a field
    assert pow(p - 1, (p - 1) // 2, p) == 1              # -1 is one (p = 1 mod 4)
    # u: no cube in Fp2 (u^((p^2 - 1) / 3) != 1), so Fp2[v]/(v^3 - u) is a field
    u = [0] * 6 + [1] + [0] * 5
    assert ref.poly_pow(u, (p * p - 1) // 3) != ref.ONE
    # the twist's b is 1 / u (D type): b' u = 1
    assert ref.f2_mul(BLS12_377.twist_b, (0, 1)) == (1, 0)


def test_the_generators_are_on_their_curves_and_in_their_subgroups():
    assert ref.g1_in_subgroup(BLS12_377.g1) and ref.g2_in_subgroup(BLS12_377.g2)
    assert ref.multiply(ref.FP, BLS12_377.g1, ref.R - 1) == ref.neg(ref.FP, BLS12_377.g1)
    # a point of E(Fp) outside G1: the cofactor is not 1
    x = next(x for x in range(2, 100) if pow(x**3 + 1, (ref.P - 1) // 2, ref.P) == 1)
    y = _sqrt(x**3 + 1)
    assert ref.on_curve(ref.FP, (x, y), 1) and not ref.g1_in_subgroup((x, y))


def _sqrt(a: int) -> int:
    """A square root mod p by Tonelli-Shanks (p = 1 mod 4 here)."""
    p = ref.P
    q, s = p - 1, 0
    while q % 2 == 0:
        q, s = q // 2, s + 1
    z = next(z for z in range(2, 100) if pow(z, (p - 1) // 2, p) == p - 1)
    m, c, t, root = s, pow(z, q, p), pow(a, q, p), pow(a, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2, i = t2 * t2 % p, i + 1
        b = pow(c, 1 << (m - i - 1), p)
        m, c, t, root = i, b * b % p, t * b * b % p, root * b % p
    assert root * root % p == a % p
    return root


@pytest.fixture(scope="module")
def e_g1_g2():
    return ref.pairing(ref.G1, ref.G2)


def test_the_pairing_is_not_degenerate_and_has_order_r(e_g1_g2):
    assert e_g1_g2 != ref.ONE
    assert ref.poly_pow(e_g1_g2, ref.R) == ref.ONE
    assert ref.pairing(ref.INFINITY, ref.G2) == ref.ONE == ref.pairing(ref.G1, ref.INFINITY)


@pytest.mark.slow
def test_the_pairing_is_bilinear(e_g1_g2):
    rng = random.Random(3)
    a, b = rng.randrange(1, ref.R), rng.randrange(1, ref.R)
    left = ref.pairing(ref.multiply(ref.FP, ref.G1, a), ref.multiply(ref.FP2, ref.G2, b))
    assert left == ref.poly_pow(e_g1_g2, a * b % ref.R)
    # linear in each argument: e(P1 + P2, Q) = e(P1, Q) e(P2, Q)
    p1, p2 = (ref.multiply(ref.FP, ref.G1, k) for k in (a, b))
    assert ref.pairing(ref.add(ref.FP, p1, p2), ref.G2) == \
        ref.poly_mul(ref.pairing(p1, ref.G2), ref.pairing(p2, ref.G2))


def test_pairing_products():
    a, b = 12345, 678
    p, q = ref.multiply(ref.FP, ref.G1, a), ref.multiply(ref.FP2, ref.G2, b)
    minus = ref.neg(ref.FP, ref.multiply(ref.FP, ref.G1, a * b))
    assert ref.pairing_product_is_one([(p, q), (minus, ref.G2)])
    assert not ref.pairing_product_is_one([(p, q), (ref.neg(ref.FP, ref.G1), ref.G2)])
    assert ref.pairing_product_is_one([(ref.INFINITY, q), (p, ref.INFINITY)])
