"""The field tower and the final exponentiation over BN254 (xi = 9 + u, a D-type twist),
run as EVM384 code, against py_ecc's ``bn128`` FQ12 (another tower: w^12 - 18 w^6 + 82;
ours maps to it by u = w^6 - 9, since w^6 = xi in both) and plain integers."""
import random
from functools import partial

import pytest
from py_ecc import bn128
from py_ecc.fields import bn128_FQ2 as FQ2, bn128_FQ12 as FQ12

import tower_routines
from evm384_native.asm import G1, G2, Fp2, Fp6, Fp12, G2Jacobian
from evm384_native.curves import BN254
from evm384_native.tower import fp, fp2, fp12, projective
from evm384_native.tower.families import family_of
from evm384_native.tower.pairing import FinalExponentiation

P, R, X = BN254.p, BN254.r, BN254.x
run_routine = partial(tower_routines.run_routine, BN254)


def to_fq12(values):
    """Our Fp12 (12 ints, c0.c0.c0 .. c1.c2.c1) as py_ecc's: the Fp2 coefficient of w^i
    (c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2 for i = 0..5) is a + b u = a + b (w^6 - 9)."""
    pairs = [values[2 * j:2 * j + 2] for j in range(6)]           # c0.c0 .. c1.c2
    by_power = [pairs[0], pairs[3], pairs[1], pairs[4], pairs[2], pairs[5]]
    coeffs = [0] * 12
    for i, (a, b) in enumerate(by_power):
        coeffs[i] = (a - 9 * b) % P
        coeffs[i + 6] = b
    return FQ12(coeffs)


def random_values(rng, count):
    return [rng.randrange(P) for _ in range(count)]


@pytest.mark.parametrize("seed", [1, 2])
def test_products_squares_inverse_and_frobenius(seed):
    rng = random.Random(seed)
    a, b = random_values(rng, 12), random_values(rng, 12)
    fa, fb = to_fq12(a), to_fq12(b)
    assert to_fq12(run_routine(lambda e, o, x, y: fp12.mul(e, o, x, y),
                               [(Fp12, a), (Fp12, b)], Fp12)) == fa * fb
    assert to_fq12(run_routine(lambda e, o, x: fp12.sqr(e, o, x), [(Fp12, a)], Fp12)) == fa * fa
    assert to_fq12(run_routine(lambda e, o, x: fp12.inverse(e, o, x),
                               [(Fp12, a)], Fp12)) == fa.inv()
    for n in (1, 2, 3):
        assert to_fq12(run_routine(lambda e, o, x, n=n: fp12.frobenius(e, o, x, n),
                                   [(Fp12, a)], Fp12)) == fa ** (P ** n)


def test_the_compact_squaring_and_the_products_by_xi():
    rng = random.Random(3)
    a = random_values(rng, 12)

    def compact_sqr(e, o, x):
        e.compact = True                          # the complex squaring (compact builds)
        fp12.sqr(e, o, x)
    assert to_fq12(run_routine(compact_sqr, [(Fp12, a)], Fp12)) == to_fq12(a) ** 2
    v = random_values(rng, 2)
    got = run_routine(lambda e, o, x: fp2.mul_by_xi(e, o, x), [(Fp2, v)], Fp2)
    assert got == [(9 * v[0] - v[1]) % P, (v[0] + 9 * v[1]) % P]


def test_sparse_products_of_a_d_type_line_and_of_one_plus_t_w():
    """A D-type line l0‖l1‖l2 is l2 + l1 w + l0 v w; 1 + t w for t in Fp6."""
    rng = random.Random(4)
    a, line, t = random_values(rng, 12), random_values(rng, 6), random_values(rng, 6)
    l0, l1, l2 = line[0:2], line[2:4], line[4:6]
    dense = l2 + [0, 0, 0, 0] + l1 + l0 + [0, 0]             # c0 = (l2, 0, 0), c1 = (l1, l0, 0)
    assert to_fq12(run_routine(lambda e, o, x, l: fp12.mul_by_line(e, o, x, l),
                               [(Fp12, a), (Fp6, line)], Fp12)) == to_fq12(a) * to_fq12(dense)
    one_plus = [1, 0, 0, 0, 0, 0] + t
    assert to_fq12(run_routine(lambda e, o, x, s: fp12.mul_by_one_plus(e, o, x, s),
                               [(Fp12, a), (Fp6, t)], Fp12)) == to_fq12(a) * to_fq12(one_plus)


def test_cyclotomic_squaring():
    rng = random.Random(5)
    f = to_fq12(random_values(rng, 12))
    g = f ** (P ** 6 - 1)
    g = g ** (P ** 2) * g                          # in the cyclotomic subgroup
    values = _values_of(g)
    assert to_fq12(run_routine(lambda e, o, x: fp12.cyclotomic_sqr(e, o, x),
                               [(Fp12, values)], Fp12)) == g * g


def _values_of(element):
    """The inverse of to_fq12."""
    c = [int(v) % P for v in element.coeffs]
    by_power = [((c[i] + 9 * c[i + 6]) % P, c[i + 6]) for i in range(6)]
    pairs = [by_power[0], by_power[2], by_power[4], by_power[1], by_power[3], by_power[5]]
    return [v for pair in pairs for v in pair]


def test_the_hard_part_is_a_power_coprime_to_r_of_the_reduced_pairing():
    """Modulo p^4 - p^2 + 1 (the order of the cyclotomic subgroup) the chain's exponent
    2x z + 1 - p^3 is k (p^4 - p^2 + 1) / r with k = 2x (6x^2 + 3x + 1), gcd(k, r) = 1."""
    phi = P ** 4 - P ** 2 + 1
    s = 1 + P + P ** 2 + P ** 3
    v = (2 * X + 1) * s + 1
    z = 3 * X * v + 2 * s + 1 + P ** 2
    k = 2 * X * (6 * X * X + 3 * X + 1)
    assert (2 * X * z + 1 - P ** 3 - k * (phi // R)) % phi == 0
    assert k % R != 0


@pytest.mark.slow
def test_the_final_exponentiation_on_a_random_element():
    rng = random.Random(6)
    values = random_values(rng, 12)
    got = run_routine(_final_exp, [(Fp12, values)], Fp12)
    k = 2 * X * (6 * X * X + 3 * X + 1)
    assert to_fq12(got) == to_fq12(values) ** ((P ** 12 - 1) // R * k)


def _final_exp(e, out, f):
    FinalExponentiation(e).emit(f)
    fp.copy(e, out, f)


def test_the_hint_exponent():
    """E = -(lambda^-1 mod (p^6 + 1) / r) with lambda = 6x + 2 + p - p^2 + p^3 a multiple of
    r coprime to (p^6 + 1) / r: then f cinv^lambda = f^(1 + E lambda) lies in Fp6*."""
    family = family_of(BN254)
    lam = family.residue_lambda(BN254)
    order = (P ** 6 + 1) // R
    exponent, digits = family.hint_exponent(BN254)
    assert lam % R == 0 and (1 + exponent * lam) % order == 0
    assert P ** (digits - 1) <= exponent < P ** digits


def _fq2(pair):
    return FQ2(list(pair))


def _projective_affine(values):
    """(X, Y, Z) over Fp2 (six ints) -> the affine point (X / Z, Y / Z) as py_ecc's FQ2s."""
    x, y, z = _fq2(values[0:2]), _fq2(values[2:4]), _fq2(values[4:6])
    return (x / z, y / z)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_projective_miller_steps_move_t_as_py_ecc_does(seed):
    """The projective doubling and mixed addition (tower/projective.py; their lines are
    checked by every pairing the contracts compute) take T (in a random representation
    X = x s, Y = y s, Z = s) to 2 T and T + Q, as py_ecc's G2 arithmetic."""
    rng = random.Random(seed)
    t, q = bn128.multiply(bn128.G2, rng.randrange(1, R)), bn128.multiply(bn128.G2, rng.randrange(1, R))
    s = _fq2((rng.randrange(1, P), rng.randrange(P)))
    t_values = [int(c) for v in (t[0] * s, t[1] * s, s) for c in v.coeffs]
    q_values = [int(c) for v in q for c in v.coeffs]
    px = random_values(rng, 2)

    def step(e, out, t_slot, q_slot, px_slot, add):
        with e.asm.temps(Fp6) as (line,):
            if add:
                projective.line_add(e, line, t_slot, q_slot, px_slot)
            else:
                projective.line_dbl(e, line, t_slot, px_slot)
        fp.copy(e, out, t_slot)
    inputs = [(G2Jacobian, t_values), (G2, q_values), (G1, px)]
    doubled = run_routine(lambda e, o, *a: step(e, o, *a, add=False), inputs, G2Jacobian)
    added = run_routine(lambda e, o, *a: step(e, o, *a, add=True), inputs, G2Jacobian)
    assert _projective_affine(doubled) == bn128.double(t)
    assert _projective_affine(added) == bn128.add(t, q)


def _cyclotomic_element(rng):
    f = to_fq12(random_values(rng, 12))
    g = f ** (P ** 6 - 1)
    return g ** (P ** 2) * g


@pytest.mark.parametrize("spare", [0, 1, 2, 3])
def test_the_power_by_x_with_odd_powers_kept(spare):
    """pow_x with ``spare`` slots for odd powers (x's digits: the NAF, then its width-3
    NAF with a and a^3 kept, :func:`exponent_digits`) is a^x for a in the cyclotomic
    subgroup, whatever slots it is given."""
    g = _cyclotomic_element(random.Random(7))

    def power(e, out, a):
        with e.asm.temps(*[Fp12] * spare) as powers:
            fe = FinalExponentiation(e, powers=powers)
            assert max(map(abs, fe.digits)) == (1 if spare < 2 else 3)
            fe.pow_x(out, a)
    assert to_fq12(run_routine(power, [(Fp12, _values_of(g))], Fp12)) == g ** X


@pytest.mark.slow
def test_the_final_exponentiation_with_odd_powers_kept():
    rng = random.Random(8)
    values = random_values(rng, 12)

    def final_exp(e, out, f):
        with e.asm.temps(Fp12, Fp12) as powers:
            FinalExponentiation(e, powers=powers).emit(f)
        fp.copy(e, out, f)
    got = run_routine(final_exp, [(Fp12, values)], Fp12)
    k = 2 * X * (6 * X * X + 3 * X + 1)
    assert to_fq12(got) == to_fq12(values) ** ((P ** 12 - 1) // R * k)
