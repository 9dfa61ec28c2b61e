"""Every opcode the fast engine implements, on edge operands, against every mode of
the python engine (run_everywhere) and py-evm (Prague with our EVM384 integration):
success, output and gas must agree. Random programs rarely hit these edges: a
SIGNEXTEND broken at byte index 30 survived them (issue 15)."""
from __future__ import annotations

from itertools import product
from typing import Dict, List, Sequence, Tuple

import pytest

from evm384_native._native import lib
from evm384_native.evm.opcodes import BY_NAME, OPCODES

from evm_helpers import RETURN_TOP, asm, assert_matches_pyevm, evm384_word, push

U = 2**256
# 0, 1, small counts, byte and sign-extension indexes 0/30/31/32, shifts 255/256,
# offsets at 2^32 and 2^64, the sign bit, and words whose every byte has its top bit
# set (or clear), so sign extension at any byte index changes them.
WORDS = [0, 1, 2, 30, 31, 32, 255, 256, 2**32, 2**64 - 1, 2**64, 2**255 - 1, 2**255, U - 2, U - 1,
         int.from_bytes(b"\x80" * 32, "big"), int.from_bytes(b"\x7f" * 32, "big"), 2**247]
MODULI = [0, 1, 2, 7, 2**64, 2**128 + 1, 2**255, U - 1]
# memory holds 96 bytes when the memory cases start (see their prefix): 95 and 96 are its
# last byte and the first byte past it
OFFSETS = [0, 1, 31, 32, 95, 96, 2**32 - 32, 2**32 - 1, 2**32, 2**64 - 1, 2**64, U - 1]
SIZES = [0, 1, 32, 33, 2**32, 2**64, U - 1]
CALLDATA = bytes(range(1, 71))
GAS = 10_000_000


def operands_then(operands: Sequence[int], *ops) -> bytes:
    """Push ``operands`` so that the first is on top, then ``ops``."""
    return asm(*[push(value) for value in reversed(operands)], *ops)


# --- pure stack operations: every combination in one program per opcode ------------------

BINARY = ["ADD", "MUL", "SUB", "DIV", "SDIV", "MOD", "SMOD", "EXP", "SIGNEXTEND", "LT", "GT",
          "SLT", "SGT", "EQ", "AND", "OR", "XOR", "BYTE", "SHL", "SHR", "SAR"]
STACK_CASES: Dict[str, List[Tuple[int, ...]]] = {name: list(product(WORDS, WORDS)) for name in BINARY}
STACK_CASES.update(ISZERO=[(w,) for w in WORDS], NOT=[(w,) for w in WORDS],
                   ADDMOD=list(product(WORDS, WORDS, MODULI)),
                   MULMOD=list(product(WORDS, WORDS, MODULI)))


def stack_program(name: str, cases: List[Tuple[int, ...]]) -> bytes:
    """Each case's result stored in its own memory word; then all of memory returned."""
    parts = [operands_then(case, name, push(32 * i, 4), "MSTORE") for i, case in enumerate(cases)]
    return b"".join(parts) + asm(push(32 * len(cases), 4), push(0, 0), "RETURN")


@pytest.mark.parametrize("name", sorted(STACK_CASES))
def test_stack_operations_on_edge_operands(name):
    cases = STACK_CASES[name]
    result = assert_matches_pyevm(stack_program(name, cases), gas=GAS * 10)
    assert result.success and len(result.output) == 32 * len(cases)


@pytest.mark.parametrize("name", sorted(STACK_CASES))
def test_static_and_exp_gas_to_the_unit(name):
    case = STACK_CASES[name][-1]
    code = operands_then(case, name)
    needed = assert_matches_pyevm(code, gas=GAS).gas_used
    assert not assert_matches_pyevm(code, gas=needed - 1).success


# --- memory, calldata, code and return data: one program per case -------------------------

RESULT_THEN_MEMORY = asm(push(0, 0), "MSTORE", "MSIZE", push(0, 0), "RETURN")
MEMORY_THEN_NOTHING = asm("MSIZE", push(0, 0), "RETURN")
COPY_DESTS, COPY_SOURCES, COPY_SIZES = [0, 33, 2**32 - 32, 2**64], [0, 69, 70, 2**32, U - 1], \
    [0, 1, 33, 2**32, U - 1]
COPIES = list(product(COPY_DESTS, COPY_SOURCES, COPY_SIZES))
MEMORY_CASES: List[Tuple[str, Tuple[int, ...], bytes]] = (
    [("MLOAD", (o,), RESULT_THEN_MEMORY) for o in OFFSETS]
    + [("MSTORE", (o, v), MEMORY_THEN_NOTHING) for o in OFFSETS for v in (1, U - 1)]
    + [("MSTORE8", (o, v), MEMORY_THEN_NOTHING) for o in OFFSETS for v in (0x1FF, U - 1)]
    + [("KECCAK256", (o, s), RESULT_THEN_MEMORY) for o in OFFSETS for s in SIZES]
    + [("CALLDATALOAD", (o,), RESULT_THEN_MEMORY) for o in OFFSETS + [60, 69, 70]]
    + [(name, c, MEMORY_THEN_NOTHING) for name in ("CALLDATACOPY", "CODECOPY", "RETURNDATACOPY",
                                                   "MCOPY") for c in COPIES]
    + [(name, (o, s), b"") for name in ("RETURN", "REVERT") for o in OFFSETS for s in SIZES]
)


@pytest.mark.parametrize("name, operands, suffix", MEMORY_CASES,
                         ids=[f"{name}-{i}" for i, (name, _, _) in enumerate(MEMORY_CASES)])
def test_memory_operations_on_edge_offsets_and_sizes(name, operands, suffix):
    # a non-zero memory word first, so copies and loads see data, not only zeros
    prefix = operands_then((40, 2**256 - 12345), "MSTORE")
    assert_matches_pyevm(prefix + operands_then(operands, name) + suffix, CALLDATA, gas=GAS)


EVM384_FIELDS = [(0, 48, 96, 144), (0, 0, 0, 0), (1, 31, 33, 95), (2**32 - 1, 0, 0, 0),
                 (0, 0, 0, 2**32 - 49), (0, 0, 0, 2**32 - 56), (2**20, 2**20, 2**20, 2**20)]


@pytest.mark.parametrize("name", ["ADDMOD384", "SUBMOD384", "MULMODMONT384"])
@pytest.mark.parametrize("fields", EVM384_FIELDS)
@pytest.mark.parametrize("high_bits", [0, (U - 1) ^ (2**128 - 1)])  # bits past 128 are ignored
def test_evm384_operations_on_edge_offsets(name, fields, high_bits):
    setup = asm(push(0, 0), push(0, 0), push(70, 1), "CALLDATACOPY")
    code = setup + asm(push(evm384_word(*fields) | high_bits), name) + MEMORY_THEN_NOTHING
    assert_matches_pyevm(code, CALLDATA, gas=GAS)


# --- control flow ----------------------------------------------------------------------------

def jump_program(name: str, dest: str, condition: int) -> bytes:
    """PUSH1 0x5b (a JUMPDEST byte inside PUSH data, pc 1); the jump; a fall-through
    that returns 1; a JUMPDEST that returns 2. ``dest`` names where to jump."""
    def build(target: int) -> bytes:
        operands = (target,) if name == "JUMP" else (target, condition)
        return asm(push(0x5B, 1), "POP", operands_then(operands, name), push(1, 1), RETURN_TOP,
                   "JUMPDEST", push(2, 1), RETURN_TOP)
    size = len(build(0))
    return build({"jumpdest": size - len(RETURN_TOP) - 3, "push data": 1, "pc 0": 0,
                  "end": size, "2**32": 2**32, "2**64": 2**64, "2**256-1": U - 1}[dest])


@pytest.mark.parametrize("dest", ["jumpdest", "push data", "pc 0", "end", "2**32", "2**64",
                                  "2**256-1"])
@pytest.mark.parametrize("name, condition", [("JUMP", 0), ("JUMPI", 0), ("JUMPI", 1),
                                             ("JUMPI", 2**255)])
def test_jumps(name, dest, condition):
    result = assert_matches_pyevm(jump_program(name, dest, condition), gas=GAS)
    jumped = name == "JUMP" or condition != 0
    assert result.success == (dest == "jumpdest" or not jumped)
    if result.success:
        assert int.from_bytes(result.output, "big") == (2 if jumped else 1)


# --- stack shape ------------------------------------------------------------------------------

SEVENTEEN = [0x1111 * (i + 1) for i in range(17)]


def return_stack(items: int) -> bytes:
    """Store the top ``items`` stack words in memory and return them."""
    return b"".join(asm(push(32 * i, 2), "MSTORE") for i in range(items)) + \
        asm(push(32 * items, 2), push(0, 0), "RETURN")


@pytest.mark.parametrize("name", [f"DUP{n}" for n in range(1, 17)] + [f"SWAP{n}" for n in range(1, 17)]
                         + ["POP", "JUMPDEST", "PC", "MSIZE", "GAS", "CALLDATASIZE", "CODESIZE",
                            "RETURNDATASIZE"])
def test_stack_shuffles_and_environment_words(name):
    code = asm(push(1, 1), push(100, 1), "MSTORE8") + operands_then(SEVENTEEN, name)
    height = 17 - OPCODES[BY_NAME[name].code].inputs + OPCODES[BY_NAME[name].code].outputs
    result = assert_matches_pyevm(code + return_stack(height), CALLDATA, gas=GAS)
    assert result.success


@pytest.mark.parametrize("width", range(33))
@pytest.mark.parametrize("cut", [0, 1, 31])
def test_pushes_whole_and_cut_off_by_the_end_of_the_code(width, cut):
    data = bytes(range(0xA1, 0xA1 + width))
    whole = asm(bytes([BY_NAME["PUSH0"].code + width]), data) + RETURN_TOP
    assert_matches_pyevm(whole, gas=GAS)
    cut_off = asm(bytes([BY_NAME["PUSH0"].code + width]), data[:max(0, width - cut)])
    assert_matches_pyevm(cut_off, gas=GAS)


def test_stop():
    assert assert_matches_pyevm(asm(push(1, 1), "STOP", "INVALID")).success


# --- stack bounds and coverage -------------------------------------------------------------------

FAST_OPCODES = sorted(code for code in OPCODES if lib.evm_fast_implements(code))


@pytest.mark.parametrize("opcode", FAST_OPCODES, ids=[OPCODES[c].name for c in FAST_OPCODES])
def test_stack_underflow_and_overflow_for_every_opcode(opcode):
    info = OPCODES[opcode]
    if info.inputs:
        assert not assert_matches_pyevm(asm(push(0, 0) * (info.inputs - 1), bytes([opcode]))).success
    if info.outputs > info.inputs:
        full = asm(push(0, 0) * 1024, bytes([opcode]), bytes(info.immediate))
        assert assert_matches_pyevm(full).error == "stack overflow"


def test_the_tables_cover_every_opcode_the_fast_engine_implements():
    covered = set(STACK_CASES) | {name for name, _, _ in MEMORY_CASES} | {
        "ADDMOD384", "SUBMOD384", "MULMODMONT384", "JUMP", "JUMPI", "STOP", "POP", "JUMPDEST",
        "PC", "MSIZE", "GAS", "CALLDATASIZE", "CODESIZE", "RETURNDATASIZE"}
    covered |= {f"DUP{n}" for n in range(1, 17)} | {f"SWAP{n}" for n in range(1, 17)}
    covered |= {f"PUSH{n}" for n in range(33)}
    assert covered == {OPCODES[code].name for code in FAST_OPCODES}
