"""EVM word helpers the field code shares: a 256-bit byte swap, and a 384-bit value given
as two stack words stored little-endian (EVM384 memory's form)."""
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
