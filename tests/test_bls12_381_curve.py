"""G2 point arithmetic and line functions against py_ecc's curve arithmetic."""
import random

import pytest
from py_ecc.optimized_bls12_381 import FQ2, add as py_add, double as py_double, normalize
from py_ecc.bls12_381 import curve_order as R_ORDER

from evm384_native.asm import Fp6, G1, G1Jacobian, G2, G2Jacobian, struct
from evm384_native.tower import fp, fp2, jacobian

from bls_model import P, g1_point, g2_point
from test_bls12_381_tower import run_routine


def fq2(values):
    return FQ2(values)


def jacobian_values(point, z):
    """Jacobian (x z^2, y z^3, z) of an affine point, as 6 Fp values."""
    x, y = point
    return [int(c) for v in (x * z ** 2, y * z ** 3, z) for c in v.coeffs]


def affine(values):
    """Jacobian -> affine (py_ecc's own points are homogeneous projective)."""
    x, y, z = fq2(values[0:2]), fq2(values[2:4]), fq2(values[4:6])
    return x / z ** 2, y / z ** 3


def state(rng, scalar):
    q = g2_point(scalar)
    z = fq2([rng.randrange(P), rng.randrange(P)])
    return q, jacobian_values(q, z)


def evaluated_line(values, px2):
    """(l0, l1, l2) of a line the step evaluated at P, l1 and l2 divided by the factors
    it scaled them with (l1 by px2[0] = -2 P.x, l2 by px2[1] = 2 P.y)."""
    l0, l1, l2 = fq2(values[0:2]), fq2(values[2:4]), fq2(values[4:6])
    return l0, l1 / FQ2([px2[0], 0]), l2 / FQ2([px2[1], 0])


@pytest.mark.parametrize("seed", [1, 2])
def test_line_dbl_doubles_and_gives_the_tangent(seed):
    rng = random.Random(seed)
    q, t = state(rng, rng.randrange(1, R_ORDER))

    px2 = [rng.randrange(1, P), rng.randrange(1, P)]   # (-2 P.x, 2 P.y) of some P

    def build(e, out, t_slot, px2_slot):
        jacobian.line_dbl(e, out.e1, t_slot, px2_slot)
        e.asm.push(G2Jacobian.size); e.asm.push(t_slot); e.asm.push(out.e0); e.asm.op("MCOPY")
    out = run_routine(build, [(G2Jacobian, t), (G1, px2)],
                      struct("Out", ("e0", G2Jacobian), ("e1", Fp6)))
    assert affine(out[:6]) == normalize(py_double((q[0], q[1], FQ2.one())))
    l0, l1, l2 = evaluated_line(out[6:], px2)
    x, y = q
    slope = 3 * x ** 2 / (2 * y)
    assert l1 == slope * l2                    # l = l2 * (2 (slope x - y), slope, 1)
    assert l0 == 2 * (slope * x - y) * l2


@pytest.mark.parametrize("seed", [3, 4])
def test_line_add_adds_and_gives_the_chord(seed):
    rng = random.Random(seed)
    a, b = rng.randrange(1, R_ORDER), rng.randrange(1, R_ORDER)
    t_point, t = state(rng, a)
    q = g2_point(b)
    q_values = [int(c) for v in q for c in v.coeffs]

    px2 = [rng.randrange(1, P), rng.randrange(1, P)]

    def build(e, out, t_slot, q_slot, px2_slot):
        jacobian.line_add(e, out.e1, t_slot, q_slot, px2_slot)
        e.asm.push(G2Jacobian.size); e.asm.push(t_slot); e.asm.push(out.e0); e.asm.op("MCOPY")
    out = run_routine(build, [(G2Jacobian, t), (G2, q_values), (G1, px2)],
                      struct("Out", ("e0", G2Jacobian), ("e1", Fp6)))
    one = FQ2.one()
    assert affine(out[:6]) == normalize(py_add((t_point[0], t_point[1], one), (q[0], q[1], one)))
    l0, l1, l2 = evaluated_line(out[6:], px2)
    slope = (q[1] - t_point[1]) / (q[0] - t_point[0])
    assert l1 == slope * l2
    assert l0 == 2 * (slope * q[0] - q[1]) * l2


def test_g2_to_affine_and_g1_prepare():
    rng = random.Random(5)
    q, t = state(rng, 12345)
    assert run_routine(lambda e, out, s: jacobian.to_affine(e, fp2, out, s), [(G2Jacobian, t)], G2) \
        == [int(c) for v in q for c in v.coeffs]
    p = g1_point(999)
    assert run_routine(lambda e, out, s: jacobian.g1_prepare(e, out, s),
                       [(G1, [int(p[0]), int(p[1])])], G1) == [-2 * int(p[0]) % P, 2 * int(p[1]) % P]


def _g1_jacobian(rng, scalar):
    x, y = (int(c) for c in g1_point(scalar))
    z = rng.randrange(1, P)
    return (x, y), [x * z * z % P, y * z ** 3 % P, z]


@pytest.mark.parametrize("seed", [6, 7])
def test_g1_double_add_and_to_affine(seed):
    """G1 through the same Jacobian formulas as G2, against py_ecc."""
    from py_ecc.optimized_bls12_381 import FQ
    rng = random.Random(seed)
    a, b = rng.randrange(1, R_ORDER), rng.randrange(1, R_ORDER)
    (tx, ty), t = _g1_jacobian(rng, a)
    q = [int(c) for c in g1_point(b)]

    def build(e, out, t_slot, q_slot):
        jacobian.jacobian_dbl(e, fp, t_slot)                  # 2 a G1
        jacobian.jacobian_add_affine(e, fp, t_slot, q_slot)   # 2 a G1 + b G1
        jacobian.to_affine(e, fp, out, t_slot)
    got = run_routine(build, [(G1Jacobian, t), (G1, q)], G1)
    one = FQ.one()
    doubled = py_double((FQ(tx), FQ(ty), one))
    expected = normalize(py_add(doubled, (FQ(q[0]), FQ(q[1]), one)))
    assert got == [int(c) for c in expected]
    assert got == [int(c) for c in g1_point((2 * a + b) % R_ORDER)]


def test_g2_double_and_add_without_lines():
    rng = random.Random(8)
    q, t = state(rng, 31337)
    r = g2_point(4242)
    r_values = [int(c) for v in r for c in v.coeffs]

    def build(e, out, t_slot, r_slot):
        jacobian.jacobian_dbl(e, fp2, t_slot)
        jacobian.jacobian_add_affine(e, fp2, t_slot, r_slot)
        jacobian.to_affine(e, fp2, out, t_slot)
    got = run_routine(build, [(G2Jacobian, t), (G2, r_values)], G2)
    assert got == [int(c) for v in g2_point(2 * 31337 + 4242) for c in v.coeffs]
