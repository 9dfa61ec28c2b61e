"""ECMUL's GLV method over BN254 (evm384_native/ec/glv.py, ec/glv_multiply.py): the
endomorphism's constants, the scalar split and its bounds against Python integers, the
lattice argument that glv_multiply's doc makes for its incomplete additions, and the
contract on the scalars at the edges of each step (both targets, both engines) against
py-evm's precompile 0x07."""
import random

import pytest
from py_ecc import optimized_bn128 as bn

import bn254_cases as cases
from evm384_native import execute
from evm384_native.bn254 import build_contract
from evm384_native.curves import BN254
from evm384_native.ec import glv
from evm384_native.ec.glv_multiply import LOW_BITS, SPAN_BITS
from evm384_native.ec.windows import WINDOW
from glv_split import modelled_words, split_program, split_words

R, P = cases.R, cases.P
GLV = BN254.glv
LAM = GLV.lam
TARGETS = ("evm384", "evmmax")
ENGINES = ("fast", "python")


def test_the_endomorphism_is_lambda_on_g1():
    assert pow(GLV.beta, 3, P) == 1 != GLV.beta and pow(LAM, 3, R) == 1 != LAM
    for point in (cases.G1_GENERATOR, cases.random_g1(random.Random(3))):
        image = bn.normalize(bn.multiply((bn.FQ(point[0]), bn.FQ(point[1]), bn.FQ(1)), LAM))
        assert (int(image[0]), int(image[1])) == (GLV.beta * point[0] % P, point[1])


def test_the_basis_spans_the_lattice():
    (a1, b1), (a2, b2) = GLV.basis
    assert (a1 + b1 * LAM) % R == 0 and (a2 + b2 * LAM) % R == 0
    assert a1 * b2 - a2 * b1 == R                  # the whole lattice: index 1


def _lattice_minimum(span: int = 8) -> int:
    """The least max(|u|, |v|) over the non-zero combinations m1 v1 + m2 v2 with
    |m_i| <= span (the basis is Gauss-reduced and nearly orthogonal, |v1| ~ |v2|, so larger
    coefficients only make longer vectors)."""
    (a1, b1), (a2, b2) = GLV.basis
    return min(max(abs(m1 * a1 + m2 * a2), abs(m1 * b1 + m2 * b2))
               for m1 in range(-span, span + 1) for m2 in range(-span, span + 1)
               if (m1, m2) != (0, 0))


def test_no_short_vector_meets_a_window_above_the_last():
    x = BN254.x
    least = _lattice_minimum()
    assert least == _lattice_minimum(16) == 6 * x * x + 2 * x > 2**126.7
    bound = glv.bound(GLV, R)
    assert bound < 2**126.93 < 2**SPAN_BITS
    base = 1 << LOW_BITS                           # window 1's coordinates:
    top = 1 << WINDOW                              # 32 (prefix + 1) + 31
    assert top * (bound // (base * top) + 1) + top - 1 < 2**125 < least


def _edge_scalars():
    """Scalars at the edges: small, around r and 2^256, lam and its neighbours, k1 or k2
    zero or small (k = a + b lam), k = -2 lam (window 0 doubles: acc = [d2] phi(P)), the
    largest |k1| and |k2| among random scalars."""
    rng = random.Random(21)
    named = [0, 1, 2, 3, 15, 16, 17, R - 1, R, R + 1, R - 2, 2 * R, 2**256 - 1, 2**255,
             LAM, LAM - 1, LAM + 1, 2 * LAM, R - LAM, LAM * LAM % R, 6 * LAM % R,
             -2 * LAM % R, -10 * LAM % R, -26 * LAM % R]
    combos = [(a + b * LAM) % R for a in (-3, -1, 0, 1, 2) for b in (-2, -1, 0, 1, 3)]
    sample = [rng.randrange(R) for _ in range(3000)]
    widest = [max(sample, key=lambda k: abs(glv.split(k, GLV, R)[i])) for i in (0, 1)]
    return named + combos + widest + [rng.randrange(2**256) for _ in range(4)]


EDGE_SCALARS = _edge_scalars()


def test_the_split_is_odd_bounded_and_exact():
    rng = random.Random(5)
    for k in EDGE_SCALARS + [rng.randrange(R) for _ in range(20000)]:
        k = k % R
        k1, k2 = glv.split(k, GLV, R)
        assert (k1 + k2 * LAM - k) % R == 0, k
        assert k1 % 2 == k2 % 2 == 1, k
        assert abs(k1) < glv.bound(GLV, R) and abs(k2) < glv.bound(GLV, R), k


def test_the_edge_scalars_reach_the_bounds():
    splits = [glv.split(k % R, GLV, R) for k in EDGE_SCALARS]
    assert max(abs(k1) for k1, _ in splits) > 2**126
    assert max(abs(k2) for _, k2 in splits) > 2**126
    x = BN254.x
    assert (2 * x + 1, -(6 * x**2 + 2 * x) + 1) in splits                     # k = lam


def _digits(k):
    """The regular digits of an odd k in (-2^128, 2^128), lowest first (ec/windows.py;
    glv_multiply.py: the lowest of LOW_BITS bits, the others of WINDOW), written
    independently of the contract: U = (k + 2^128 - 1) / 2 read from its low bits."""
    u = (k + 2**SPAN_BITS - 1) // 2
    digits, weights, at = [], [], 0
    for bits in [LOW_BITS] + [WINDOW] * (glv.DIGITS - 1):
        digits.append(2 * (u >> at & (1 << bits) - 1) - (1 << bits) + 1)
        weights.append(1 << at)
        at += bits
    assert sum(d * w for d, w in zip(digits, weights)) == k
    assert all(d % 2 for d in digits) and abs(digits[0]) < 1 << LOW_BITS
    return digits


def test_window_0_meets_the_doubling_case():
    """For k = -2 lam, acc before k2's last digit is [d2] phi(P): its addition doubles."""
    k1, k2 = glv.split(-2 * LAM % R, GLV, R)
    _digits(k1)
    d2 = _digits(k2)
    acc = (k1 + (k2 - d2[0]) * LAM) % R            # [k1] P + [prefix of k2] phi(P)
    assert acc == d2[0] * LAM % R


@pytest.fixture(scope="module")
def contracts():
    return {target: build_contract("bn254_mul", target=target) for target in TARGETS}


def _points():
    rng = random.Random(8)
    return [cases.G1_GENERATOR, cases.random_g1(rng), None]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", TARGETS)
def test_ecmul_on_the_edge_scalars(contracts, target, engine):
    scalars = EDGE_SCALARS if engine == "fast" else EDGE_SCALARS[::3]
    for point in _points():
        for k in scalars:
            data = cases.encode_g1(point) + cases.encode_words(k)
            expected = cases.precompile_pyevm("mul", data)
            result = execute(contracts[target], data, opcodes=target, engine=engine,
                             gas=cases.GAS)
            assert cases.as_run_result(expected) == (result.success, result.output), (
                target, engine, point, k)


@pytest.mark.parametrize("target", TARGETS)
def test_ecmul_on_random_points_and_scalars(contracts, target):
    rng = random.Random(13)
    for _ in range(40):
        data = cases.encode_g1(cases.random_g1(rng)) + cases.encode_words(
            rng.randrange(2**256))
        result = execute(contracts[target], data, opcodes=target, engine="fast",
                         gas=cases.GAS)
        assert cases.as_run_result(cases.reference("mul", data)) == (result.success,
                                                                   result.output)


def test_window_0_adds_again_with_every_case_only_when_it_must(contracts):
    """k = -2 lam meets acc = +-T in window 0 (above): it runs the complete additions
    (more gas) and still answers right; other scalars all cost the same."""
    def gas(k):
        data = cases.encode_g1(cases.G1_GENERATOR) + cases.encode_words(k)
        result = execute(contracts["evmmax"], data, opcodes="evmmax", engine="fast")
        assert result.output == cases.precompile_pyevm("mul", data)
        return result.gas_used
    usual = {gas(k) for k in (1, 12345, R - 1, LAM, LAM + 2, -10 * LAM % R)}
    assert len(usual) == 1 and gas(-2 * LAM % R) > usual.pop()


@pytest.mark.parametrize("target", TARGETS)
def test_the_contracts_split_is_the_models(target):
    """The EVM code of step 2 and 3 (k -> A1 A2) gives the words of :func:`glv.split`'s
    k1, k2 for the edge scalars and random ones."""
    code = split_program(BN254, target)
    rng = random.Random(34)
    for k in EDGE_SCALARS + [rng.randrange(R) for _ in range(200)]:
        k %= R
        assert split_words(code, k, target) == modelled_words(k, BN254, target), k
