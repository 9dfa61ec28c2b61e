"""The BW6-761 pairing check (EIP-3026's BW6_PAIRING interface) on EVMMAX and EVM768, both
engines,
against the pure-Python reference (tests/bw6_761_reference.py): its answers for k = 1..4,
true instances e(aP, bQ) e(-abP, Q) = 1 and perturbed ones, the point at infinity in any
slot, every error case of the EIP (length, a coordinate >= p, a point off its curve or
outside the r-order subgroup, including points of order 3), the size limit."""
import random
from typing import NamedTuple

import pytest

from evm384_native import execute
from evm384_native.bw6_761 import build_contract, encode_calldata
from evm384_native.bw6_761.usage import random_pairs
from evm384_native.contracts import CONTRACTS
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT
from evm384_native.tower.targets import resolve_target

import bw6_761_reference as ref

NAME = "bw6_761_pairing_check"
VALUE, PAIR = 96, 384
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)


class Built(NamedTuple):
    code: bytes
    opcodes: str


# EVM768's cases beyond two pairs, and on the python engine, are slow (~5 Mgas a check)
TARGETS = ["evmmax", "evm768"]
SLOW_768 = pytest.param("evm768", marks=pytest.mark.slow)


@pytest.fixture(scope="module", params=TARGETS)
def code(request):
    return _built(request.param)


@pytest.fixture(scope="module", params=["evmmax", SLOW_768])
def code_slow_768(request):
    return _built(request.param)


def _built(target):
    return Built(build_contract(NAME, target=target), resolve_target(target).opcodes)


def run(built, data, engine="fast"):
    return execute(built.code, encode_calldata(NAME, data), opcodes=built.opcodes,
                   gas=10**8, engine=engine)


def decode(data):
    """The reference's pairs from EIP-3026's encoding."""
    values = [int.from_bytes(data[i:i + VALUE], "big") for i in range(0, len(data), VALUE)]
    points = [None if (x, y) == (0, 0) else (x, y) for x, y in zip(values[::2], values[1::2])]
    return list(zip(points[::2], points[1::2]))


def encode(pairs):
    def point(p):
        return bytes(2 * VALUE) if p is None else b"".join(v.to_bytes(VALUE, "big") for v in p)
    return b"".join(point(p) + point(q) for p, q in pairs)


def test_it_is_registered_and_fits(code):
    assert NAME in CONTRACTS
    assert len(code.code) <= CONTRACT_SIZE_LIMIT


def test_a_true_and_a_false_two_pair_instance(code):
    _true_and_false(code, "fast")


def test_a_true_and_a_false_two_pair_instance_on_the_python_engine(code_slow_768):
    _true_and_false(code_slow_768, "python")


def _true_and_false(code, engine):
    a, b = 987654321, 123456789
    true = [(ref.multiply(ref.G1, a), ref.multiply(ref.G2, b)),
            (ref.neg(ref.multiply(ref.G1, a * b)), ref.G2)]
    assert ref.pairing_product_is_one(true)
    false = [true[0], (ref.neg(ref.multiply(ref.G1, a * b + 1)), ref.G2)]
    assert not ref.pairing_product_is_one(false)
    for pairs, answer in ((true, ONE), (false, ZERO)):
        result = run(code, encode(pairs), engine)
        assert result.success and result.output == answer


@pytest.mark.parametrize("k", [1, 2])
def test_the_references_answers_for_random_pairs(code, k):
    _random_pairs(code, k)


@pytest.mark.parametrize("k", [3, 4])
def test_the_references_answers_for_more_random_pairs(code_slow_768, k):
    _random_pairs(code_slow_768, k)


def _random_pairs(code, k):
    rng = random.Random(k)
    for true in ((False,) if k == 1 else (True, False)):
        data = random_pairs(rng, k, true)
        expected = ref.pairing_product_is_one(decode(data))
        assert expected == true
        result = run(code, data)
        assert result.success and result.output == (ONE if expected else ZERO)


def test_infinity_in_any_slot(code):
    q = ref.multiply(ref.G2, 5)
    minus = ref.neg(ref.multiply(ref.G1, 5))
    cases = [
        ([(None, ref.G2)], True),
        ([(ref.G1, None)], True),
        ([(None, None)], True),
        ([(ref.G1, q), (None, ref.G2), (minus, ref.G2)], True),
        ([(ref.G1, q), (ref.G1, None), (minus, ref.G2)], True),
        ([(ref.G1, q), (minus, None)], False),
        ([(None, q), (minus, ref.G2)], False),
    ]
    for pairs, expected in cases:
        assert ref.pairing_product_is_one(pairs) == expected
        result = run(code, encode(pairs))
        assert result.success and result.output == (ONE if expected else ZERO), pairs


def _off_subgroup_point(b):
    """A point of y^2 = x^3 + b over Fp outside the r-order subgroup."""
    for x in range(2, 200):
        rhs = (x ** 3 + b) % ref.P
        y = pow(rhs, (ref.P + 1) // 4, ref.P)
        if y * y % ref.P == rhs and ref.multiply((x, y), ref.R) is not None:
            return x, y
    raise AssertionError("no point found")


def _halts(result):
    return not result.success and result.gas_used == 10**8       # all gas, as a precompile


def test_every_rejection(code):
    good = encode([(ref.G1, ref.G2)])
    cases = {"empty": b"", "short": good[:-1], "long": good + b"\x00",
             "a pair and a half": good + good[:PAIR // 2]}
    for i in range(4):                       # each coordinate at p, and at 2^768 - 1
        for value in (ref.P, (1 << 768) - 1):
            cases[f"coordinate {i} = {value:#x}"[:40]] = (
                good[:VALUE * i] + value.to_bytes(VALUE, "big") + good[VALUE * (i + 1):])
    order3 = (0, 2)                          # on the twist y^2 = x^3 + 4, of order 3
    assert ref.on_curve(order3, ref.TWIST_B) and ref.multiply(order3, 3) is None
    order2 = (1, 0)                          # on E: y^2 = x^3 - 1, of order 2
    assert ref.on_curve(order2, ref.B) and ref.multiply(order2, 2) is None
    # G2 plus 3-torsion: what ePrint 2022/352's kernel vector alone passes on the twist
    g2_plus_3_torsion = [ref.add(ref.multiply(ref.G2, 5), torsion)
                         for torsion in (order3, ref.neg(order3))]
    bad_points = {
        "G1 off its curve": [((1, 1), ref.G2)],
        "G2 off its curve": [(ref.G1, (1, 1))],
        "G1 on the twist": [(ref.G2, ref.G2)],
        "G2 on E": [(ref.G1, ref.G1)],
        "G1 outside G1": [(_off_subgroup_point(ref.B), ref.G2)],
        "G2 outside G2": [(ref.G1, _off_subgroup_point(ref.TWIST_B))],
        "G2 of order 3": [(ref.G1, order3)],
        "G2 of order 3, y = -2": [(ref.G1, ref.neg(order3))],
        "G2 plus a point of order 3": [(ref.G1, g2_plus_3_torsion[0])],
        "G2 plus a point of order 3, y = -2": [(ref.G1, g2_plus_3_torsion[1])],
        "G1 of order 2": [(order2, ref.G2)],
        "G1 plus a point of order 2": [(ref.add(ref.G1, order2), ref.G2)],
        "G2 of order 3 beside G1 at infinity": [(None, order3)],
        "G1 off its curve beside G2 at infinity": [((1, 1), None)],
        "a bad second pair": [(ref.G1, ref.G2), (ref.G1, order3)],
    }
    for name, pairs in bad_points.items():
        cases[name] = encode(pairs)
    for name, data in cases.items():
        assert _halts(run(code, data)), name
    assert run(code, good).success


def test_every_rejection_on_the_python_engine(code_slow_768):
    code = code_slow_768
    order3 = (0, 2)
    g2_plus_3_torsion = ref.add(ref.G2, order3)
    for data in (b"", encode([(ref.G1, order3)]), encode([(_off_subgroup_point(ref.B),
                                                            ref.G2)]),
                 encode([(ref.G1, g2_plus_3_torsion)])):
        assert _halts(run(code, data, engine="python"))


def test_more_pairs_than_the_registers_keep(code_slow_768):
    """Five pairs: the Miller loops' steps run over the states in memory (up to
    tower/pairing_k6.py's RESIDENT_PAIRS they stay in registers)."""
    from evm384_native.tower.pairing_k6 import RESIDENT_PAIRS
    k = RESIDENT_PAIRS + 1
    rng = random.Random(11)
    for true in (True, False):
        data = random_pairs(rng, k, true)
        assert ref.pairing_product_is_one(decode(data)) == true
        result = run(code_slow_768, data)
        assert result.success and result.output == (ONE if true else ZERO)
