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
from evm384_native.ec.bls12_hinted import HINT_BYTES
from evm384_native.bls12_381.oracle import (blst_product_is_one, eip2537_input, encode_pairs,
                                            random_product_case)
from evm384_native.curves import BLS12_381

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
    return [int.from_bytes(hint[i:i + 48], "big") for i in range(0, len(hint), 48)]


def hint_bytes(t):
    """t: 6 Fp values (tower order), read as c^-1 = 1 + t w."""
    return b"".join(v.to_bytes(48, "big") for v in t)


def cinv_of(t):
    return tower_to_fq12([1, 0, 0, 0, 0, 0] + list(t))


def loop_value(pairs):
    """The hinted check's f (the Miller loop NOT conjugated), in py_ecc's FQ12."""
    tower = blst_miller_loop(pairs)
    return tower_to_fq12(tower[:6] + [-v % P for v in tower[6:]])


def frobenius(a):
    return a ** P


def in_fp6_star(y):
    tower = fq12_to_tower(y)
    return not any(tower[6:]) and any(tower[:6])


def accepted_in_py_ecc(pairs, t):
    """What the contract decides, in py_ecc: f cinv^|x| Frob(cinv) = f cinv^lambda in Fp6*."""
    cinv = cinv_of(t)
    return in_fp6_star(loop_value(pairs) * cinv ** abs(BLS12_381.x) * frobenius(cinv))


# --- true and false relations against blst ----------------------------------------------------

@pytest.mark.parametrize("k", range(1, 7))
def test_random_relations_agree_with_pyblst(k):
    for true in ((True, False) if k > 1 else (False,)):
        pairs = instance(k, true)
        assert blst_product_is_one(*zip(*pairs)) is true
        assert pairing_check_hinted(encode_pairs(pairs), engine="fast") is true


def test_hint_is_a_residue_witness_in_py_ecc():
    """f cinv^lambda lies in Fp6* for cinv = 1 + t w, recomputed with py_ecc's field
    arithmetic on the Miller loop of bls_model (blst's formulas), not on the contract's:
    so (f cinv^lambda)^(p^6 - 1) = 1."""
    pairs = instance(2, True)
    t = hint_values(pairing_hint(encode_pairs(pairs)))
    assert len(t) == 6 and any(t)
    y = loop_value(pairs) * cinv_of(t) ** LAMBDA
    assert in_fp6_star(y) and y ** (P ** 6 - 1) == FQ12.one()


def test_prover_agrees_on_both_engines():
    pairs = encode_pairs(instance(2, True))
    assert pairing_hint(pairs, engine="python") == pairing_hint(pairs)


def test_points_at_infinity_are_skipped_as_the_contract_skips_them():
    pairs = encode_pairs(instance(2, True))
    infinity = (bytes(96), pairs[0][1])
    assert pairing_check_hinted(pairs + [infinity], engine="fast")
    hint = pairing_hint([infinity])
    assert hint_values(hint) == [0] * 6                 # f = 1: c = 1, t = 0
    assert pairing_check_hinted([infinity], hint, engine="fast")
    assert not pairing_check_hinted([infinity], hint_bytes([1, 0, 0, 0, 0, 0]), engine="fast")


# --- wrong and forged hints -------------------------------------------------------------------

def honest(pairs):
    return hint_values(pairing_hint(encode_pairs(pairs)))


def test_true_relation_with_a_wrong_t_fails():
    pairs = instance(2, True)
    t = honest(pairs)
    assert answer(pairs, hint_bytes(t))
    wrong = [honest(instance(2, True, seed=1)), random_fp(random.Random(1), 6), [0] * 6,
             [(v + 1) % P for v in t], t[:5] + [(t[5] + 1) % P], [(-v) % P for v in t]]
    for other in wrong:
        assert not accepted_in_py_ecc(pairs, other)
        assert not answer(pairs, hint_bytes(other))


def test_the_answer_is_membership_of_f_cinv_lambda_in_fp6():
    """The contract's answer equals py_ecc's test of the relation it checks, for honest,
    borrowed and random hints on true and false relations."""
    rng = random.Random(8)
    for true in (True, False):
        pairs = instance(2, true)
        for t in (honest(pairs), honest(instance(2, not true)), random_fp(rng, 6)):
            assert answer(pairs, hint_bytes(t)) == accepted_in_py_ecc(pairs, t)


def test_honest_algorithm_on_a_false_relation_fails():
    pairs = instance(3, False)
    assert not answer(pairs, pairing_hint(encode_pairs(pairs)))


# --- malformed hints --------------------------------------------------------------------------

@pytest.mark.parametrize("index", [0, 3, 5])
@pytest.mark.parametrize("bad", ["value + p", "p", "2^384 - 1"])
def test_hint_values_not_below_p_revert(index, bad):
    """value + p is the same value mod p: only the range check can tell."""
    pairs = instance(2, True)
    t = honest(pairs)
    t[index] = {"value + p": t[index] + P, "p": P, "2^384 - 1": (1 << 384) - 1}[bad]
    result = run(pairs, hint_bytes(t))
    assert not result.success and result.error == "revert"


@pytest.mark.parametrize("size", [0, HINT_BYTES - 1, HINT_BYTES + 1, 2 * HINT_BYTES])
def test_hint_of_the_wrong_length(size):
    pairs = encode_pairs(instance(2, True))
    with pytest.raises(ValueError, match="288 bytes"):
        encode_calldata(NAME, pairs, bytes(size))
    with pytest.raises(ValueError, match="288 bytes"):
        pairing_check_hinted(pairs, bytes(size))
    calldata = encode_calldata("pairing_product_is_one", pairs) + bytes(size)
    result = execute(build_contract(NAME), calldata)
    if size % 288 == 0:       # reads as fewer pairs and a hint (a pair's bytes): a wrong one
        read_as_hint = calldata[-HINT_BYTES:]
        if all(v < P for v in hint_values(read_as_hint)):
            assert result.success and result.output == ZERO
        else:
            assert not result.success and result.error == "revert"
    else:
        assert not result.success and result.error == "revert"


def test_calldata_shorter_than_the_hint_reverts():
    """CALLDATASIZE - 288 wraps around; the length check must not take it for pairs (for
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
    t = honest(pairs)
    t[3] += P
    with pytest.raises(RuntimeError, match="revert"):
        eip2537_pairing_check_hinted(eip2537_input(pairs), hint_bytes(t))


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


# --- the acceptance test alone, on chosen F and t -----------------------------------------------

@lru_cache(maxsize=None)
def acceptance_program(target):
    """Calldata: F (12 Fp values) then t (6), 48-byte big-endian; returns 1 iff
    tower.residue.push_accepted accepts (F the hinted Miller loop's value)."""
    from evm384_native.asm import Assembler, Fp12, raw
    from evm384_native.tower.fp import Emitter
    from evm384_native.ec.bls12_hinted import Hint
    from evm384_native.tower.residue import push_accepted
    from evm384_native.tower.targets import resolve_target
    isa = resolve_target(target)
    asm = Assembler("acceptance", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, BLS12_381, target=isa)
    region = asm.memory.region("io")
    f, hint = region.alloc(Fp12, "f"), region.alloc(Hint, "hint")
    given, word = region.alloc(raw(Fp12.size + Hint.size), "given"), region.alloc(raw(32), "word")
    fail = asm.new_label("fail")
    asm.push(given.size); asm.push(0); asm.push(given); asm.op("CALLDATACOPY")
    e.target.load_plain(e, f, given.part(Fp12, 0, "f"), fail, little_endian=False)
    e.target.load_plain(e, hint, given.part(Hint, Fp12.size, "t"), fail, little_endian=False)
    push_accepted(e, f, hint.t)
    asm.push(word); asm.op("MSTORE")
    asm.push(32); asm.push(word); asm.op("RETURN")
    asm.place(fail)
    asm.push(0); asm.op("DUP1"); asm.op("REVERT")
    e.finish()
    return asm.assemble().code


def acceptance(target, f_values, t):
    result = execute(acceptance_program(target), hint_bytes(list(f_values) + list(t)),
                     opcodes=target, engine="fast")
    assert result.success, result.error
    return result.output == ONE


@pytest.mark.parametrize("target", ["evm384", "evmmax"])
def test_acceptance_is_y_in_fp6_star(target):
    """Y = F (1 + t w)^p in Fp6* against py_ecc, on both targets: F with F.c1 chosen so
    that Y.c1 = 0 (accepted), perturbed (rejected), F = 0 (Y = 0: rejected, the case only
    the F.c0 != 0 test catches), F.c0 = 0, and random F."""
    rng = random.Random(11)
    for _ in range(3):
        t, f0 = random_fp(rng, 6), random_fp(rng, 6)
        t_frob = fq12_to_tower(frobenius(cinv_of(t)))[6:]           # (1 + t w)^p = 1 + t' w
        f1 = fq12_to_tower(-(tower_to_fq12(f0) * tower_to_fq12(t_frob)), 6)
        for f_values, expected in ((f0 + f1, True),
                                   (f0 + f1[:5] + [(f1[5] + 1) % P], False),
                                   ([0] * 12, False),
                                   ([0] * 6 + f1, False),
                                   (random_fp(rng, 12), False)):
            y = tower_to_fq12(f_values) * frobenius(cinv_of(t))
            assert in_fp6_star(y) is expected
            assert acceptance(target, f_values, t) is expected
