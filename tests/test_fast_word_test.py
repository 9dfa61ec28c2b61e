"""The fast engine's one-step test of a memory word (PUSH2 a; MLOAD; ISZERO; PUSH2 dest;
JUMPI: csrc/evm_fast.c's fused_word_test) against the Python engine, which runs it
instruction by instruction: identical results, gas and counts wherever the sequence can
halt or must decline (gas running out at each of its instructions, the word past memory's
end or growing it, dest invalid, out of the code or 0, a full stack, the code cut off
inside it), on each opcode set."""
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.evm.api import run

from evm_helpers import asm, push

STACK_LIMIT = 1024


def _program(value: int, offset: int, dest: str, fill: int, cut: int) -> bytes:
    """A JUMPDEST at 0, the word ``value`` at 0x40, ``fill`` stack items, the test of the
    word at ``offset`` (the jump to ``dest``: "taken" a JUMPDEST, "plain" a non-JUMPDEST
    byte, "far" past the code, "zero" pc 0, a loop until the gas runs out), each branch
    returning a word of its own; ``cut`` bytes cut off the end (inside the test)."""
    head = asm("JUMPDEST", push(value, 32), push(0x40, 1), "MSTORE")
    if fill:
        head += asm(push(0, 1), *["DUP1"] * (fill - 1))
    fall = asm(push(1, 1), push(0, 1), "MSTORE", push(32, 1), push(0, 1), "RETURN")
    test_size = 9
    taken_at = len(head) + test_size + len(fall)
    target = {"taken": taken_at, "plain": taken_at + 1, "far": 0xFFFF, "zero": 0}[dest]
    test = asm(push(offset, 2), "MLOAD", "ISZERO", push(target, 2), "JUMPI")
    assert len(test) == test_size
    taken = asm("JUMPDEST", push(2, 1), push(0, 1), "MSTORE", push(32, 1), push(0, 1),
                "RETURN")
    if cut:
        return head + test[:test_size - cut]
    return head + test + fall + taken


def _same(code: bytes, gas: int, opcodes: str):
    python = run(code, b"", gas=gas, engine="python", opcodes=opcodes)
    fast = run(code, b"", gas=gas, engine="fast", opcodes=opcodes)
    assert fast == python, (code.hex(), gas, fast, python)
    assert fast.opcode_counts == python.opcode_counts
    return python


OFFSETS = [0x40, 0x00, 0x41, 0x60, 0x61, 0xFFE0, 0xFFFF]   # memory is 0x60 bytes: 0x41 and
#                                                            on read past it (it grows)


@pytest.mark.parametrize("opcodes", ["evm", "evmmax", "evm384"])
@pytest.mark.parametrize("dest", ["taken", "plain", "far", "zero"])
@pytest.mark.parametrize("value", [0, 1, 2**255])
def test_word_test_outcomes_and_gas_at_each_instruction(value, dest, opcodes):
    for offset in OFFSETS:
        code = _program(value, offset, dest, 0, 0)
        full = _same(code, 30_000, opcodes)
        # the gas used up to each instruction of the test and a little around it
        for short in range(0, 60):
            _same(code, max(0, min(full.gas_used, 30_000) - short), opcodes)


@pytest.mark.parametrize("fill", [STACK_LIMIT - 3, STACK_LIMIT - 2, STACK_LIMIT - 1])
@pytest.mark.parametrize("value", [0, 1])
def test_word_test_near_a_full_stack(fill, value):
    for dest in ("taken", "plain"):
        _same(_program(value, 0x40, dest, fill, 0), 100_000, "evmmax")


@pytest.mark.parametrize("cut", range(1, 9))
def test_word_test_cut_off_by_the_end_of_the_code(cut):
    for value in (0, 1):
        _same(_program(value, 0x40, "taken", 0, cut), 30_000, "evmmax")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**256 - 1) | st.sampled_from([0, 1]), st.sampled_from(OFFSETS),
       st.sampled_from(["taken", "plain", "far", "zero"]), st.integers(0, 40_000),
       st.sampled_from(["evm", "evmmax"]))
def test_word_test_any(value, offset, dest, gas, opcodes):
    _same(_program(value, offset, dest, 0, 0), gas, opcodes)
