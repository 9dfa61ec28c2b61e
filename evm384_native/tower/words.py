"""EVM word helpers the field code shares: a 256-bit byte swap, a 384-bit value given
as two stack words stored little-endian (EVM384 memory's form), and the range tests of
calldata words that signature precompiles make."""
from __future__ import annotations

from ..asm import Assembler


def bswap256(asm: Assembler) -> None:
    """Reverse the 32 bytes of the word under the return address: swap bytes, then pairs,
    ..., then 128-bit halves (masks and shifts, ~165 gas)."""
    asm.op("SWAP1")
    for shift in (8, 16, 32, 64):
        unit = (1 << shift) - 1
        mask = sum(unit << (2 * shift * i) for i in range(128 // shift))   # low halves
        asm.push(mask)
        asm.ops("DUP2", "DUP2", "AND")           # v m (v & m)
        asm.push(shift)
        asm.op("SHL")                            # v m (v & m) << s
        asm.op("SWAP2")                          # . m v
        asm.push(shift)
        asm.op("SHR")
        asm.ops("AND", "OR")                     # ((v >> s) & m) | ((v & m) << s)
    asm.op("DUP1")
    asm.push(128)
    asm.op("SHL")
    asm.op("SWAP1")
    asm.push(128)
    asm.ops("SHR", "OR")
    asm.op("SWAP1")


def store_field_le(asm: Assembler) -> None:
    """Stack: dest lo hi -> (consumed): the value as 48 bytes little-endian at dest, then
    16 zero bytes that spill past it (decode values in increasing address order)."""
    bswap = asm.subroutine("bswap256", bswap256)
    asm.call(bswap)
    asm.op("DUP3")
    asm.push(32)
    asm.ops("ADD", "MSTORE")                                 # dest lo
    asm.call(bswap)
    asm.ops("SWAP1", "MSTORE")


def push_calldata_word(asm: Assembler, offset: int) -> None:
    """Push the 32-byte calldata word at ``offset`` (zeros past the end of the input)."""
    asm.push(offset)
    asm.op("CALLDATALOAD")


def push_in_open_range(asm: Assembler, offset: int, bound: int) -> None:
    """Push 0 < word < bound for the calldata word at ``offset``: word - 1 < bound - 1
    (0 - 1 wraps above)."""
    asm.push(bound - 1)
    asm.push(1)
    push_calldata_word(asm, offset)
    asm.op("SUB")
    asm.op("LT")
