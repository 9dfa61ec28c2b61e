"""EVMMAX cost models as data (evm/costs.py) and the transaction view of gas
(evm/transaction.py): EIP-7747's table as the EIP prints it, every instruction's gas under
each model on every engine and backend (measured by difference, as tests/test_evm_evmmax.py
does for EIP-6690), a user's table, the errors, py-evm, and the calldata / access / floor
arithmetic against the EIPs' definitions."""
import json
import random

import pytest

from evm384_native import execute
from evm384_native.evm.costs import (COST_MODELS, DEFAULT_COSTS, EIP_6690, EIP_7747,
                                     EvmmaxCosts, costs_from_table, load_costs, resolve_costs)
from evm384_native.evm.transaction import call_cost, calldata_gas, calldata_tokens
from optional import require
from test_evm_evmmax import (LOADX, MSTORE, MULMODX, PUSH_GAS, STOP, STOREX, ADDMODX, SUBMODX,
                             VALUES_AT, memory_gas, moduli, mstore_bytes, push, setmodx,
                             transfer, vector)

RUNNERS = (("python", "native"), ("python", "reference"), ("fast", "native"))

# EIP-7747, "Cost table" (shared/docs/eip-7747.md), row by row: MULMODX, ADD/SUBMODX, SETMODX
EIP_7747_TABLE = [(2, 2, 32), (2, 2, 36), (2, 2, 40), (3, 2, 44), (3, 2, 48), (4, 2, 52),
                  (5, 2, 56), (7, 2, 60), (8, 3, 64), (9, 3, 68), (11, 3, 72), (13, 3, 76)]
# a user's table with a distinct value in every cell, so a wrong index shows
CUSTOM = {"SETMODX": [100 + i for i in range(12)], "ADDMODX": [20 + i for i in range(12)],
          "MULMODX": [40 + 3 * i for i in range(12)]}


def test_eip_7747_is_the_eips_table():
    assert EIP_7747.mul == tuple(row[0] for row in EIP_7747_TABLE)
    assert EIP_7747.add_sub == tuple(row[1] for row in EIP_7747_TABLE)
    assert EIP_7747.setmodx == tuple(row[2] for row in EIP_7747_TABLE)
    assert DEFAULT_COSTS == "eip-6690" and COST_MODELS == {"eip-6690": EIP_6690,
                                                           "eip-7747": EIP_7747}


def run_all(code, costs):
    results = [execute(code, gas=10_000_000, opcodes="evmmax", engine=engine, backend=backend,
                       costs=costs) for engine, backend in RUNNERS]
    assert all(r == results[0] for r in results[1:]), costs
    assert results[0].success, results[0].error
    return results[0]


def gas_of(prefix, instruction, costs):
    return (run_all(prefix + instruction + bytes([STOP]), costs).gas_used
            - run_all(prefix + bytes([STOP]), costs).gas_used)


@pytest.mark.parametrize("costs", ["eip-7747", CUSTOM], ids=["eip-7747", "custom"])
@pytest.mark.parametrize("limbs", [1, 4, 6, 12])
def test_every_instruction_costs_what_the_model_says(costs, limbs):
    model = resolve_costs(costs)
    expected = {"SETMODX": model.setmodx[limbs - 1], "ADD": model.add_sub[limbs - 1],
                "MUL": model.mul[limbs - 1]}
    for modulus in moduli(limbs)[:2]:                     # odd moduli: the tables apply
        size, registers, memory = 8 * limbs, 16, 2048
        grown = push(0) + push(memory - 32) + bytes([MSTORE]) + \
            mstore_bytes(0, modulus.to_bytes(size, "big"))
        assert gas_of(grown, setmodx(0, 0, size, registers), costs) == \
            4 * PUSH_GAS + 1 + memory_gas(memory + registers * size) - memory_gas(memory) \
            + expected["SETMODX"]
        ready = grown + setmodx(0, 0, size, registers)
        for count in (1, 5):
            assert gas_of(ready, vector(ADDMODX, 0, 1, 0, 1, 0, 0, count), costs) == \
                count * expected["ADD"]
            assert gas_of(ready, vector(SUBMODX, 0, 1, 0, 0, 0, 1, count), costs) == \
                count * expected["ADD"]
            assert gas_of(ready, vector(MULMODX, 0, 1, 0, 1, 0, 1, count), costs) == \
                count * expected["MUL"]
            for code in (transfer(LOADX, VALUES_AT, 0, count),
                         transfer(STOREX, 0, VALUES_AT, count)):
                assert gas_of(ready, code, costs) == 3 * PUSH_GAS + 1 + count * expected["MUL"]
        # a run of vector operations (one step on both engines) is priced the same
        run = vector(ADDMODX, 0, 1, 0, 1, 0, 0, 3) + vector(MULMODX, 3, 1, 0, 1, 0, 1, 2)
        assert gas_of(ready, run, costs) == 3 * expected["ADD"] + 2 * expected["MUL"]


def test_power_of_two_moduli_keep_their_copy_costs():
    modulus, size = 2**255, 32
    prefix = push(0) + push(2016) + bytes([MSTORE]) + mstore_bytes(0, modulus.to_bytes(32, "big"))
    code = setmodx(0, 0, size, 4) + transfer(STOREX, 0, VALUES_AT, 2)
    assert len({gas_of(prefix, code, costs) for costs in ("eip-6690", "eip-7747", CUSTOM)}) == 1


def test_out_of_gas_under_another_model_halts_at_the_same_place_on_every_engine():
    modulus, size = 2**255 - 19, 32
    code = (push(0) + push(2016) + bytes([MSTORE]) + mstore_bytes(0, modulus.to_bytes(32, "big"))
            + setmodx(0, 0, size, 8) + vector(MULMODX, 0, 1, 0, 1, 0, 1, 4) * 20 + bytes([STOP]))
    full = run_all(code, "eip-7747")
    for gas in (full.gas_used - 1, full.gas_used - 13, full.gas_used // 2):
        results = [execute(code, gas=gas, opcodes="evmmax", engine=engine, backend=backend,
                           costs="eip-7747") for engine, backend in RUNNERS]
        assert all(r == results[0] for r in results) and results[0].error == "out of gas"


def test_a_users_table_from_a_mapping_or_a_file(tmp_path):
    model = costs_from_table(CUSTOM)
    assert (model.setmodx, model.add_sub, model.mul) == tuple(
        tuple(CUSTOM[row]) for row in ("SETMODX", "ADDMODX", "MULMODX"))
    assert costs_from_table({**CUSTOM, "SUBMODX": CUSTOM["ADDMODX"]}) == model
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(CUSTOM))
    loaded = load_costs(path)
    assert loaded.name == "mine" and loaded.mul == model.mul
    assert resolve_costs(loaded) is loaded and resolve_costs("eip-7747") is EIP_7747


ROW = r"a list of 12 integers in \[0, 4294967295\] \(the gas at 1\.\.12 limbs\); "


@pytest.mark.parametrize("costs, error, message", [
    ("eip-9999", ValueError, "unknown EVMMAX cost model 'eip-9999'"),
    ({**CUSTOM, "MULMODX": [1] * 11}, ValueError, f"^MULMODX must be {ROW}got 11 values$"),
    ({**CUSTOM, "ADDMODX": [1] * 11 + [-1]}, ValueError,
     f"^ADDMODX must be {ROW}got -1 for 12 limbs$"),
    ({**CUSTOM, "SETMODX": [True] * 12}, ValueError, f"^SETMODX must be {ROW}got true for 1 limb$"),
    ({**CUSTOM, "MULMODX": [2**32] * 12}, ValueError, f"^MULMODX must be {ROW}got 4294967296 "),
    ({**CUSTOM, "MULMODX": None}, ValueError, f"^MULMODX must be {ROW}got null$"),
    ({**CUSTOM, "SUBMODX": [9] * 12}, ValueError, "^SUBMODX must cost what ADDMODX costs"),
    ({**CUSTOM, "SUBMODX": [9] * 11}, ValueError, f"^SUBMODX must be {ROW}got 11 values$"),
    ({**CUSTOM, "LOADX": [1] * 12}, ValueError, r"^unknown key LOADX \(a cost table is an "),
    ({"SETMODX": [1] * 12, "MULMODX": [1] * 12, "x": 1, "y": 2}, ValueError,
     r"^unknown keys x, y; missing ADDMODX \(a cost table is an object of SETMODX, "),
    ([1, 2, 3], TypeError, "^a cost table must be an object of SETMODX, ADDMODX, MULMODX and "
                           r"optionally SUBMODX \(equal to ADDMODX\), each a list .*; "
                           r"got \[1, 2, 3\]$"),
])
def test_bad_models_are_refused_with_the_reason(costs, error, message):
    with pytest.raises(error, match=message):
        resolve_costs(costs)
    with pytest.raises(error, match=message):
        execute(b"\x00", opcodes="evmmax", costs=costs)


def test_table_files_errors_name_the_file(tmp_path):
    with pytest.raises(ValueError, match="^cannot read the cost table .*missing.json': No such"):
        load_costs(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"^cost table .*bad.json': not JSON: Expecting property"):
        load_costs(tmp_path / "bad.json")
    (tmp_path / "latin.json").write_bytes(b"\xff")
    with pytest.raises(ValueError, match="^cannot read the cost table .*latin.json': 'utf-8'"):
        load_costs(tmp_path / "latin.json")
    (tmp_path / "short.json").write_text(json.dumps({**CUSTOM, "SETMODX": [1]}))
    with pytest.raises(ValueError, match="^cost table .*short.json': SETMODX must be a list of 12 "
                                         "integers"):
        load_costs(tmp_path / "short.json")


def test_a_models_own_fields_are_checked_too():
    with pytest.raises(ValueError, match=f"^cost model 'mine': add_sub must be {ROW}got 2 values$"):
        EvmmaxCosts("mine", EIP_6690.setmodx, (1, 1), EIP_6690.mul)


def test_models_compare_by_value():
    """The fast engine keeps one C table per distinct model."""
    assert EvmmaxCosts("eip-7747", EIP_7747.setmodx, EIP_7747.add_sub, EIP_7747.mul) == EIP_7747


def test_pyevm_prices_with_the_model():
    require("eth", "pyevm")
    from evm384_native.integrations.pyevm import execute_in_pyevm, with_evm384
    modulus = 2**381 - 1155                            # 6 limbs, odd
    code = (push(0) + push(2016) + bytes([MSTORE]) + mstore_bytes(0, modulus.to_bytes(48, "big"))
            + setmodx(0, 0, 48, 8) + transfer(STOREX, 0, VALUES_AT, 2)
            + vector(MULMODX, 2, 1, 0, 1, 1, 1, 3) + transfer(LOADX, VALUES_AT, 2, 3)
            + bytes([STOP]))
    for costs in ("eip-6690", "eip-7747", CUSTOM):
        engine = execute(code, opcodes="evmmax", costs=costs)
        host = execute_in_pyevm(code, vm_class=with_evm384(opcodes="evmmax", costs=costs))
        assert engine.success and host.gas_used == engine.gas_used, costs


# --- the transaction view -----------------------------------------------------------------

def test_calldata_gas_and_tokens_by_the_eips():
    rng = random.Random(3)
    for data in (b"", bytes(10), b"\x01" * 7, bytes(rng.randrange(3) and rng.randrange(256)
                                                     for _ in range(500))):
        zeros = sum(1 for byte in data if byte == 0)
        assert calldata_gas(data) == 4 * zeros + 16 * (len(data) - zeros)      # EIP-2028
        assert calldata_tokens(data) == zeros + 4 * (len(data) - zeros)        # EIP-7623


def test_call_cost_adds_access_and_applies_the_floor():
    data = b"\x01" * 100                                  # 400 tokens: floor 4,000
    contract, precompile = call_cost(50_000, data), call_cost(50_000, data, precompile=True)
    assert (contract.calldata, contract.access, contract.floor) == (1_600, 2_600, 4_000)
    assert contract.total == 50_000 + 1_600 + 2_600 and precompile.total == 50_000 + 1_600 + 100
    tiny = call_cost(10, bytes(1000) + data)              # calldata-heavy: the floor binds
    assert tiny.total == tiny.floor == 10 * (1000 + 400) > tiny.calldata + tiny.access + 10
