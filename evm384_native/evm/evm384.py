"""The EVM384 instructions (interface v7: shared/docs/evm384-spec.md, section 1).

Each pops one word whose low 128 bits pack four 32-bit memory offsets
(out, x, y, mod from high to low). Memory is first expanded, and charged like
MLOAD, to cover every operand: 48 bytes each, 56 at ``mod`` for MULMODMONT384
(the modulus followed by its 64-bit Montgomery constant). The arithmetic is the
frame's backend: :mod:`.kernels.kernel` or :mod:`.kernels.reference`.

A *segment* is a straight-line run of ``PUSHn word; EVM384-op`` pairs, decoded
once into records that the backend runs in a single call. The python engine joins the
segments of a block that only PUSHes and MCOPYs with fixed operands separate: such a copy
is then a record too (opcode MCOPY; out, x, y: dest, source, size).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Tuple

from .frame import Frame
from .kernels.limbs import BYTES384
from .kernels.operands import MODULUS_WITH_INV_BYTES
from .opcodes import BY_NAME

ADDMOD384 = BY_NAME["ADDMOD384"].code
SUBMOD384 = BY_NAME["SUBMOD384"].code
MULMODMONT384 = BY_NAME["MULMODMONT384"].code
MCOPY = BY_NAME["MCOPY"].code
OFFSET_BITS = 32
OFFSET_MASK = (1 << OFFSET_BITS) - 1

Operands = Tuple[int, int, int, int]


def pack_offsets(out: int, x: int, y: int, mod: int) -> int:
    """The 128-bit word an EVM384 opcode pops: out, x, y, mod as 32-bit fields."""
    word = 0
    for value in (out, x, y, mod):
        if not 0 <= value < 1 << OFFSET_BITS:
            raise ValueError(f"memory offset {value} does not fit 32 bits")
        word = (word << OFFSET_BITS) | value
    return word


def unpack_offsets(word: int) -> Operands:
    """(out, x, y, mod) from bits 96..127, 64..95, 32..63 and 0..31 of ``word``: the
    inverse of :func:`pack_offsets` (bits above 128 are ignored, as EVM384 does)."""
    return ((word >> 96) & OFFSET_MASK, (word >> 64) & OFFSET_MASK,
            (word >> 32) & OFFSET_MASK, word & OFFSET_MASK)


def operands_end(out: int, x: int, y: int, mod: int, value_bytes: int, mod_bytes: int) -> int:
    """First byte past every operand: values of ``value_bytes``, ``mod_bytes`` at mod."""
    return max(out + value_bytes, x + value_bytes, y + value_bytes, mod + mod_bytes)


def memory_end(opcode: int, out: int, x: int, y: int, mod: int) -> int:
    """First byte past every operand the instruction reads or writes."""
    mod_size = MODULUS_WITH_INV_BYTES if opcode == MULMODMONT384 else BYTES384
    return operands_end(out, x, y, mod, BYTES384, mod_size)


def op_evm384(f: Frame, opcode: Any) -> None:
    """ADDMOD384, SUBMOD384 or MULMODMONT384 (``opcode``), one backend call."""
    out, x, y, mod = unpack_offsets(f.stack.pop())
    end = memory_end(opcode, out, x, y, mod)
    if end > len(f.memory):
        f.expand(end)
    f.backend.run_one(f, opcode, out, x, y, mod)


EVM384_HANDLERS = {ADDMOD384: op_evm384, SUBMOD384: op_evm384, MULMODMONT384: op_evm384}


@dataclass(frozen=True)
class Segment:
    """A run of PUSH + EVM384 pairs: its operations, where it lies, what it costs and the
    memory it needs. The Python engine joins the segments of a block that only PUSHes and
    fixed MCOPYs separate (start_pc and next_pc are then the first's and the last's; gas
    is its pairs': the block charges the copies)."""
    operations: Tuple[Tuple[int, int, int, int, int], ...]  # (opcode, out, x, y, mod)
    start_pc: int
    next_pc: int
    gas: int                                                # static gas of all its instructions
    end: int                                                # memory_end over all of them
    records: Any = field(repr=False, compare=False)         # operations as a cffi uint32_t[]
    count: int = field(init=False, repr=False, compare=False)  # len(operations)

    def __post_init__(self) -> None:
        object.__setattr__(self, "count", len(self.operations))


def op_segment(f: Frame, segment: Any) -> None:
    """Every pair of a segment; the dispatcher has checked that all the gas is there."""
    if segment.end > len(f.memory):
        f.expand(segment.end)
    f.backend.run_segment(f, segment)
