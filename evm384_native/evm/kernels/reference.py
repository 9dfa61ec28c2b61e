"""Pure-Python reference of the three EVM384 operations, written from the spec, and of
EVM768's (the same formulas at 96-byte values, twelve limbs, R = 2**768).

The ``*_int`` functions work on Python ints; the memory functions have the
same signature and behaviour as :mod:`.kernel`.
"""
from __future__ import annotations

from typing import Callable, Tuple

from .limbs import LIMB_BITS, LIMB_MASK, LIMBS384, LIMBS768
from .operands import MONT_CONSTANT_BYTES, as_offsets, first_range_outside, writable_bytes

__all__ = ["addmod_int", "submod_int", "mulmont_int",
           "addmod384_int", "submod384_int", "mulmont384_int",
           "addmod384", "submod384", "mulmodmont384",
           "addmod768", "submod768", "mulmodmont768"]


def addmod_int(x: int, y: int, mod: int, limbs: int) -> int:
    """x + y, minus mod if that is not below mod, truncated to ``limbs`` limbs."""
    t = x + y
    if t >= mod:
        t -= mod
    return t & ((1 << (LIMB_BITS * limbs)) - 1)


def submod_int(x: int, y: int, mod: int, limbs: int) -> int:
    """x - y, plus mod on borrow, modulo 2**(64 * limbs)."""
    t = x - y
    if t < 0:
        t += mod
    return t & ((1 << (LIMB_BITS * limbs)) - 1)


def mulmont_int(x: int, y: int, mod: int, inv: int, limbs: int) -> int:
    """CIOS Montgomery product of ``limbs`` rounds, R = 2**(64 * limbs), exactly as the
    spec defines it (for any inputs, even moduli and any inv)."""
    acc = 0
    for i in range(limbs):
        x_i = (x >> (LIMB_BITS * i)) & LIMB_MASK
        acc += x_i * y
        u = ((acc & LIMB_MASK) * inv) & LIMB_MASK
        acc = (acc + u * mod) >> LIMB_BITS
    if acc >= mod:
        acc -= mod
    return acc & ((1 << (LIMB_BITS * limbs)) - 1)


def addmod384_int(x: int, y: int, mod: int) -> int:
    return addmod_int(x, y, mod, LIMBS384)


def submod384_int(x: int, y: int, mod: int) -> int:
    return submod_int(x, y, mod, LIMBS384)


def mulmont384_int(x: int, y: int, mod: int, inv: int) -> int:
    """CIOS Montgomery product, R = 2**384, exactly as the spec defines it."""
    return mulmont_int(x, y, mod, inv, LIMBS384)


def _checked(mem: bytearray, offsets: tuple, with_inv: bool,
             value_bytes: int) -> Tuple[memoryview, tuple]:
    offsets = as_offsets(offsets)
    view = writable_bytes(mem)
    error = first_range_outside(len(view), offsets, with_inv, value_bytes)
    if error is not None:
        raise error
    return view, offsets


Binary = Callable[[int, int, int, int], int]


def _on_memory(mem: bytearray, offsets: tuple, limbs: int, binary: Binary) -> None:
    """mem[out] = binary(x, y, mod, limbs) on values of ``limbs`` limbs at the offsets."""
    size = LIMB_BITS // 8 * limbs
    view, (out, x, y, mod) = _checked(mem, offsets, False, size)
    load = lambda offset: int.from_bytes(view[offset:offset + size], "little")  # noqa: E731
    view[out:out + size] = binary(load(x), load(y), load(mod), limbs).to_bytes(size, "little")


def _mulmont_on_memory(mem: bytearray, offsets: tuple, limbs: int) -> None:
    """mem[out] = the CIOS product of x and y; inv is the 8 bytes after the modulus."""
    size = LIMB_BITS // 8 * limbs
    view, (out, x, y, mod) = _checked(mem, offsets, True, size)
    load = lambda offset: int.from_bytes(view[offset:offset + size], "little")  # noqa: E731
    inv = int.from_bytes(view[mod + size:mod + size + MONT_CONSTANT_BYTES], "little")
    result = mulmont_int(load(x), load(y), load(mod), inv, limbs)
    view[out:out + size] = result.to_bytes(size, "little")


def addmod384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """ADDMOD384 on memory: mem[out] = x + y reduced once by mod."""
    _on_memory(mem, (out, x, y, mod), LIMBS384, addmod_int)


def submod384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """SUBMOD384 on memory: mem[out] = x - y, plus mod on borrow."""
    _on_memory(mem, (out, x, y, mod), LIMBS384, submod_int)


def mulmodmont384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """MULMODMONT384 on memory: mem[out] = x*y/2**384 by CIOS; inv is read after mod."""
    _mulmont_on_memory(mem, (out, x, y, mod), LIMBS384)


def addmod768(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """ADDMOD768 on memory: mem[out] = x + y reduced once by mod (96-byte LE values)."""
    _on_memory(mem, (out, x, y, mod), LIMBS768, addmod_int)


def submod768(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """SUBMOD768 on memory: mem[out] = x - y, plus mod on borrow."""
    _on_memory(mem, (out, x, y, mod), LIMBS768, submod_int)


def mulmodmont768(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """MULMODMONT768 on memory: mem[out] = x*y/2**768 by CIOS; inv is read after mod."""
    _mulmont_on_memory(mem, (out, x, y, mod), LIMBS768)

