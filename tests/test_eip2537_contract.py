"""The EIP-2537 pairing-check contract against the official vectors, blst (pyblst) and
targeted invalid inputs; which check rejected an input is read from the source map."""
import json
import pathlib
import random
from functools import lru_cache

import pytest
from py_ecc.optimized_bls12_381 import FQ, FQ2, curve_order as R_ORDER, multiply, neg, normalize

from evm384_native import execute
from evm384_native.asm.failure import HALT
from evm384_native.bls12_381 import build_contract, build_program, eip2537_pairing_check
from evm384_native.bls12_381.oracle import (blst_product_is_one, compressed_g1, compressed_g2,
                                            eip2537_input, g1_off_subgroup, g1_point,
                                            g2_off_subgroup, g2_point, random_product_case)

NAME = "eip2537_pairing_check"
P = FQ.field_modulus
H1 = 0x396C8C005555E1568C00AAAB0000AAAB                # G1 cofactor
H2 = 0x5D543A95414E7F1091D50792876A202CD91DE4547085ABAA68A205B2E5A7DDFA628F1CB4D9E82EF21537E293A6691AE1616EC6E786F0C70CF1C38E31C7238E5
VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537"
VALID = json.loads((VECTORS / "pairing_check_bls.json").read_text())
INVALID = json.loads((VECTORS / "fail-pairing_check_bls.json").read_text())
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)


def run(data, **options):
    return execute(build_contract(NAME), data, schedule="update5-A", **options)


CHECKS = ("decode", "on_curve", "g1_subgroup", "g2_subgroup")


@lru_cache(maxsize=None)
def check_at_pc():
    """pc -> the validation step whose code is there (innermost scope that is a check)."""
    program = build_program(NAME)
    table = {}
    for pc, location in zip(program.source_map.starts, program.source_map.locations):
        checks = [scope for scope in location.path if scope in CHECKS]
        if checks:
            table[pc] = checks[-1]
    return table


def rejected_by(data):
    """The check that rejected ``data`` (the last one that ran before the failure), "length"
    if none ran, or None if the contract accepted the input."""
    table, last = check_at_pc(), ["length"]

    def hook(step):
        check = table.get(step.pc)
        if check is not None:
            last[0] = check
    result = execute(build_contract(NAME), data, tracer=hook)
    if result.success:
        return None
    assert HALT.ended(result)
    return last[0]


def pair_bytes(p, q):
    return eip2537_input([(p, q)])


def in_blst_subgroup(point, kind):
    """blst's verdict on a point on the curve: in the r-torsion subgroup or not. Any other
    failure (an encoding error, no blst) fails the test rather than meaning "no"."""
    import pyblst
    try:
        if kind == 1:
            pyblst.BlstP1Element.uncompress(compressed_g1(point))
        else:
            pyblst.BlstP2Element.uncompress(compressed_g2(point))
        return True
    except ValueError as error:
        if "BLST_POINT_NOT_IN_GROUP" not in str(error):
            raise
        return False


def test_the_subgroup_oracle_raises_on_anything_but_a_subgroup_verdict():
    assert pow(1 + 4, (P - 1) // 2, P) != 1  # no y with y^2 = 1^3 + 4: not on the curve
    with pytest.raises(ValueError, match="BLST_POINT_NOT_ON_CURVE"):
        in_blst_subgroup((FQ(1), FQ(1)), 1)


# --- official vectors -----------------------------------------------------------------------

@pytest.mark.parametrize("case", VALID, ids=lambda case: case["Name"])
def test_official_valid_vectors(case):
    result = run(bytes.fromhex(case["Input"]), engine="fast")
    assert result.success and result.output == bytes.fromhex(case["Expected"])


EXPECTED_REJECTION = {"invalid input length": "length",
                      "invalid field element top bytes": "decode",
                      "invalid fp.Element encoding": "decode",
                      "invalid point: not on curve": "on_curve",
                      "g1 point is not in the correct subgroup": "g1_subgroup",
                      "g2 point is not in the correct subgroup": "g2_subgroup"}


@pytest.mark.parametrize("case", INVALID, ids=lambda case: case["Name"])
def test_official_invalid_vectors_revert_for_the_right_reason(case):
    data = bytes.fromhex(case["Input"])
    result = run(data, engine="fast")
    assert HALT.ended(result)
    assert rejected_by(data) == EXPECTED_REJECTION[case["ExpectedError"]]


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_engines_agree_on_official_cases(engine):
    for case in (VALID[9], VALID[4], VALID[3]):         # =1 with 2 pairs, !=1, G1 with Q = 0
        assert run(bytes.fromhex(case["Input"]), engine=engine).output == bytes.fromhex(
            case["Expected"])
    assert HALT.ended(run(bytes.fromhex(INVALID[-4]["Input"]), engine=engine))


# --- random instances against blst ----------------------------------------------------------

@pytest.mark.parametrize("k,true", [(1, False), (2, True), (2, False), (3, True), (3, False)])
def test_random_instances_agree_with_pyblst(k, true):
    pairs = random_product_case(random.Random(700 + 10 * k + true), k, true)
    expected = blst_product_is_one(*zip(*pairs))
    assert expected is true
    assert eip2537_pairing_check(eip2537_input(pairs), engine="fast") == (ONE if true else ZERO)


def test_infinity_pairs_contribute_one_but_their_other_point_is_checked():
    pairs = random_product_case(random.Random(71), 2, True)
    p, q = pairs[0]
    data = eip2537_input(pairs + [(None, q), (p, None), (None, None)])
    assert eip2537_pairing_check(data, engine="fast") == ONE
    bad = g2_off_subgroup(random.Random(72))
    assert rejected_by(eip2537_input(pairs + [(None, normalize(bad))])) == "g2_subgroup"
    bad = g1_off_subgroup(random.Random(73))
    assert rejected_by(eip2537_input([(normalize(bad), None)] + pairs)) == "g1_subgroup"


def test_wrapper_returns_the_word_and_raises_on_invalid_input():
    g1, g2 = g1_point(3), g2_point(5)
    assert eip2537_pairing_check(pair_bytes(g1, g2)) == ZERO
    with pytest.raises(RuntimeError, match="invalid opcode"):
        eip2537_pairing_check(bytes(383))


# --- targeted invalid inputs ----------------------------------------------------------------

VALID_PAIRS = random_product_case(random.Random(80), 2, True)
VALID_INPUT = eip2537_input(VALID_PAIRS)


def with_field(data, index, raw64):
    return data[:64 * index] + raw64 + data[64 * (index + 1):]


@pytest.mark.parametrize("size", [0, 1, 383, 385, 767, 769])
def test_length_not_a_positive_multiple_of_384_reverts(size):
    data = (VALID_INPUT * 2)[:size]
    assert rejected_by(data) == "length"


@pytest.mark.parametrize("index", range(12))
def test_padding_and_range_are_checked_for_every_coordinate(index):
    """A coordinate with a padding bit set, or replaced by value + p (the same value mod p:
    only the range check can tell), is rejected while decoding."""
    assert run(VALID_INPUT).output == ONE
    field = VALID_INPUT[64 * index:64 * (index + 1)]
    value = int.from_bytes(field, "big")
    for padding_byte in (0, 15):
        padded = bytearray(field)
        padded[padding_byte] = 0x80
        assert rejected_by(with_field(VALID_INPUT, index, bytes(padded))) == "decode"
    assert rejected_by(with_field(VALID_INPUT, index, (value + P).to_bytes(64, "big"))) == "decode"


def test_largest_field_element_is_accepted_by_decoding():
    """p - 1 passes the range check (and then fails the curve check)."""
    data = with_field(VALID_INPUT, 0, (P - 1).to_bytes(64, "big"))
    assert rejected_by(data) == "on_curve"
    assert rejected_by(with_field(VALID_INPUT, 0, P.to_bytes(64, "big"))) == "decode"


@pytest.mark.parametrize("index", [1, 4, 9])   # G1.y, G2.y.c0, the second pair's G2.x.c1
def test_points_off_the_curve_revert(index):
    value = int.from_bytes(VALID_INPUT[64 * index:64 * (index + 1)], "big")
    data = with_field(VALID_INPUT, index, ((value + 1) % P).to_bytes(64, "big"))
    assert rejected_by(data) == "on_curve"


def test_g1_off_the_subgroup_reverts_and_times_the_cofactor_passes():
    rng = random.Random(90)
    q = g2_point(rng.randrange(1, R_ORDER))
    for _ in range(2):
        point = g1_off_subgroup(rng)
        assert not in_blst_subgroup(normalize(point), 1)
        assert rejected_by(pair_bytes(normalize(point), q)) == "g1_subgroup"
        cleared = normalize(multiply(point, H1))
        assert in_blst_subgroup(cleared, 1)
        data = eip2537_input([(cleared, q), (normalize(neg(multiply(point, H1))), q)])
        assert eip2537_pairing_check(data, engine="fast") == ONE
        assert eip2537_pairing_check(pair_bytes(cleared, q), engine="fast") == ZERO


def test_g2_off_the_subgroup_reverts_and_times_the_cofactor_passes():
    rng = random.Random(91)
    p = g1_point(rng.randrange(1, R_ORDER))
    point = g2_off_subgroup(rng)
    assert not in_blst_subgroup(normalize(point), 2)
    assert rejected_by(pair_bytes(p, normalize(point))) == "g2_subgroup"
    cleared = normalize(multiply(point, H2))
    assert in_blst_subgroup(cleared, 2)
    data = eip2537_input([(p, cleared), (p, normalize(neg(multiply(point, H2))))])
    assert eip2537_pairing_check(data, engine="fast") == ONE


@pytest.mark.parametrize("order,divisor", [(3, 3), (11, 11 * 11)])
def test_g1_points_of_small_order_revert(order, divisor):
    """Points of order 3 and 11 (factors of the cofactor; E(Fp) has two independent points
    of order 11): the scalar multiplication meets infinity, Z = 0, and the check rejects."""
    point = multiply(multiply(g1_off_subgroup(random.Random(0)), H1 // divisor), R_ORDER)
    assert point[2] != FQ.zero() and multiply(point, order)[2] == FQ.zero()
    assert rejected_by(pair_bytes(normalize(point), g2_point(7))) == "g1_subgroup"


def test_g2_point_of_small_order_reverts():
    """Order 13 (13^2 divides the G2 cofactor): the Miller loop's T meets infinity (Z = 0)."""
    point = multiply(multiply(g2_off_subgroup(random.Random(0)), H2 // 169), R_ORDER)
    assert point[2] != FQ2.zero() and multiply(point, 13)[2] == FQ2.zero()
    assert rejected_by(pair_bytes(g1_point(7), normalize(point))) == "g2_subgroup"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_more_off_subgroup_points_revert(seed):
    rng = random.Random(1000 + seed)
    g1, g2 = normalize(g1_off_subgroup(rng)), normalize(g2_off_subgroup(rng))
    assert rejected_by(pair_bytes(g1, g2_point(3))) == "g1_subgroup"
    assert rejected_by(pair_bytes(g1_point(3), g2)) == "g2_subgroup"


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_more_random_instances_on_the_python_engine(k):
    for true in ((False, True) if k > 1 else (False,)):
        pairs = random_product_case(random.Random(2000 + k + 10 * true), k, true)
        assert blst_product_is_one(*zip(*pairs)) is true
        assert eip2537_pairing_check(eip2537_input(pairs)) == (ONE if true else ZERO)


def test_main_job_runs_the_eip2537_contract(capsys):
    from evm384_native.bls12_381.__main__ import main
    assert main(["--seed", "2", "--runs", "1", "--contract", NAME]) == 0
    out = capsys.readouterr().out
    assert f"contract {NAME}" in out and "EVM384 says True, blst says True" in out


@pytest.mark.parametrize("value", [0, 1, 2, P - 1, 0x1234567890ABCDEF << 300])
def test_fp_inverse_as_a_run_time_loop(value):
    """The window loop the contract's final exponentiation uses (Emitter(loops=True))."""
    from evm384_native.asm import Fp
    from evm384_native.tower import fp
    from test_bls12_381_tower import run_routine

    def build(e, out, x):
        e.loops = True
        fp.inverse(e, out, x)
    assert run_routine(build, [(Fp, [value])], Fp) == [pow(value, -1, P) if value else 0]


def test_fits_the_contract_size_limit():
    assert len(build_contract(NAME)) <= 24_576                     # EIP-170
