"""The operands of the EVM384 (and EVM768) memory operations, shared by both backends."""
from __future__ import annotations

import operator
from typing import Sequence, Tuple

import numpy as np

from ...errors import MemoryRangeError
from .limbs import BYTES384

MONT_CONSTANT_BYTES = 8
MODULUS_WITH_INV_BYTES = BYTES384 + MONT_CONSTANT_BYTES
OPERAND_NAMES = ("out", "x", "y", "mod")


def operand_sizes(with_inv: bool, value_bytes: int = BYTES384) -> Tuple[int, int, int, int]:
    """Bytes each operand occupies: ``value_bytes`` (48 for EVM384, 96 for EVM768), and 8
    more at ``mod`` for the Montgomery product (the modulus followed by inv)."""
    mod_bytes = value_bytes + MONT_CONSTANT_BYTES if with_inv else value_bytes
    return (value_bytes, value_bytes, value_bytes, mod_bytes)


# What both backends (kernel and reference) accept, checked by the functions below so that
# they accept and reject exactly the same arguments with the same errors:
# - mem: any writable C-contiguous buffer (bytearray, memoryview, numpy array, array.array,
#   mmap), read as its bytes;
# - offsets: ints or integer types that convert exactly (numpy's, via __index__), not
#   bool; a range outside mem is a MemoryRangeError naming the operand.

def as_offsets(offsets: Sequence[object]) -> Tuple[int, ...]:
    """The offsets as Python ints, or a TypeError naming the first that is not one."""
    found = []
    for name, offset in zip(OPERAND_NAMES, offsets):
        try:
            # numpy < 2.1 still converts its bool (with a DeprecationWarning): refuse it here.
            if isinstance(offset, (bool, np.bool_)):
                raise TypeError
            found.append(operator.index(offset))
        except TypeError:
            raise TypeError(f"{name} offset must be an int, not {type(offset).__name__}") from None
    return tuple(found)


def writable_bytes(mem: object) -> memoryview:
    """``mem`` as a flat writable byte view, or a TypeError saying what it must be."""
    try:
        view = memoryview(mem)   # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"mem must be a writable buffer (e.g. a bytearray), not "
                        f"{type(mem).__name__}") from None
    if view.readonly:
        raise TypeError(f"mem must be a writable buffer (e.g. a bytearray), not a read-only "
                        f"{type(mem).__name__}")
    if not view.c_contiguous:
        raise TypeError("mem must be a C-contiguous buffer (e.g. np.ascontiguousarray)")
    return view.cast("B") if view.format != "B" or view.ndim != 1 else view


def first_range_outside(memory_size: int, offsets: Sequence[int], with_inv: bool,
                        value_bytes: int = BYTES384) -> MemoryRangeError | None:
    """The error for the first operand (out, x, y, mod order) not inside memory."""
    for name, offset, size in zip(OPERAND_NAMES, offsets,
                                  operand_sizes(with_inv, value_bytes)):
        if offset < 0 or offset + size > memory_size:
            return MemoryRangeError(name, offset, size, memory_size)
    return None
