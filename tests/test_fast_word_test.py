"""The fast engine's fused sequences (csrc/evm_fast.c) against the Python engine, which
runs them instruction by instruction: identical results, gas and counts wherever a
sequence can halt or must decline, on each opcode set. The test of a memory word (PUSH2 a;
MLOAD; ISZERO; PUSH2 dest; JUMPI: ``fused_word_test``, and the JUMPDEST it lands on): gas
running out at each of its instructions, the word past memory's end or growing it, dest invalid, out of the code or
0, a full stack, the code cut off inside it. A digit's record address (DUPn; PUSH1 k; SHR;
PUSH2 m; AND; and maybe PUSH2 t; ADD: ``fused_digit_address``): shifts within a limb and
across limbs, masks, words at their edges, the same halts and cuts."""
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.evm.api import run

from evm_helpers import asm, push

STACK_LIMIT = 1024


def _program(value: int, offset: int, dest: str, fill: int, cut: int,
             landing: bool = False) -> bytes:
    """A JUMPDEST at 0, the word ``value`` at 0x40, ``fill`` stack items, the test of the
    word at ``offset`` (the jump to ``dest``: "taken" a JUMPDEST, "plain" a non-JUMPDEST
    byte, "far" past the code, "zero" pc 0, a loop until the gas runs out), each branch
    returning a word of its own (``landing``: the one not taken starts with a JUMPDEST);
    ``cut`` bytes cut off the end (inside the test)."""
    head = asm("JUMPDEST", push(value, 32), push(0x40, 1), "MSTORE")
    if fill:
        head += asm(push(0, 1), *["DUP1"] * (fill - 1))
    fall = asm(*(["JUMPDEST"] if landing else []), push(1, 1), push(0, 1), "MSTORE",
               push(32, 1), push(0, 1), "RETURN")
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
@pytest.mark.parametrize("landing", [False, True])
@pytest.mark.parametrize("dest", ["taken", "plain", "far", "zero"])
@pytest.mark.parametrize("value", [0, 1, 2**255])
def test_word_test_outcomes_and_gas_at_each_instruction(value, dest, landing, opcodes):
    for offset in OFFSETS:
        code = _program(value, offset, dest, 0, 0, landing)
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
       st.sampled_from(["evm", "evmmax"]), st.booleans())
def test_word_test_any(value, offset, dest, gas, opcodes, landing):
    _same(_program(value, offset, dest, 0, 0, landing), gas, opcodes)


def _digit_program(word: int, depth: int, k: int, mask: int, table, fill: int, cut: int
                   ) -> bytes:
    """``word`` under ``depth - 1`` other items (and ``fill`` more below), then DUP<depth>;
    PUSH1 k; SHR; PUSH2 mask; AND (with ``table``: PUSH2 table; ADD), the result returned;
    ``cut`` bytes cut off the end of the sequence (its end then the code's)."""
    head = asm(*[push(0, 1)] * fill, push(word, 32), *[push(7, 1)] * (depth - 1))
    fused = asm(f"DUP{depth}", push(k, 1), "SHR", push(mask, 2), "AND")
    if table is not None:
        fused += asm(push(table, 2), "ADD")
    if cut:
        return head + fused[:len(fused) - cut]
    return head + fused + asm(push(0, 1), "MSTORE", push(32, 1), push(0, 1), "RETURN")


SHIFTS = [0, 1, 5, 48, 49, 50, 60, 63, 64, 65, 113, 120, 127, 128, 191, 200, 240, 241, 248,
          255]
WORDS = [0, 2**256 - 1, 0x0123456789ABCDEF_FEDCBA9876543210_0F1E2D3C4B5A6978_8796A5B4C3D2E1F0]


@pytest.mark.parametrize("table", [None, 0, 0x1234, 0xFFFF])
@pytest.mark.parametrize("mask", [0, 1, 0x1F, 0x3E0, 0xFFFF])
def test_digit_address_values(mask, table):
    for word in WORDS:
        for k in SHIFTS:
            result = _same(_digit_program(word, 2, k, mask, table, 0, 0), 100_000, "evmmax")
            assert int.from_bytes(result.output, "big") == ((word >> k) & mask) + (table or 0)


@pytest.mark.parametrize("opcodes", ["evm", "evmmax", "evm384"])
@pytest.mark.parametrize("table", [None, 0x40])
def test_digit_address_gas_at_each_instruction(table, opcodes):
    code = _digit_program(WORDS[2], 16, 113, 0x3E0, table, 0, 0)
    full = _same(code, 100_000, opcodes)
    for short in range(0, 70):
        _same(code, full.gas_used - short, opcodes)


@pytest.mark.parametrize("fill", [STACK_LIMIT - 4, STACK_LIMIT - 3, STACK_LIMIT - 2])
@pytest.mark.parametrize("table", [None, 0x40])
def test_digit_address_near_a_full_stack(fill, table):
    _same(_digit_program(WORDS[2], 1, 60, 0xFFFF, table, fill, 0), 1_000_000, "evmmax")


@pytest.mark.parametrize("cut", range(1, 11))
def test_digit_address_cut_off_by_the_end_of_the_code(cut):
    for table in (None, 0x40):
        if table is None and cut > 6:
            continue
        _same(_digit_program(WORDS[2], 3, 49, 0xFFFF, table, 0, cut), 100_000, "evmmax")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**256 - 1), st.integers(1, 16), st.integers(0, 255),
       st.integers(0, 0xFFFF), st.none() | st.integers(0, 0xFFFF), st.integers(0, 2_000))
def test_digit_address_any(word, depth, k, mask, table, gas):
    _same(_digit_program(word, depth, k, mask, table, 0, 0), gas, "evmmax")
