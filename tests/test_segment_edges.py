"""The fast engine's segments with the instructions around them (evm/segment_edges.py,
csrc/evm_fast.c's run_segment): a JUMPDEST before a segment and the call, jump or return
after it run with it, with the same output, gas, halts and opcode counts as every other
way of running the code (the python engine, both backends, unfused, traced), including
where the gas, the stack or the destination stops them."""
from __future__ import annotations

import random

import pytest

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import encode_pairs, random_product_case
from evm384_native.evm import segment_edges
from evm384_native.evm.code import decode
from evm384_native.evm.gas import resolve_schedule
from evm384_native.evm.opcode_sets import EVM384

from evm_helpers import asm, evm384_word, push, run_everywhere
from evm_programs import P, P_INV

MOD, A, B = 0, 64, 112
SCHEDULE = resolve_schedule("evmone-v7")


def op(name: str, out: int, x: int, y: int) -> bytes:
    return asm(push(evm384_word(out, x, y, MOD), 16), name)


SEGMENT = op("ADDMOD384", A, A, B) + op("MULMODMONT384", B, A, B)
PROLOGUE = asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY")
EPILOGUE = asm(push(160, 1), push(0, 1), "RETURN")


def image(seed: int) -> bytes:
    rng = random.Random(seed)
    memory = bytearray(rng.randbytes(160))
    memory[MOD:MOD + 56] = P.to_bytes(48, "little") + P_INV.to_bytes(8, "little")
    for slot in (A, B):
        memory[slot:slot + 48] = rng.randrange(P).to_bytes(48, "little")
    return bytes(memory)


def subroutine_program(calls: int = 3) -> bytes:
    """A subroutine (JUMPDEST, segment, return) called ``calls`` times, each call right
    after a segment, then a static jump over the subroutine to the end."""
    prologue_size, call_size, jump_size = len(PROLOGUE), len(SEGMENT) + 7 + 1, len(SEGMENT) + 4
    body_start = prologue_size + calls * call_size + jump_size
    end = body_start + 1 + len(SEGMENT) + 1
    code = PROLOGUE
    for i in range(calls):
        ret = prologue_size + (i + 1) * call_size - 1
        code += SEGMENT + push(ret, 2) + push(body_start, 2) + asm("JUMP", "JUMPDEST")
    code += SEGMENT + push(end, 2) + asm("JUMP")
    assert len(code) == body_start
    code += asm("JUMPDEST") + SEGMENT + asm("JUMP")
    assert len(code) == end
    return code + asm("JUMPDEST") + EPILOGUE


def entries_of(code: bytes) -> segment_edges.Entries:
    decoded = decode(code, SCHEDULE, True, EVM384)
    return segment_edges.entries(decoded.bytecode, decoded.jumpdest_flags, decoded.data_flags,
                                 decoded.segments, decoded.marked_records,
                                 lambda opcode: EVM384.table[opcode].gas)


def exits_by_pc(code: bytes) -> dict:
    found = entries_of(code)
    return dict(zip(found.pc.tolist(), found.exit.tolist()))


def test_calls_returns_jumps_and_jumpdests_become_parts_of_segments():
    code = subroutine_program(3)
    found = entries_of(code)
    by_pc = exits_by_pc(code)
    first = len(PROLOGUE)
    assert by_pc[first] == segment_edges.CALL
    body = code.rindex(asm("JUMPDEST") + SEGMENT + asm("JUMP"))
    assert by_pc[body] == by_pc[body + 1] == segment_edges.RETURN    # at the JUMPDEST too
    jump = code.rindex(SEGMENT + push(len(code) - len(EPILOGUE) - 1, 2))
    assert by_pc[jump] == segment_edges.JUMP
    entry = found.pc.tolist().index(first)
    assert found.tally_of(entry)[0x61] == 2 and found.tally_of(entry)[0x56] == 1
    assert found.stack_room[entry] == 2


def test_fixed_copies_join_the_runs_around_them():
    """copy, segment, copy, segment, copy and a return: one run; a copy of a value of 2^32
    or more stays outside."""
    copy = push(48, 1) + push(A, 1) + push(B, 1) + asm("MCOPY")
    code = PROLOGUE + asm("JUMPDEST") + copy + SEGMENT + copy + SEGMENT + copy \
        + push(2**32, 5) + push(0, 1) + push(0, 1) + asm("MCOPY") + EPILOGUE
    found = entries_of(code)
    start = len(PROLOGUE) + 1
    entry = found.pc.tolist().index(start)
    assert found.count[entry] == 3 + 2 * 2 and found.stack_room[entry] == 3
    assert found.tally_of(entry)[0x5e] == 3
    assert found.pc.tolist().index(start - 1) >= 0                  # its JUMPDEST entry
    assert found.next_pc[entry] == code.index(push(2**32, 5))
    for seed in range(3):
        result = run_everywhere(code, image(seed))
        assert result.opcode_counts["MCOPY"] == 4


def test_a_copy_of_nothing_and_copies_that_grow_memory_run_alike_everywhere():
    code = PROLOGUE + push(0, 1) + push(10_000, 2) + push(20_000, 2) + asm("MCOPY") + SEGMENT \
        + push(64, 1) + push(A, 1) + push(5_000, 2) + asm("MCOPY") + EPILOGUE
    found = entries_of(code)
    assert found.pc.tolist() == [len(PROLOGUE)] and found.count.tolist() == [4]   # one run
    data = image(6)
    used = execute(code, data, engine="python").gas_used
    for gas in [used - 40, used - 20, used - 1, used]:
        run_everywhere(code, data, gas=gas)


@pytest.mark.parametrize("calls", [1, 3])
def test_a_program_of_calls_runs_alike_everywhere(calls):
    code = subroutine_program(calls)
    for seed in range(3):
        result = run_everywhere(code, image(seed))
        assert result.success
        assert result.opcode_counts["JUMP"] == 2 * calls + 1
        assert result.opcode_counts["JUMPDEST"] == 2 * calls + 1


def test_every_gas_limit_halts_where_a_step_by_step_run_does():
    """Out of gas before, inside and just after each absorbed instruction."""
    code, data = subroutine_program(1), image(7)
    used = execute(code, data, engine="python").gas_used
    for gas in range(used - 60, used + 1):
        run_everywhere(code, data, gas=gas)


@pytest.mark.parametrize("variant, tail", [
    ("a return to a byte that is not a JUMPDEST", push(3, 1) + SEGMENT + asm("JUMP")),
    ("a return to PUSH data", push(0x5b5b, 2) + asm("POP") + push(len(PROLOGUE) + 1, 1)
     + SEGMENT + asm("JUMP")),
    ("a return past the code", push(10_000, 2) + SEGMENT + asm("JUMP")),
    ("a return with nothing on the stack", SEGMENT + asm("JUMP")),
    ("a jump to a byte that is not a JUMPDEST", SEGMENT + push(2, 1) + asm("JUMP")),
    ("a call to PUSH data", SEGMENT + push(1, 1) + push(len(PROLOGUE) + 3, 1) + asm("JUMP")),
])
def test_invalid_destinations_halt_as_in_a_step_by_step_run(variant, tail):
    result = run_everywhere(PROLOGUE + tail + EPILOGUE, image(3))
    assert not result.success, variant


def test_a_call_at_a_full_stack_overflows_where_a_step_by_step_run_does():
    """1023 items: the segment's PUSH16 fits, the call's second PUSH does not."""
    target = len(PROLOGUE) + 1023 * 2 + len(SEGMENT) + 6 + 1
    code = PROLOGUE + push(0, 1) * 1023 + SEGMENT + push(target, 2) + push(target, 2) \
        + asm("JUMP", "JUMPDEST") + EPILOGUE
    assert code[target] == 0x5b
    result = run_everywhere(code, image(4), gas=10_000_000)
    assert result.error is not None and "stack" in result.error.lower()
    found = entries_of(code)
    assert segment_edges.CALL in found.exit.tolist()


def test_a_return_address_too_wide_for_the_entry_is_left_to_the_step_loop():
    target = len(PROLOGUE) + len(SEGMENT) + 7 + 3 + 1
    code = PROLOGUE + SEGMENT + push(2**40, 6) + push(target, 2) \
        + asm("JUMP", "JUMPDEST", "POP") + EPILOGUE
    assert code[target] == 0x5b
    assert entries_of(code).exit.tolist()[0] == segment_edges.FALL
    assert run_everywhere(code, image(5)).success


def test_the_pairing_check_counts_the_same_on_both_engines():
    pairs = encode_pairs(random_product_case(random.Random(2), 2, True))
    code = build_contract("pairing_product_is_one")
    data = encode_calldata("pairing_product_is_one", pairs)
    fast = execute(code, data, engine="fast", schedule="update5-A")
    python = execute(code, data, engine="python", schedule="update5-A")
    assert fast == python and fast.output[-1] == 1


def test_a_return_point_with_the_next_call_right_after_it_is_an_entry_of_no_records():
    first_call = len(PROLOGUE) + len(SEGMENT)
    r1 = first_call + 7
    r2 = r1 + 1 + 7
    body = r2 + 1 + 4
    end = body + 1 + len(SEGMENT) + 1
    code = PROLOGUE + SEGMENT + push(r1, 2) + push(body, 2) + asm("JUMP", "JUMPDEST") \
        + push(r2, 2) + push(body, 2) + asm("JUMP", "JUMPDEST") + push(end, 2) \
        + asm("JUMP", "JUMPDEST") + SEGMENT + asm("JUMP", "JUMPDEST") + EPILOGUE
    assert code[r1] == code[r2] == code[body] == code[end] == 0x5b
    found = entries_of(code)
    at = found.pc.tolist()
    assert found.count[at.index(r1)] == 0 and found.exit[at.index(r1)] == segment_edges.CALL
    assert found.exit[at.index(r2)] == segment_edges.JUMP
    assert run_everywhere(code, image(9)).opcode_counts["JUMPDEST"] == 5
    used = execute(code, image(9), engine="python").gas_used
    for gas in range(used - 40, used):
        run_everywhere(code, image(9), gas=gas)
