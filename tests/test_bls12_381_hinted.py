"""The hinted pairing check (pairing_check_hinted, eip2537_pairing_check_hinted) and its
prover (pairing_hint), against blst (pyblst), py_ecc's field arithmetic (bls_model) and the
official EIP-2537 vectors; forged, malformed and wrong hints."""
import json
import pathlib
import random
from functools import lru_cache

import pytest
from py_ecc.optimized_bls12_381 import FQ12

from bls_model import blst_miller_loop, fq12_to_tower, random_fp, tower_to_fq12
from evm384_native import execute
from evm384_native.bls12_381 import (build_contract, eip2537_pairing_check,
                                     eip2537_pairing_check_hinted, encode_calldata,
                                     pairing_check_hinted, pairing_hint, pairs_from_eip2537)
from evm384_native.bls12_381.hint import LAMBDA, P
from evm384_native.bls12_381.hinted import HINT_BYTES
from evm384_native.bls12_381.oracle import (blst_product_is_one, eip2537_input, encode_pairs,
                                            random_product_case)
from evm384_native.bls12_381.pairing import X_ABS

NAME, EIP_NAME = "pairing_check_hinted", "eip2537_pairing_check_hinted"
VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537"
VALID = json.loads((VECTORS / "pairing_check_bls.json").read_text())
INVALID = json.loads((VECTORS / "fail-pairing_check_bls.json").read_text())
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)


@lru_cache(maxsize=None)
def instance(k, true, seed=0):
    return tuple(random_product_case(random.Random(900 + 10 * k + true + 100 * seed), k, true))


def run(pairs, hint, engine="fast", **options):
    return execute(build_contract(NAME), encode_calldata(NAME, encode_pairs(pairs), hint),
                   engine=engine, schedule="update5-A", **options)


def answer(pairs, hint, **options):
    result = run(pairs, hint, **options)
    assert result.success, result.error
    return result.output == ONE


def hint_values(hint):
    return [int.from_bytes(hint[i:i + 48], "little") for i in range(0, len(hint), 48)]


def hint_bytes(cinv, w):
    """cinv: 12 Fp values (tower order), w: 6 (the c0 half)."""
    return b"".join(v.to_bytes(48, "little") for v in list(cinv) + list(w))


def loop_value(pairs):
    """The hinted check's f (the Miller loop NOT conjugated), in py_ecc's FQ12."""
    tower = blst_miller_loop(pairs)
    return tower_to_fq12(tower[:6] + [-v % P for v in tower[6:]])


def frobenius(a):
    return a ** P


def check_value(pairs, cinv, w):
    """What the contract compares with one, in py_ecc: f cinv^|x| w Frob(cinv)."""
    return loop_value(pairs) * cinv ** X_ABS * w * frobenius(cinv)


# --- true and false relations against blst ----------------------------------------------------

@pytest.mark.parametrize("k", range(1, 7))
def test_random_relations_agree_with_pyblst(k):
    for true in ((True, False) if k > 1 else (False,)):
        pairs = instance(k, true)
        assert blst_product_is_one(*zip(*pairs)) is true
        assert pairing_check_hinted(encode_pairs(pairs), engine="fast") is true


def test_hint_is_a_residue_witness_in_py_ecc():
    """c^lambda = f w, w in Fp6 and not 1, recomputed with py_ecc's field arithmetic on the
    Miller loop of bls_model (blst's formulas), not on the contract's."""
    pairs = instance(2, True)
    values = hint_values(pairing_hint(encode_pairs(pairs)))
    cinv, w = tower_to_fq12(values[:12]), tower_to_fq12(values[12:])
    assert w != FQ12.one() and cinv != FQ12.zero()
    assert cinv.inv() ** LAMBDA == loop_value(pairs) * w
    assert check_value(pairs, cinv, w) == FQ12.one()


def test_prover_agrees_on_both_engines():
    pairs = encode_pairs(instance(2, True))
    assert pairing_hint(pairs, engine="python") == pairing_hint(pairs)


def test_points_at_infinity_are_skipped_as_the_contract_skips_them():
    pairs = encode_pairs(instance(2, True))
    infinity = (bytes(96), pairs[0][1])
    assert pairing_check_hinted(pairs + [infinity], engine="fast")
    hint = pairing_hint([infinity])
    assert hint_values(hint) == [1] + [0] * 11 + [1] + [0] * 5     # f = 1: c = w = 1
    assert pairing_check_hinted([infinity], hint, engine="fast")


# --- wrong and forged hints -------------------------------------------------------------------

def honest(pairs):
    return hint_values(pairing_hint(encode_pairs(pairs)))


def test_true_relation_with_a_wrong_c_fails():
    pairs = instance(2, True)
    values = honest(pairs)
    other = honest(instance(2, True, seed=1))
    assert not answer(pairs, hint_bytes(other[:12], values[12:]))
    assert not answer(pairs, hint_bytes(random_fp(random.Random(1), 12), values[12:]))
    assert answer(pairs, hint_bytes(values[:12], values[12:]))


def test_w_equal_to_one_fails_where_it_is_not_one():
    pairs = instance(2, True)
    values = honest(pairs)
    assert values[12:] != [1, 0, 0, 0, 0, 0]
    assert not answer(pairs, hint_bytes(values[:12], [1, 0, 0, 0, 0, 0]))


def test_c_zero_fails():
    pairs = instance(2, True)
    values = honest(pairs)
    assert not answer(pairs, hint_bytes([0] * 12, values[12:]))
    assert not answer(pairs, hint_bytes([0] * 12, [0] * 6))


def test_forged_w_outside_fp6_cannot_be_carried():
    """Pitfall P1: for a false relation, any c and w = c^lambda / f (a full Fp12 value)
    satisfy the equation; calldata carries only six coordinates (an Fp6 value), and every
    Fp6 part of the forged w fails."""
    pairs = instance(2, False)
    rng = random.Random(5)
    cinv = tower_to_fq12(random_fp(rng, 12))
    forged = (loop_value(pairs) * cinv ** X_ABS * frobenius(cinv)).inv()
    assert check_value(pairs, cinv, forged) == FQ12.one()        # the equation holds
    tower = fq12_to_tower(forged)
    assert any(tower[6:])                                          # but w is not in Fp6
    cinv_values = fq12_to_tower(cinv)
    for part in (tower[:6], tower[6:], [(a + b) % P for a, b in zip(tower[:6], tower[6:])]):
        assert not answer(pairs, hint_bytes(cinv_values, part))


def test_honest_algorithm_on_a_false_relation_fails():
    pairs = instance(3, False)
    assert not answer(pairs, pairing_hint(encode_pairs(pairs)))


# --- malformed hints --------------------------------------------------------------------------

@pytest.mark.parametrize("index", [0, 5, 11, 12, 17])
@pytest.mark.parametrize("bad", ["value + p", "p", "2^384 - 1"])
def test_hint_values_not_below_p_revert(index, bad):
    """value + p is the same value mod p: only the range check can tell."""
    pairs = instance(2, True)
    values = honest(pairs)
    values[index] = {"value + p": values[index] + P, "p": P, "2^384 - 1": (1 << 384) - 1}[bad]
    result = run(pairs, hint_bytes(values[:12], values[12:]))
    assert not result.success and result.error == "revert"


@pytest.mark.parametrize("size", [0, HINT_BYTES - 1, HINT_BYTES + 1, HINT_BYTES - 288])
def test_hint_of_the_wrong_length(size):
    pairs = encode_pairs(instance(2, True))
    with pytest.raises(ValueError, match="864 bytes"):
        encode_calldata(NAME, pairs, bytes(size))
    with pytest.raises(ValueError, match="864 bytes"):
        pairing_check_hinted(pairs, bytes(size))
    calldata = encode_calldata("pairing_product_is_one", pairs) + bytes(size)
    result = execute(build_contract(NAME), calldata)
    if size == HINT_BYTES - 288:         # reads as one pair and a hint: a wrong hint
        assert result.success and result.output == ZERO
    else:
        assert not result.success and result.error == "revert"


def test_calldata_shorter_than_the_hint_reverts():
    """CALLDATASIZE - 864 wraps around; the length check must not take it for pairs (for
    this size the wrapped value is a multiple of 288)."""
    size = (HINT_BYTES - (1 << 256)) % 288
    assert ((size - HINT_BYTES) % (1 << 256)) % 288 == 0
    result = execute(build_contract(NAME), bytes(size))
    assert not result.success and result.error == "revert"
    assert not execute(build_contract(NAME), bytes(HINT_BYTES)).success


# --- the EIP-2537 variant ---------------------------------------------------------------------

@pytest.mark.parametrize("case", VALID, ids=lambda case: case["Name"])
def test_official_valid_vectors_with_their_hint(case):
    data = bytes.fromhex(case["Input"])
    hint = pairing_hint(pairs_from_eip2537(data))
    assert eip2537_pairing_check_hinted(data, hint, engine="fast") == bytes.fromhex(
        case["Expected"])


@pytest.mark.parametrize("case", INVALID, ids=lambda case: case["Name"])
def test_official_invalid_vectors_still_revert(case):
    data = bytes.fromhex(case["Input"])
    for hint in (None, bytes(HINT_BYTES)):
        with pytest.raises(RuntimeError, match="revert"):
            eip2537_pairing_check_hinted(data, hint, engine="fast")


@pytest.mark.parametrize("k,true", [(1, False), (2, True), (2, False), (4, True)])
def test_eip2537_variant_agrees_with_the_unhinted_contract(k, true):
    data = eip2537_input(instance(k, true))
    expected = ONE if true else ZERO
    assert eip2537_pairing_check(data, engine="fast") == expected
    assert eip2537_pairing_check_hinted(data, engine="fast") == expected


def test_eip2537_variant_rejects_a_hint_value_not_below_p():
    pairs = instance(2, True)
    values = honest(pairs)
    values[3] += P
    with pytest.raises(RuntimeError, match="revert"):
        eip2537_pairing_check_hinted(eip2537_input(pairs), hint_bytes(values[:12], values[12:]))


# --- engines, backends, costs -----------------------------------------------------------------

@pytest.mark.parametrize("name", [NAME, EIP_NAME])
def test_engines_and_backends_agree(name):
    for true in (True, False):
        pairs = instance(2, true)
        inputs = eip2537_input(pairs) if name == EIP_NAME else encode_pairs(pairs)
        calldata = encode_calldata(name, inputs, pairing_hint(encode_pairs(pairs)))
        results = [execute(build_contract(name), calldata, engine=engine, backend=backend,
                           schedule="update5-A")
                   for engine, backend in (("fast", "native"), ("python", "native"),
                                           ("python", "reference"))]
        assert {(r.output, r.gas_used, r.steps) for r in results} == {
            (ONE if true else ZERO, results[0].gas_used, results[0].steps)}


def test_two_pairing_costs():
    """The issue's targets on the two-pairing instance: <= 50,000 EVM384 ops, <= 340,000
    gas under update5-A."""
    result = run(instance(2, True), pairing_hint(encode_pairs(instance(2, True))))
    assert result.output == ONE
    ops = sum(result.opcode_counts.get(op, 0)
              for op in ("ADDMOD384", "SUBMOD384", "MULMODMONT384"))
    assert ops <= 50_000 and result.gas_used <= 340_000


@pytest.mark.parametrize("name", [NAME, EIP_NAME])
def test_fits_the_contract_size_limit(name):
    assert len(build_contract(name)) <= 24_576                     # EIP-170


def test_main_job_shows_the_hinted_check(capsys):
    from evm384_native.bls12_381.__main__ import main
    assert main(["--seed", "3", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert f"contract {NAME}" in out and "ms per hint" in out
    assert out.count("EVM384 says True, blst says True") == 2
