"""Semantics and gas of every opcode: Python-int oracles and gas added up by hand
from the yellow paper, each program also checked against py-evm and run in every
backend/dispatch mode (see evm_helpers.run_everywhere)."""
import pytest
from eth_hash.auto import keccak
from hypothesis import given, settings, strategies as st

from evm384_native.evm.keccak import keccak256
from evm384_native.evm.opcodes import OPCODES

from evm_helpers import RETURN_TOP, RETURN_TOP_GAS, asm, assert_matches_pyevm, memory_gas, push

U = 2**256
INTERESTING = [0, 1, 2, 3, 7, 8, 31, 32, 33, 255, 256, 2**64, 2**128 - 1, 2**255 - 1, 2**255,
               2**255 + 1, U - 2, U - 1, 0x8000, 0x7F, 0x80, 0xFF00]
words = st.one_of(st.sampled_from(INTERESTING), st.integers(0, U - 1), st.integers(0, 300))


def signed(x):
    return x - U if x >= 2**255 else x


def _trunc_div(a, b):
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _signextend(index, value):
    if index >= 31:
        return value
    bits = 8 * (index + 1)
    low = value % 2**bits
    return (low - 2**bits if low >= 2**(bits - 1) else low) % U


def _sar(shift, value):
    return (signed(value) // 2**min(shift, 256)) % U


BINARY = {  # name: (oracle(a, b) with a on top of the stack, static gas)
    "ADD": (lambda a, b: (a + b) % U, 3),
    "MUL": (lambda a, b: (a * b) % U, 5),
    "SUB": (lambda a, b: (a - b) % U, 3),
    "DIV": (lambda a, b: a // b if b else 0, 5),
    "SDIV": (lambda a, b: _trunc_div(signed(a), signed(b)) % U if b else 0, 5),
    "MOD": (lambda a, b: a % b if b else 0, 5),
    "SMOD": (lambda a, b: (abs(signed(a)) % abs(signed(b)) * (-1 if signed(a) < 0 else 1)) % U
             if b else 0, 5),
    "SIGNEXTEND": (_signextend, 5),
    "LT": (lambda a, b: int(a < b), 3),
    "GT": (lambda a, b: int(a > b), 3),
    "SLT": (lambda a, b: int(signed(a) < signed(b)), 3),
    "SGT": (lambda a, b: int(signed(a) > signed(b)), 3),
    "EQ": (lambda a, b: int(a == b), 3),
    "AND": (lambda a, b: a & b, 3),
    "OR": (lambda a, b: a | b, 3),
    "XOR": (lambda a, b: a ^ b, 3),
    "BYTE": (lambda a, b: b.to_bytes(32, "big")[a] if a < 32 else 0, 3),
    "SHL": (lambda a, b: (b * 2**a) % U if a < 256 else 0, 3),
    "SHR": (lambda a, b: b // 2**a if a < 256 else 0, 3),
    "SAR": (_sar, 3),
}


@settings(max_examples=25)
@pytest.mark.parametrize("name", sorted(BINARY))
@given(a=words, b=words)
def test_binary_ops(name, a, b):
    oracle, static_gas = BINARY[name]
    result = assert_matches_pyevm(asm(push(b), push(a), name, RETURN_TOP))
    assert int.from_bytes(result.output, "big") == oracle(a, b)
    assert result.gas_used == 3 + 3 + static_gas + RETURN_TOP_GAS


@settings(max_examples=25)
@given(base=words, exponent=st.one_of(words, st.integers(0, 70)))
def test_exp_value_and_per_byte_gas(base, exponent):
    result = assert_matches_pyevm(asm(push(exponent), push(base), "EXP", RETURN_TOP))
    assert int.from_bytes(result.output, "big") == pow(base, exponent, U)
    exponent_bytes = len(exponent.to_bytes(32, "big").lstrip(b"\0"))
    assert result.gas_used == 3 + 3 + 10 + 50 * exponent_bytes + RETURN_TOP_GAS


@settings(max_examples=25)
@pytest.mark.parametrize("name", ["ADDMOD", "MULMOD"])
@given(a=words, b=words, n=words)
def test_modular_ops_use_full_precision(name, a, b, n):
    result = assert_matches_pyevm(asm(push(n), push(b), push(a), name, RETURN_TOP))
    exact = a + b if name == "ADDMOD" else a * b
    assert int.from_bytes(result.output, "big") == (exact % n if n else 0)
    assert result.gas_used == 3 * 3 + 8 + RETURN_TOP_GAS


@pytest.mark.parametrize("name, value, expected", [
    ("ISZERO", 0, 1), ("ISZERO", 5, 0), ("NOT", 0, U - 1), ("NOT", 0xF0, U - 1 - 0xF0)])
def test_unary_ops(name, value, expected):
    result = assert_matches_pyevm(asm(push(value), name, RETURN_TOP))
    assert (int.from_bytes(result.output, "big"), result.gas_used) == (expected,
                                                                       3 + 3 + RETURN_TOP_GAS)


def test_keccak256_of_memory_and_its_word_gas():
    data = bytes(range(1, 41))  # 40 bytes: two words to hash
    code = asm(push(int.from_bytes(data[:32], "big")), push(0, 1), "MSTORE",
               push(int.from_bytes(data[32:].ljust(32, b"\0"), "big")), push(32, 1), "MSTORE",
               push(40, 1), push(0, 1), "KECCAK256", RETURN_TOP)
    result = assert_matches_pyevm(code)
    assert result.output == keccak(data)
    # 2 MSTOREs (memory grows to 2 words = 6), KECCAK 30 + 6 * 2 words; the final
    # MSTORE at 0 finds its memory already there.
    assert result.gas_used == (3 + 3 + 3) * 2 + memory_gas(64) + 3 + 3 + 30 + 12 + \
        RETURN_TOP_GAS - memory_gas(32)


@settings(max_examples=50)
@given(data=st.binary(max_size=700))
def test_keccak256_function_matches_eth_hash(data):
    assert keccak256(data) == keccak(data)


def test_keccak256_of_nothing_touches_no_memory():
    result = assert_matches_pyevm(asm(push(0, 1), push(U - 1), "KECCAK256", "MSIZE", RETURN_TOP))
    assert result.gas_used == 3 + 3 + 30 + 2 + RETURN_TOP_GAS


def test_calldata_instructions():
    calldata = bytes(range(1, 41))
    load = assert_matches_pyevm(asm(push(30, 1), "CALLDATALOAD", RETURN_TOP), calldata)
    assert load.output == calldata[30:] + bytes(22)  # zero-filled past the end
    far = assert_matches_pyevm(asm(push(U - 1), "CALLDATALOAD", RETURN_TOP), calldata)
    assert far.output == bytes(32)
    size = assert_matches_pyevm(asm("CALLDATASIZE", RETURN_TOP), calldata)
    assert int.from_bytes(size.output, "big") == 40 and size.gas_used == 2 + RETURN_TOP_GAS
    # copy 40 bytes from offset 8 to memory 4: 32 real bytes, 8 zeros; return 48 bytes
    copy = assert_matches_pyevm(asm(push(40, 1), push(8, 1), push(4, 1), "CALLDATACOPY",
                                    push(48, 1), push(0, 1), "RETURN"), calldata)
    assert copy.output == bytes(4) + calldata[8:] + bytes(12)
    assert copy.gas_used == 3 * 3 + 3 + 3 * 2 + memory_gas(44) + 3 + 3 + memory_gas(48) - \
        memory_gas(44)


def test_code_instructions():
    code = asm("CODESIZE", push(5, 1), push(0, 1), "CODECOPY", push(40, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)  # copies CODESIZE (11) bytes from offset 5 to 0
    assert result.output == code[5:] + bytes(40 - len(code) + 5)
    assert result.gas_used == 2 + 3 + 3 + 3 + 3 * 1 + memory_gas(len(code)) + 3 + 3 + \
        memory_gas(40) - memory_gas(len(code))


def test_returndata_is_always_empty():
    ok = assert_matches_pyevm(asm("RETURNDATASIZE", push(0, 1), push(0, 1), push(0, 1),
                                  "RETURNDATACOPY", RETURN_TOP))
    assert ok.output == bytes(32) and ok.gas_used == 2 + 3 * 3 + 3 + RETURN_TOP_GAS
    beyond = assert_matches_pyevm(asm(push(0, 1), push(1, 1), push(0, 1), "RETURNDATACOPY"),
                                  gas=5000)
    assert (beyond.success, beyond.error, beyond.gas_used) == (False, "return data out of bounds",
                                                               5000)


def test_memory_instructions_and_msize():
    code = asm(push(0xAABB), push(33, 1), "MSTORE", push(0x1234, 2), push(100, 1), "MSTORE8",
               push(33, 1), "MLOAD", push(0, 1), "MSTORE", "MSIZE", push(32, 1), "MSTORE",
               push(64, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)
    assert result.output == (0xAABB).to_bytes(32, "big") + (128).to_bytes(32, "big")
    # memory grows to 65 -> 96 bytes (3 words), then 101 -> 128 (4 words)
    assert result.gas_used == (3 + 3 + 3) + (3 + 3 + 3) + (3 + 3) + (3 + 3) + 2 + \
        (3 + 3) + 3 + 3 + memory_gas(128)


def test_mcopy_overlapping_and_its_copy_gas():
    code = asm(push(int.from_bytes(bytes(range(32)), "big")), push(0, 1), "MSTORE",
               push(32, 1), push(0, 1), push(8, 1), "MCOPY",  # dest 8, source 0, 32 bytes
               push(40, 1), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code)
    assert result.output == bytes(range(8)) + bytes(range(32))
    assert result.gas_used == 3 + 3 + 3 + (3 * 3 + 3 + 3) + 3 + 3 + memory_gas(40)


@pytest.mark.parametrize("size", [4095, 4096, 4097, 6000])  # the python engine's two paths
@pytest.mark.parametrize("dest, source", [(0, 37), (37, 0)])
def test_mcopy_overlapping_both_ways_small_and_big(size, dest, source):
    data = bytes((7 * i + 3) % 251 for i in range(size + 37))
    code = asm(push(len(data), 2), push(0, 1), push(0, 1), "CALLDATACOPY",
               push(size, 2), push(source, 1), push(dest, 1), "MCOPY",
               push(len(data), 2), push(0, 1), "RETURN")
    result = assert_matches_pyevm(code, calldata=data)
    moved = bytearray(data)
    moved[dest:dest + size] = data[source:source + size]
    assert result.output == bytes(moved)


def test_mcopy_of_nothing_expands_nothing():
    result = assert_matches_pyevm(asm(push(0, 1), push(U - 1), push(U - 1), "MCOPY", "MSIZE",
                                      RETURN_TOP))
    assert int.from_bytes(result.output, "big") == 0 and result.gas_used == 9 + 3 + 2 + 15


def test_jumps_pc_and_gas():
    # 0: PUSH1 6, JUMP, INVALID x3, 6: JUMPDEST, PC, PUSH1 1, PUSH1 14, JUMPI, INVALID,
    # 14: JUMPDEST, GAS; store GAS at 0 and the PC value at 32
    code = asm(push(6, 1), "JUMP", "INVALID", "INVALID", "INVALID", "JUMPDEST", "PC",
               push(1, 1), push(14, 1), "JUMPI", "INVALID", "JUMPDEST", "GAS", push(0, 1),
               "MSTORE", push(32, 1), "MSTORE", push(64, 1), push(0, 1), "RETURN")
    assert code[6] == 0x5B and code[14] == 0x5B
    result = assert_matches_pyevm(code, gas=10_000)
    used_before_gas = 3 + 8 + 1 + 2 + 3 + 3 + 10 + 1 + 2
    assert int.from_bytes(result.output[:32], "big") == 10_000 - used_before_gas
    assert int.from_bytes(result.output[32:], "big") == 7  # the PC value
    assert result.gas_used == used_before_gas + (3 + 3) * 2 + memory_gas(64) + 3 + 3


def test_jumpi_not_taken_ignores_destination():
    result = assert_matches_pyevm(asm(push(0, 1), push(U - 1), "JUMPI", "STOP"))
    assert result.success and result.gas_used == 3 + 3 + 10


@pytest.mark.parametrize("width", range(33))
def test_push_widths(width):
    value = int.from_bytes(bytes(range(0x41, 0x41 + width)), "big")
    result = assert_matches_pyevm(asm(push(value, width), RETURN_TOP))
    assert int.from_bytes(result.output, "big") == value
    assert result.gas_used == (2 if width == 0 else 3) + RETURN_TOP_GAS


def test_push_cut_off_by_the_end_of_code_then_stops():
    result = assert_matches_pyevm(bytes([0x7F, 0xAB, 0x5F]))  # PUSH32 with 2 data bytes
    # steps count the implicit STOP at the end, as py-evm, geth and evmone run one
    assert result.success and result.gas_used == 3 and result.steps == 2


@pytest.mark.parametrize("depth", range(1, 17))
def test_dup_and_swap(depth):
    values = list(range(100, 100 + depth + 1))  # pushed in order; the last is on top
    pushes = [push(v, 1) for v in values]
    dup = assert_matches_pyevm(asm(*pushes, f"DUP{depth}", RETURN_TOP))
    assert int.from_bytes(dup.output, "big") == values[-depth]
    swap = assert_matches_pyevm(asm(*pushes, f"SWAP{depth}", RETURN_TOP))
    assert int.from_bytes(swap.output, "big") == values[-depth - 1]
    assert dup.gas_used == swap.gas_used == 3 * len(values) + 3 + RETURN_TOP_GAS
    # after SWAPn the old top is n deep: take it back with DUP(n+1) if it fits
    if depth < 16:
        back = assert_matches_pyevm(asm(*pushes, f"SWAP{depth}", f"DUP{depth + 1}", RETURN_TOP))
        assert int.from_bytes(back.output, "big") == values[-1]


def test_pop_stop_and_running_off_the_end():
    assert assert_matches_pyevm(asm(push(1, 1), "POP")).gas_used == 5
    stop = assert_matches_pyevm(asm("STOP", "INVALID"))
    assert (stop.success, stop.output, stop.gas_used, stop.steps) == (True, b"", 0, 1)
    empty = assert_matches_pyevm(b"")
    assert (empty.success, empty.gas_used, empty.steps) == (True, 0, 1)


def test_return_and_revert_keep_remaining_gas():
    ret = assert_matches_pyevm(asm(push(2, 1), push(30, 1), "RETURN"), gas=100)
    assert (ret.success, ret.output, ret.gas_used, ret.gas_left) == (True, bytes(2), 9, 91)
    rev = assert_matches_pyevm(asm(push(0xBEEF), push(0, 1), "MSTORE", push(2, 1), push(30, 1),
                                   "REVERT"), gas=100)
    assert (rev.success, rev.output, rev.error) == (False, b"\xbe\xef", "revert")
    assert rev.gas_used == 3 + 3 + 3 + 3 + 3 + 3 and rev.gas_left == 100 - 18


def test_every_stateless_opcode_against_pyevm_with_small_operands():
    """Each opcode with operands 1, 2, 3...: semantics and gas agree with py-evm."""
    for code, info in OPCODES.items():
        if info.needs_state or code in (0xC0, 0xC1, 0xC2):
            continue
        pushes = [push(v, 1) for v in range(info.inputs, 0, -1)]
        program = asm(*pushes, bytes([code]) + bytes(info.immediate),
                      *([RETURN_TOP] if info.outputs else []))
        assert_matches_pyevm(program, gas=100_000)
