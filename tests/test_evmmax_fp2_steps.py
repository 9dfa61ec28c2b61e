"""EVMMAX Fp2 squarings and products by xi = k + u run in one step at 4 limbs
(modx_common.fp2_squares and fp2_xi_products mark them, csrc/evmmax_kernels.h runs them):
which groups are marked, and the same registers as the records op by op (the pure-Python
reference) on every implementation, at the guards' edges too, and in the pairing
contract."""
from __future__ import annotations

import random
from typing import List

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import bn254
from evm384_native._native import ffi
from evm384_native.curves.bn254 import BN254
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.evm.code import decode
from evm384_native.evm.fast_evmmax import VectorRuns
from evm384_native.evm.gas import resolve_schedule
from evm384_native.evm.kernels import modx_common, modx_reference
from evm384_native.evm.kernels.modx_common import FP2_PRODUCT_FLAG, XI_PRODUCT_FLAG
from evm384_native.evm.opcode_sets import EVMMAX

from evm_programs import P
from test_fp2_products import _files, _registers

# registers: a0, a1, t0, t1, c1, c0, a spare, and one more (the EIP's bound
# idx + stride * count < register count leaves the last register out of reach)
A0, A1, T0, T1, C1, C0, SPARE = range(7)
REGISTERS = SPARE + 2


def one(operation: str, out: int, x: int, y: int) -> tuple:
    return operation, (out, 1, x, 1, y, 1, 1)


def square(a0=A0, a1=A1, t0=T0, t1=T1, c1=C1, c0=C0) -> list:
    """The five operations of ``tower.fp2.sqr`` for u^2 = -1."""
    return [one("add", t0, a0, a1), one("sub", t1, a0, a1), one("mul", c1, a0, a1),
            one("add", c1, c1, c1), one("mul", c0, t0, t1)]


KILL = [one("add", t, SPARE, SPARE) for t in (T0, T1)]   # writes t0 and t1


def flagged(operations: list) -> List[int]:
    encoded = modx_common.VectorProgram(operations).encoded
    return [i for i in range(len(operations)) if encoded[8 * i] & FP2_PRODUCT_FLAG]


def test_a_squaring_is_flagged_when_its_temporaries_are_written_before_they_are_read():
    assert flagged(square() + KILL) == [0]
    assert flagged(KILL + square() + KILL[::-1]) == [2]
    assert flagged(square(c1=A1, c0=A0) + KILL) == [0]      # in place
    # the squarings of a row, each one's temporaries written by the next
    assert flagged(square() + square(a0=C1, a1=C0, c1=A0, c0=A1) + KILL) == [0, 5]


@pytest.mark.parametrize("variant, operations", [
    ("t1 never written", square() + KILL[:1]),
    ("t0 read first", square() + [one("add", SPARE, T0, A0)] + KILL),
    ("t1 read and written by one op", square() + KILL[:1] + [one("add", T1, T1, A0)]),
    ("t0, t1 written as part of a vector that reads them",
     square() + [("add", (T0, 1, T0, 1, A0, 0, 2))]),
    ("t0 is an input", square(t0=A1) + KILL),
    ("t1 is an input", square(t1=A0) + KILL),
    ("c0 is c1", square(c0=C1) + KILL),
    ("c1 is t0", square(c1=T0) + KILL),
    ("the sum of other registers", square()[:3] + [one("add", C1, C1, C0)] + square()[4:]
     + KILL),
    ("a vector of two", [("add", (T0, 1, A0, 1, A1, 1, 2))] + square()[1:] + KILL),
])
def test_squarings_that_are_not_proven_run_op_by_op(variant, operations):
    assert flagged(operations) == [], variant


def _run_both(m: int, values: List[int], operations: list):
    native, reference = _files(m, values)
    native.run(modx_common.VectorProgram(operations))
    reference.run(modx_reference.VectorProgram(operations))
    return _registers(native), _registers(reference)


# 4 limbs: one step below 2^254, op by op above; other sizes op by op
MODULI = {"BN254 p": BN254.p, "2^254 - 1": 2**254 - 1, "2^254 + 1": 2**254 + 1,
          "secp256k1 p": SECP256K1.p, "BLS12-381 p": P, "3 limbs": 2**190 + 7}
ONE_STEP = ("BN254 p", "2^254 - 1")
IN_PLACE = {"c1": A1, "c0": A0}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(MODULI)), st.randoms(), st.booleans())
def test_native_runs_equal_the_reference(modulus_name, rng, in_place):
    m = MODULI[modulus_name]
    values = [rng.randrange(m) for _ in range(REGISTERS)]
    got, expected = _run_both(m, values, square(**(IN_PLACE if in_place else {})) + KILL)
    assert got == expected


@pytest.mark.parametrize("modulus_name", ONE_STEP)
@pytest.mark.parametrize("in_place", [False, True])
def test_the_largest_and_smallest_inputs(implementation, modulus_name, in_place):
    """a0 + a1 at its largest (2m - 2), a0 - a1 wrapping around, zeros, equal halves: on
    every implementation the registers the five records leave."""
    m = MODULI[modulus_name]
    for a0, a1 in [(m - 1, m - 1), (m - 1, m - 2), (0, m - 1), (m - 1, 0), (0, 0), (1, m - 1),
                   (5, 5)]:
        values = [a0, a1] + [3] * (REGISTERS - 2)
        got, expected = _run_both(m, values, square(**(IN_PLACE if in_place else {})) + KILL)
        assert got == expected, (a0, a1)


def _wrongly_flagged_run(monkeypatch, m: int, values: List[int]):
    """The squaring flagged although t0 is read after it: the native registers, the
    reference's, and the native ones before the run."""
    monkeypatch.setattr(modx_common, "_written_before_read", lambda *args: True)
    operations = square() + [one("add", SPARE, T0, T1)]
    got, expected = _run_both(m, values, operations)
    return got, expected, _registers(_files(m, values)[0])


@pytest.mark.parametrize("modulus_name", ONE_STEP)
def test_the_native_run_takes_the_one_step(monkeypatch, implementation, modulus_name):
    """Flagged wrongly (t0 and t1 are read after it), the native run leaves t0 and t1
    alone where the reference computes them (so their sum in the spare differs too): the
    flagged path runs, and writes c1 and c0 as the records do."""
    m = MODULI[modulus_name]
    rng = random.Random(2)
    got, expected, before = _wrongly_flagged_run(
        monkeypatch, m, [rng.randrange(m) for _ in range(REGISTERS)])
    for register in (T0, T1):
        assert got[register] == before[register] != expected[register]
    assert got[SPARE] != expected[SPARE]
    assert [got[r] for r in (A0, A1, C1, C0)] == [expected[r] for r in (A0, A1, C1, C0)]


@pytest.mark.parametrize("modulus_name", ["2^254 + 1", "secp256k1 p", "BLS12-381 p"])
def test_other_moduli_run_op_by_op(monkeypatch, implementation, modulus_name):
    """At 4 limbs the sum's product stays below m 2^256 only for m < 2^254; other sizes
    have no one-step squaring: the five records run, flagged or not."""
    m = MODULI[modulus_name]
    rng = random.Random(3)
    got, expected, _ = _wrongly_flagged_run(
        monkeypatch, m, [rng.randrange(m) for _ in range(REGISTERS)])
    assert got == expected




def test_the_bn254_pairing_contract_has_its_squarings_flagged():
    """The fast engine's runs of the EVMMAX BN254 check (4 limbs) hold flagged squarings:
    the shape is the one the tower emits."""
    code = bn254.build_contract("bn254_pairing_check", target="evmmax")
    runs = VectorRuns(code, decode(code, resolve_schedule("update5-A"), opcodes=EVMMAX).data_flags)
    first_ops = [op for program in runs.programs for op in ffi.buffer(program)[:][::8]]
    squares = sum(op == FP2_PRODUCT_FLAG for op in first_ops)       # a flagged addition
    products = sum(op == FP2_PRODUCT_FLAG | 2 for op in first_ops)  # a flagged product
    xi_products = sum(op == XI_PRODUCT_FLAG | 2 for op in first_ops)
    assert squares > 50 and products > 100 and xi_products > 50


# --- products by xi = k + u ----------------------------------------------------------------

K = SPARE          # the register holding k (any register: it is read before the writes)


def xi_product(a0=A0, c0=C1, k=K, add_order=0) -> list:
    """(c0, c1) = (a0, a1) k, c0 -= a1, c1 += a0 as ``tower.fp2.mul_by_xi`` emits it, with
    a1 = a0 + 1 and c1 = c0 + 1."""
    total = [(c0 + 1, c0 + 1, a0), (c0 + 1, a0, c0 + 1)][add_order]
    return [("mul", (c0, 1, a0, 1, k, 0, 2)), one("sub", c0, c0, a0 + 1), one("add", *total)]


def xi_flagged(operations: list) -> List[int]:
    encoded = modx_common.VectorProgram(operations).encoded
    return [i for i in range(len(operations)) if encoded[8 * i] & XI_PRODUCT_FLAG]


def test_a_product_by_xi_is_flagged():
    assert xi_flagged(xi_product()) == [0]
    assert xi_flagged(xi_product(add_order=1)) == [0]
    assert xi_flagged(KILL + xi_product(k=C1)) == [2]       # k one of the outputs
    assert flagged(xi_product()) == []                      # no other group's flag


@pytest.mark.parametrize("variant, operations", [
    ("a1 is c0", xi_product(a0=C1 - 1)),
    ("a0 is c1", xi_product(a0=C1 + 1)),
    ("k a vector", [("mul", (C1, 1, A0, 1, K, 1, 2))] + xi_product()[1:]),
    ("one element", [("mul", (C1, 1, A0, 1, K, 0, 1))] + xi_product()[1:]),
    ("another subtrahend", xi_product()[:1] + [one("sub", C1, C1, A0)] + xi_product()[2:]),
    ("another addend", xi_product()[:2] + [one("add", C1 + 1, C1 + 1, A0 + 1)]),
    ("the sum first", [xi_product()[0], xi_product()[2], xi_product()[1]]),
])
def test_products_by_xi_that_do_not_have_the_shape_run_op_by_op(variant, operations):
    assert xi_flagged(operations) == [], variant


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(MODULI)), st.randoms(), st.sampled_from([K, C1, C0, A0]),
       st.integers(0, 1))
def test_products_by_xi_equal_the_reference(modulus_name, rng, k, add_order):
    m = MODULI[modulus_name]
    values = [rng.randrange(m) for _ in range(REGISTERS)]
    got, expected = _run_both(m, values, xi_product(k=k, add_order=add_order))
    assert got == expected


@pytest.mark.parametrize("modulus_name", ["BN254 p", "secp256k1 p", "2^254 + 1"])
def test_products_by_xi_at_the_edges(implementation, modulus_name):
    m = MODULI[modulus_name]
    for a0, a1, k in [(m - 1, m - 1, m - 1), (0, m - 1, 9), (m - 1, 0, 1), (0, 0, 0)]:
        values = [a0, a1] + [k] * (REGISTERS - 2)
        got, expected = _run_both(m, values, xi_product())
        assert got == expected, (a0, a1, k)


@pytest.mark.parametrize("modulus_name", ["BN254 p", "secp256k1 p"])
def test_the_native_run_takes_the_xi_step(monkeypatch, implementation, modulus_name):
    """Flagged wrongly (a0 is c1: the records read the product where the step reads a0),
    the native run differs from the reference in c1: the flagged path runs at 4 limbs; but
    not for secp256k1's p, whose registers are in plain form (docs/evmmax.md), where the
    step's Montgomery products do not apply: the records run, as the reference's."""
    monkeypatch.setattr(modx_common, "fp2_xi_products",
                        lambda operations: iter([0]))
    m = MODULI[modulus_name]
    rng = random.Random(4)
    operations = xi_product(a0=C1 + 1)                       # a0 = c1
    got, expected = _run_both(m, [rng.randrange(m) for _ in range(REGISTERS)], operations)
    if modulus_name == "secp256k1 p":
        assert got == expected
    else:
        assert got[C1] == expected[C1] and got[C1 + 1] != expected[C1 + 1]
