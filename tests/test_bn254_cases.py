"""The BN254 test-case sources of tests/bn254_cases.py against each other: go-ethereum's
vectors pass py-evm's precompiles, revm's and the py_ecc reference; every generated failure
fails in all three; generated valid inputs get the same answer from all three.

py_ecc pairings (py-evm's and the reference's) take about half a second a pair, so by default
they see pairing inputs of at most two pairs, and py-evm no failure behind a valid pair (it
computes that pair's pairing before it checks the next); revm sees everything. The rest is
marked slow (``pytest -m slow``).
"""
import platform
import random
import sys

import pytest

import bn254_cases as cases
from optional import require

FAST_PAIRS = 2                        # py_ecc pairing inputs up to this many pairs run by default
FAILURES = cases.failure_cases(random.Random(254))
VALID = cases.valid_cases(random.Random(1108), count=3, max_k=FAST_PAIRS)


@pytest.fixture(scope="module")
def revm():
    """revm's precompiles, or a skip with the reason (the test extra lists pyrevm only
    where it has wheels: CPython < 3.13 on x86-64)."""
    if sys.version_info >= (3, 13) or platform.machine() != "x86_64":
        pytest.skip("pyrevm (test extra) has no wheel for this Python or machine")
    require("pyrevm", "test")
    return cases.precompile_revm


def _pairs(case: cases.Case) -> int:
    return len(case.data) // cases.PAIR_SIZE


def _is_slow_in_py_ecc(case: cases.Case) -> bool:
    return case.op == "pairing" and _pairs(case) > FAST_PAIRS


def _params(items, is_slow=_is_slow_in_py_ecc):
    """pytest params named by the case; those ``is_slow`` says are marked slow."""
    return [pytest.param(case, id=f"{case.op}:{case.name}",
                         marks=[pytest.mark.slow] if is_slow(case) else [])
            for case in items]


def _all_fast(case: cases.Case) -> bool:
    return False


def _slow_in_pyevm(case: cases.Case) -> bool:
    """py-evm computes each valid pair's Miller loop before it checks the next pair."""
    return _is_slow_in_py_ecc(case) or (case.op == "pairing" and "second pair" in case.name)


ALL_VECTORS = [case for op in cases.OPS for case in cases.vectors(op)]


# --- the constants and the arithmetic written for the tests -----------------------------------

def test_constants_are_py_eccs():
    from py_ecc import optimized_bn128 as bn
    assert cases.P == bn.field_modulus and cases.R == bn.curve_order
    assert cases.TWIST_B == bn.b2
    assert cases.g2_multiple(1) == cases.G2_GENERATOR
    assert bn.normalize(bn.G2) == tuple(bn.FQ2(list(c)) for c in cases.G2_GENERATOR)
    assert cases.g1_multiple(cases.R) is None and cases.g2_multiple(cases.R) is None


def test_fp2_sqrt_finds_roots_of_squares_and_none_for_non_squares():
    from py_ecc.optimized_bn128 import FQ2
    rng = random.Random(2)
    for _ in range(50):
        root = FQ2([rng.randrange(cases.P), rng.randrange(cases.P)])
        square = root * root
        found = cases.fp2_sqrt(tuple(square.coeffs))
        assert found is not None and FQ2(list(found)) ** 2 == square
    non_squares = 0
    for _ in range(50):
        a = FQ2([rng.randrange(cases.P), rng.randrange(cases.P)])
        # Euler's criterion in Fp2: a is a square iff a^((p^2 - 1) / 2) = 1.
        is_square = a ** ((cases.P ** 2 - 1) // 2) == FQ2.one()
        assert (cases.fp2_sqrt(tuple(a.coeffs)) is not None) == is_square
        non_squares += not is_square
    assert non_squares > 10
    assert cases.fp2_sqrt((cases.P - 1, 0)) == (0, 1)          # sqrt(-1) = i
    assert cases.fp2_sqrt((0, 0)) == (0, 0)


def test_the_off_subgroup_point_is_on_the_twist_and_of_order_other_than_r():
    from py_ecc import optimized_bn128 as bn
    point = cases.g2_off_subgroup(random.Random(3))
    jacobian = (bn.FQ2(list(point[0])), bn.FQ2(list(point[1])), bn.FQ2.one())
    assert bn.is_on_curve(jacobian, bn.b2)
    assert not bn.eq(bn.multiply(jacobian, cases.R), bn.Z2)


# --- go-ethereum's vectors ------------------------------------------------------------------------

def test_the_vector_files_hold_every_op():
    assert {op: len(cases.vectors(op)) for op in cases.OPS} == {"add": 16, "mul": 19, "pairing": 14}


@pytest.mark.parametrize("case", _params(ALL_VECTORS))
def test_vector_by_pyevm(case):
    assert cases.precompile_pyevm(case.op, case.data) == case.expected


@pytest.mark.parametrize("case", _params(ALL_VECTORS))
def test_vector_by_reference(case):
    assert cases.reference(case.op, case.data) == case.expected


@pytest.mark.parametrize("case", _params(ALL_VECTORS, _all_fast))
def test_vector_by_revm(case, revm):
    assert revm(case.op, case.data) == case.expected


def _computes_a_pairing(case: cases.Case) -> bool:
    """A valid input of a pair or more, or a failure behind a valid pair."""
    return case.op == "pairing" and (_pairs(case) > 1 or "second pair" in case.name
                                     or case.expected is not None and _pairs(case) > 0)


@pytest.mark.parametrize("case", _params(ALL_VECTORS + FAILURES[::5], _computes_a_pairing))
def test_pyevm_stand_in_computation_answers_as_a_message_call(case):
    """precompile_pyevm calls py-evm's function on a stand-in computation; a whole message
    call to the precompile's address in a Prague state must answer the same."""
    assert cases.precompile_pyevm(case.op, case.data) == \
        cases.precompile_pyevm_message_call(case.op, case.data)


# --- failures ---------------------------------------------------------------------------------------

def test_every_failure_class_is_there():
    names = " ".join(case.name for case in FAILURES)
    for needle in ("G1 x + p", "G1 y + p", "G1 off the curve", "G2 x_im + p", "G2 y_re = p",
                   "G2 off the twist", "outside the order-R subgroup", "length 191", "length 193",
                   "second pair"):
        assert needle in names
    assert {case.op for case in FAILURES} == set(cases.OPS)


@pytest.mark.parametrize("case", _params(FAILURES))
def test_failure_by_reference(case):
    assert cases.reference(case.op, case.data) is None


@pytest.mark.parametrize("case", _params(FAILURES, _slow_in_pyevm))
def test_failure_by_pyevm(case):
    assert cases.precompile_pyevm(case.op, case.data) is None


@pytest.mark.parametrize("case", _params(FAILURES, _all_fast))
def test_failure_by_revm(case, revm):
    assert revm(case.op, case.data) is None


# --- generated valid inputs ---------------------------------------------------------------------------

@pytest.mark.parametrize("case", _params([c for c in VALID if c.op == "pairing"]))
def test_generated_pairing_by_reference(case):
    """The instance was built to give ``expected``; the reference must find it."""
    assert cases.reference(case.op, case.data) == case.expected


@pytest.mark.parametrize("case", _params(VALID))
def test_generated_input_by_pyevm(case):
    assert cases.precompile_pyevm(case.op, case.data) == case.expected


@pytest.mark.parametrize("case", _params(VALID, _all_fast))
def test_generated_input_by_revm(case, revm):
    assert revm(case.op, case.data) == case.expected


@pytest.mark.parametrize("op", ["add", "mul"])
def test_short_and_long_inputs_answer_as_their_padded_or_cut_form(op, revm):
    """EIP-196: input shorter than the op's size is zero padded, longer is cut; in every
    oracle, an input of any length answers as the fitted input."""
    rng = random.Random(4)
    size = cases.INPUT_SIZE[op]
    full = cases.add_inputs(rng, 1)[-1][1] if op == "add" else cases.mul_inputs(rng, 1)[-1][1]
    answered = 0
    for length in (0, 1, 31, 32, 63, 64, 65, size - 1, size, size + 1, size + 64):
        data = (full + bytes(rng.randrange(256) for _ in range(64)))[:length]
        fitted = data[:size].ljust(size, b"\0")     # a cut point may be off the curve: None
        for oracle in (cases.reference, cases.precompile_pyevm, revm):
            assert oracle(op, data) == oracle(op, fitted), (oracle, length)
        answered += cases.reference(op, data) is not None
    assert answered >= 4                               # 0, 64 (and up) bytes at least


def test_generated_cases_are_reproducible():
    again = cases.valid_cases(random.Random(1108), count=3, max_k=FAST_PAIRS)
    assert again == VALID


def test_as_run_result():
    assert cases.as_run_result(None) == (False, b"")
    assert cases.as_run_result(cases.ONE) == (True, cases.ONE)


# --- slow: bigger instances and more random inputs -------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_random_pairings_up_to_six_pairs_agree(seed, revm):
    rng = random.Random(f"pairing:{seed}")
    for k in range(FAST_PAIRS + 1, 7):
        for product_is_one in (True, False):
            data = cases.pairing_instance(rng, k, product_is_one)
            expected = cases.ONE if product_is_one else cases.ZERO
            assert cases.reference("pairing", data) == cases.precompile_pyevm("pairing", data) \
                == revm("pairing", data) == expected, (k, product_is_one)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_many_random_add_and_mul_inputs_agree(seed, revm):
    for case in cases.valid_cases(random.Random(f"valid:{seed}"), count=20, max_k=0):
        assert cases.precompile_pyevm(case.op, case.data) == revm(case.op, case.data) \
            == case.expected, case.name
