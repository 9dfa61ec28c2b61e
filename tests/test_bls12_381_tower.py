"""Each field routine of the tower, run as EVM384 code, against py_ecc's FQ12 (through the
spec's basis mapping) or plain Python integers."""
import random
from functools import partial

import pytest

from evm384_native.asm import Fp, Fp2, Fp6, Fp12
from evm384_native.curves import BLS12_381
from evm384_native.tower import fp, fp2, fp6, fp12

import tower_routines
from bls_model import P, fq12_to_tower, random_fp, tower_to_fq12

SEEDS = [1, 2, 3]
# py_ecc's powers (Frobenius, cyclotomic inputs) take seconds: one seed by default
SLOW_SEEDS = [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)]
run_routine = partial(tower_routines.run_routine, BLS12_381)


def in_place(routine):
    """The routine applied with out = first input, then copied to out (tests aliasing)."""
    def build(e, out, a, *rest):
        routine(e, a, a, *rest)
        fp.copy(e, out, a)
    return build


def fq(values):
    return tower_to_fq12(values)


def cyclotomic(rng):
    """A random element of the cyclotomic subgroup: f^((p^6 - 1)(p^2 + 1))."""
    f = fq(random_fp(rng, 12))
    g = f ** (P ** 6 - 1)
    return fq12_to_tower(g ** (P ** 2) * g)


@pytest.mark.parametrize("seed", SEEDS)
def test_fp_ops_and_inverse(seed):
    rng = random.Random(seed)
    a, b = random_fp(rng, 2)
    build = lambda e, out, x, y: (fp.mul(e, out.e0, x, y), fp.sub(e, out.e1, x, y),
                                  fp.neg(e, out.e2, x), fp.inverse(e, out.e3, x),
                                  fp.neg(e, out.e4, e.zero))
    from evm384_native.asm import array
    got = run_routine(build, [(Fp, [a]), (Fp, [b])], array(Fp, 5))
    assert got == [a * b % P, (a - b) % P, -a % P, pow(a, -1, P), 0]


def test_fp_inverse_of_zero_is_zero():
    assert run_routine(lambda e, out, x: fp.inverse(e, out, x), [(Fp, [0])], Fp) == [0]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", ["mul", "sqr", "inverse", "mul_by_xi", "conj"])
def test_fp2(seed, name):
    rng = random.Random(seed)
    a, b = random_fp(rng, 2), random_fp(rng, 2)
    x, y = fq(a), fq(b)
    expected = {"mul": x * y, "sqr": x * x, "inverse": x.inv(), "mul_by_xi": x * fq([1, 1]),
                "conj": x ** P}[name]
    if name == "mul":
        builds = [lambda e, out, s, t: fp2.mul(e, out, s, t), in_place(fp2.mul)]
        inputs = [(Fp2, a), (Fp2, b)]
    else:
        routine = getattr(fp2, name)
        builds = [lambda e, out, s: routine(e, out, s)]
        if name != "mul_by_xi":
            builds.append(in_place(routine))
        inputs = [(Fp2, a)]
    for build in builds:
        assert run_routine(build, inputs, Fp2) == fq12_to_tower(expected, 2)


@pytest.mark.parametrize("seed", SEEDS)
def test_fp6(seed):
    rng = random.Random(seed)
    a, b = random_fp(rng, 6), random_fp(rng, 6)
    x, y = fq(a), fq(b)
    assert run_routine(lambda e, o, s, t: fp6.mul(e, o, s, t), [(Fp6, a), (Fp6, b)], Fp6) \
        == fq12_to_tower(x * y, 6)
    assert run_routine(in_place(fp6.mul), [(Fp6, a), (Fp6, b)], Fp6) == fq12_to_tower(x * y, 6)
    sparse01 = b[:4] + [0, 0]
    assert run_routine(lambda e, o, s, t: fp6.mul_by_01(e, o, s, t.c0, t.c1),
                       [(Fp6, a), (Fp6, b)], Fp6) == fq12_to_tower(x * fq(sparse01), 6)
    sparse1 = [0, 0] + b[2:4] + [0, 0]
    assert run_routine(lambda e, o, s, t: fp6.mul_by_1(e, o, s, t.c1),
                       [(Fp6, a), (Fp6, b)], Fp6) == fq12_to_tower(x * fq(sparse1), 6)
    assert run_routine(in_place(fp6.inverse), [(Fp6, a)], Fp6) == fq12_to_tower(x.inv(), 6)
    for n in (1, 2, 3):
        assert run_routine(lambda e, o, s: fp6.frobenius(e, o, s, n), [(Fp6, a)], Fp6) \
            == fq12_to_tower(x ** (P ** n), 6)


@pytest.mark.parametrize("seed", SEEDS)
def test_fp12_products(seed):
    rng = random.Random(seed)
    a, b = random_fp(rng, 12), random_fp(rng, 12)
    x, y = fq(a), fq(b)
    for build in (lambda e, o, s, t: fp12.mul(e, o, s, t), in_place(fp12.mul)):
        assert run_routine(build, [(Fp12, a), (Fp12, b)], Fp12) == fq12_to_tower(x * y)
    for build in (lambda e, o, s: fp12.sqr(e, o, s), in_place(fp12.sqr)):
        assert run_routine(build, [(Fp12, a)], Fp12) == fq12_to_tower(x * x)
    line = random_fp(rng, 6)                       # l0, l1, l2 -> (l0 + l1 v) + l2 v w
    sparse = line[:4] + [0, 0] + [0, 0] + line[4:6] + [0, 0]
    assert run_routine(in_place(fp12.mul_by_line), [(Fp12, a), (Fp6, line)], Fp12) \
        == fq12_to_tower(x * fq(sparse))


@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_fp12_maps(seed):
    rng = random.Random(seed)
    a = random_fp(rng, 12)
    x = fq(a)
    assert run_routine(in_place(fp12.conj), [(Fp12, a)], Fp12) == fq12_to_tower(x ** (P ** 6))
    assert run_routine(lambda e, o, s: fp12.conj(e, o, s), [(Fp12, a)], Fp12) \
        == fq12_to_tower(x ** (P ** 6))
    for n in (1, 2, 3):
        assert run_routine(in_place(lambda e, o, s: fp12.frobenius(e, o, s, n)),
                           [(Fp12, a)], Fp12) == fq12_to_tower(x ** (P ** n))
    assert run_routine(in_place(fp12.inverse), [(Fp12, a)], Fp12) == fq12_to_tower(x.inv())


@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_cyclotomic_sqr(seed):
    g = cyclotomic(random.Random(seed))
    assert run_routine(in_place(fp12.cyclotomic_sqr), [(Fp12, g)], Fp12) \
        == fq12_to_tower(fq(g) ** 2)


def test_subroutine_calls_match_inline():
    rng = random.Random(7)
    a, b = random_fp(rng, 12), random_fp(rng, 12)
    x, y = fq(a), fq(b)

    def build(e, out, s, t):
        fp12.call(e, "fp12_mul", out, a=s, b=t)        # out = s t
        fp12.call(e, "fp12_sqr", out, a=out)           # out = (s t)^2
        fp12.call(e, "fp12_mul", out, a=out, b=s)      # second call: same subroutine
    got = run_routine(build, [(Fp12, a), (Fp12, b)], Fp12)
    assert got == fq12_to_tower((x * y) ** 2 * x)
