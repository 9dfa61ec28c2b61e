"""Instruction semantics: one function per opcode, ``handler(frame, arg)``.

A handler runs after the dispatch loop has checked the stack and charged the
opcode's static gas; it charges only its dynamic gas (memory expansion, copies,
EXP bytes, KECCAK256 words). ``arg`` is what decoding fixed for this instruction:
the PUSH value, the DUP/SWAP depth, the PC value, the opcode byte; else None.
Words are Python ints in [0, 2**256).
"""
from __future__ import annotations

from typing import Callable, Dict

from .frame import Frame
from .gas import copy_cost, exp_cost, keccak256_cost
from .halts import InvalidJump, InvalidOpcode, ReturnDataOutOfBounds, Stopped, UnsupportedOpcode
from .keccak import keccak256
from .opcodes import BY_NAME, MAINNET_OPCODES, OpcodeInfo

Handler = Callable[[Frame, object], None]

UINT256_MASK = (1 << 256) - 1
SIGN_BIT = 1 << 255


def _signed(word: int) -> int:
    return word - (1 << 256) if word & SIGN_BIT else word


def _padded(data: bytes, offset: int, size: int) -> bytes:
    """data[offset:offset + size], zero-filled past the end (offset may be huge)."""
    chunk = data[offset:offset + size] if offset < len(data) else b""
    return chunk + bytes(size - len(chunk))


# Memory is written and read through memoryviews: these copy once, where slicing a
# bytearray copies the slice, and assigning bytes to a bytearray slice copies the
# bytes into a temporary bytearray first; sizes can reach 4 GiB.

def _write_padded(memory: bytearray, dest: int, data: bytes, offset: int, size: int) -> None:
    """memory[dest:dest + size] = _padded(data, offset, size), without the temporary."""
    available = max(0, min(size, len(data) - offset))
    with memoryview(memory) as view, memoryview(data) as source:
        view[dest:dest + available] = source[offset:offset + available]
        # bytes(n) is calloc'd: its untouched pages cost no resident memory
        view[dest + available:dest + size] = bytes(size - available)


def _read(memory: bytearray, offset: int, size: int) -> bytes:
    """bytes(memory[offset:offset + size]), copied once."""
    with memoryview(memory) as view:
        return bytes(view[offset:offset + size])


# --- stop and arithmetic ---------------------------------------------------------------

def op_stop(f: Frame, _: object) -> None:
    raise Stopped()


def op_add(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] = (a + s[-1]) & UINT256_MASK


def op_mul(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] = (a * s[-1]) & UINT256_MASK


def op_sub(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] = (a - s[-1]) & UINT256_MASK


def op_div(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    b = s[-1]
    s[-1] = a // b if b else 0


def op_sdiv(f: Frame, _: object) -> None:
    s = f.stack
    a, b = _signed(s.pop()), _signed(s[-1])
    if b == 0:
        s[-1] = 0
    else:
        quotient = abs(a) // abs(b)  # truncates toward zero; -2**255 / -1 wraps below
        s[-1] = (-quotient if (a < 0) != (b < 0) else quotient) & UINT256_MASK


def op_mod(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    b = s[-1]
    s[-1] = a % b if b else 0


def op_smod(f: Frame, _: object) -> None:
    s = f.stack
    a, b = _signed(s.pop()), _signed(s[-1])
    if b == 0:
        s[-1] = 0
    else:
        remainder = abs(a) % abs(b)  # takes the sign of the dividend
        s[-1] = (-remainder if a < 0 else remainder) & UINT256_MASK


def op_addmod(f: Frame, _: object) -> None:
    s = f.stack
    a, b = s.pop(), s.pop()
    n = s[-1]
    s[-1] = (a + b) % n if n else 0


def op_mulmod(f: Frame, _: object) -> None:
    s = f.stack
    a, b = s.pop(), s.pop()
    n = s[-1]
    s[-1] = (a * b) % n if n else 0


def op_exp(f: Frame, _: object) -> None:
    s = f.stack
    base = s.pop()
    exponent = s[-1]
    f.charge(exp_cost(exponent))
    s[-1] = pow(base, exponent, 1 << 256)


def op_signextend(f: Frame, _: object) -> None:
    s = f.stack
    byte_index = s.pop()
    if byte_index < 31:
        value = s[-1]
        sign_bit = 8 * byte_index + 7
        low_mask = (1 << (sign_bit + 1)) - 1
        s[-1] = (value | (UINT256_MASK ^ low_mask)) if value >> sign_bit & 1 else value & low_mask


# --- comparison and bitwise ------------------------------------------------------------

def op_lt(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] = 1 if a < s[-1] else 0


def op_gt(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] = 1 if a > s[-1] else 0


def op_slt(f: Frame, _: object) -> None:
    s = f.stack
    a = _signed(s.pop())
    s[-1] = 1 if a < _signed(s[-1]) else 0


def op_sgt(f: Frame, _: object) -> None:
    s = f.stack
    a = _signed(s.pop())
    s[-1] = 1 if a > _signed(s[-1]) else 0


def op_eq(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] = 1 if a == s[-1] else 0


def op_iszero(f: Frame, _: object) -> None:
    s = f.stack
    s[-1] = 0 if s[-1] else 1


def op_and(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] &= a


def op_or(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] |= a


def op_xor(f: Frame, _: object) -> None:
    s = f.stack
    a = s.pop()
    s[-1] ^= a


def op_not(f: Frame, _: object) -> None:
    s = f.stack
    s[-1] ^= UINT256_MASK


def op_byte(f: Frame, _: object) -> None:
    s = f.stack
    index = s.pop()
    s[-1] = (s[-1] >> (8 * (31 - index))) & 0xFF if index < 32 else 0


def op_shl(f: Frame, _: object) -> None:
    s = f.stack
    shift = s.pop()
    s[-1] = (s[-1] << shift) & UINT256_MASK if shift < 256 else 0


def op_shr(f: Frame, _: object) -> None:
    s = f.stack
    shift = s.pop()
    s[-1] = s[-1] >> shift if shift < 256 else 0


def op_sar(f: Frame, _: object) -> None:
    s = f.stack
    shift = s.pop()
    s[-1] = (_signed(s[-1]) >> min(shift, 256)) & UINT256_MASK


def op_clz(f: Frame, _: object) -> None:
    """EIP-7939 (Osaka): the zero bits above the highest set bit; 256 for 0."""
    s = f.stack
    s[-1] = 256 - s[-1].bit_length()


def op_keccak256(f: Frame, _: object) -> None:
    s = f.stack
    offset = s.pop()
    size = s[-1]
    f.charge(keccak256_cost(size))
    f.expand_range(offset, size)
    with memoryview(f.memory) as view:
        s[-1] = int.from_bytes(keccak256(view[offset:offset + size]), "big")


# --- environment -----------------------------------------------------------------------

def op_calldataload(f: Frame, _: object) -> None:
    s = f.stack
    s[-1] = int.from_bytes(_padded(f.calldata, s[-1], 32), "big")


def op_calldatasize(f: Frame, _: object) -> None:
    f.stack.append(len(f.calldata))


def _copy_to_memory(f: Frame, source: bytes) -> None:
    s = f.stack
    dest, offset, size = s.pop(), s.pop(), s.pop()
    f.charge(copy_cost(size))
    f.expand_range(dest, size)
    if size:
        _write_padded(f.memory, dest, source, offset, size)


def op_calldatacopy(f: Frame, _: object) -> None:
    _copy_to_memory(f, f.calldata)


def op_codesize(f: Frame, _: object) -> None:
    f.stack.append(len(f.code.bytecode))


def op_codecopy(f: Frame, _: object) -> None:
    _copy_to_memory(f, f.code.bytecode)


def op_returndatasize(f: Frame, _: object) -> None:
    f.stack.append(0)  # no calls, so the return data buffer is always empty


def op_returndatacopy(f: Frame, _: object) -> None:
    s = f.stack
    dest, offset, size = s.pop(), s.pop(), s.pop()
    f.charge(copy_cost(size))
    f.expand_range(dest, size)
    if offset + size > 0:  # EIP-211: reading past the (empty) buffer is exceptional
        raise ReturnDataOutOfBounds()


# --- stack, memory and flow ------------------------------------------------------------

def op_pop(f: Frame, _: object) -> None:
    f.stack.pop()


def op_mload(f: Frame, _: object) -> None:
    s = f.stack
    offset = s[-1]
    f.expand(offset + 32)
    s[-1] = int.from_bytes(f.memory[offset:offset + 32], "big")


def op_mstore(f: Frame, _: object) -> None:
    s = f.stack
    offset, value = s.pop(), s.pop()
    f.expand(offset + 32)
    f.memory[offset:offset + 32] = value.to_bytes(32, "big")


def op_mstore8(f: Frame, _: object) -> None:
    s = f.stack
    offset, value = s.pop(), s.pop()
    f.expand(offset + 1)
    f.memory[offset] = value & 0xFF


def op_jump(f: Frame, _: object) -> None:
    dest = f.stack.pop()
    if dest not in f.code.jumpdests:
        raise InvalidJump()
    f.pc = dest


def op_jumpi(f: Frame, _: object) -> None:
    s = f.stack
    dest, condition = s.pop(), s.pop()
    if condition:
        if dest not in f.code.jumpdests:
            raise InvalidJump()
        f.pc = dest


def op_jump_to(f: Frame, dest: object) -> None:
    """PUSH dest; JUMP, with dest checked when decoding (None: not a JUMPDEST)."""
    if dest is None:
        raise InvalidJump()
    f.pc = dest


def op_jumpi_to(f: Frame, dest: object) -> None:
    """PUSH dest; JUMPI, with dest checked when decoding (None: not a JUMPDEST)."""
    if f.stack.pop():
        if dest is None:
            raise InvalidJump()
        f.pc = dest


def op_pc(f: Frame, pc: object) -> None:
    f.stack.append(pc)


def op_msize(f: Frame, _: object) -> None:
    f.stack.append(len(f.memory))


def op_gas(f: Frame, _: object) -> None:
    f.stack.append(f.gas)


def op_jumpdest(f: Frame, _: object) -> None:
    pass


# MCOPYs up to this size copy through a temporary bytes object: a memoryview costs more
# than the copy for the small moves the pairing contracts make by the hundred.
_MCOPY_SLICE_BYTES = 4096


def op_mcopy(f: Frame, _: object) -> None:
    s = f.stack
    _mcopy(f, s.pop(), s.pop(), s.pop())


def op_mcopy_found(f: Frame, operands: object) -> None:
    """MCOPY whose operands decoding found, each as (depth, addend): the constant
    ``addend`` (depth 0), or the stack item ``depth`` deep (1: the top) plus ``addend``,
    mod 2**256 (``DUPn; PUSH addend; ADD``); their instructions have no body entries and
    left the stack as it was."""
    s = f.stack
    (dest_depth, dest), (source_depth, source), (size_depth, size) = operands
    if dest_depth:
        dest = (s[-dest_depth] + dest) & UINT256_MASK
    if source_depth:
        source = (s[-source_depth] + source) & UINT256_MASK
    if size_depth:
        size = (s[-size_depth] + size) & UINT256_MASK
    _mcopy(f, dest, source, size)


def _mcopy(f: Frame, dest: int, source: int, size: int) -> None:
    f.charge(copy_cost(size))
    if size:
        f.expand((dest if dest > source else source) + size)
        copy_within(f.memory, dest, source, size)


def op_mcopy_static(f: Frame, operands: object) -> None:
    """PUSH size; PUSH source; PUSH dest; MCOPY with the operands fixed when decoding: the
    dispatcher has charged the copy and checked that the gas covers growing memory to
    ``end`` (0 when size is 0)."""
    dest, source, size, end = operands
    if end > len(f.memory):
        f.expand(end)
    if size:
        copy_within(f.memory, dest, source, size)


def copy_within(memory: bytearray, dest: int, source: int, size: int) -> None:
    """memory[dest:dest + size] = memory[source:source + size], overlaps included."""
    if size <= _MCOPY_SLICE_BYTES:  # through a copy (so overlaps are safe), the fast way
        memory[dest:dest + size] = memory[source:source + size]
    else:  # a memmove in place: no temporary as big as the copy
        with memoryview(memory) as view:
            view[dest:dest + size] = view[source:source + size]


def op_push(f: Frame, value: object) -> None:
    f.stack.append(value)


def op_dup(f: Frame, depth: object) -> None:
    s = f.stack
    s.append(s[-depth])


def op_swap(f: Frame, depth: object) -> None:
    s = f.stack
    s[-1], s[-1 - depth] = s[-1 - depth], s[-1]


# --- system ----------------------------------------------------------------------------

def _output(f: Frame) -> bytes:
    s = f.stack
    offset, size = s.pop(), s.pop()
    f.expand_range(offset, size)
    return _read(f.memory, offset, size)


def op_return(f: Frame, _: object) -> None:
    raise Stopped(_output(f))


def op_revert(f: Frame, _: object) -> None:
    raise Stopped(_output(f), reverted=True)


def op_invalid(f: Frame, opcode: object) -> None:
    """The designated INVALID and every undefined byte. A byte undefined in the set that
    runs is not mainnet's (every set includes mainnet's table), so only INVALID is named:
    0xc0 under "evm" is undefined, not ADDMOD384."""
    info = MAINNET_OPCODES.get(opcode)
    raise InvalidOpcode(f"invalid opcode: {info.name}" if info else f"invalid opcode 0x{opcode:02x}")


def op_unsupported(f: Frame, opcode: object) -> None:
    raise UnsupportedOpcode(f"unsupported opcode: {MAINNET_OPCODES[opcode].name}")


_BY_NAME: Dict[str, Handler] = {
    "STOP": op_stop, "ADD": op_add, "MUL": op_mul, "SUB": op_sub, "DIV": op_div,
    "SDIV": op_sdiv, "MOD": op_mod, "SMOD": op_smod, "ADDMOD": op_addmod,
    "MULMOD": op_mulmod, "EXP": op_exp, "SIGNEXTEND": op_signextend,
    "LT": op_lt, "GT": op_gt, "SLT": op_slt, "SGT": op_sgt, "EQ": op_eq,
    "ISZERO": op_iszero, "AND": op_and, "OR": op_or, "XOR": op_xor, "NOT": op_not,
    "BYTE": op_byte, "SHL": op_shl, "SHR": op_shr, "SAR": op_sar,
    "CLZ": op_clz, "KECCAK256": op_keccak256,
    "CALLDATALOAD": op_calldataload, "CALLDATASIZE": op_calldatasize,
    "CALLDATACOPY": op_calldatacopy, "CODESIZE": op_codesize, "CODECOPY": op_codecopy,
    "RETURNDATASIZE": op_returndatasize, "RETURNDATACOPY": op_returndatacopy,
    "POP": op_pop, "MLOAD": op_mload, "MSTORE": op_mstore, "MSTORE8": op_mstore8,
    "JUMP": op_jump, "JUMPI": op_jumpi, "PC": op_pc, "MSIZE": op_msize, "GAS": op_gas,
    "JUMPDEST": op_jumpdest, "MCOPY": op_mcopy, "PUSH0": op_push,
    "RETURN": op_return, "REVERT": op_revert, "INVALID": op_invalid,
}


def build_handlers(table: Dict[int, OpcodeInfo], special: Dict[int, Handler]) -> Dict[int, Handler]:
    """The handler of every opcode in ``table``; ``special`` holds an opcode set's own
    instructions (EVM384's or EVMMAX's), which take precedence."""
    handlers: Dict[int, Handler] = {}
    for code, info in table.items():
        if code in special:
            handlers[code] = special[code]
        elif info.needs_state:
            handlers[code] = op_unsupported
        elif info.immediate:
            handlers[code] = op_push
        elif info.name.startswith("DUP"):
            handlers[code] = op_dup
        elif info.name.startswith("SWAP"):
            handlers[code] = op_swap
        else:
            handlers[code] = _BY_NAME[info.name]
    return handlers


# Instructions whose cost depends on operands, or that read the gas counter. The
# block dispatcher ends a block after each, so their gas is charged exactly when
# the remaining gas is exact. Each opcode set adds its own (see opcode_sets.py).
GAS_DEPENDENT_BASE = frozenset(BY_NAME[name].code for name in (
    "EXP", "KECCAK256", "CALLDATACOPY", "CODECOPY", "RETURNDATACOPY", "MLOAD", "MSTORE",
    "MSTORE8", "MCOPY", "RETURN", "REVERT", "GAS"))
