"""The pairing contracts against blst (chia_rs, pyblst) and py_ecc."""
import json
import pathlib
import random

import pytest
from py_ecc.bls12_381 import curve_order as R_ORDER

from evm384_native.bls12_381 import (build_contract, build_program, encode_calldata,
                                     final_exponentiation, miller_loop, pairing,
                                     pairing_product_is_one, pairs_from_eip2537, run_contract)

from evm384_native.bls12_381.oracle import encode_pairs, random_product_case

from evm384_native.bls12_381.oracle import be_g1, be_g2, blst_pairing, blst_product_is_one

from bls_model import P, fq12_to_tower, from_mont_bytes, g1_point, g2_point, mont_bytes, tower_to_fq12

SPEC_E_G1_G2_PREFIX = "c5851fa033e47219382577fd762bd397f9cd6bc96f54cec81406d466733ef6ce80378481273411a625d8c63f8a44f313"


def random_pair(rng):
    return g1_point(rng.randrange(1, R_ORDER)), g2_point(rng.randrange(1, R_ORDER))


encode = encode_pairs


def test_pairing_of_generators_is_blst():
    g1, g2 = g1_point(1), g2_point(1)
    out = pairing(be_g1(g1), be_g2(g2))
    assert out == blst_pairing([g1], [g2])
    assert out[:48].hex() == SPEC_E_G1_G2_PREFIX


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_pairing_of_random_multiples_is_blst(seed):
    p, q = random_pair(random.Random(seed))
    assert pairing(be_g1(p), be_g2(q)) == blst_pairing([p], [q])


def test_pairing_with_reference_backend_is_blst():
    p, q = random_pair(random.Random(14))
    assert pairing(be_g1(p), be_g2(q), backend="reference") == blst_pairing([p], [q])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200, 225))
def test_many_random_products_are_blst(seed):
    rng = random.Random(seed)
    pairs = [random_pair(rng) for _ in range(1 + seed % 6)]
    assert final_exponentiation(miller_loop(encode(pairs))) == blst_pairing(*zip(*pairs))


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_pairing_is_the_cube_of_conjugated_py_ecc_pairing(seed):
    """blst's GT equals conj(e_py)^3 (spec §3); py_ecc's exact pairing is an independent
    oracle for the whole chain, formulas included."""
    from py_ecc.optimized_bls12_381 import FQ12 as OFQ12, pairing as py_pairing
    rng = random.Random(seed)
    a, b = rng.randrange(1, 1 << 64), rng.randrange(1, 1 << 64)
    p, q = g1_point(a), g2_point(b)
    one = type(p[0]).one()
    e = py_pairing((q[0], q[1], type(q[0]).one()), (p[0], p[1], one))
    conj = OFQ12([c if k % 2 == 0 else -c for k, c in enumerate(e.coeffs)])
    expected = [int(c) for c in (conj * conj * conj).coeffs]
    got = tower_to_fq12(from_mont_bytes(pairing(be_g1(p), be_g2(q))))
    assert [int(c) for c in got.coeffs] == expected


@pytest.mark.parametrize("k", [1, 3])
def test_miller_loop_then_final_exponentiation_is_blst(k):
    rng = random.Random(30 + k)
    pairs = [random_pair(rng) for _ in range(k)]
    f = miller_loop(encode(pairs))
    assert len(f) == 576
    assert final_exponentiation(f) == blst_pairing(*zip(*pairs))


@pytest.mark.parametrize("k,true", [(1, False), (2, True), (2, False), (3, True), (4, True),
                                    (4, False)])
def test_pairing_product_is_one_agrees_with_pyblst(k, true):
    pairs = random_product_case(random.Random(100 * k + true), k, true)
    expected = blst_product_is_one(*zip(*pairs))
    assert expected is true
    assert pairing_product_is_one(encode(pairs)) is expected


def test_two_pairing_check_budget():
    """The targets: <= 95,000 EVM384 ops (issue 4) and, under update5-A, no more gas than
    before the cheaper cyclotomic squaring (589,048; issue 12)."""
    pairs = random_product_case(random.Random(7), 2, True)
    result = run_contract("pairing_product_is_one", encode(pairs), schedule="update5-A")
    assert result.output[-1] == 1
    counts = result.opcode_counts
    evm384 = sum(counts.get(name, 0) for name in ("ADDMOD384", "SUBMOD384", "MULMODMONT384"))
    assert evm384 <= 95_000
    assert result.gas_used <= 589_048


def test_contract_api_round_trip():
    """build_contract + encode_calldata run directly on execute give the API's answer."""
    from evm384_native import execute
    g1, g2 = g1_point(5), g2_point(7)
    result = execute(build_contract("pairing"), encode_calldata("pairing", be_g1(g1), be_g2(g2)),
                     schedule="update5-B")
    assert result.success and result.output == blst_pairing([g1], [g2])
    with pytest.raises(ValueError):
        encode_calldata("pairing", be_g1(g1)[:-1], be_g2(g2))
    with pytest.raises(ValueError):
        build_contract("nope")
    with pytest.raises(TypeError):
        build_contract("pairing", fast=True)


def test_non_compact_build_gives_the_same_bytes():
    """compact=False inlines the cold Fp6 products: bigger code, same results."""
    from evm384_native import execute
    g1, g2 = g1_point(11), g2_point(13)
    code = build_contract("pairing", compact=False)
    assert len(code) > len(build_contract("pairing"))
    result = execute(code, encode_calldata("pairing", be_g1(g1), be_g2(g2)))
    assert result.output == blst_pairing([g1], [g2])


def test_source_map_attributes_line_doubling():
    program = build_program("pairing_product_is_one")
    paths = {program.source_map[pc].path for pc in range(0, program.code_size, 97)}
    assert any(path[:2] == ("ml_dbl_all", "line_dbl") and "fp2_sqr" in path for path in paths)
    assert any(path[0] == "fe_cyclotomic_sqr" for path in paths)


def test_final_exponentiation_of_random_fp12_is_the_blst_power():
    """Any Fp12, not only Miller loop values: f^(3 (p^12 - 1) / r) by py_ecc."""
    rng = random.Random(41)
    f = [rng.randrange(P) for _ in range(12)]
    out = final_exponentiation(mont_bytes(f))
    expected = tower_to_fq12(f) ** (3 * (P ** 12 - 1) // R_ORDER)
    assert from_mont_bytes(out) == fq12_to_tower(expected)


@pytest.mark.parametrize("name,size", [("pairing_product_is_one", 0), ("pairing_product_is_one", 287),
                                       ("miller_loop", 577), ("final_exponentiation", 575)])
def test_wrong_calldata_length_reverts(name, size):
    from evm384_native import execute
    result = execute(build_contract(name), bytes(size))
    assert not result.success and result.error == "revert"


def test_contracts_fit_the_contract_size_limit():
    for name in ("pairing", "pairing_product_is_one", "miller_loop", "final_exponentiation"):
        assert len(build_contract(name)) <= 24_576, name            # EIP-170


INFINITY_G1, INFINITY_G2 = bytes(96), bytes(192)


def test_pairs_with_a_point_at_infinity_contribute_one():
    """All-zero points (EIP-2537's encoding of infinity) are skipped, as e(O, Q) = 1."""
    rng = random.Random(50)
    pairs = encode(random_product_case(rng, 2, True))
    with_infinity = [pairs[0], (INFINITY_G1, pairs[1][1]), pairs[1], (pairs[0][0], INFINITY_G2)]
    assert pairing_product_is_one(with_infinity) is True
    assert pairing_product_is_one([(INFINITY_G1, INFINITY_G2)]) is True
    assert pairing_product_is_one([pairs[0], (INFINITY_G1, pairs[0][1])]) is False
    p, q = random_pair(rng)
    f = miller_loop([(INFINITY_G1, be_g2(q)), (be_g1(p), be_g2(q))])
    assert final_exponentiation(f) == blst_pairing([p], [q])
    one = final_exponentiation(miller_loop([(be_g1(p), INFINITY_G2)]))
    assert from_mont_bytes(one) == [1] + [0] * 11


EIP2537_VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537"


@pytest.mark.parametrize("case", json.loads((EIP2537_VECTORS / "pairing_check_bls.json").read_text()),
                         ids=lambda case: case["Name"])
def test_official_eip2537_pairing_vectors(case):
    """Every valid EIP-2537 pairing-check vector, points at infinity included (the contract
    does not validate, and these vectors are all valid)."""
    pairs = pairs_from_eip2537(bytes.fromhex(case["Input"]))
    expected = bytes.fromhex(case["Expected"])[-1] == 1
    assert pairing_product_is_one(pairs, schedule="update5-A") is expected


def test_eip2537_input_checks():
    with pytest.raises(ValueError):
        pairs_from_eip2537(bytes(383))
    with pytest.raises(ValueError):
        pairs_from_eip2537(b"\x01" + bytes(383))


def test_main_job_cli(capsys):
    from evm384_native.bls12_381.__main__ import main
    assert main(["--seed", "1", "--runs", "1"]) == 0
    out = capsys.readouterr().out
    assert "EVM384 says True, blst says True" in out and "EVM384 says False, blst says False" in out
    assert "gas update5-A" in out


@pytest.mark.parametrize("k", [1, 2])
def test_miller_loop_is_blsts_formulas(k):
    """The Miller loop value itself (which the final exponentiation would not distinguish
    from a rescaled one) against blst's formulas written with py_ecc's field arithmetic."""
    from bls_model import blst_miller_loop
    rng = random.Random(60 + k)
    pairs = [random_pair(rng) for _ in range(k)]
    assert from_mont_bytes(miller_loop(encode(pairs))) == blst_miller_loop(pairs)


def test_random_product_case_refuses_an_impossible_one():
    with pytest.raises(ValueError, match="only for k >= 2"):
        random_product_case(random.Random(1), 1, True)
    assert len(random_product_case(random.Random(1), 1, False)) == 1


def test_main_job_runs_with_one_pair(capsys):
    from evm384_native.bls12_381.__main__ import main
    assert main(["--pairs", "1", "--runs", "1", "--seed", "3"]) == 0
    assert "EVM384 says False, blst says False" in capsys.readouterr().out
