"""EIP-2537's addition, MSM and map contracts (eip2537_g1add, _g2add, _g1msm, _g2msm,
_map_fp_to_g1, _map_fp2_to_g2) against the official vectors, blst (pyblst, chia_rs),
py_ecc and arkworks; invalid inputs revert."""
import json
from functools import lru_cache
import pathlib
import random

import pytest
from hypothesis import given, settings, strategies as st
from py_ecc.bls.point_compression import modular_squareroot_in_FQ2
from py_ecc.optimized_bls12_381 import (FQ2, curve_order as R_ORDER, is_inf, multiply, neg,
                                        normalize)

from evm384_native import execute
from evm384_native.asm.failure import HALT
from evm384_native.bls12_381 import (build_contract, eip2537_g1add, eip2537_g1msm, eip2537_g2add,
                                     eip2537_g2msm, eip2537_map_fp2_to_g2, eip2537_map_fp_to_g1)
from evm384_native.contracts import targets_of
from evm384_native.bls12_381.eip2537_oracle import (blst_msm, blst_point, encode_point,
                                                    arkworks_map, msm_input, py_ecc_map,
                                                    py_ecc_sum)
from optional import require
from test_eip2537_contract import H1, H2, P, g1_off_subgroup, g2_off_subgroup, in_blst_subgroup

VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537"
ADD = {1: "eip2537_g1add", 2: "eip2537_g2add"}
MSM = {1: "eip2537_g1msm", 2: "eip2537_g2msm"}
MAP = {1: "eip2537_map_fp_to_g1", 2: "eip2537_map_fp2_to_g2"}
API = {"eip2537_g1add": eip2537_g1add, "eip2537_g2add": eip2537_g2add,
       "eip2537_g1msm": eip2537_g1msm, "eip2537_g2msm": eip2537_g2msm,
       "eip2537_map_fp_to_g1": eip2537_map_fp_to_g1,
       "eip2537_map_fp2_to_g2": eip2537_map_fp2_to_g2}
POINT_BYTES = {1: 128, 2: 256}
TARGETS = targets_of("eip2537_g1add")       # the targets EIP-2537's contracts are built for
# the targets whose runs are traced (which path an input took; the command line's trace and
# profile): the paths are the same code on every target, and plain EVM's millions of steps
# take a minute a test through the Python tracer (its answers are checked by every other
# test here, and its command line by tests/test_target_evm.py's contracts)
TRACED = ("evm384", "evmmax")
GAS = 1 << 34                               # plain EVM's MSMs take more than a block's gas
SCALARS = [0, 1, R_ORDER - 1, R_ORDER, R_ORDER + 1, (1 << 256) - 1]


def load(name):
    return json.loads((VECTORS / name).read_text())


@pytest.fixture(params=TARGETS)
def target(request):
    """Every contract test runs on both targets EIP-2537's contracts are built for."""
    return request.param


def run(name, data, target, **options):
    options.setdefault("engine", "fast")
    options.setdefault("gas", GAS)
    return execute(build_contract(name, target=target), data, schedule="update5-A",
                   opcodes=target, **options)


def assert_reverts(name, data, target):
    """The precompile's failure: an exceptional halt that consumes the call's gas."""
    assert HALT.ended(run(name, data, target))


def rand_point(kind, rng):
    return blst_point(kind, rng.randrange(1, R_ORDER))


def off_subgroup(kind, rng):
    return normalize(g1_off_subgroup(rng) if kind == 1 else g2_off_subgroup(rng))


# --- official vectors -----------------------------------------------------------------------

VALID = [(ADD[1], c) for c in load("add_G1_bls.json")] + \
        [(ADD[2], c) for c in load("add_G2_bls.json")] + \
        [(MSM[1], c) for c in load("mul_G1_bls.json") + load("msm_G1_bls.json")] + \
        [(MSM[2], c) for c in load("mul_G2_bls.json")] + \
        [(MAP[1], c) for c in load("map_fp_to_G1_bls.json")] + \
        [(MAP[2], c) for c in load("map_fp2_to_G2_bls.json")]
INVALID = [(ADD[1], c) for c in load("fail-add_G1_bls.json")] + \
          [(ADD[2], c) for c in load("fail-add_G2_bls.json")] + \
          [(MSM[1], c) for c in load("fail-mul_G1_bls.json") + load("fail-msm_G1_bls.json")] + \
          [(MSM[2], c) for c in load("fail-mul_G2_bls.json") + load("fail-msm_G2_bls.json")] + \
          [(MAP[1], c) for c in load("fail-map_fp_to_G1_bls.json")] + \
          [(MAP[2], c) for c in load("fail-map_fp2_to_G2_bls.json")]


def test_every_official_file_is_used():
    assert len([1 for name, _ in VALID if name == MSM[1]]) == 11 + 163
    assert len(VALID) == 9 + 9 + 11 + 163 + 11 + 5 + 5
    assert len(INVALID) == 7 + 7 + 8 + 8 + 8 + 8 + 5 + 5


@pytest.mark.parametrize("name,case", VALID, ids=lambda x: x if isinstance(x, str) else x["Name"])
def test_official_valid_vectors(name, case, target):
    result = run(name, bytes.fromhex(case["Input"]), target)
    assert result.success and result.output == bytes.fromhex(case["Expected"])


@pytest.mark.parametrize("name,case", INVALID, ids=lambda x: x if isinstance(x, str) else x["Name"])
def test_official_invalid_vectors_revert(name, case, target):
    assert_reverts(name, bytes.fromhex(case["Input"]), target)


# --- engines and backends -------------------------------------------------------------------

@pytest.mark.parametrize("name,case", [(ADD[1], load("add_G1_bls.json")[5]),
                                       (ADD[2], load("add_G2_bls.json")[6]),
                                       (MSM[1], load("msm_G1_bls.json")[40]),
                                       (MSM[2], load("mul_G2_bls.json")[3]),
                                       (MSM[2], load("fail-msm_G2_bls.json")[-1]),
                                       (MAP[1], load("map_fp_to_G1_bls.json")[2]),
                                       (MAP[2], load("map_fp2_to_G2_bls.json")[3])])
def test_engines_and_backends_agree(name, case, target):
    data = bytes.fromhex(case["Input"])
    results = [run(name, data, target, engine=engine, backend=backend)
               for engine, backend in (("fast", "native"), ("python", "native"),
                                       ("python", "reference"))]
    for other in results[1:]:
        assert (other.success, other.output, other.gas_used, other.steps, other.error) == (
            results[0].success, results[0].output, results[0].gas_used, results[0].steps,
            results[0].error)
    if "Expected" in case:
        assert results[0].output == bytes.fromhex(case["Expected"])


# --- addition -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", [1, 2])
def test_random_additions_agree_with_blst(kind, target):
    rng = random.Random(10 + kind)
    for _ in range(4):
        a, b = rng.randrange(R_ORDER), rng.randrange(R_ORDER)
        p, q = blst_point(kind, a), blst_point(kind, b)
        data = encode_point(kind, p) + encode_point(kind, q)
        assert API[ADD[kind]](data, engine="fast", target=target) == blst_msm(kind, [(p, 1), (q, 1)]) == \
            encode_point(kind, blst_point(kind, a + b))


@pytest.mark.parametrize("kind", [1, 2])
def test_addition_special_cases(kind, target):
    """P + P, P + (-P), infinity on either side and both, for a point in the subgroup and
    one outside it (addition does not check the subgroup)."""
    rng = random.Random(20 + kind)
    for p in (rand_point(kind, rng), off_subgroup(kind, rng)):
        minus = normalize(neg((p[0], p[1], type(p[0]).one())))
        for a, b in ((p, p), (p, minus), (p, None), (None, p), (None, None)):
            data = encode_point(kind, a) + encode_point(kind, b)
            assert API[ADD[kind]](data, engine="fast", target=target) == py_ecc_sum(kind, [(a, 1), (b, 1)])


@pytest.mark.parametrize("kind", [1, 2])
def test_addition_of_points_outside_the_subgroup(kind, target):
    rng = random.Random(30 + kind)
    p, q = off_subgroup(kind, rng), off_subgroup(kind, rng)
    assert not in_blst_subgroup(p, kind)
    data = encode_point(kind, p) + encode_point(kind, q)
    assert API[ADD[kind]](data, engine="fast", target=target) == py_ecc_sum(kind, [(p, 1), (q, 1)])


def with_field(data, index, raw64):
    return data[:64 * index] + raw64 + data[64 * (index + 1):]


@pytest.mark.parametrize("kind", [1, 2])
def test_addition_rejects_bad_encodings_lengths_and_points_off_the_curve(kind, target):
    rng = random.Random(40 + kind)
    data = encode_point(kind, rand_point(kind, rng)) + encode_point(kind, rand_point(kind, rng))
    name = ADD[kind]
    assert run(name, data, target).success
    for size in (0, len(data) - 1, len(data) + 1, len(data) // 2, 2 * len(data)):
        assert_reverts(name, (data * 2)[:size], target)
    for index in range(len(data) // 64):
        field = data[64 * index:64 * (index + 1)]
        value = int.from_bytes(field, "big")
        padded = bytearray(field)
        padded[rng.randrange(16)] = 1
        assert_reverts(name, with_field(data, index, bytes(padded)), target)
        assert_reverts(name, with_field(data, index, (value + P).to_bytes(64, "big")), target)
        assert_reverts(name, with_field(data, index, ((value + 1) % P).to_bytes(64, "big")), target)


@pytest.mark.parametrize("kind", [1, 2])
def test_a_zero_coordinate_is_not_infinity(kind, target):
    """(0, y) and (x, 0) are not on the curve (only the all-zero encoding is infinity)."""
    p = encode_point(kind, rand_point(kind, random.Random(50)))
    half = POINT_BYTES[kind] // 2
    for bad in (bytes(half) + p[half:], p[:half] + bytes(half)):
        assert_reverts(ADD[kind], bad + p, target)
        assert_reverts(ADD[kind], p + bad, target)


# --- MSM ------------------------------------------------------------------------------------

def check_msm(kind, pairs, target, **options):
    options.setdefault("gas", GAS)
    expected = blst_msm(kind, pairs)
    assert API[MSM[kind]](msm_input(kind, pairs), engine="fast", target=target, **options) == expected
    return expected


@pytest.mark.parametrize("kind", [1, 2])
@pytest.mark.parametrize("scalar", SCALARS)
def test_msm_scalar_edge_cases(kind, scalar, target):
    rng = random.Random(60 + kind)
    p = rand_point(kind, rng)
    expected = check_msm(kind, [(p, scalar)], target)
    assert expected == py_ecc_sum(kind, [(p, scalar)])
    check_msm(kind, [(p, scalar), (rand_point(kind, rng), rng.randrange(1 << 256))], target)


@pytest.mark.parametrize("kind", [1, 2])
@pytest.mark.parametrize("k", [1, 2, 3, 8])
def test_random_msm_agrees_with_blst(kind, k, target):
    rng = random.Random(100 * kind + k)
    check_msm(kind, [(rand_point(kind, rng), rng.randrange(1 << 256)) for _ in range(k)], target)


@pytest.mark.parametrize("kind", [1, 2])
def test_msm_with_cancelling_equal_and_infinite_terms(kind, target):
    """Equal points (the accumulator meets the same multiple: a doubling), opposite
    points (infinity mid-way and at the end), infinity, zero scalars."""
    rng = random.Random(70 + kind)
    p, q = rand_point(kind, rng), rand_point(kind, rng)
    minus_p = normalize(neg((p[0], p[1], type(p[0]).one())))
    s = rng.randrange(R_ORDER)
    for pairs in ([(p, s), (p, s)], [(p, s), (minus_p, s)], [(p, s), (p, R_ORDER - s)],
                  [(None, s), (p, 0), (q, 5)], [(None, 3)], [(p, 0)], [(p, 1), (p, 1), (p, 1)],
                  [(q, 7), (p, s), (minus_p, s)]):
        assert check_msm(kind, pairs, target) == py_ecc_sum(kind, pairs)


def complete_path_ran(kind, data, target):
    """Run the MSM on ``data``; True if it took the loop with complete additions (the fast
    loop met an exceptional case: acc = +-t, or acc at infinity)."""
    from evm384_native.asm.profile import GasByPc
    from evm384_native.bls12_381 import build_program
    program = build_program(MSM[kind], target=target)
    gas = GasByPc()
    result = execute(program.code, data, opcodes=target, tracer=gas, gas=GAS)
    assert result.success
    completes = [pc for name, pc in program.labels.items() if name.startswith("msm_complete")]
    return any(pc in gas.by_pc for pc in completes), result.output


def split_of(kind, pairs):
    """The contract's split for ``pairs`` pairs: (radix, digits, digit bits); G1 takes
    four digits in base |x| for at most two pairs, else two in base x^2."""
    x = 0xd201000000010000
    return (x * x, 2, 128) if kind == 1 and pairs > 2 else (x, 4, 64)


@pytest.mark.parametrize("kind,pairs", [(1, 1), (1, 3), (2, 1)])
def test_msm_digit_patterns(kind, pairs, target):
    """Scalars made of chosen split digits (< r): every digit even (each borrows, a_0
    goes below 0), zero digits under an even one (a_0 = -R + 1 after the borrow), the
    largest digits, a lone top digit; each pair's scalar against blst."""
    radix, count, _ = split_of(kind, pairs)
    rng = random.Random(70 + kind + pairs)
    patterns = [[2] * count, [0] * (count - 1) + [2], [radix - 1] * (count - 1) + [1],
                [radix - 2] * count, [0] * (count - 1) + [1], [1] + [0] * (count - 1),
                [0, radix - 2] + [0] * (count - 2)]
    scalars = [sum(d * radix ** i for i, d in enumerate(digits)) for digits in patterns]
    assert all(0 < s < R_ORDER for s in scalars)
    for chunk in range(0, len(scalars), pairs):
        points = [rand_point(kind, rng) for _ in range(pairs)]
        chosen = (scalars * 2)[chunk:chunk + pairs]
        check_msm(kind, list(zip(points, chosen)), target)


def fast_loop_scalar(s):
    """What the fast loop multiplies a point by for the scalar s: the split's digits of
    s mod r recoded odd, the digits above the lowest by borrowing from the one below
    (the sum unchanged), the lowest as a_0 | 1 (corrected after the loop with a complete
    addition). a_0 = s mod the radix, which is even: s mod r | 1."""
    return (s % R_ORDER) | 1


@pytest.mark.parametrize("target", TRACED)
@pytest.mark.parametrize("kind", [1, 2])
def test_msm_fast_loop_and_its_complete_fallback(kind, target):
    """The fast loop's accumulator starts at G and ends at [2^b] G + S' (S' the sum with
    each s_i' = s_i mod r | 1, :func:`fast_loop_scalar`): pairs ([c_i] G, s_i) with sum c_i s_i' = -2^b drive it to
    infinity (an exceptional addition), which must send the input to the complete loop;
    random inputs stay on the fast one. Both answers against blst."""
    rng = random.Random(95 + kind)
    g = blst_point(kind, 1)
    forced = []
    for count in (1, 2, 3):
        target_sum = -(1 << split_of(kind, count)[2]) % R_ORDER
        scalars = [rng.randrange(1 << 256) for _ in range(count)]
        if count == 3:
            scalars[0] = R_ORDER - 2                     # even digits: borrows, a correction
        loop = [fast_loop_scalar(s) for s in scalars]
        coefficients = [rng.randrange(1, R_ORDER) for _ in range(count - 1)]
        rest = (target_sum - sum(c * v for c, v in zip(coefficients, loop))) % R_ORDER
        coefficients.append(rest * pow(loop[-1], -1, R_ORDER) % R_ORDER)
        forced.append([(blst_point(kind, c), s) for c, s in zip(coefficients, scalars)])
    forced.append([(g, R_ORDER - (1 << 64))])        # S = -[2^b] G, corrections after
    for number, pairs in enumerate(forced):
        ran, output = complete_path_ran(kind, msm_input(kind, pairs), target)
        assert output == blst_msm(kind, pairs)
        assert ran or number == 3          # the last: whichever path it takes
    pairs = [(rand_point(kind, rng), rng.randrange(1 << 256)) for _ in range(3)]
    ran, output = complete_path_ran(kind, msm_input(kind, pairs), target)
    assert not ran and output == blst_msm(kind, pairs)


@pytest.mark.parametrize("kind", [1, 2])
def test_msm_rejects_points_outside_the_subgroup_and_the_cofactor_multiple_passes(kind, target):
    rng = random.Random(80 + kind)
    good = (rand_point(kind, rng), 3)
    for _ in range(2):
        bad = off_subgroup(kind, rng)
        assert not in_blst_subgroup(bad, kind)
        for scalar in (0, 1, R_ORDER):              # validated whatever the scalar
            assert_reverts(MSM[kind], msm_input(kind, [good, (bad, scalar)]), target)
            assert_reverts(MSM[kind], msm_input(kind, [(bad, scalar), good]), target)
        one = type(bad[0]).one()
        cleared = normalize(multiply((bad[0], bad[1], one), H1 if kind == 1 else H2))
        assert in_blst_subgroup(cleared, kind)
        check_msm(kind, [good, (cleared, 5)], target)


@pytest.mark.parametrize("kind,order,divisor", [(1, 3, 3), (1, 11, 121), (2, 13, 169)])
def test_msm_rejects_points_of_small_order(kind, order, divisor, target):
    rng = random.Random(0)
    cofactor = H1 if kind == 1 else H2
    raw = g1_off_subgroup(rng) if kind == 1 else g2_off_subgroup(rng)
    point = multiply(multiply(raw, cofactor // divisor), R_ORDER)
    assert multiply(point, order)[2] == type(point[2]).zero() != point[2]
    assert_reverts(MSM[kind], msm_input(kind, [(normalize(point), 1)]), target)


@pytest.mark.parametrize("kind", [1, 2])
def test_msm_rejects_bad_lengths_encodings_and_points_off_the_curve(kind, target):
    rng = random.Random(90 + kind)
    pairs = [(rand_point(kind, rng), rng.randrange(1 << 256)) for _ in range(2)]
    data = msm_input(kind, pairs)
    pair = len(data) // 2
    name = MSM[kind]
    assert run(name, data, target).success
    for size in (0, 1, pair - 1, pair + 1, 2 * pair - 1, 2 * pair + 32):
        assert_reverts(name, (data * 2)[:size], target)
    for start in [j * pair + 64 * i for j in (0, 1) for i in range(POINT_BYTES[kind] // 64)]:
        field = data[start:start + 64]
        value = int.from_bytes(field, "big")
        for bad in ((value + P).to_bytes(64, "big"), b"\x01" + field[1:],
                    ((value + 1) % P).to_bytes(64, "big")):
            assert_reverts(name, data[:start] + bad + data[start + 64:], target)


def test_wrappers_return_bytes_and_raise_on_invalid_input():
    g = encode_point(1, blst_point(1, 1))
    assert eip2537_g1add(g + bytes(128)) == g
    assert eip2537_g1msm(g + (1).to_bytes(32, "big")) == g
    for name, function in API.items():
        with pytest.raises(RuntimeError, match="invalid opcode"):
            function(b"")


SCALAR = st.one_of(st.sampled_from(SCALARS), st.integers(0, (1 << 256) - 1))


@pytest.mark.parametrize("target", TARGETS)
@settings(max_examples=25)
@given(st.integers(1, R_ORDER - 1), st.integers(1, R_ORDER - 1),
       st.lists(SCALAR, min_size=1, max_size=3))
def test_g1_properties_against_blst(target, a, b, scalars):
    """[a] G + [b] G by the addition contract, and an MSM over multiples of G (equal
    points, infinity, edge scalars), against blst."""
    p, q = blst_point(1, a), blst_point(1, b)
    assert eip2537_g1add(encode_point(1, p) + encode_point(1, q), engine="fast",
                         target=target) == \
        blst_msm(1, [(p, 1), (q, 1)])
    points = [p, q, None]
    check_msm(1, [(points[i % 3], s) for i, s in enumerate(scalars)], target)


# --- G2 MSM vectors generated against blst and py_ecc (none in the official snapshot) -------

@pytest.mark.parametrize("k", [1, 2, 4, 16, pytest.param(64, marks=pytest.mark.slow),
                               pytest.param(128, marks=pytest.mark.slow)])
def test_g2_msm_generated_cases(k, target):
    rng = random.Random(5000 + k)
    pairs = [(rand_point(2, rng), rng.choice(SCALARS + [rng.randrange(1 << 256)] * 3))
             for _ in range(k)]
    expected = check_msm(2, pairs, target)
    if k <= 4:                                        # py_ecc is slow
        assert expected == py_ecc_sum(2, pairs)


@pytest.mark.slow
@pytest.mark.parametrize("k", [32, 128])
def test_g1_msm_large_k(k, target):
    rng = random.Random(6000 + k)
    check_msm(1, [(rand_point(1, rng), rng.randrange(1 << 256)) for _ in range(k)], target)


# --- map to curve ---------------------------------------------------------------------------

SWU_Z = 11
# the SWU map's exceptional inputs: Z^2 u^4 + Z u^2 = 0, i.e. u = 0 or u^2 = -1 / Z
U_EXCEPTIONAL = pow(-pow(SWU_Z, -1, P) % P, (P + 1) // 4, P)
SWU_Z2 = FQ2([-2, -1])


def map_input(u):
    """u: an int (Fp) or a pair (Fp2)."""
    return b"".join(v.to_bytes(64, "big") for v in ((u,) if isinstance(u, int) else u))


def check_map(kind, u, target):
    """Against py_ecc and arkworks (two independent implementations)."""
    output = API[MAP[kind]](map_input(u), engine="fast", target=target)
    assert output == py_ecc_map(kind, u)
    require("py_arkworks_bls12381", "test", since=(3, 11))
    assert output == arkworks_map(kind, u)


def test_map_exceptional_inputs(target):
    assert U_EXCEPTIONAL ** 2 % P == -pow(SWU_Z, -1, P) % P
    for u in (0, U_EXCEPTIONAL, P - U_EXCEPTIONAL):
        check_map(1, u, target)
    # in Fp2, -1 is a square and Z is not, so -1 / Z is not: u = 0 is the only one
    assert modular_squareroot_in_FQ2(-SWU_Z2.inv()) is None
    check_map(2, (0, 0), target)


def test_map_to_g1_random_inputs_agree_with_py_ecc(target):
    """Random u: both SWU branches (g(x1) square or not) and both signs of y occur (u and
    -u give the same x, opposite signs)."""
    rng = random.Random(7)
    for u in [1, 2, P - 1, P - 2] + [rng.randrange(P) for _ in range(8)]:
        check_map(1, u, target)


def test_map_to_g2_inputs_agree_with_py_ecc(target):
    """sgn0 of an Fp2 value reads c1 when c0 = 0: inputs with c0 = 0, c1 = 0, and random."""
    rng = random.Random(9)
    for u in [(0, 1), (0, 2), (0, P - 1), (1, 0), (P - 1, 0), (P - 1, P - 1)] + \
            [(rng.randrange(P), rng.randrange(P)) for _ in range(4)]:
        check_map(2, u, target)


@pytest.mark.parametrize("kind", [1, 2])
def test_map_rejects_bad_lengths_and_encodings(kind, target):
    name = MAP[kind]
    good = map_input(12345 if kind == 1 else (12345, 678))
    assert run(name, good, target).success
    for data in (b"", good[:-1], good + b"\0", good * 2):
        assert_reverts(name, data, target)
    for index in range(kind):
        field = good[64 * index:64 * (index + 1)]
        for bad in (P.to_bytes(64, "big"), (P + 5).to_bytes(64, "big"), b"\x01" + field[1:],
                    bytes(15) + b"\x01" + field[16:]):
            assert_reverts(name, with_field(good, index, bad), target)


@pytest.mark.parametrize("a", [(4, 0), (5, 0), (0, 0), (P - 1, 0), "random"])
def test_fp2_square_root(a):
    """The square root the G2 map takes (also its branch for a real a, which the map's
    inputs practically never reach): out^2 = a for squares a, given sqrt(norm(a))."""
    from evm384_native.asm import Fp, Fp2
    from evm384_native.bls12_381 import map_to_curve
    from test_bls12_381_tower import run_routine
    rng = random.Random(11)
    for _ in range(3 if a == "random" else 1):
        value = FQ2([rng.randrange(P), rng.randrange(P)]) ** 2 if a == "random" else FQ2(list(a))
        c0, c1 = (int(c) for c in value.coeffs)
        s = pow((c0 * c0 + c1 * c1) % P, (P + 1) // 4, P)
        out = run_routine(lambda e, out, x, n: map_to_curve._sqrt_fp2(e, out, x, n),
                          [(Fp2, [c0, c1]), (Fp, [s])], Fp2)
        assert FQ2(out) ** 2 == value


@pytest.mark.slow
def test_map_more_random_inputs(target):
    rng = random.Random(8)
    for _ in range(20):
        check_map(1, rng.randrange(P), target)
        check_map(2, (rng.randrange(P), rng.randrange(P)), target)


@pytest.mark.parametrize("target", TRACED)
def test_command_line_runs_traces_and_profiles_the_contracts(capsys, tmp_path, target):
    """``contract:NAME`` in the CLI: run (with the output), an EIP-3155 trace that ends with
    the same output and gas, a profile by routine, for each new contract."""
    from evm384_native.cli.main import main
    for name, case in ((ADD[2], load("add_G2_bls.json")[0]), (MSM[1], load("mul_G1_bls.json")[1]),
                       (MAP[2], load("map_fp2_to_G2_bls.json")[0])):
        data = case["Input"]
        result = run(name, bytes.fromhex(data), target)
        assert main(["run", f"contract:{name}", "--calldata", data, "--engine", "fast",
                     "--schedule", "update5-A", "--opcodes", target]) == 0
        assert f"output:     0x{case['Expected']}" in capsys.readouterr().out
        trace = tmp_path / "trace.jsonl"
        assert main(["trace", f"contract:{name}", "--calldata", data, "--schedule", "update5-A",
                     "--opcodes", target, "--out", str(trace)]) == 0
        last = json.loads(trace.read_text().splitlines()[-1])
        assert last == {"output": "0x" + case["Expected"], "gasUsed": hex(result.gas_used),
                        "pass": True}
        assert main(["profile", f"contract:{name}", "--calldata", data, "--opcodes", target]) == 0
        assert "ops by routine" in capsys.readouterr().out
    assert main(["run", f"contract:{MSM[2]}", "--opcodes", target]) == 1   # empty input: INVALID
    assert "error:      invalid opcode: INVALID" in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(API))
def test_fits_the_contract_size_limit(name, target):
    assert len(build_contract(name, target=target)) <= 24_576      # EIP-170


# --- cofactor clearing alone, on chosen points (its fast path and the fallback) -------------

@lru_cache(maxsize=None)
def cofactor_program(kind, target):
    """Calldata: a Jacobian point X‖Y‖Z of E (G1) or E' (G2), plain 48-byte big-endian
    values; returns [h_eff] of it as the map contract does (EIP-2537's encoding)."""
    from evm384_native.asm import Assembler, raw
    from evm384_native.bls12_381 import map_to_curve
    from evm384_native.bls12_381.eip2537_io import return_point
    from evm384_native.bls12_381.groups import G1_GROUP, G2_GROUP
    from evm384_native.curves.bls12_381 import BLS12_381
    from evm384_native.tower.fp import Emitter
    from evm384_native.tower.targets import resolve_target
    isa = resolve_target(target).for_field(BLS12_381)
    group = G1_GROUP if kind == 1 else G2_GROUP
    asm = Assembler("cofactor", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, BLS12_381, target=isa, inline_powers=True)
    region = asm.memory.region("io")
    point, out = region.alloc(group.jacobian, "p"), region.alloc(group.jacobian, "out")
    given = region.alloc(raw(group.jacobian.size), "given")
    fail = asm.new_label("fail")
    asm.push(given.size); asm.push(0); asm.push(given); asm.op("CALLDATACOPY")
    e.target.load_plain(e, point, given.part(group.jacobian, 0, "p"), fail, little_endian=False)
    (map_to_curve.clear_cofactor_g1 if kind == 1 else map_to_curve.clear_cofactor_g2)(
        e, out, point)
    return_point(e, group, out)
    asm.place(fail)
    asm.push(0); asm.op("DUP1"); asm.op("REVERT")
    e.finish()
    return asm.assemble()


def clear_cofactor(kind, point, target):
    """[h_eff] point by the contract's code: (output, whether the complete path ran)."""
    from evm384_native.asm.profile import GasByPc
    program = cofactor_program(kind, target)
    values = [c for v in point for c in ((int(v),) if kind == 1 else (int(x) for x in v.coeffs))]
    gas = GasByPc()
    result = execute(program.code, b"".join(v.to_bytes(48, "big") for v in values),
                     opcodes=target, engine="fast", tracer=gas, gas=GAS)
    assert result.success, result.error
    return result.output, program.labels.get("cofactor_complete") in gas.by_pc


H_EFF = {1: 0xD201000000010001,
         2: 0xBC69F08F2EE75B3584C6A0EA91B352888E2A8E9145AD7689986FF031508FFE1329C2F178731DB956D82BF015D1212B02EC0EC69D7477C1AE954CBC06689F6A359894C0ADEBBF6B4E8020005AAA95551}


def scaled(point, z):
    """The Jacobian point (x, y, 1) as (x z^2, y z^3, z)."""
    x, y, one = point
    return (x * z ** 2, y * z ** 3, one * z)


@pytest.mark.parametrize("kind", [1, 2])
@pytest.mark.parametrize("target", TRACED)
def test_cofactor_clearing_fast_path_and_fallback(kind, target):
    """Every answer is py_ecc's [h_eff] P, also for Jacobian inputs with Z != 1. G1 has no
    second path (an exceptional case means [h_eff] P = O). G2: points of small order and
    infinity (their [h_eff] is infinity), and points of G2 itself ([x] P = psi(P): the
    unchecked addition meets a doubling) take the complete path, random points the fast
    one."""
    rng = random.Random(40 + kind)
    cofactor = H1 if kind == 1 else H2
    off = (lambda: g1_off_subgroup(rng)) if kind == 1 else (lambda: g2_off_subgroup(rng))
    field = type(off()[0])
    z = field(rng.randrange(2, P)) if kind == 1 else FQ2([rng.randrange(P), rng.randrange(P)])
    small = [multiply(multiply(off(), cofactor // divisor), R_ORDER)
             for divisor in ((3, 11, 121, H1) if kind == 1 else (13, 169, H2))]
    infinity = (field.one(), field.one(), field.zero())
    in_g = [blst_point(kind, rng.randrange(1, R_ORDER)) for _ in range(2)]
    in_g = [(x, y, field.one()) for x, y in in_g]
    complete = kind == 2
    cases = [(p, complete) for p in small + [infinity] + in_g] + \
        [(off(), False) for _ in range(2)]
    for point, expect_complete in cases:
        for jacobian in (normalize_jacobian(point), scaled(normalize_jacobian(point), z)):
            output, ran = clear_cofactor(kind, jacobian, target)
            cleared = multiply(point, H_EFF[kind])
            assert output == encode_point(kind, None if is_inf(cleared) else normalize(cleared))
            assert ran == expect_complete


def normalize_jacobian(point):
    """py_ecc's projective (X, Y, Z) (x = X / Z) as Jacobian (x, y, 1), infinity as is."""
    x, y, z = point
    if z == type(z).zero():
        return point
    return (x / z, y / z, type(z).one())
