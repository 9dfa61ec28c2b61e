"""The native loops' Fp4 squarings run as one step at double width (evm/fp4_squares.py
marks them, csrc/fp4_square.h runs them in the fast engine's loop and in
evm384_run_records): which groups are marked, and the same bytes and gas as the 23 EVM384
ops on every engine and backend, the guards' edges included."""
from __future__ import annotations

import random
from typing import Dict, List

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.bls12_381 import build_contract
from evm384_native.evm import fp4_squares, record_groups
from evm384_native.evm.code import decode
from evm384_native.evm.opcode_sets import EVM384

from evm_helpers import asm, push, run_everywhere
from evm_programs import P, P_INV, R_INV
from record_group_programs import GroupLayout, SCHEDULE, op
from record_group_programs import marked_rows as group_marked_rows

# memory: the modulus with inv at 0, then a slot of 48 bytes per role, then a spare
LAYOUT = GroupLayout(fp4_squares.SHAPE, ("a0", "a1", "b0", "b1", "o00", "o01", "o10", "o11")
                     + fp4_squares.TEMPORARIES)
SLOT, SPARE, END = LAYOUT.slot, LAYOUT.spare, LAYOUT.end
INPUTS = ("a0", "a1", "b0", "b1")
group, kill, program, calldata = LAYOUT.group, LAYOUT.kill, LAYOUT.program, LAYOUT.calldata
KILL_ALL = kill(*fp4_squares.TEMPORARIES)


def marked_rows(code: bytes) -> List[int]:
    return group_marked_rows(code, fp4_squares.FP4_SQUARE_FLAG)


def expected(values: Dict[str, int]) -> Dict[str, int]:
    """(a + b t)^2 in Fp4 = Fp2[t]/(t^2 - (1 + u)), Montgomery form (over R), by Python
    integers: o0 = a^2 + (1 + u) b^2, o1 = 2ab."""
    a0, a1, b0, b1 = (values[r] for r in INPUTS)

    def square(x0, x1):
        return (x0 * x0 - x1 * x1, 2 * x0 * x1)
    (sa0, sa1), (sb0, sb1) = square(a0, a1), square(b0, b1)
    # scaled by R^-1 once per product
    return {"o00": (sa0 + sb0 - sb1) * R_INV % P, "o01": (sa1 + sb0 + sb1) * R_INV % P,
            "o10": 2 * (a0 * b0 - a1 * b1) * R_INV % P,
            "o11": 2 * (a0 * b1 + a1 * b0) * R_INV % P}


def test_the_group_is_marked_when_its_temporaries_are_overwritten_before_they_are_read():
    assert marked_rows(program(group(), KILL_ALL)) == [0]
    assert marked_rows(program(group(), group())) == [0]   # the next squaring kills them


@pytest.mark.parametrize("variant, code", [
    ("a temporary never overwritten", program(group(), kill(*fp4_squares.TEMPORARIES[1:]))),
    ("a temporary read first", program(group(), op("ADDMOD384", SPARE, SLOT["tb1"],
                                                   SLOT["a0"]), KILL_ALL)),
    ("an output on an input", program(group(o10=SLOT["a1"]), KILL_ALL)),
    ("an output overlapping the modulus", program(group(o01=40), KILL_ALL)),
    ("a temporary overlapping an output", program(group(ta0=SLOT["o11"] + 8), KILL_ALL)),
    ("a PUSH between", program(group()[:17 * 18] + push(0, 1) + asm("POP")
                               + group()[17 * 18:], KILL_ALL)),
])
def test_groups_that_are_not_proven_stay_op_by_op(variant, code):
    assert marked_rows(code) == [], variant
    rng = random.Random(variant)
    run_everywhere(code, calldata({r: rng.randrange(P) for r in INPUTS}),
                   schedule="update5-A")


def test_the_pairing_contract_has_its_fp4_squarings_marked():
    code = decode(build_contract("pairing_product_is_one"), SCHEDULE, True, EVM384)
    marked = code.marked_records
    assert np.count_nonzero(marked[:, 1] & fp4_squares.FP4_SQUARE_FLAG) >= 4
    assert np.array_equal(marked[:, 1] & 0xff, code.segments.records[:, 1])



def test_the_step_leaves_the_squares_bytes(implementation):
    rng = random.Random(4)
    for _ in range(20):
        values = {r: rng.randrange(P) for r in INPUTS}
        result = run_everywhere(program(group(), KILL_ALL), calldata(values, rng=rng),
                                schedule="update5-A")
        for role, value in expected(values).items():
            assert result.output[SLOT[role]:SLOT[role] + 48] == value.to_bytes(48, "little")


def test_without_the_dead_temporaries_proof_the_engines_would_disagree(monkeypatch,
                                                                      implementation):
    """Both native loops run marked groups as one step: marked wrongly (the temporaries are
    returned), they keep their old bytes there and not with the reference backend."""
    code = program(push(len(implementation), 1), asm("POP"), group())   # not analysed before
    image = calldata({r: random.Random(8).randrange(P) for r in INPUTS})
    monkeypatch.setattr(record_groups, "dead_before_read", lambda *args: np.array([True]))
    reference = execute(code, image, engine="python", backend="reference",
                        schedule="update5-A")
    first = SLOT[fp4_squares.TEMPORARIES[0]]
    for engine in ("fast", "python"):
        native = execute(code, image, engine=engine, schedule="update5-A")
        for t in fp4_squares.TEMPORARIES:
            assert native.output[SLOT[t]:SLOT[t] + 48] == image[SLOT[t]:SLOT[t] + 48] \
                != reference.output[SLOT[t]:SLOT[t] + 48]
        assert native.output[:first] == reference.output[:first]
        assert native.gas_used == reference.gas_used


TOP = P >> 320 << 320
EDGES = [0, 1, P - 1, P - 2, TOP - 1, TOP, P, P + 1, 2**384 - 1]


@settings(max_examples=40, deadline=None)
@given(st.tuples(*[st.one_of(st.integers(0, P - 1), st.sampled_from(EDGES))] * 4),
       st.sampled_from([(P, P_INV), (P, P_INV ^ 2), (P + 1, P_INV),
                        (2**382 + 1 + 2 * (P >> 1), None)]), st.randoms())
def test_every_engine_agrees_at_the_guards_edges(inputs, modulus_inv, rng):
    modulus, inv = modulus_inv
    if inv is None:
        inv = (-pow(modulus, -1, 2**64)) % 2**64
    values = dict(zip(INPUTS, inputs))
    result = run_everywhere(program(group(), KILL_ALL), calldata(values, modulus, inv, rng),
                            schedule="update5-A")
    if modulus == P and inv == P_INV and all(v < P for v in inputs):
        for role, value in expected(values).items():
            assert result.output[SLOT[role]:SLOT[role] + 48] == value.to_bytes(48, "little")
