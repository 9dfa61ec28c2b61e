"""The hinted EIP-2537 additions (eip2537_g1add_hinted, eip2537_g2add_hinted; EVMMAX only)
against blst (pyblst, chia_rs) and py_ecc: random sums, the official add vectors, doubling,
P + (-P), infinity; on both engines (and the reference backend) with the same results and
gas; every forgery (wrong slope, points off the curve, values >= p, padding, lengths, a
hint >= p) REVERTs, like the other EIP-2537 contracts."""
import random

import pytest
from py_ecc.optimized_bls12_381 import FQ, FQ2, neg, normalize

from evm384_native import execute
from evm384_native.bls12_381 import (add_hint, build_contract, eip2537_g1add_hinted,
                                     eip2537_g2add_hinted, encode_calldata)
from evm384_native.bls12_381.add_program import addition, evaluate, special_cases
from evm384_native.bls12_381.add_registers import AllocationError, allocate, reorder
from evm384_native.bls12_381.eip2537_oracle import blst_msm, encode_point, py_ecc_sum
from evm384_native.bls12_381.hinted_add import CONTRACTS, calldata_bytes, registers
from evm384_native.contracts import USAGE, targets_of
from evm384_native.errors import UnreducedValueError
from evm384_native.evm.kernels import modx, modx_reference
from test_eip2537_ops import load, off_subgroup, rand_point, with_field

P = FQ.field_modulus
NAME = {1: "eip2537_g1add_hinted", 2: "eip2537_g2add_hinted"}
API = {1: eip2537_g1add_hinted, 2: eip2537_g2add_hinted}
HINT = {1: 48, 2: 96}
KINDS = [1, 2]
# the fast path's gas (data-independent: straight-line code), EIP-6690's tables
FAST_GAS = {1: 434, 2: 798}


def run(kind, calldata, **options):
    options.setdefault("engine", "fast")
    return execute(build_contract(NAME[kind], target="evmmax"), calldata, opcodes="evmmax",
                   **options)


def calldata(kind, data, hint=None):
    return encode_calldata(NAME[kind], data, add_hint(kind, data) if hint is None else hint)


def assert_reverts(kind, data):
    """REVERT with empty output, on both engines alike (gas and steps too)."""
    fast, python = (run(kind, data, engine=engine) for engine in ("fast", "python"))
    assert (fast.success, fast.error, fast.output) == (False, "revert", b"")
    assert (python.success, python.error, python.output, python.gas_used, python.steps) == \
        (False, "revert", b"", fast.gas_used, fast.steps)
    return fast


def point_data(kind, a, b):
    return encode_point(kind, a) + encode_point(kind, b)


def minus(point):
    return normalize(neg((point[0], point[1], type(point[0]).one())))


def hint_int(kind, hint):
    return [int.from_bytes(hint[i:i + 48], "big") for i in range(0, len(hint), 48)]


def hint_bytes(values):
    return b"".join(v.to_bytes(48, "big") for v in values)


# --- registration -----------------------------------------------------------------------------

def test_registered_as_evmmax_only_contracts():
    assert all(targets_of(name) == ("evmmax",) for name in CONTRACTS)
    for kind in KINDS:
        with pytest.raises(ValueError, match="built for EVMMAX only"):
            build_contract(NAME[kind], target="evm384")
        assert build_contract(NAME[kind]) == build_contract(NAME[kind], target="evmmax")
        assert calldata_bytes(kind) == 304 * kind
        assert USAGE[NAME[kind]].precompile_gas(b"") == {1: 375, 2: 600}[kind]
        with pytest.raises(ValueError, match=f"hint is {HINT[kind]} bytes"):
            encode_calldata(NAME[kind], bytes(256 * kind), b"short")
        example = USAGE[NAME[kind]].example(random.Random(1), 2, True)
        assert USAGE[NAME[kind]].precompile_input(example) == example[:256 * kind]
        assert run(kind, example).success


# --- the algebra, on Python integers (add_program) ------------------------------------------

def components(kind, point):
    if kind == 1:
        return [(int(point[0]),), (int(point[1]),)]
    return [tuple(int(c) for c in coordinate.coeffs) for coordinate in point]


@pytest.mark.parametrize("kind", KINDS)
def test_the_programs_algebra_against_py_ecc(kind):
    rng = random.Random(kind)
    p, q = rand_point(kind, rng), rand_point(kind, rng)
    for a, b in ((p, q), (p, p), (off_subgroup(kind, rng), q)):
        data = point_data(kind, a, b)
        lam = tuple(hint_int(kind, add_hint(kind, data)))
        x1, y1 = components(kind, a)
        x2, y2 = components(kind, b)
        values = {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "l": lam}
        out = evaluate(addition(kind), values)
        assert out["w"] == (0,)
        assert b"".join(
            v.to_bytes(64, "big") for v in out["x3"] + out["y3"]) == \
            py_ecc_sum(kind, [(a, 1), (b, 1)])
        wrong = tuple((c + 1) % P for c in lam)
        assert evaluate(addition(kind), {**values, "l": wrong})["w"] != (0,)
        slow = evaluate(special_cases(kind), values)
        assert slow["on1"] == slow["on2"] == (0,) * kind
        assert (slow["dx"] == (0,) * kind) == (a == b)


def test_the_register_allocator_keeps_inputs_and_refuses_too_few_registers():
    program = addition(1)
    fixed = {"b": 0, "x1_0": 1, "y1_0": 2, "x2_0": 3, "y2_0": 5, "l_0": 6}
    w, x3 = program.outputs["w"][0], program.outputs["x3"][0]
    places = allocate(program, fixed, 7, (w, x3))
    assert places[x3] == places[w] + 1
    assert all(places[op.out] <= 5 for op in program.ops)          # never the top register
    with pytest.raises(AllocationError):
        allocate(program, fixed, 6, (w, x3))
    assert registers(NAME[1]) == 7 and registers(NAME[2]) == 15


@pytest.mark.parametrize("kind", KINDS)
def test_reordering_keeps_every_value(kind):
    """reorder changes the order only: the same operations, each after its operands, and
    the same outputs on random inputs."""
    program = addition(kind)
    w, x3 = program.outputs["w"][0], program.outputs["x3"][0]
    other = reorder(program, (w, x3))
    assert sorted(map(repr, other.ops)) == sorted(map(repr, program.ops))
    made = {c for value in program.inputs.values() for c in value}
    for op in other.ops:
        assert op.x in made and op.y in made
        made.add(op.out)
    assert [op.out for op in other.ops].index(x3) > [op.out for op in other.ops].index(w)
    rng = random.Random(kind)
    values = {name: tuple(rng.randrange(P) for _ in range(kind))
              for name in ("x1", "y1", "x2", "y2", "l")}
    assert evaluate(other, values) == evaluate(program, values)


def test_storex_rejects_values_not_below_p_and_reads_48_byte_big_endian():
    for backend in (modx, modx_reference):
        regs = backend.RegisterFile(backend.FieldContext(P), 2)
        value = P - 1
        regs.storex(0, value.to_bytes(48, "big"))
        assert regs.loadx(0, 1) == value.to_bytes(48, "big")
        for bad in (P, P + 1, (1 << 384) - 1):
            with pytest.raises(UnreducedValueError):
                regs.storex(1, bad.to_bytes(48, "big"))


# --- answers --------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_random_sums_agree_with_blst_on_both_engines(kind):
    rng = random.Random(10 + kind)
    for _ in range(3):
        a, b = rand_point(kind, rng), rand_point(kind, rng)
        data = point_data(kind, a, b)
        expected = blst_msm(kind, [(a, 1), (b, 1)])
        results = [run(kind, calldata(kind, data), engine=engine, backend=backend)
                   for engine, backend in (("fast", "native"), ("python", "native"),
                                           ("python", "reference"))]
        for result in results:
            assert (result.success, result.output, result.gas_used, result.steps) == \
                (True, expected, FAST_GAS[kind], results[0].steps)
        assert API[kind](data) == expected


@pytest.mark.parametrize("kind", KINDS)
def test_official_add_vectors(kind):
    cases = load(f"add_G{kind}_bls.json")
    assert len(cases) == 9
    for case in cases:
        data = bytes.fromhex(case["Input"])
        for engine in ("fast", "python"):
            result = run(kind, calldata(kind, data), engine=engine)
            assert result.success and result.output == bytes.fromhex(case["Expected"]), case["Name"]


@pytest.mark.parametrize("kind", KINDS)
def test_official_failure_vectors_revert(kind):
    for case in load(f"fail-add_G{kind}_bls.json"):
        data = bytes.fromhex(case["Input"])
        try:
            hint = add_hint(kind, data)
        except ValueError:                          # malformed: any hint
            hint = bytes(HINT[kind])
        assert_reverts(kind, data + hint)


@pytest.mark.parametrize("kind", KINDS)
def test_doubling_minus_and_infinity_on_both_engines(kind):
    rng = random.Random(20 + kind)
    for p in (rand_point(kind, rng), off_subgroup(kind, rng)):
        for a, b in ((p, p), (p, minus(p)), (minus(p), p), (p, None), (None, p), (None, None)):
            data = point_data(kind, a, b)
            expected = py_ecc_sum(kind, [(a, 1), (b, 1)])
            results = [run(kind, calldata(kind, data), engine=engine)
                       for engine in ("fast", "python")]
            for result in results:
                assert result.success and result.output == expected
                assert (result.gas_used, result.steps) == (results[0].gas_used, results[0].steps)
            special = a is None or b is None or b != a
            assert (results[0].gas_used > FAST_GAS[kind]) == special
            if special:                             # the hint must be zero there
                assert add_hint(kind, data) == bytes(HINT[kind])
                assert_reverts(kind, data + (1).to_bytes(HINT[kind], "big"))


def top_bytes_point(kind):
    """A point on the curve whose x has p's first 16 bytes (x = p - k, small k): valid,
    but the fast range check cannot tell, so it runs through the exact one."""
    for k in range(1, 100):
        if kind == 1:
            x = P - k
            rhs = (x ** 3 + 4) % P
            y = pow(rhs, (P + 1) // 4, P)
            if y * y % P == rhs:
                return (FQ(x), FQ(y))
        else:
            from py_ecc.bls.point_compression import modular_squareroot_in_FQ2
            x = FQ2([P - k, 1])
            y = modular_squareroot_in_FQ2(x ** 3 + FQ2([4, 4]))
            if y is not None:
                return (x, y)
    raise AssertionError("no such point")


@pytest.mark.parametrize("kind", KINDS)
def test_values_with_p_top_bytes_take_the_exact_range_check(kind):
    rng = random.Random(30 + kind)
    point = top_bytes_point(kind)
    for a, b in ((point, rand_point(kind, rng)), (rand_point(kind, rng), point)):
        data = point_data(kind, a, b)
        for engine in ("fast", "python"):
            result = run(kind, calldata(kind, data), engine=engine)
            assert result.success and result.output == py_ecc_sum(kind, [(a, 1), (b, 1)])
            assert result.gas_used > FAST_GAS[kind]
    assert_reverts(kind, data + hint_bytes([P - 1] * kind))         # top bytes of p, wrong


# --- forgeries ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_every_wrong_slope_reverts(kind):
    rng = random.Random(40 + kind)
    a, b, c = (rand_point(kind, rng) for _ in range(3))
    data = point_data(kind, a, b)
    right = hint_int(kind, add_hint(kind, data))
    wrong = [
        [rng.randrange(P) for _ in range(kind)],                    # random
        hint_int(kind, add_hint(kind, point_data(kind, a, minus(b)))),  # for -P2
        [(right[0] + 1) % P] + right[1:],                            # lambda + 1
        [0] * kind,                                                  # zero
        hint_int(kind, add_hint(kind, point_data(kind, a, c))),      # another pair's
        [right[0] + P] + right[1:],                                  # lambda + p (>= p)
        right[:-1] + [P],                                            # last value = p
    ]
    if kind == 2:
        wrong += [[right[1], right[0]], [right[0], (right[1] + 1) % P]]
    assert all(w != right for w in wrong)
    for values in wrong:
        encoded = b"".join(v.to_bytes(48, "big") for v in values)
        assert_reverts(kind, data + encoded)
    doubled = point_data(kind, a, a)
    chord = hint_int(kind, add_hint(kind, point_data(kind, a, b)))
    assert_reverts(kind, doubled + hint_bytes(chord))


def off_curve(kind, point, rng):
    """The point with y changed: off the curve (y^2 has two roots only)."""
    one = FQ.one() if kind == 1 else FQ2.one()
    return (point[0], point[1] + one * rng.randrange(1, 100))


@pytest.mark.parametrize("kind", KINDS)
def test_points_off_the_curve_revert_whatever_the_slope(kind):
    rng = random.Random(50 + kind)
    a, b = rand_point(kind, rng), rand_point(kind, rng)
    for p1, p2 in ((off_curve(kind, a, rng), b), (a, off_curve(kind, b, rng)),
                   (off_curve(kind, a, rng), None), (None, off_curve(kind, b, rng)),
                   (off_curve(kind, a, rng), off_curve(kind, a, rng))):
        data = point_data(kind, p1, p2)
        assert_reverts(kind, calldata(kind, data))                  # the formula's slope
        assert_reverts(kind, data + bytes(HINT[kind]))
    # P1 off the curve, P2 = (x1, -y1): the P + (-P) case must check P1
    p1 = off_curve(kind, a, rng)
    assert_reverts(kind, point_data(kind, p1, minus(p1)) + bytes(HINT[kind]))


@pytest.mark.parametrize("kind", KINDS)
def test_bad_encodings_and_lengths_revert(kind):
    rng = random.Random(60 + kind)
    data = point_data(kind, rand_point(kind, rng), rand_point(kind, rng))
    good = calldata(kind, data)
    assert run(kind, good).success
    for cut in (good[:-1], good + b"\0", good[:256 * kind], good + good, b""):
        assert_reverts(kind, cut)
    for index in range(4 * kind):
        field = data[64 * index:64 * (index + 1)]
        value = int.from_bytes(field, "big")
        for position in (0, 15, rng.randrange(16)):
            padded = bytearray(field)
            padded[position] = 1
            assert_reverts(kind, with_field(data, index, bytes(padded)) + good[256 * kind:])
        for bad in (value + P, P, (1 << 384) - 1):
            assert_reverts(kind, calldata(kind, with_field(data, index, bad.to_bytes(64, "big")),
                                          good[256 * kind:]))


def test_api_computes_the_hint_and_raises_on_invalid_input():
    rng = random.Random(70)
    for kind in KINDS:
        a, b = rand_point(kind, rng), rand_point(kind, rng)
        data = point_data(kind, a, b)
        assert API[kind](data) == API[kind](data, add_hint(kind, data), engine="python")
        with pytest.raises(RuntimeError, match="revert"):
            API[kind](data[:-1])
        with pytest.raises(RuntimeError, match="revert"):
            API[kind](data, bytes(HINT[kind]))
        with pytest.raises(ValueError):
            add_hint(kind, data[:-1])


def test_points_with_x_zero():
    """(0, 2) is on G1's curve (of order 3): not infinity; doubling it has slope 0, the
    zero hint of an ordinary case. (G2's curve has no point with x = 0: 4 + 4i is no
    square in Fp2.)"""
    from py_ecc.bls.point_compression import modular_squareroot_in_FQ2
    assert modular_squareroot_in_FQ2(FQ2([4, 4])) is None
    point = (FQ(0), FQ(2))
    other = rand_point(1, random.Random(80))
    for a, b in ((point, point), (point, minus(point)), (point, other), (other, point),
                 (point, None)):
        data = point_data(1, a, b)
        result = run(1, calldata(1, data))
        assert result.success and result.output == py_ecc_sum(1, [(a, 1), (b, 1)])
    assert add_hint(1, point_data(1, point, point)) == bytes(HINT[1])
