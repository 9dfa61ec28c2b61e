"""The native loops' Fp2 squarings run as two products of unreduced sums
(evm/fp2_squares.py marks them, csrc/fp2_square.h runs them in the fast engine's loop and
in evm384_run_records): which groups are marked, and the same bytes and gas as the five
EVM384 ops on every engine and backend, the guards' edges included. The expected values
come from Python integers."""
from __future__ import annotations

import random
from typing import Dict, List

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.bls12_381 import build_contract
from evm384_native.evm import fp2_squares, record_groups
from evm384_native.evm.code import decode
from evm384_native.evm.opcode_sets import EVM384

from evm_helpers import asm, push, run_everywhere
from evm_programs import P, P_INV, R_INV
from record_group_programs import GroupLayout, SCHEDULE, op
from record_group_programs import marked_rows as group_marked_rows

# memory: the modulus with inv at 0, then a slot of 48 bytes per role, then a spare
LAYOUT = GroupLayout(fp2_squares.SHAPE, ("a0", "a1", "t0", "t1", "c0", "c1"))
SLOT, SPARE = LAYOUT.slot, LAYOUT.spare
group, kill, program = LAYOUT.group, LAYOUT.kill, LAYOUT.program
KILL_ALL = kill(*fp2_squares.TEMPORARIES)


def calldata(a0: int, a1: int, modulus: int = P, inv: int = P_INV,
             rng: random.Random = random.Random(0)) -> bytes:
    return LAYOUT.calldata({"a0": a0, "a1": a1}, modulus, inv, rng)


def marked_rows(code: bytes) -> List[int]:
    return group_marked_rows(code, fp2_squares.FP2_SQUARE_FLAG)


def expected(a0: int, a1: int) -> Dict[str, int]:
    """(a0 + a1 u)^2 / R with u^2 = -1, by Python integers."""
    return {"c0": (a0 * a0 - a1 * a1) * R_INV % P, "c1": 2 * a0 * a1 * R_INV % P}


def test_the_group_is_marked_when_its_temporaries_are_overwritten_before_they_are_read():
    assert marked_rows(program(group(), KILL_ALL)) == [0]
    assert marked_rows(program(group(), group(), KILL_ALL)) == [0, 5]   # the next kills them
    assert marked_rows(program(group(c0=SLOT["a0"], c1=SLOT["a1"]), KILL_ALL)) == [0]


@pytest.mark.parametrize("variant, code", [
    ("t1 never overwritten", program(group(), kill("t0"))),
    ("t0 read first", program(group(), op("ADDMOD384", SPARE, SLOT["t0"], SLOT["a0"]),
                              KILL_ALL)),
    ("t0 partly overwritten", program(group(), op("ADDMOD384", SLOT["t0"] + 8, 64, 112),
                                      KILL_ALL)),
    ("t0 overwritten in the next segment", program(group(), asm("JUMPDEST"), KILL_ALL)),
    ("c1 on t0", program(group(c1=SLOT["t0"]), KILL_ALL)),
    ("c0 on a1", program(group(c0=SLOT["a1"]), KILL_ALL)),
    ("c1 on a0", program(group(c1=SLOT["a0"]), KILL_ALL)),
    ("c0 overlapping c1", program(group(c0=SLOT["c1"] + 8), KILL_ALL)),
    ("t1 overlapping a1", program(group(t1=SLOT["a1"] + 16), KILL_ALL)),
    ("an output overlapping the modulus", program(group(c1=40), KILL_ALL)),
    ("a PUSH between", program(group()[:36] + push(0, 1) + asm("POP") + group()[36:],
                               KILL_ALL)),
])
def test_groups_that_are_not_proven_stay_op_by_op(variant, code):
    assert marked_rows(code) == [], variant
    rng = random.Random(variant)
    run_everywhere(code, calldata(rng.randrange(P), rng.randrange(P)), schedule="update5-A")


def test_the_pairing_contract_has_its_fp2_squarings_marked():
    code = decode(build_contract("pairing_product_is_one"), SCHEDULE, True, EVM384)
    marked = code.marked_records
    assert np.count_nonzero(marked[:, 1] & fp2_squares.FP2_SQUARE_FLAG) >= 10
    assert np.array_equal(marked[:, 1] & 0xff, code.segments.records[:, 1])


@pytest.mark.parametrize("in_place", [False, True])
def test_the_step_leaves_the_squares_bytes(in_place, implementation):
    rng = random.Random(4)
    outputs = {"c0": SLOT["a0"], "c1": SLOT["a1"]} if in_place else {}
    for _ in range(20):
        a0, a1 = rng.randrange(P), rng.randrange(P)
        result = run_everywhere(program(group(**outputs), KILL_ALL),
                                calldata(a0, a1, rng=rng), schedule="update5-A")
        for role, value in expected(a0, a1).items():
            at = outputs.get(role, SLOT[role])
            assert result.output[at:at + 48] == value.to_bytes(48, "little")


def test_without_the_dead_temporaries_proof_the_engines_would_disagree(monkeypatch,
                                                                      implementation):
    """Both native loops run marked groups as one step: marked wrongly (the temporaries are
    returned), they keep their old bytes there and not with the reference backend."""
    code = program(push(len(implementation), 1), asm("POP"), group())   # not analysed before
    rng = random.Random(8)
    image = calldata(rng.randrange(P), rng.randrange(P))
    monkeypatch.setattr(record_groups, "dead_before_read",
                        lambda records, slots, *args: np.ones(len(slots), dtype=bool))
    reference = execute(code, image, engine="python", backend="reference",
                        schedule="update5-A")
    for engine in ("fast", "python"):
        native = execute(code, image, engine=engine, schedule="update5-A")
        for t in fp2_squares.TEMPORARIES:
            at = SLOT[t]
            assert native.output[at:at + 48] == image[at:at + 48] != reference.output[at:at + 48]
        assert native.output[SLOT["c0"]:] == reference.output[SLOT["c0"]:]
        assert native.gas_used == reference.gas_used


TOP = P >> 320 << 320                      # p's top limb, the rest zero: below p
EDGES = [0, 1, P - 1, P - 2, TOP - 1, TOP, P, P + 1, 2**384 - 1]


@settings(max_examples=60, deadline=None)
@given(st.tuples(*[st.one_of(st.integers(0, P - 1), st.sampled_from(EDGES))] * 2),
       st.sampled_from([(P, P_INV), (P, P_INV ^ 2), (P + 1, P_INV), (2**382 - 3, None),
                        (2**382 + 1 + 2 * (P >> 1), None)]),
       st.booleans(), st.randoms())
def test_every_engine_agrees_at_the_guards_edges(inputs, modulus_inv, in_place, rng):
    """Inputs at or above p, wrong or even moduli, a modulus of 383 bits (the guards fail:
    op by op) and one just below 2^382 (the step runs): every engine and backend agree."""
    modulus, inv = modulus_inv
    if inv is None:
        inv = (-pow(modulus, -1, 2**64)) % 2**64
    outputs = {"c0": SLOT["a0"], "c1": SLOT["a1"]} if in_place else {}
    result = run_everywhere(program(group(**outputs), KILL_ALL),
                            calldata(*inputs, modulus, inv, rng), schedule="update5-A")
    if modulus == P and inv == P_INV and all(v < P for v in inputs):
        for role, value in expected(*inputs).items():
            at = outputs.get(role, SLOT[role])
            assert result.output[at:at + 48] == value.to_bytes(48, "little")
