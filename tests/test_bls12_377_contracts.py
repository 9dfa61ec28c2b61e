"""``bls12_377_pairing_check`` (EIP-2539's pairing interface) on both targets and engines,
against the pure-Python reference pairing (tests/bls12_377_reference.py): true instances
e(aP, bQ) e(-abP, Q) = 1 and perturbed ones, k = 1..4, the point at infinity in any slot,
and every error case of the EIP (a REVERT with empty output)."""
import random

import pytest

from evm384_native import execute
from evm384_native.contracts import failure_of
from evm384_native.bls12_377 import build_contract, encode_calldata, pairing_hint
from evm384_native.bls12_377.points import FP_BYTES, PAIR_BYTES, encode_g1, encode_g2
from evm384_native.bls12_377.usage import USAGE, random_pairs
from evm384_native.curves.bls12_377 import BLS12_377
from evm384_native.curves.fields import sqrt
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT

import bls12_377_reference as ref

NAME = "bls12_377_pairing_check"
HINTED = "bls12_377_pairing_check_hinted"
TARGETS = ("evmmax", "evm384", "evm")
# plain EVM's runs take tens of millions of gas: seconds each on the python engine, which
# runs them under ``slow`` (test_python_engine_on_plain_evm)
ENGINES = {"evmmax": ("fast", "python"), "evm384": ("fast", "python"), "evm": ("fast",)}
P = BLS12_377.p


@pytest.fixture(scope="module", params=TARGETS)
def target(request):
    return request.param


def check(target, data, engine="fast", hint=None):
    """The contract's answer (True, False) or "revert" for its failure (the pairing check's:
    an exceptional halt, as EIP-2539's precompile; the hinted one's: REVERT): the pairing
    check, or with a ``hint`` the hinted one."""
    name, args = (NAME, (data,)) if hint is None else (HINTED, (data, hint))
    code = build_contract(name, target=target)
    result = execute(code, encode_calldata(name, *args), opcodes=target, engine=engine,
                     gas=1 << 32)
    if not result.success:
        assert failure_of(name).ended(result), result
        return "revert"
    assert result.output[:31] == bytes(31) and result.output[31] in (0, 1)
    return bool(result.output[31])


def pairs_data(pairs):
    return b"".join(encode_g1(p) + encode_g2(q) for p, q in pairs)


def g1(k):
    return ref.multiply(ref.FP, ref.G1, k)


def g2(k):
    return ref.multiply(ref.FP2, ref.G2, k)


# --- answers against the reference ---------------------------------------------------------

def test_a_true_and_a_false_product_of_two(target):
    a, b = 1234567, 7654321
    true = [(g1(a), g2(b)), (ref.neg(ref.FP, g1(a * b)), ref.G2)]
    false = [(g1(a), g2(b)), (ref.neg(ref.FP, g1(a * b + 1)), ref.G2)]
    assert ref.pairing_product_is_one(true) and not ref.pairing_product_is_one(false)
    for engine in ENGINES[target]:
        assert check(target, pairs_data(true), engine) is True
        assert check(target, pairs_data(false), engine) is False


@pytest.mark.parametrize("k", [1, 3])
def test_random_instances_against_the_reference(target, k):
    rng = random.Random(k)
    pairs = [(g1(rng.randrange(1, ref.R)), g2(rng.randrange(1, ref.R))) for _ in range(k)]
    assert check(target, pairs_data(pairs)) is ref.pairing_product_is_one(pairs)


@pytest.mark.slow
@pytest.mark.parametrize("k", [2, 4])
def test_usage_examples_against_the_reference(target, k):
    """``evm384 gas``'s examples (usage.random_pairs): true and false, as the reference says."""
    for true in (True, False):
        data = random_pairs(random.Random(10 + k), k, true)
        pairs = [_decode_pair(data[i:i + PAIR_BYTES]) for i in range(0, len(data), PAIR_BYTES)]
        assert ref.pairing_product_is_one(pairs) is true
        assert check(target, data) is true


def _decode_pair(data):
    values = [int.from_bytes(data[i:i + FP_BYTES], "big") for i in range(0, len(data), FP_BYTES)]
    p = None if not any(values[:2]) else tuple(values[:2])
    q = None if not any(values[2:]) else ((values[2], values[3]), (values[4], values[5]))
    return p, q


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_infinity_in_any_slot_contributes_one(target, k):
    """k pairs whose product is one once the pairs with a point at infinity drop out."""
    a, b = 99, 77
    base = [(g1(a), g2(b)), (ref.neg(ref.FP, g1(a * b)), ref.G2)]
    for slot in range(k):
        pairs = [(g1(5), None), (None, g2(7)), (None, None)][:k - 1]
        pairs.insert(slot, base[0])
        answer = check(target, pairs_data(pairs + [base[1]]))
        assert answer is True, (k, slot)
    assert check(target, pairs_data([(None, g2(3))])) is True
    assert check(target, pairs_data([(g1(3), None)] * k)) is True


# --- every error case of the EIP -------------------------------------------------------------

def _not_in_g1():
    """A point of E(Fp) outside G1 (the cofactor is not 1)."""
    for x in range(2, 200):
        y = sqrt((x ** 3 + 1) % P, P)
        if y is not None and not ref.g1_in_subgroup((x, y)):
            return x, y
    raise AssertionError("no point found")


def _not_in_g2():
    """A point of the twist E'(Fp2) outside G2."""
    fp2 = BLS12_377.fp2
    for x0 in range(1, 200):
        x = (x0, 1)
        rhs = tuple((a + b) % P for a, b in zip(fp2.mul(fp2.mul(x, x), x), BLS12_377.twist_b))
        y = fp2.sqrt(rhs)
        if y is not None and not ref.g2_in_subgroup((x, y)):
            return x, y
    raise AssertionError("no point found")


def _valid():
    return pairs_data([(g1(2), g2(3)), (ref.neg(ref.FP, g1(6)), ref.G2)])


def _with_field(data, index, value_bytes):
    """``data`` with its field element ``index`` (64 bytes each) replaced."""
    return data[:FP_BYTES * index] + value_bytes + data[FP_BYTES * (index + 1):]


def error_cases():
    valid = _valid()
    bad_g1, bad_g2 = _not_in_g1(), _not_in_g2()
    cases = {
        "empty": b"",
        "short": valid[:-1],
        "long": valid + b"\0",
        "not a multiple of 384": valid[:PAIR_BYTES + 100],
        "G1 off the curve": pairs_data([((1, 1), ref.G2)]),
        "G2 off the curve": pairs_data([(ref.G1, ((1, 0), (1, 0)))]),
        "G1 not in the subgroup": pairs_data([(bad_g1, ref.G2)]),
        "G2 not in the subgroup": pairs_data([(ref.G1, bad_g2)]),
        "G2 not in the subgroup, P at infinity": pairs_data([(None, bad_g2)]),
        "G1 not in the subgroup, Q at infinity": pairs_data([(bad_g1, None)]),
        "in the second pair": valid[:PAIR_BYTES] + pairs_data([(ref.G1, bad_g2)]),
    }
    for index in range(6):                                  # every coordinate of a pair
        cases[f"value {index} = p"] = _with_field(valid, index, P.to_bytes(FP_BYTES, "big"))
        padded = bytearray(valid[FP_BYTES * index:FP_BYTES * (index + 1)])
        padded[15] |= 1                                     # the top 16 bytes must be zero
        cases[f"value {index} padding"] = _with_field(valid, index, bytes(padded))
    return cases


ERRORS = error_cases()


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_every_error_reverts(target, case):
    assert check(target, ERRORS[case]) == "revert"


def test_the_valid_base_of_the_error_cases_is_valid(target):
    assert check(target, _valid()) is True


@pytest.mark.parametrize("name", [NAME, "bls12_377_pairing_check_hinted"])
def test_every_build_fits_the_size_limit(target, name):
    assert len(build_contract(name, target=target)) <= CONTRACT_SIZE_LIMIT      # EIP-170


def test_gas_beside_the_precompile(target):
    code = build_contract(NAME, target=target)
    data = random_pairs(random.Random(2), 2, True)
    result = execute(code, data, opcodes=target, engine="fast", gas=1 << 32)
    assert result.success and result.output[-1] == 1
    assert USAGE[NAME].precompile_gas(data) == 55_000 * 2 + 65_000


# --- the hinted check ----------------------------------------------------------------------


def check_hinted(target, data, hint, engine="fast"):
    return check(target, data, engine, hint)


def _true_pairs(seed):
    rng = random.Random(seed)
    a, b = rng.randrange(1, ref.R), rng.randrange(1, ref.R)
    return [(g1(a), g2(b)), (ref.neg(ref.FP, g1(a * b)), ref.G2)]


@pytest.mark.parametrize("seed", [0, 1])
def test_hinted_true_and_false_on_both_engines(target, seed):
    true = _true_pairs(seed)
    false = true[:1] + [(ref.neg(ref.FP, ref.G1), ref.G2)]
    for pairs, answer in ((true, True), (false, False)):
        data = pairs_data(pairs)
        hint = pairing_hint(data)
        for engine in ENGINES[target]:
            assert check_hinted(target, data, hint, engine) is answer


def test_every_wrong_hint_is_rejected(target):
    data = pairs_data(_true_pairs(1))
    good = pairing_hint(data)
    rng = random.Random(5)
    forged = [bytes(288), bytes(240) + (1).to_bytes(48, "big"),
              pairing_hint(pairs_data(_true_pairs(0))),
              b"".join(rng.randrange(P).to_bytes(48, "big") for _ in range(6)),
              good[:-48] + ((int.from_bytes(good[-48:], "big") + 1) % P).to_bytes(48, "big")]
    for hint in forged:
        assert check_hinted(target, data, hint) is False
    # the prover's hint negated (t -> -t: c^-1 -> its conjugate): rejected as well
    negated = b"".join(((-int.from_bytes(good[i:i + 48], "big")) % P).to_bytes(48, "big")
                       for i in range(0, 288, 48))
    assert check_hinted(target, data, negated) is False
    assert check_hinted(target, data, good) is True


def test_hint_values_at_or_above_p_revert(target):
    data = pairs_data(_true_pairs(0))
    good = pairing_hint(data)
    for index in range(6):
        bad = good[:48 * index] + P.to_bytes(48, "big") + good[48 * (index + 1):]
        assert check_hinted(target, data, bad) == "revert"


@pytest.mark.parametrize("case", ["G2 not in the subgroup", "G1 not in the subgroup",
                                  "value 2 = p", "value 0 padding", "short"])
def test_hinted_input_errors_revert(target, case):
    assert check_hinted(target, ERRORS[case], bytes(288)) == "revert"


@pytest.mark.slow
@pytest.mark.parametrize("k", [3, 4])
def test_hinted_usage_examples(target, k):
    for true in (True, False):
        calldata = USAGE[HINTED].example(random.Random(k), k, true)
        code = build_contract(HINTED, target=target)
        result = execute(code, calldata, opcodes=target, engine="fast", gas=1 << 32)
        assert result.success and result.output[31] == true


@pytest.mark.slow
def test_python_engine_on_plain_evm():
    a, b = 1234567, 7654321
    true = [(g1(a), g2(b)), (ref.neg(ref.FP, g1(a * b)), ref.G2)]
    data = pairs_data(true)
    for name_hint in (None, pairing_hint(data)):
        runs = [check("evm", data, engine, name_hint) for engine in ("fast", "python")]
        assert runs == [True, True]
