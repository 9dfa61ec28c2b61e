"""The opcode table against py-evm's Prague table, and the gas rules against the
yellow paper's formulas evaluated by hand."""
import pytest
from eth.vm.forks.prague.computation import PragueComputation

from evm384_native.evm import gas
from evm384_native.evm.opcodes import ALIASES, BY_NAME, EVM384_OPCODES, OPCODES, lookup

# Mainnet opcodes whose static cost py-evm books differently: cold/warm access costs
# are dynamic there (0 static), and LOGn counts its topics as dynamic gas.
PYEVM_BOOKS_DIFFERENTLY = {"BALANCE", "EXTCODESIZE", "EXTCODECOPY", "EXTCODEHASH", "SLOAD",
                           "SSTORE", "CALL", "CALLCODE", "DELEGATECALL", "STATICCALL",
                           "LOG1", "LOG2", "LOG3", "LOG4"}


def _pyevm_opcodes():
    table = {}
    for code, opcode in PragueComputation.opcodes.items():
        mnemonic = getattr(opcode, "mnemonic", None) or opcode.__wrapped__.mnemonic
        table[code] = (mnemonic, opcode.gas_cost if hasattr(opcode, "gas_cost") else None)
    return table


def test_every_mainnet_opcode_is_in_the_table_with_its_name_and_static_gas():
    pyevm = _pyevm_opcodes()
    mainnet = {code: info for code, info in OPCODES.items() if code not in EVM384_OPCODES}
    assert set(pyevm) | {0xFE} == set(mainnet)  # py-evm treats INVALID as any undefined byte
    for code, (mnemonic, static_gas) in pyevm.items():
        info = OPCODES[code]
        assert info.name == ALIASES.get(mnemonic, mnemonic)
        if static_gas is not None and info.name not in PYEVM_BOOKS_DIFFERENTLY:
            assert info.gas == static_gas, info.name


def test_evm384_entries():
    assert [(OPCODES[c].name, OPCODES[c].gas, OPCODES[c].inputs, OPCODES[c].outputs)
            for c in (0xC0, 0xC1, 0xC2)] == [("ADDMOD384", 8, 1, 0), ("SUBMOD384", 8, 1, 0),
                                             ("MULMODMONT384", 24, 1, 0)]


@pytest.mark.parametrize("name, inputs, outputs", [
    ("STOP", 0, 0), ("ADD", 2, 1), ("ADDMOD", 3, 1), ("ISZERO", 1, 1), ("CALLDATACOPY", 3, 0),
    ("MSTORE", 2, 0), ("JUMPI", 2, 0), ("PUSH32", 0, 1), ("DUP1", 1, 2), ("DUP16", 16, 17),
    ("SWAP1", 2, 2), ("SWAP16", 17, 17), ("RETURN", 2, 0), ("LOG4", 6, 0), ("CALL", 7, 1),
    ("MCOPY", 3, 0), ("KECCAK256", 2, 1)])
def test_stack_arity_from_the_yellow_paper(name, inputs, outputs):
    assert (BY_NAME[name].inputs, BY_NAME[name].outputs) == (inputs, outputs)


def test_push_immediates_and_state_flags():
    assert [BY_NAME[f"PUSH{n}"].immediate for n in range(1, 33)] == list(range(1, 33))
    assert BY_NAME["PUSH0"].immediate == 0
    assert sum(info.immediate > 0 for info in OPCODES.values()) == 32
    assert BY_NAME["SLOAD"].needs_state and BY_NAME["ADDRESS"].needs_state
    assert not BY_NAME["CALLDATALOAD"].needs_state and not BY_NAME["MCOPY"].needs_state


def test_lookup_accepts_aliases_and_rejects_unknown_names():
    assert lookup("sha3") is BY_NAME["KECCAK256"] and lookup("mulmodmont384").code == 0xC2
    with pytest.raises(KeyError, match="FOO"):
        lookup("FOO")


@pytest.mark.parametrize("size, expected", [(0, 0), (1, 3), (32, 3), (33, 6), (1024, 96 + 2),
                                            (32 * 724, 3 * 724 + 724 * 724 // 512)])
def test_memory_cost(size, expected):
    assert gas.memory_cost(gas.words(size)) == expected


def test_memory_expansion_is_the_difference_of_totals():
    assert gas.memory_expansion_cost(0, 0) == 0
    assert gas.memory_expansion_cost(64, 40) == 0
    assert gas.memory_expansion_cost(64, 65) == 3
    # 0 -> 23 words: 69 + 529 // 512 = 70; then to 24 words: 72 + 1 = 73
    assert gas.memory_expansion_cost(0, 23 * 32) == 70
    assert gas.memory_expansion_cost(23 * 32, 24 * 32) == 3


def test_copy_keccak_exp_costs():
    assert (gas.copy_cost(0), gas.copy_cost(1), gas.copy_cost(33)) == (0, 3, 6)
    assert (gas.keccak256_cost(0), gas.keccak256_cost(64), gas.keccak256_cost(65)) == (0, 12, 18)
    assert [gas.exp_cost(e) for e in (0, 1, 255, 256, 2**255)] == [0, 50, 50, 100, 1600]


def test_schedules_by_name_and_mapping():
    assert gas.resolve_schedule("evmone-v7").by_opcode() == {0xC0: 8, 0xC1: 8, 0xC2: 24}
    assert gas.resolve_schedule("update5-A").by_opcode() == {0xC0: 2, 0xC1: 2, 0xC2: 6}
    assert gas.resolve_schedule("update5-B").by_opcode() == {0xC0: 1, 0xC1: 1, 0xC2: 3}
    custom = gas.resolve_schedule({"ADDMOD384": 4, "submod384": 5, "MULMODMONT384": 9})
    assert custom.by_opcode() == {0xC0: 4, 0xC1: 5, 0xC2: 9}


@pytest.mark.parametrize("bad, error", [
    ("evmone", ValueError), ({"ADDMOD384": 1}, ValueError),
    ({"ADDMOD384": 1, "SUBMOD384": 1, "MULMODMONT384": -1}, ValueError),
    ({"ADDMOD384": 1, "SUBMOD384": 1, "MULMODMONT384": 1.5}, ValueError),
    ({"ADDMOD384": 1, "SUBMOD384": 1, "MULMODMONT384": 1, "ADD": 3}, ValueError),
    (42, TypeError)])
def test_bad_schedules_are_rejected_clearly(bad, error):
    with pytest.raises(error):
        gas.resolve_schedule(bad)
