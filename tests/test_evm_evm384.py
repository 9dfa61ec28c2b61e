"""ADDMOD384, SUBMOD384 and MULMODMONT384 inside the interpreter: the spec's
known-answer vectors, memory expansion and gas by hand, schedules, fused blocks
against the one-call-per-op loop and py-evm with our opcodes (integrations.pyevm)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.evm import Evm384Schedule
from evm384_native.evm.api import run

from evm_helpers import (asm, assert_matches_pyevm, evm384_word, memory_gas, push,
                         run_everywhere)
from evm_programs import (EVM384_OPS_PER_ITERATION, P, fp2_calldata, fp2_mul_loop,
                          fp2_mul_loop_gas, fp2_mul_loop_oracle)

KAT_X = "3c119b3934156e9d9a495378725bb6c7fdcd12784743919063f5a383d2d2af117e025fdb0fb03fa723a62a4d6d968d2b"
KAT_Y = "f1562b8a749c87046d34a6d1101226508bb99a91982faeac365505dc7d9366404d9808a02531e3e80c82cdbab995821e"
KAT_MOD = "ec1e91ae1c738c60602becdaa2c68049efc48e8efa17054cdfb487bd3ccf137fe7e517dbee90eef07123d231ea794fa5"
KAT_ADD = "2d68c6c3a8b1f5a1077ef949836ddc178987ad09e0723f3d9a4aa95f50661652cb9a677b35e122903028f807272c104a"
KAT_MUL = "b0f9fdbafea7416d7d306f04e96da1f87f72296a25bdb9263fbd57a66982d129208bf5683e3191274250b21744c12997"

# (opcode, calldata x ‖ y ‖ mod [‖ inv], expected output, gas used under evmone-v7)
KNOWN_ANSWERS = {
    "ADDMOD384": (0xC0, KAT_X + KAT_Y + KAT_MOD, KAT_ADD, 58),
    "SUBMOD384": (0xC1, KAT_ADD + KAT_Y + KAT_MOD, KAT_X, 58),
    "MULMODMONT384": (0xC2, KAT_ADD + KAT_Y + KAT_MOD + "ff" * 8, KAT_MUL, 74),
}
SCHEDULE_GAS = {"evmone-v7": (8, 8, 24), "update5-A": (2, 2, 6), "update5-B": (1, 1, 3)}


def kat_program(opcode: int) -> bytes:
    """The spec's program: copy calldata to memory 0, op (out=0, x=0, y=48, mod=96), return 48."""
    return bytes.fromhex("3660006000376f00000000000000000000003000000060") + bytes([opcode]) + \
        bytes.fromhex("60306000f3")


@pytest.mark.parametrize("name", sorted(KNOWN_ANSWERS))
def test_known_answer_vectors_output_and_gas(name):
    opcode, calldata, expected, gas_used = KNOWN_ANSWERS[name]
    result = assert_matches_pyevm(kat_program(opcode), bytes.fromhex(calldata))
    assert result.success and result.output.hex() == expected
    assert result.gas_used == gas_used


@pytest.mark.parametrize("schedule", sorted(SCHEDULE_GAS))
@pytest.mark.parametrize("name", sorted(KNOWN_ANSWERS))
def test_known_answer_gas_under_each_schedule(name, schedule):
    opcode, calldata, expected, gas_evmone = KNOWN_ANSWERS[name]
    static = SCHEDULE_GAS[schedule][opcode - 0xC0]
    result = run_everywhere(kat_program(opcode), bytes.fromhex(calldata), schedule=schedule)
    assert result.output.hex() == expected
    assert result.gas_used == gas_evmone - SCHEDULE_GAS["evmone-v7"][opcode - 0xC0] + static


def test_schedule_as_mapping():
    opcode, calldata, _, _ = KNOWN_ANSWERS["MULMODMONT384"]
    result = run_everywhere(kat_program(opcode), bytes.fromhex(calldata),
                            schedule={"ADDMOD384": 1, "SUBMOD384": 1, "MULMODMONT384": 100})
    assert result.gas_used == 74 - 24 + 100


@pytest.mark.parametrize("cost", [2**32 - 1, 2**32, 2**40, 2**63 - 1])
def test_every_engine_runs_every_valid_schedule(cost):
    """Issue 15: EVM384 gas >= 2**32 broke the fast engine (its table held uint32), even
    for code 00. A fused run of three pairs costs up to 3 * (2**63 - 1), past uint64."""
    schedule = {"ADDMOD384": cost, "SUBMOD384": cost, "MULMODMONT384": cost}
    assert run_everywhere(b"\x00", schedule=schedule).success
    three_pairs = asm(*[asm(push(evm384_word(0, 0, 0, 0), 16), "ADDMOD384")] * 3)
    for gas in (2**63 - 1, 3 * cost + 3 * 3 + 6, 3 * cost + 3 * 3 + 5, cost + 3, 10**6):
        if gas < 2**63:
            run_everywhere(three_pairs, gas=gas, schedule=schedule)


@pytest.mark.parametrize("cost", [2**63, -1, True, 1.5, "8"])
def test_schedules_no_engine_can_run_are_refused_once(cost):
    schedule = {"ADDMOD384": 8, "SUBMOD384": 8, "MULMODMONT384": cost}
    with pytest.raises(ValueError, match=r"gas of MULMODMONT384 must be an int in \[0, 2\*\*63 - 1\]"):
        run(b"\x00", schedule=schedule)
    with pytest.raises(ValueError, match="MULMODMONT384"):
        Evm384Schedule(8, 8, cost)


def _single(name, out, x, y, mod, prefix=b""):
    return asm(prefix, push(evm384_word(out, x, y, mod), 16), name, "MSIZE", push(0, 1),
               "MSTORE")


@pytest.mark.parametrize("name, mod_size", [("ADDMOD384", 48), ("SUBMOD384", 48),
                                             ("MULMODMONT384", 56)])
def test_memory_grows_to_the_furthest_operand_like_mload(name, mod_size):
    # out = x = y = 0 and mod = 16: mod + 48 = 64 (2 words), mod + 56 = 72 (3 words)
    code = asm(_single(name, 0, 0, 0, 16), push(32, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)
    size = 96 if mod_size == 56 else 64
    assert int.from_bytes(result.output, "big") == size
    static = {"ADDMOD384": 8, "SUBMOD384": 8, "MULMODMONT384": 24}[name]
    assert result.gas_used == 3 + static + memory_gas(size) + 2 + 3 + 3 + 3 + 3


@pytest.mark.parametrize("operand", range(4))
def test_each_operand_offset_counts_for_expansion(operand):
    offsets = [0, 0, 0, 0]
    offsets[operand] = 1000
    code = asm(_single("ADDMOD384", *offsets), push(32, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)
    assert int.from_bytes(result.output, "big") == 1056  # 1048 rounded up to words
    assert result.gas_used == 3 + 8 + memory_gas(1048) + 2 + 3 + 3 + 3 + 3


def test_reads_past_the_old_end_see_zeros_and_high_bits_are_ignored():
    # x at 0 is 5 (big-endian MSTORE of 5 << 248 puts 0x05 in byte 0, i.e. LE value 5),
    # y and mod are beyond the end of memory: 5 + 0 >= 0 so out = 5 - 0 = 5.
    word = (0xDEADBEEF << 200) | evm384_word(200, 0, 300, 400)
    code = asm(push(5 << 248), push(0, 1), "MSTORE", push(word), "ADDMOD384",
               push(48, 1), push(200, 2), "RETURN")
    result = assert_matches_pyevm(code)
    assert result.output == (5).to_bytes(48, "little")


def test_offset_fields_are_32_bits_and_huge_memory_runs_out_of_gas():
    code = asm(push(evm384_word(0xFFFFFFFF, 0, 0, 0), 16), "ADDMOD384")
    result = assert_matches_pyevm(code, gas=10**9)
    assert (result.success, result.error, result.gas_used) == (False, "out of gas", 10**9)


def test_aliasing_out_x_y_squares_in_place():
    rng = random.Random(7)
    x = rng.randrange(P)
    calldata = fp2_calldata(x, 0, 0, 0)
    code = asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY",
               push(evm384_word(64, 64, 64, 0), 16), "MULMODMONT384",
               push(48, 1), push(64, 1), "RETURN")
    result = assert_matches_pyevm(code, calldata)
    assert int.from_bytes(result.output, "little") == x * x * pow(2**384, -1, P) % P


@pytest.mark.parametrize("iterations", [1, 2, 20])
def test_fp2_multiplication_loop(iterations):
    rng = random.Random(iterations)
    values = [rng.randrange(P) for _ in range(4)]
    result = assert_matches_pyevm(fp2_mul_loop(iterations), fp2_calldata(*values))
    assert result.output == fp2_mul_loop_oracle(iterations, *values)
    assert result.gas_used == fp2_mul_loop_gas(iterations)
    assert sum(result.opcode_counts[name] for name in ("ADDMOD384", "SUBMOD384",
                                                       "MULMODMONT384")) == \
        EVM384_OPS_PER_ITERATION * iterations


@pytest.mark.parametrize("schedule", sorted(SCHEDULE_GAS))
def test_fp2_loop_gas_under_each_schedule(schedule):
    values = [3, 5, 7, 11]
    result = run_everywhere(fp2_mul_loop(3), fp2_calldata(*values), schedule=schedule)
    assert result.gas_used == fp2_mul_loop_gas(3, SCHEDULE_GAS[schedule])


def test_running_out_of_gas_inside_a_fused_block_halts_at_the_exact_instruction():
    values = [3, 5, 7, 11]
    code, calldata = fp2_mul_loop(2), fp2_calldata(*values)
    needed = fp2_mul_loop_gas(2)
    for gas in range(needed - 400, needed + 1):
        ours = assert_matches_pyevm(code, calldata, gas=gas)  # every mode agrees, steps too
        assert ours.success == (gas == needed)
    # One short for the first EVM384 op (it grows memory to T0 + 48 = 304 bytes): the
    # halt is at step 8, although the fused block as a whole needs far more gas.
    setup = 2 + 3 + 3 + 3 + 24 + memory_gas(256) + 3 + 1
    first_op = 3 + 24 + memory_gas(304) - memory_gas(256)
    short = run(code, calldata, gas=setup + first_op - 1)
    assert (short.error, short.steps, short.gas_left) == ("out of gas", 8, 0)
    assert short.opcode_counts["MULMODMONT384"] == 1
    enough = run(code, calldata, gas=setup + first_op + 3 - 1)  # then short at the next PUSH16
    assert (enough.error, enough.steps) == ("out of gas", 9)


def test_fused_block_at_the_stack_limit_overflows_exactly():
    segment = asm(push(evm384_word(0, 0, 0, 0), 16), "ADDMOD384")
    fits = assert_matches_pyevm(asm(push(0, 0) * 1023, segment, "STOP"))
    assert fits.success
    full = assert_matches_pyevm(asm(push(0, 0) * 1024, segment, "STOP"))
    assert (full.success, full.error, full.steps) == (False, "stack overflow", 1025)


# --- generated EVM384 programs ---------------------------------------------------------

offsets = st.one_of(st.integers(0, 320), st.sampled_from([0, 48, 96, 144, 1000, 4096]))
evm384_ops = st.tuples(st.sampled_from(["ADDMOD384", "SUBMOD384", "MULMODMONT384"]),
                       offsets, offsets, offsets, offsets)
fillers = st.sampled_from([asm("MSIZE", "POP"), asm(push(7, 1), push(300, 2), "MSTORE8"),
                           asm("JUMPDEST"), asm(push(0, 1), "MLOAD", "POP"), b""])


@settings(max_examples=150, deadline=None)
@given(ops=st.lists(st.tuples(evm384_ops, fillers), min_size=1, max_size=12),
       calldata=st.binary(min_size=0, max_size=400),
       gas=st.one_of(st.integers(0, 3000), st.just(1_000_000)))
def test_generated_evm384_programs_agree_everywhere_and_with_pyevm(ops, calldata, gas):
    _check_generated(ops, calldata, gas)


def _check_generated(ops, calldata, gas):
    """Calldata to memory, the ops (fused into segments where they are adjacent), then
    return all of memory: every mode and py-evm with our opcodes must agree."""
    body = b"".join(asm(push(evm384_word(*operands), 16), name, filler)
                    for (name, *operands), filler in ops)
    code = asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY", body,
               "MSIZE", push(0, 1), "RETURN")
    assert_matches_pyevm(code, calldata, gas=gas)


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(4))     # independent draws that workers share out
@settings(max_examples=300, deadline=None)
@given(ops=st.lists(st.tuples(evm384_ops, fillers), min_size=1, max_size=30),
       calldata=st.binary(min_size=0, max_size=400),
       gas=st.one_of(st.integers(0, 5000), st.just(1_000_000)))
def test_many_generated_evm384_programs(shard, ops, calldata, gas):
    _check_generated(ops, calldata, gas)
