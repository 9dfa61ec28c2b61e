"""The k = 6 tower as EVM code (tower/fp3.py, tower/fp6_over_fp3.py) over BW6-761 on
EVMMAX, both engines, against the reference's Fp6 = Fp[w]/(w^6 + 4) on plain integers
(tests/bw6_761_reference.py): Fp3 = Fp[u]/(u^3 + 4) is its subfield of even powers of w."""
import random
from dataclasses import replace

import pytest

from evm384_native.asm import G1, array
from evm384_native.curves.bw6_761 import BW6_761
from evm384_native.tower import fp, fp3, fp6_over_fp3 as fp6
from evm384_native.tower.fp3 import Fp3
from evm384_native.tower.fp6_over_fp3 import Fp6OverFp3
from evm384_native.tower.pairing_k6 import FinalExponentiation, MillerLoops

import bw6_761_reference as ref
import tower_routines
from bw6_761_routines import VALUE, from_poly, run_routine, to_poly

ENGINES = ("fast", "python")


def _values(rng, count):
    return [rng.randrange(ref.P) for _ in range(count)]


def _fp3_poly(values):
    """An Fp3 value c0 + c1 u + c2 u^2 as a polynomial in w (u = w^2)."""
    return [values[0], 0, values[1], 0, values[2], 0]


@pytest.mark.parametrize("engine", ENGINES)
def test_fp3_routines(engine):
    rng = random.Random(1)
    a, b, s = _values(rng, 3), _values(rng, 3), _values(rng, 2)
    fa, fb = _fp3_poly(a), _fp3_poly(b)
    u = _fp3_poly([0, 1, 0])
    cases = {
        "mul": (lambda e, o, x, y, z: fp3.mul(e, o, x, y), ref.poly_mul(fa, fb)),
        "mul in place": (lambda e, o, x, y, z: (fp3.mul(e, x, x, y), fp.copy(e, o, x)),
                         ref.poly_mul(fa, fb)),
        "sqr": (lambda e, o, x, y, z: fp3.sqr(e, o, x), ref.poly_mul(fa, fa)),
        "sqr in place": (lambda e, o, x, y, z: (fp3.sqr(e, x, x), fp.copy(e, o, x)),
                         ref.poly_mul(fa, fa)),
        "mul_by_u": (lambda e, o, x, y, z: fp3.mul_by_u(e, o, x), ref.poly_mul(fa, u)),
        "mul_by_01": (lambda e, o, x, y, z: fp3.mul_by_01(e, o, x, z.c0, z.c1),
                      ref.poly_mul(fa, _fp3_poly([s[0], s[1], 0]))),
        "inverse": (lambda e, o, x, y, z: fp3.inverse(e, o, x), None),
    }
    for name, (build, expected) in cases.items():
        got = _fp3_poly(run_routine(build, [(Fp3, a), (Fp3, b), (Fp3, s + [0])], Fp3,
                                    engine=engine))
        if expected is None:
            assert ref.poly_mul(got, fa) == ref.ONE, name
        else:
            assert got == expected, name


@pytest.mark.parametrize("engine", ENGINES)
def test_fp6_routines(engine):
    rng = random.Random(2)
    a, b, line = _values(rng, 6), _values(rng, 6), _values(rng, 3)
    fa, fb = to_poly(a), to_poly(b)
    m = ref.easy_part(fa)                               # cyclotomic
    sparse = [line[0], 0, line[1], line[2], 0, 0]       # l0 + l2 w^2 + l3 w^3

    def run(build, *inputs):
        return to_poly(run_routine(build, list(inputs), Fp6OverFp3, engine=engine))
    assert run(lambda e, o, x, y: fp6.mul(e, o, x, y), (Fp6OverFp3, a), (Fp6OverFp3, b)) \
        == ref.poly_mul(fa, fb)
    assert run(lambda e, o, x, y: (fp6.mul(e, y, x, y), fp6.add(e, o, y, e.zero)),
               (Fp6OverFp3, a), (Fp6OverFp3, b)) == ref.poly_mul(fa, fb)
    assert run(lambda e, o, x: fp6.sqr(e, o, x), (Fp6OverFp3, a)) == ref.poly_mul(fa, fa)
    assert run(lambda e, o, x: fp6.inverse(e, o, x), (Fp6OverFp3, a)) == \
        ref.poly_pow(fa, -1)
    assert run(lambda e, o, x: fp6.conj(e, o, x), (Fp6OverFp3, a)) == ref._conjugate(fa)
    assert run(lambda e, o, x: fp6.cyclotomic_sqr(e, o, x), (Fp6OverFp3, from_poly(m))) \
        == ref.poly_mul(m, m)
    assert run(lambda e, o, x, y: fp6.mul_by_line(e, o, x, y.c0.c0, y.c0.c1, y.c0.c2),
               (Fp6OverFp3, a), (Fp6OverFp3, line + [0, 0, 0])) == \
        ref.poly_mul(fa, sparse)
    for n in (1, 2, 3):
        assert run(lambda e, o, x, n=n: fp6.frobenius(e, o, x, n), (Fp6OverFp3, a)) == \
            ref.poly_pow(fa, ref.P ** n)



# --- the pairing's pieces -----------------------------------------------------------------

def _pairing_values(pairs, engine="fast"):
    """The Miller loops and the final exponentiation of ``pairs`` (finite points, G1 then
    G2 of each) as an EVMMAX program: f's values as a polynomial in w."""
    points = array(G1, 2 * len(pairs))

    def build(e, out, given):
        loops = MillerLoops(e, out)
        loops.start_records()
        for i in range(len(pairs)):
            p, q = getattr(given, f"e{2 * i}"), getattr(given, f"e{2 * i + 1}")
            fp.copy(e, loops.work.q, q)
            fp.neg(e, loops.work.p.x, p.x)
            fp.copy(e, loops.work.p.y, p.y)
            loops.store_work()
        loops.end_records()
        loops.emit()
        FinalExponentiation(e).emit(out)
    values = [v for pair in pairs for point in pair for v in point]
    return to_poly(run_routine(build, [(points, values)], Fp6OverFp3, engine=engine))


def _expected(pairs):
    f = ref.ONE
    for p, q in pairs:
        f = ref.poly_mul(f, ref.miller_loops(p, q))
    return ref.hard_part(ref.easy_part(f))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_pairing_is_the_references_times_the_papers_multiple(engine):
    pairs = [(ref.G1, ref.G2)]
    assert _pairing_values(pairs, engine) == _expected(pairs)


def test_pairing_products_on_evmmax():
    a, b = 1234567, 7654321
    p, q = ref.multiply(ref.G1, a), ref.multiply(ref.G2, b)
    minus = ref.neg(ref.multiply(ref.G1, a * b))
    assert _pairing_values([(p, q), (minus, ref.G2)]) == ref.ONE
    three = [(p, q), (ref.G1, ref.G2), (minus, ref.G2)]
    assert _pairing_values(three) == _expected(three) != ref.ONE


@pytest.mark.parametrize("xi", [-4, -9, -16])
def test_fp3_over_other_non_residues(xi):
    """Fp3 = Fp[u]/(u^3 - xi) for a non-residue that is a power of two (doublings) or
    not (a product by the constant), against plain polynomial arithmetic mod u^3 - xi."""
    curve = replace(BW6_761, fp3_nonresidue=xi)
    rng = random.Random(9)
    a, b = _values(rng, 3), _values(rng, 3)

    def product(x, y):
        out = [0] * 5
        for i, u in enumerate(x):
            for j, v in enumerate(y):
                out[i + j] += u * v
        return [(out[0] + xi * out[3]) % ref.P, (out[1] + xi * out[4]) % ref.P, out[2] % ref.P]

    def run(build):
        return tower_routines.run_on_target(curve, build, [(Fp3, a), (Fp3, b)], Fp3,
                                            target="evmmax", value_bytes=VALUE,
                                            little_endian=False, out_word=VALUE)
    assert run(lambda e, o, x, y: fp3.mul(e, o, x, y)) == product(a, b)
    assert run(lambda e, o, x, y: fp3.sqr(e, o, x)) == product(a, a)
    assert run(lambda e, o, x, y: fp3.mul_by_u(e, o, x)) == product(a, [0, 1, 0])
    assert product(run(lambda e, o, x, y: fp3.inverse(e, o, x)), a) == [1, 0, 0]


@pytest.mark.parametrize("xi", [-4, -9, -16])
def test_fp6_over_other_non_residues(xi):
    """fp6_over_fp3's products, squarings and line products for xi = -4 (doublings; the
    cyclotomic squaring's (u + 2 v)(u - 2 v)) and others (products by xi; the general
    norm), against plain polynomial arithmetic mod w^6 - xi; the cyclotomic squaring of a
    cyclotomic element (a random one to the power (p^3 - 1)(p + 1))."""
    curve = replace(BW6_761, fp3_nonresidue=xi)

    def product(x, y):
        out = [0] * 11
        for i, u in enumerate(x):
            for j, v in enumerate(y):
                out[i + j] += u * v
        return [(out[k] + xi * (out[k + 6] if k + 6 < 11 else 0)) % ref.P for k in range(6)]

    def power(x, n):
        result = [1, 0, 0, 0, 0, 0]
        for bit in bin(n)[2:]:
            result = product(result, result)
            if bit == "1":
                result = product(result, x)
        return result
    rng = random.Random(10)
    a, b = _values(rng, 6), _values(rng, 6)
    m = power(a, (ref.P ** 3 - 1) * (ref.P + 1))
    assert m != [1, 0, 0, 0, 0, 0]

    def run(build, x, y):
        return to_poly(tower_routines.run_on_target(
            curve, build, [(Fp6OverFp3, from_poly(x)), (Fp6OverFp3, from_poly(y))],
            Fp6OverFp3, target="evmmax", value_bytes=VALUE, little_endian=False,
            out_word=VALUE))
    assert run(lambda e, o, x, y: fp6.cyclotomic_sqr(e, o, x), m, b) == product(m, m)
    assert run(lambda e, o, x, y: fp6.sqr(e, o, x), a, b) == product(a, a)
    assert run(lambda e, o, x, y: fp6.mul(e, o, x, y), a, b) == product(a, b)
    sparse = [b[0], 0, b[2], b[3], 0, 0]                 # l0 + l2 w^2 + l3 w^3
    assert run(lambda e, o, x, y: fp6.mul_by_line(e, o, x, y.c0.c0, y.c0.c1, y.c1.c1),
               a, b) == product(a, sparse)


def _twist_point(rng, b):
    """A random point of y^2 = x^3 + b over Fp (p = 3 mod 4: square roots by a power)."""
    while True:
        x = rng.randrange(ref.P)
        y = pow((x**3 + b) % ref.P, (ref.P + 1) // 4, ref.P)
        if y * y % ref.P == (x**3 + b) % ref.P:
            return x, y


@pytest.mark.parametrize("twist_b", [4, 7])
def test_the_projective_steps_against_affine_arithmetic(twist_b):
    """pairing_k6's doubling and addition steps (homogeneous projective T and R, affine Q)
    on y^2 = x^3 + b' (BW6-761's b' = 4: 3 b' Z^2 by additions; 7: by a product), against
    affine formulas: the point 2T, T + Q, T + R, and a line proportional to
    (lambda xT - yT) + (-lambda xP) w^2 + yP w^3 for the slope lambda."""
    from evm384_native.asm import struct
    from evm384_native.tower.pairing_k6 import (Projective, SparseLine, line_add,
                                                line_add_projective, line_dbl)
    p_ = ref.P
    curve = replace(BW6_761, b=twist_b * pow(BW6_761.fp3_nonresidue, -1, p_) % p_)
    assert curve.twist_b == twist_b
    rng = random.Random(twist_b)
    t, q, r, pt = (_twist_point(rng, twist_b) for _ in range(4))
    zt, zr = rng.randrange(1, p_), rng.randrange(1, p_)
    out_kind = struct("StepOut", ("t", Projective), ("line", SparseLine))

    def run(step, second, second_kind):
        def build(e, o, tt, pp, s):
            fp.copy(e, o.t, tt)
            step(e, o.line, o.t, s, pp)
        return tower_routines.run_on_target(
            curve, build, [(Projective, [t[0] * zt % p_, t[1] * zt % p_, zt]),
                           (G1, [(-pt[0]) % p_, pt[1]]), (second_kind, second)],
            out_kind, target="evmmax", value_bytes=VALUE, little_endian=False,
            out_word=VALUE)

    def check(values, expected, slope, through):
        x3, y3, z3, l0, l2, l3 = values
        assert z3 and (x3 * pow(z3, -1, p_) % p_, y3 * pow(z3, -1, p_) % p_) == expected
        want = [(slope * through[0] - through[1]) % p_, -slope * pt[0] % p_, pt[1]]
        scale = l3 * pow(pt[1], -1, p_) % p_
        assert scale and [l0, l2, l3] == [w * scale % p_ for w in want]

    def add(a, b):                                   # affine, distinct x
        lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, p_) % p_
        x3 = (lam * lam - a[0] - b[0]) % p_
        return lam, (x3, (lam * (a[0] - x3) - a[1]) % p_)

    lam = 3 * t[0] ** 2 * pow(2 * t[1], -1, p_) % p_
    x2 = (lam * lam - 2 * t[0]) % p_
    check(run(lambda e, l, tt, s, pp: line_dbl(e, l, tt, pp), [0, 0], G1), (
        x2, (lam * (t[0] - x2) - t[1]) % p_), lam, t)
    slope, total = add(t, q)
    check(run(lambda e, l, tt, s, pp: line_add(e, l, tt, s, pp), list(q), G1), total,
          slope, q)
    slope, total = add(t, r)
    check(run(lambda e, l, tt, s, pp: line_add_projective(e, l, tt, s, pp),
              [r[0] * zr % p_, r[1] * zr % p_, zr], Projective), total, slope, r)
    if twist_b == ref.TWIST_B:                       # the reference's group law agrees
        assert ref.add(t, r) == total
