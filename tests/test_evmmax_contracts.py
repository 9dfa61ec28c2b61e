"""The pairing contracts built for the EVMMAX target (EIP-6690), run on the python engine
with the EVMMAX opcode set: answers against blst (pyblst), the official EIP-2537 vectors
and the EVM384 contracts on the same input; sizes, registers and the gas of issue 14."""
import json
import pathlib
import random
from functools import lru_cache

import pytest

from evm384_native import execute
from evm384_native.asm.failure import HALT
from evm384_native.asm import Assembler, Fp2, disassemble
from evm384_native.asm.profile import GasByPc, by_scope
from evm384_native.bls12_381 import api, contracts
from evm384_native.curves import BLS12_381, BN254
from evm384_native.bn254.contracts import BUILDERS as BN254_BUILDERS
from evm384_native.tower import fp
from evm384_native.bls12_381 import build_contract, build_program, encode_calldata
from evm384_native.bls12_381.contracts import EVMMAX_PAIRING_CHECKS
from evm384_native.tower.fp import Emitter
from evm384_native.bls12_381.hint import pairing_hint
from evm384_native.ec.bls12_hinted import HINT_BYTES
from evm384_native.bls12_381.oracle import (blst_product_is_one, eip2537_input, encode_pairs,
                                            g1_off_subgroup, random_product_case)
from evm384_native.tower.contract import assemble
from evm384_native.tower.pairing import RESIDENT_CODE, UnavailableBuild
from evm384_native.tower.targets import resolve_target
from evm384_native.evm.transaction import calldata_gas

VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537"
VALID = json.loads((VECTORS / "pairing_check_bls.json").read_text())
INVALID = json.loads((VECTORS / "fail-pairing_check_bls.json").read_text())
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)
MAX_CODE = 24_576


def _vector_ids(vectors):
    return [v["Name"] for v in vectors]


@lru_cache(maxsize=None)
def instance(k, true):
    return tuple(random_product_case(random.Random(1400 + 10 * k + true), k, true))


def calldata(name, pairs):
    data = eip2537_input(pairs) if name.startswith("eip2537") else encode_pairs(pairs)
    if name.endswith("hinted"):
        return encode_calldata(name, data, pairing_hint(encode_pairs(pairs)))
    return encode_calldata(name, data)


def run(name, data, target="evmmax", engine="python"):
    return execute(build_contract(name, target=target), data, opcodes=target, engine=engine,
                   gas=30_000_000)


def check_against_blst_and_evm384(name, pairs):
    data = calldata(name, pairs)
    got = run(name, data)
    assert got.success, got.error
    expected = ONE if blst_product_is_one([p for p, _ in pairs], [q for _, q in pairs]) else ZERO
    assert got.output == expected
    evm384 = run(name, data, target="evm384", engine="fast")
    assert evm384.success and evm384.output == got.output


@pytest.mark.parametrize("name", EVMMAX_PAIRING_CHECKS)
@pytest.mark.parametrize("k, true", [(1, False), (2, True), (2, False)])
def test_answers_match_blst_and_evm384(name, k, true):
    check_against_blst_and_evm384(name, instance(k, true))


def test_hinted_check_with_more_pairs_than_registers_hold():
    """Three pairs: the Miller loop over states in memory, not the two-pair register path."""
    check_against_blst_and_evm384("pairing_check_hinted", instance(3, True))


@pytest.mark.parametrize("resident_code", RESIDENT_CODE)
@pytest.mark.parametrize("k, true", [(1, False), (2, True), (3, True)])
def test_every_way_of_emitting_the_register_pairs_steps(resident_code, k, true):
    """Pairs in registers (k <= 2) or in memory (k = 3: stepped in the first pair's
    registers) give blst's answer however the steps are emitted; engines agree on gas."""
    program = assemble("pairing_product_is_one", BLS12_381, resolve_target("evmmax"),
                       lambda e: contracts._build("pairing_product_is_one", e),
                       compact=False, register_pairs=2, resident_code=resident_code)
    pairs = instance(k, true)
    data = calldata("pairing_product_is_one", pairs)
    python, fast = (execute(program.code, data, opcodes="evmmax", engine=engine)
                    for engine in ("python", "fast"))
    expected = ONE if blst_product_is_one([p for p, _ in pairs], [q for _, q in pairs]) else ZERO
    assert python.success and python.output == expected
    assert (fast.output, fast.gas_used) == (python.output, python.gas_used)


@pytest.mark.parametrize("resident_code", RESIDENT_CODE[1:])
def test_hybrid_loop_refuses_steps_shared_with_the_memory_loop(resident_code):
    """hybrid keeps the first pairs in registers while the memory loop steps the others: a
    memory loop working in the first pair's registers would overwrite that pair (BLS12-377's
    check built so answered INVALID for k = 3 and 4), so such a build is refused and
    least_gas_that_fits goes on to the next."""
    with pytest.raises(UnavailableBuild, match="hybrid needs the resident pairs' steps inline"):
        assemble("bn254_pairing_check", BN254, resolve_target("evmmax"),
                 BN254_BUILDERS["bn254_pairing_check"], compact=False, register_pairs=2,
                 resident_code=resident_code)


@pytest.mark.parametrize("vector", [v for v in VALID if len(v["Input"]) // 768 <= 2],
                         ids=_vector_ids([v for v in VALID if len(v["Input"]) // 768 <= 2]))
def test_official_vectors_hinted(vector):
    data = bytes.fromhex(vector["Input"])
    assert api.eip2537_pairing_check_hinted(data, target="evmmax").hex() == \
        vector["Expected"]


@pytest.mark.slow
@pytest.mark.parametrize("name", EVMMAX_PAIRING_CHECKS)
@pytest.mark.parametrize("k, true", [(3, True), (3, False), (4, True), (4, False)])
def test_answers_match_blst_and_evm384_more_pairs(name, k, true):
    check_against_blst_and_evm384(name, instance(k, true))


def test_python_api_runs_the_evmmax_build():
    pairs = encode_pairs(instance(2, True))
    assert api.pairing_product_is_one(pairs, target="evmmax") is True
    assert api.pairing_check_hinted(pairs, target="evmmax") is True
    assert api.eip2537_pairing_check(eip2537_input(instance(2, False)),
                                           target="evmmax") == ZERO
    with pytest.raises(TypeError, match="opcodes"):
        api.pairing_product_is_one(pairs, target="evmmax", opcodes="evmmax")
    with pytest.raises(ValueError, match="EVM384 only"):
        build_contract("miller_loop", target="evmmax")
    with pytest.raises(ValueError, match="unknown target"):
        build_contract("pairing_product_is_one", target="evm385")


@pytest.mark.parametrize("vector", [v for v in VALID if len(v["Input"]) // 768 <= 2],
                         ids=_vector_ids([v for v in VALID if len(v["Input"]) // 768 <= 2]))
def test_official_vectors(vector):
    result = run("eip2537_pairing_check", bytes.fromhex(vector["Input"]))
    assert result.success, result.error
    assert result.output.hex() == vector["Expected"]


@pytest.mark.slow
@pytest.mark.parametrize("vector", [v for v in VALID if len(v["Input"]) // 768 > 2],
                         ids=_vector_ids([v for v in VALID if len(v["Input"]) // 768 > 2]))
def test_official_vectors_three_pairs(vector):
    result = run("eip2537_pairing_check", bytes.fromhex(vector["Input"]))
    assert result.success and result.output.hex() == vector["Expected"]


@pytest.mark.parametrize("vector", INVALID, ids=_vector_ids(INVALID))
def test_official_invalid_vectors_revert_like_evm384(vector):
    data = bytes.fromhex(vector["Input"])
    got, evm384 = run("eip2537_pairing_check", data), run("eip2537_pairing_check", data,
                                                           target="evm384", engine="fast")
    assert HALT.ended(got) and HALT.ended(evm384)


def test_g1_outside_the_subgroup_reverts():
    pairs = list(instance(2, True))
    x, y, _ = g1_off_subgroup(random.Random(5))
    pairs[0] = ((x.n, y.n), pairs[0][1])
    result = run("eip2537_pairing_check", eip2537_input(pairs))
    assert HALT.ended(result)


def test_hint_value_not_below_p_reverts_and_a_wrong_hint_answers_zero():
    pairs = encode_pairs(instance(2, True))
    hint = pairing_hint(pairs)
    bad = hint[:48 * 5] + BLS12_381.p.to_bytes(48, "big")
    result = run("pairing_check_hinted", encode_calldata("pairing_check_hinted", pairs, bad))
    assert not result.success and result.error == "revert"
    wrong = (1).to_bytes(48, "big") + hint[48:]
    result = run("pairing_check_hinted", encode_calldata("pairing_check_hinted", pairs, wrong))
    assert result.success and result.output == ZERO
    assert len(hint) == HINT_BYTES


@pytest.mark.parametrize("name", EVMMAX_PAIRING_CHECKS)
def test_size_and_registers(name):
    program = build_program(name, target="evmmax")
    assert len(program.code) <= MAX_CODE
    assert program.memory.registers.count <= 255          # one spare for the EIP's bound
    assert "ml_dbl_resident" in program.labels             # two pairs stay in registers


def test_gas_of_the_two_pairing_check():
    """Issue 14's targets: the product check <= 170,000, the EIP-2537 check <= 200,000,
    the hinted check <= the precompile's 102,900; the validated hinted check must not
    regress past its measured value (docs/evmmax.md)."""
    budgets = {"pairing_product_is_one": 170_000, "eip2537_pairing_check": 200_000,
               "pairing_check_hinted": 102_900, "eip2537_pairing_check_hinted": 108_000}
    for name, budget in budgets.items():
        result = run(name, calldata(name, instance(2, True)))
        assert result.success and result.output == ONE
        assert result.gas_used <= budget, (name, result.gas_used)


def test_hinted_checks_as_a_transaction_pays_them():
    """Issue 26: execution + calldata (EIP-2028, the hint included) of the hinted check
    under the precompile's own 102,900 execution gas, so under the precompile called with
    its 768-byte input (102,900 + 9,960); the validated variant under its 137,056 before
    (an 864-byte hint)."""
    pairs = instance(2, True)
    totals = {}
    for name in ("pairing_check_hinted", "eip2537_pairing_check_hinted"):
        data = calldata(name, pairs)
        result = run(name, data, engine="fast")
        assert result.success and result.output == ONE
        totals[name] = result.gas_used + calldata_gas(data)
    precompile_call = 102_900 + calldata_gas(eip2537_input(pairs))     # ~112,860
    assert totals["pairing_check_hinted"] <= 102_900 < precompile_call
    assert totals["eip2537_pairing_check_hinted"] < 137_056


def test_fp2_addition_is_one_vector_op():
    isa = resolve_target("evmmax")
    asm = Assembler("t", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, BLS12_381, target=isa)
    region = asm.memory.region("values")
    a, b = region.alloc(Fp2, "a"), region.alloc(Fp2, "b")
    with asm.scope("under_test"):
        fp.add(e, a, a, b)
    e.finish()
    program = asm.assemble()
    ops = [ins for ins in disassemble(program.code, program.code_size, "evmmax")
           if program.source_map[ins.pc].path[-1] == "under_test"]
    assert [ins.name for ins in ops] == ["ADDMODX"]
    out, _, x, _, y, _, count = ops[0].vector_immediates()
    assert (count, out, x, y - x) == (2, int(a) // 48, int(a) // 48, 2)


def test_gas_by_scope_adds_up_and_names_the_phases():
    program = build_program("pairing_check_hinted", target="evmmax")
    gas = GasByPc()
    result = execute(program.code, calldata("pairing_check_hinted", instance(2, True)),
                     opcodes="evmmax", tracer=gas)
    assert result.success and result.output == ONE
    phases = by_scope(program, gas.by_pc, depth=1)
    assert sum(phases.values()) == result.gas_used
    steps = phases[("ml_dbl_resident",)] + phases[("ml_add_resident",)]  # two pairs: registers
    assert steps > result.gas_used // 2 and ("ml_dbl_all",) not in phases
