"""BW6-761's description (curves/bw6_761.py) against EIP-3026's parameters, and the
pure-Python reference pairing the tests use (tests/bw6_761_reference.py) checked by
properties that need no other library: the two-chain with BLS12-377, the tower's
non-residue, the generators on their curves and in their subgroups, the Miller loops'
lattice relation, the Frobenius maps, the hard part of the final exponentiation against
the plain power, and the pairing's bilinearity, non-degeneracy and order."""
import random

import pytest

from evm384_native.curves.bls12_377 import BLS12_377
from evm384_native.curves.bw6 import Bw6Curve
from evm384_native.curves.bw6_761 import BW6_761

import bw6_761_reference as ref
from primes import is_prime


def test_the_description_is_the_eips():
    curve = BW6_761
    assert (curve.p, curve.r, curve.x) == (ref.P, ref.R, ref.X)
    assert (curve.g1, curve.g2) == (ref.G1, ref.G2)
    assert (curve.b % curve.p, curve.twist_b) == (ref.B, ref.TWIST_B)
    assert curve.fp3_nonresidue % curve.p == ref.W6 and curve.twist == "M"
    assert curve.loop_counts == (ref.LOOP_COUNT_1, ref.LOOP_COUNT_2)
    assert curve.field_bytes == 96                  # twelve limbs
    assert curve.p.bit_length() == 761 and curve.r.bit_length() == 377


def test_it_is_bls12_377s_outer_curve():
    assert BW6_761.r == BLS12_377.p and BW6_761.x == BLS12_377.x


def test_the_description_rejects_a_non_field_tower():
    with pytest.raises(ValueError, match="neither a cube nor a square"):
        Bw6Curve("bad", ref.P, ref.R, ref.X, -1, 1, "M", ref.G1, ref.G2)
    with pytest.raises(ValueError, match="twist"):
        Bw6Curve("bad", ref.P, ref.R, ref.X, -1, -4, "X", ref.G1, ref.G2)


def test_the_primes_and_the_embedding_degree():
    p, r = ref.P, ref.R
    for n in (p, r):                      # Miller-Rabin to 40 bases: prime
        assert is_prime(n)
    assert (p * p - p + 1) % r == 0       # r | Phi_6(p): embedding degree 6
    assert all((p**k - 1) % r for k in (1, 2, 3))


def test_the_tower_non_residue():
    p = ref.P
    assert p % 6 == 1
    assert pow(ref.W6, (p - 1) // 3, p) != 1       # -4: no cube, Fp[u]/(u^3 + 4) a field
    assert pow(ref.W6, (p - 1) // 2, p) == p - 1   # no square: u no square in Fp3
    assert ref.TWIST_B == ref.B * ref.W6 % p       # M type: b' = b xi


def test_the_generators_are_on_their_curves_and_in_their_subgroups():
    assert ref.g1_in_subgroup(ref.G1) and ref.g2_in_subgroup(ref.G2)
    assert ref.multiply(ref.G1, ref.R - 1) == ref.neg(ref.G1)
    assert not ref.on_curve(ref.G2, ref.B) and not ref.on_curve(ref.G1, ref.TWIST_B)
    assert not ref.on_curve((0, 0), ref.B) and not ref.on_curve((0, 0), ref.TWIST_B)
    for b in (ref.B, ref.TWIST_B):       # points of E(Fp), E'(Fp) outside G1, G2
        x = next(x for x in range(2, 100) if pow(x**3 + b, (ref.P - 1) // 2, ref.P) == 1)
        point = (x, pow(x**3 + b, (ref.P + 1) // 4, ref.P))      # p = 3 mod 4
        assert ref.on_curve(point, b)
        assert ref.multiply(point, ref.R) is not ref.INFINITY


def test_the_loop_counts_are_an_optimal_ate_vector():
    x, p, r = ref.X, ref.P, ref.R
    assert (ref.LOOP_COUNT_1, ref.LOOP_COUNT_2) == (x + 1, x**3 - x**2 - x)
    assert (ref.LOOP_COUNT_1 + p * ref.LOOP_COUNT_2) % r == 0


def _random_fp6(rng):
    return [rng.randrange(ref.P) for _ in range(6)]


def test_the_frobenius_maps_are_the_powers():
    rng = random.Random(1)
    a = _random_fp6(rng)
    assert ref.frobenius(a) == ref.poly_pow(a, ref.P)
    assert ref._conjugate(a) == ref.poly_pow(a, ref.P**3)
    assert ref.poly_mul(a, ref.poly_pow(a, -1)) == ref.ONE


def test_the_hard_part_is_the_papers_multiple_of_the_plain_power():
    x, p, r = ref.X, ref.P, ref.R
    e0 = sum(c * x**i for i, c in enumerate(ref.E0))
    e1 = sum(c * x**i for i, c in enumerate(ref.E1))
    assert e0 + e1 * p == ref.HARD_MULTIPLE * (p * p - p + 1) // r
    assert ref.HARD_MULTIPLE % r and ref.HARD_MULTIPLE == 3 * (x**3 - x**2 + 1)
    m = ref.easy_part(_random_fp6(random.Random(2)))
    assert ref.poly_pow(m, p * p - p + 1) == ref.ONE            # cyclotomic
    plain = ref.poly_pow(m, (p * p - p + 1) // r)
    assert ref.hard_part(m) == ref.poly_pow(plain, ref.HARD_MULTIPLE)
    assert ref.poly_pow(ref.hard_part(m), r) == ref.ONE


def test_the_easy_and_hard_parts_make_the_final_exponentiation():
    f = _random_fp6(random.Random(4))
    plain = ref.final_exponentiation(f)
    assert ref.poly_pow(plain, ref.HARD_MULTIPLE) == ref.hard_part(ref.easy_part(f))


@pytest.fixture(scope="module")
def e_g1_g2():
    return ref.pairing(ref.G1, ref.G2)


def test_the_pairing_is_not_degenerate_and_has_order_r(e_g1_g2):
    assert e_g1_g2 != ref.ONE
    assert ref.poly_pow(e_g1_g2, ref.R) == ref.ONE
    assert ref.pairing(ref.INFINITY, ref.G2) == ref.ONE == ref.pairing(ref.G1, ref.INFINITY)


def test_the_pairing_is_bilinear(e_g1_g2):
    rng = random.Random(3)
    a, b = rng.randrange(1, ref.R), rng.randrange(1, ref.R)
    left = ref.pairing(ref.multiply(ref.G1, a), ref.multiply(ref.G2, b))
    assert left == ref.poly_pow(e_g1_g2, a * b % ref.R)


def test_the_pairing_is_linear_in_each_argument(e_g1_g2):
    p1, p2 = ref.multiply(ref.G1, 5), ref.multiply(ref.G1, 7)
    assert ref.pairing(ref.add(p1, p2), ref.G2) == \
        ref.poly_mul(ref.pairing(p1, ref.G2), ref.pairing(p2, ref.G2))
    q = ref.multiply(ref.G2, 11)
    assert ref.pairing(ref.G1, q) == ref.poly_pow(e_g1_g2, 11)


def test_each_miller_loop_alone_is_no_pairing(e_g1_g2):
    """The EIP's product of both loops is needed: f_{x+1,Q}(P) alone, raised to the final
    exponent, is not bilinear (it is a power of the pairing times a non-pairing)."""
    q = ref.multiply(ref.G2, 2)
    one_loop = ref.final_exponentiation(ref.miller_loop(ref.LOOP_COUNT_1, ref.G1, q))
    assert one_loop != ref.poly_pow(
        ref.final_exponentiation(ref.miller_loop(ref.LOOP_COUNT_1, ref.G1, ref.G2)), 2)


def test_pairing_products():
    a, b = 12345, 678
    p, q = ref.multiply(ref.G1, a), ref.multiply(ref.G2, b)
    minus = ref.neg(ref.multiply(ref.G1, a * b))
    assert ref.pairing_product_is_one([(p, q), (minus, ref.G2)])
    assert not ref.pairing_product_is_one([(p, q), (ref.neg(ref.G1), ref.G2)])
    assert ref.pairing_product_is_one([(ref.INFINITY, q), (p, ref.INFINITY)])


# --- what makes the contract's subgroup tests sound (bw6_761/pairing_input.py) ----------------

def _curve_orders():
    """#E(Fp) and #E'(Fp) from the CM method (D = 3): 4p = t^2 + 3 y^2 by Cornacchia, the
    six traces of the curves y^2 = x^3 + b, each order confirmed on a point."""
    import math
    p = ref.P
    root = pow(p - 3, (p + 1) // 4, p)                 # sqrt(-3), p = 3 mod 4
    a, b = p, root
    while b * b > p:
        a, b = b, a % b
    y = math.isqrt((p - b * b) // 3)
    assert b * b + 3 * y * y == p
    t, y = 2 * b, 2 * y                                 # 4p = t^2 + 3 y^2
    traces = {s * u for s in (1, -1) for u in (t, (t + 3 * y) // 2, (t - 3 * y) // 2)}
    orders = []
    for curve_b in (ref.B, ref.TWIST_B):
        x = next(x for x in range(2, 100) if pow(x**3 + curve_b, (ref.P - 1) // 2, ref.P) == 1)
        point = (x, pow(x**3 + curve_b, (ref.P + 1) // 4, ref.P))
        found = [p + 1 - trace for trace in traces
                 if (p + 1 - trace) % ref.R == 0 and ref.multiply(point, p + 1 - trace) is None]
        assert len(found) == 1
        orders.append(found[0])
    return orders


def test_the_kernel_test_passes_g1_and_g2_exactly():
    """[a] P + phi([b] P) = O (pairing_input.kernel_scalars): the endomorphism a + b phi has
    degree a^2 - a b + b^2 (the norm of a + b omega); its kernel in E(Fp) and in E'(Fp) has
    order dividing gcd(degree, #E(Fp)) = gcd(degree, #E'(Fp)) = r: exactly G1 and G2.
    ePrint 2022/352's vector (x + 1, x^3 - x^2 + 1), of which this is the product by
    (1 - phi) / 3, has gcd 3 r with #E'(Fp): it passes E'(Fp)'s 3-torsion (0, +-2)."""
    import math
    from evm384_native.bw6_761.pairing_input import kernel_scalars
    t, a, b = kernel_scalars(ref.X)
    assert 3 * t == ref.X - 1
    degree = a * a - a * b + b * b
    n1, n2 = _curve_orders()
    assert math.gcd(degree, n1) == ref.R
    assert math.gcd(degree, n2) == ref.R
    old_a, old_b = ref.X + 1, ref.X**3 - ref.X**2 + 1
    assert math.gcd(old_a * old_a - old_a * old_b + old_b * old_b, n2) == 3 * ref.R
    # 3 (a + b phi) = (old_a + old_b phi)(1 - phi) with phi^2 = -1 - phi
    assert (3 * a, 3 * b) == (old_a + old_b, 2 * old_b - old_a)
    # on the generators, with the contract's omegas (the test rejects no member)
    from evm384_native.bw6_761.pairing_input import subgroup_omegas
    from evm384_native.curves.bw6_761 import BW6_761
    for g, omega in zip((ref.G1, ref.G2), subgroup_omegas(BW6_761)):
        right = ref.multiply(g, b)
        assert ref.add(ref.multiply(g, a), (omega * right[0] % ref.P, right[1])) is None
    with pytest.raises(ValueError, match="x = 1 mod 3"):
        kernel_scalars(ref.X + 1)
