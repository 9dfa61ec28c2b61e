"""Pure-Python reference of the three EVM384 operations, written from the spec.

The ``*_int`` functions work on Python ints; the memory functions have the
same signature and behaviour as :mod:`.kernel`.
"""
from __future__ import annotations

from typing import Tuple

from .limbs import BYTES384, LIMB_BITS, LIMB_MASK, LIMBS384, MAX384
from .operands import as_offsets, first_range_outside, writable_bytes

__all__ = ["addmod384_int", "submod384_int", "mulmont384_int",
           "addmod384", "submod384", "mulmodmont384"]


def addmod384_int(x: int, y: int, mod: int) -> int:
    t = x + y
    if t >= mod:
        t -= mod
    return t & MAX384


def submod384_int(x: int, y: int, mod: int) -> int:
    t = x - y
    if t < 0:
        t += mod
    return t & MAX384


def mulmont384_int(x: int, y: int, mod: int, inv: int) -> int:
    """CIOS Montgomery product, R = 2**384, exactly as the spec defines it."""
    acc = 0
    for i in range(LIMBS384):
        x_i = (x >> (LIMB_BITS * i)) & LIMB_MASK
        acc += x_i * y
        u = ((acc & LIMB_MASK) * inv) & LIMB_MASK
        acc = (acc + u * mod) >> LIMB_BITS
    if acc >= mod:
        acc -= mod
    return acc & MAX384


def _load(view: memoryview, offset: int) -> int:
    return int.from_bytes(view[offset:offset + BYTES384], "little")


def _checked(mem: bytearray, offsets: tuple, with_inv: bool) -> Tuple[memoryview, tuple]:
    offsets = as_offsets(offsets)
    view = writable_bytes(mem)
    error = first_range_outside(len(view), offsets, with_inv)
    if error is not None:
        raise error
    return view, offsets


def addmod384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """ADDMOD384 on memory: mem[out] = x + y reduced once by mod."""
    view, (out, x, y, mod) = _checked(mem, (out, x, y, mod), with_inv=False)
    result = addmod384_int(_load(view, x), _load(view, y), _load(view, mod))
    view[out:out + BYTES384] = result.to_bytes(BYTES384, "little")


def submod384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """SUBMOD384 on memory: mem[out] = x - y, plus mod on borrow."""
    view, (out, x, y, mod) = _checked(mem, (out, x, y, mod), with_inv=False)
    result = submod384_int(_load(view, x), _load(view, y), _load(view, mod))
    view[out:out + BYTES384] = result.to_bytes(BYTES384, "little")


def mulmodmont384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """MULMODMONT384 on memory: mem[out] = x*y/2**384 by CIOS; inv is read after mod."""
    view, (out, x, y, mod) = _checked(mem, (out, x, y, mod), with_inv=True)
    inv = int.from_bytes(view[mod + BYTES384:mod + BYTES384 + 8], "little")
    result = mulmont384_int(_load(view, x), _load(view, y), _load(view, mod), inv)
    view[out:out + BYTES384] = result.to_bytes(BYTES384, "little")
