"""The operands of the three EVM384 memory operations, shared by both backends."""
from __future__ import annotations

from typing import Sequence, Tuple

from .errors import MemoryRangeError
from .limbs import BYTES384

MONT_CONSTANT_BYTES = 8
MODULUS_WITH_INV_BYTES = BYTES384 + MONT_CONSTANT_BYTES
OPERAND_NAMES = ("out", "x", "y", "mod")


def operand_sizes(with_inv: bool) -> Tuple[int, int, int, int]:
    """Bytes each operand occupies: 48, or 56 at ``mod`` for MULMODMONT384."""
    return (BYTES384, BYTES384, BYTES384, MODULUS_WITH_INV_BYTES if with_inv else BYTES384)


def check_offset_types(offsets: Sequence[object]) -> None:
    for name, offset in zip(OPERAND_NAMES, offsets):
        if not isinstance(offset, int) or isinstance(offset, bool):
            raise TypeError(f"{name} offset must be an int, not {type(offset).__name__}")


def first_range_outside(memory_size: int, offsets: Sequence[int],
                        with_inv: bool) -> MemoryRangeError | None:
    """The error for the first operand (out, x, y, mod order) not inside memory."""
    for name, offset, size in zip(OPERAND_NAMES, offsets, operand_sizes(with_inv)):
        if offset < 0 or offset + size > memory_size:
            return MemoryRangeError(name, offset, size, memory_size)
    return None
