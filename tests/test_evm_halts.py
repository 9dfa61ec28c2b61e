"""Exceptional halts: their reasons, all gas consumed, the exact halting step,
and bad arguments to execute()."""
import pytest

import evm384_native
from evm384_native import execute
from evm384_native.evm.opcodes import OPCODES

from evm_helpers import asm, assert_matches_pyevm, evm384_word, push, run_everywhere


def halted(result, reason, gas):
    return (result.success, result.error, result.gas_used, result.gas_left, result.output) == \
        (False, reason, gas, 0, b"")


def test_stack_underflow():
    result = assert_matches_pyevm(asm(push(1, 1), "ADD"), gas=1000)
    assert halted(result, "stack underflow", 1000) and result.steps == 2


def test_stack_overflow_at_1025_items():
    ok = assert_matches_pyevm(asm(push(0, 0) * 1024), gas=10_000)
    assert ok.success and ok.gas_used == 2048
    over = assert_matches_pyevm(asm(push(0, 0) * 1025), gas=10_000)
    assert halted(over, "stack overflow", 10_000) and over.steps == 1025
    dup = assert_matches_pyevm(asm(push(0, 0) * 1024, "DUP1"), gas=10_000)
    assert halted(dup, "stack overflow", 10_000)


@pytest.mark.parametrize("program", [
    asm(push(3, 1), "JUMP", "STOP"),                         # not a JUMPDEST
    asm(push(4, 1), "JUMP", push(0x5B, 1), "STOP"),          # a 0x5b inside PUSH data
    asm(push(100, 1), "JUMP"),                               # beyond the code
    asm(push(2**256 - 1), "JUMP"),
    asm(push(1, 1), push(3, 1), "JUMPI", "JUMPDEST"),        # JUMPI taken to a non-JUMPDEST
])
def test_invalid_jump_destinations(program):
    assert halted(assert_matches_pyevm(program, gas=500), "invalid jump destination", 500)


def test_invalid_and_undefined_opcodes():
    assert halted(assert_matches_pyevm(asm("INVALID"), gas=77), "invalid opcode: INVALID", 77)
    assert halted(assert_matches_pyevm(bytes([0x0C]), gas=77), "invalid opcode 0x0c", 77)
    undefined = [b for b in range(256) if b not in OPCODES]
    for byte in undefined:          # Prague's undefined bytes (0x1e is CLZ from Osaka on)
        result = run_everywhere(bytes([byte]), gas=5, fork="prague")
        assert halted(result, f"invalid opcode 0x{byte:02x}", 5)
        assert result.opcode_counts == {f"UNDEFINED_0x{byte:02x}": 1}


@pytest.mark.parametrize("code", [c for c, info in OPCODES.items() if info.needs_state])
def test_state_opcodes_halt_as_unsupported_before_stack_and_gas_checks(code):
    result = run_everywhere(bytes([code]), gas=1)
    assert halted(result, f"unsupported opcode: {OPCODES[code].name}", 1)


def test_out_of_gas_on_static_cost_at_the_exact_step():
    code = asm(push(1, 1), push(2, 1), "ADD", push(3, 1), "MUL", "STOP")  # 3+3+3+3+5
    assert assert_matches_pyevm(code, gas=17).success
    short = assert_matches_pyevm(code, gas=16)
    assert halted(short, "out of gas", 16) and short.steps == 5
    assert short.opcode_counts == {"PUSH1": 3, "ADD": 1, "MUL": 1}
    assert halted(assert_matches_pyevm(code, gas=0), "out of gas", 0)


def test_out_of_gas_on_memory_expansion():
    code = asm(push(1, 1), push(2**32), "MSTORE")
    assert halted(assert_matches_pyevm(code, gas=10**7), "out of gas", 10**7)
    huge = asm(push(1, 1), push(2**256 - 1), "MSTORE")
    assert halted(assert_matches_pyevm(huge, gas=10**7), "out of gas", 10**7)
    copy = asm(push(2**255), push(0, 1), push(0, 1), "CALLDATACOPY")
    assert halted(assert_matches_pyevm(copy, gas=10**7), "out of gas", 10**7)


def test_memory_past_4_gib_is_out_of_gas_even_with_huge_gas():
    code = asm(push(1, 1), push(2**32 - 31), "MSTORE")
    result = run_everywhere(code, gas=2**63 - 1)
    assert halted(result, "out of gas", 2**63 - 1)


def test_a_fused_evm384_run_past_4_gib_halts_at_the_same_step_everywhere():
    """Issue 15: the block loop's gas pre-check priced the run's memory without the 4 GiB
    cap, so with huge gas the whole run was counted as executed (steps=4, not 2)."""
    code = bytes.fromhex("6fffffffff000000000000000000000000c05fc0")  # out = 2**32 - 1
    result = run_everywhere(code, gas=2**62)
    assert halted(result, "out of gas", 2**62)
    assert result.steps == 2 and result.opcode_counts == {"PUSH16": 1, "ADDMOD384": 1}
    # An earlier operation of the same run that stays below the cap runs (and grows
    # memory) first, on every engine.
    below_then_past = asm(push(evm384_word(2**20, 0, 0, 0), 16), "ADDMOD384",
                          push(evm384_word(2**32 - 1, 0, 0, 0), 16), "SUBMOD384")
    result = run_everywhere(below_then_past, gas=2**62)
    assert halted(result, "out of gas", 2**62)
    assert result.opcode_counts == {"PUSH16": 2, "ADDMOD384": 1, "SUBMOD384": 1}


def test_out_of_gas_on_exp_bytes():
    code = asm(push(2**255), push(3, 1), "EXP")  # 3 + 3 + 10 + 50 * 32
    assert assert_matches_pyevm(code, gas=1616).success
    assert halted(assert_matches_pyevm(code, gas=1615), "out of gas", 1615)


def test_gas_opcode_sees_the_exact_remaining_gas_in_a_block():
    code = asm(push(1, 1), push(2, 1), "ADD", "GAS", push(0, 1), "MSTORE", push(32, 1),
               push(0, 1), "RETURN")
    result = assert_matches_pyevm(code, gas=1000)
    assert int.from_bytes(result.output, "big") == 1000 - 3 - 3 - 3 - 2


def test_halting_blocks_report_identical_steps_in_every_mode():
    # a loop that runs out of gas somewhere in its body, at many gas limits
    code = asm(push(0, 1), "JUMPDEST", push(1, 1), "ADD", "DUP1", push(0, 1), "MSTORE",
               push(2, 1), "JUMP")
    for gas in range(0, 300, 7):
        result = assert_matches_pyevm(code, gas=gas)
        assert halted(result, "out of gas", gas)


def test_api_arguments_are_checked():
    assert evm384_native.execute is execute
    with pytest.raises(ValueError, match="unknown engine 'turbo'; available engines: .*python"):
        execute(b"", engine="turbo")
    with pytest.raises(ValueError, match="available backends: native, reference"):
        execute(b"", backend="gpu")
    with pytest.raises(ValueError, match="schedule"):
        execute(b"", schedule="cheap")
    with pytest.raises(TypeError, match="bytes.fromhex"):
        execute("6000")
    with pytest.raises(TypeError, match="calldata"):
        execute(b"", [1, 2])
    with pytest.raises(ValueError, match="gas"):
        execute(b"", gas=-1)
    with pytest.raises(TypeError, match="gas"):
        execute(b"", gas=1.5)
    result = execute(bytearray(b"\x60\x01"), memoryview(b"abc"), gas=5, backend="reference",
                     schedule="update5-B")
    assert result.success and result.gas_used == 3 and result.steps == 2
