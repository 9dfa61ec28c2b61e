"""tower/word_power.py's stack code for x^e mod m (the plain-EVM target's inversions,
square roots and ECDSA scalars; MODEXP's written-out chains): each form, the sliding window
and a power plan's chain with its long runs of ones, run on the EVM against Python's pow,
for random exponents and the curves' own."""
import itertools
import random

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.curves.bn254 import BN254
from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.tower import word_power
from evm384_native.tower.power_plans import power_plan

CURVE_EXPONENTS = [
    (SECP256K1.p, SECP256K1.p - 2), (SECP256K1.p, (SECP256K1.p + 1) // 4),
    (SECP256K1.r, SECP256K1.r - 2), (P256.r, P256.r - 2), (P256.p, P256.p - 2),
    (BN254.p, BN254.p - 2)]


def _code(ops_and_under=None, exponent=None):
    """Code that returns x^e mod m for call data x, m: one form's ops, or
    :func:`word_power.emit_word_power`'s choice."""
    asm = Assembler("word_power", opcodes="evm")
    asm.push(32)
    asm.op("CALLDATALOAD")
    asm.push(0)
    asm.op("CALLDATALOAD")                         # [x, m]
    if exponent is not None:
        word_power.emit_word_power(asm, exponent)
    else:
        ops, under = ops_and_under
        asm.ops(*ops)
        asm.op(f"SWAP{under}")
        asm.ops(*["POP"] * under)
    asm.push(0)
    asm.op("MSTORE")
    asm.push(32)
    asm.push(0)
    asm.op("RETURN")
    return asm.assemble().code


def _run(code, x, m):
    result = execute(code, x.to_bytes(32, "big") + m.to_bytes(32, "big"), opcodes="evm")
    assert result.success, result.error
    return int.from_bytes(result.output, "big"), result.gas_used


def _forms(exponent):
    forms = {"window": word_power.window_ops(exponent)}
    for width, reuse, shortest in itertools.product(range(2, 6), (False, True), (False, True)):
        plan = word_power.plan_ops(power_plan(exponent, width, reuse, shortest))
        if plan is not None:
            forms[f"plan{width}{'_reuse' if reuse else ''}{'_shortest' if shortest else ''}"] = plan
    return forms


@pytest.mark.parametrize("modulus, exponent", CURVE_EXPONENTS)
def test_each_form_answers_pow_for_the_curves_exponents(modulus, exponent):
    rng = random.Random(exponent)
    forms = _forms(exponent)
    assert "window" in forms and len(forms) >= 1
    for name, form in forms.items():
        code = _code(form)
        for x in (0, 1, 2, modulus - 1, 2**256 - 1, rng.randrange(modulus)):
            assert _run(code, x, modulus)[0] == pow(x, exponent, modulus), name


def test_the_chosen_form_is_the_cheapest_and_runs_of_ones_pay():
    """emit_word_power takes the form of least gas; for secp256k1's p - 2 and (p + 1) / 4
    (runs of 223 ones) that is the plan's chain, by ~700-800 gas; for P-256's n - 2 the
    plan that reuses its first run's x_32 (runs of 32 and 65 ones), by ~200."""
    for modulus, exponent in CURVE_EXPONENTS:
        x = random.Random(1).randrange(modulus)
        chosen = _run(_code(exponent=exponent), x, modulus)[1]
        gas = {name: _run(_code(form), x, modulus)[1] for name, form in _forms(exponent).items()}
        assert chosen == min(gas.values()), (hex(exponent), gas)
        if modulus == SECP256K1.p:
            assert min(gas.values()) < gas["window"] - 600, gas
        if exponent == P256.r - 2:
            assert min(gas.values()) == min(g for name, g in gas.items() if "reuse" in name)
            assert min(gas.values()) < gas["window"] - 150, gas


@given(st.integers(1, 2**256 - 1), st.integers(3, 2**256 - 1), st.integers(0, 2**256 - 1))
@settings(max_examples=40, deadline=None)
def test_any_exponent_answers_pow(exponent, modulus, x):
    assert _run(_code(exponent=exponent), x, modulus)[0] == pow(x, exponent, modulus)


@given(st.integers(2, 2**256 - 1), st.integers(3, 2**256 - 1), st.integers(0, 2**256 - 1),
       st.integers(2, 5), st.booleans(), st.booleans())
@settings(max_examples=60, deadline=None)
def test_a_plans_chain_answers_pow(exponent, modulus, x, width, reuse, shortest):
    plan = word_power.plan_ops(power_plan(exponent, width, reuse, shortest))
    if plan is not None:
        assert _run(_code(plan), x, modulus)[0] == pow(x, exponent, modulus)
