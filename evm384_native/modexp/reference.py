"""MODEXP (precompile 0x05) in pure Python: its answer (EIP-198, with EIP-7823's bounds,
Osaka) and its price (EIP-2565, Berlin to Prague; EIP-7883, Osaka).

Input: three 32-byte big-endian lengths, then base, exponent and modulus big-endian in as
many bytes; the input reads as infinitely right-padded with zeros and excess bytes are
ignored. Output: B^E mod M as exactly ``Msize`` bytes (zeros when M = 0; empty when
``Msize`` = 0). EIP-7823: a length above 1,024 bytes makes the precompile fail (the call
consumes its gas).
"""
from __future__ import annotations

from typing import NamedTuple, Optional

WORD = 32
MAX_LENGTH = 1024                  # EIP-7823: each length at most 8,192 bits
HEADER = 3 * WORD


class Input(NamedTuple):
    """A MODEXP input's three lengths (bytes) and values."""
    base_length: int
    exponent_length: int
    modulus_length: int
    base: int
    exponent: int
    modulus: int


def _padded(data: bytes, start: int, length: int) -> bytes:
    return data[start:start + length].ljust(length, b"\0")


def lengths(data: bytes) -> tuple:
    """The three declared lengths of ``data`` (any size, right-padded with zeros)."""
    header = _padded(data, 0, HEADER)
    return tuple(int.from_bytes(header[i:i + WORD], "big") for i in range(0, HEADER, WORD))


def parse(data: bytes) -> Optional[Input]:
    """``data``'s lengths and values; None where a length exceeds EIP-7823's bound."""
    bl, el, ml = lengths(data)
    if max(bl, el, ml) > MAX_LENGTH:
        return None
    at = HEADER
    base = int.from_bytes(_padded(data, at, bl), "big")
    exponent = int.from_bytes(_padded(data, at + bl, el), "big")
    modulus = int.from_bytes(_padded(data, at + bl + el, ml), "big")
    return Input(bl, el, ml, base, exponent, modulus)


def modexp(data: bytes) -> Optional[bytes]:
    """The precompile's output for ``data``; None where it fails (a length above 1,024)."""
    parsed = parse(data)
    if parsed is None:
        return None
    if parsed.modulus == 0:
        return bytes(parsed.modulus_length)
    return pow(parsed.base, parsed.exponent, parsed.modulus).to_bytes(parsed.modulus_length,
                                                                     "big")


def encode(base: int, exponent: int, modulus: int, base_length: Optional[int] = None,
           exponent_length: Optional[int] = None, modulus_length: Optional[int] = None) -> bytes:
    """MODEXP's input for the three values, each in its given length in bytes (None: the
    fewest bytes that hold it, at least one for the modulus)."""
    def size(value: int, length: Optional[int], least: int = 0) -> int:
        return max((value.bit_length() + 7) // 8, least) if length is None else length
    bl, el, ml = size(base, base_length), size(exponent, exponent_length), \
        size(modulus, modulus_length, 1)
    return (b"".join(n.to_bytes(WORD, "big") for n in (bl, el, ml)) + base.to_bytes(bl, "big")
            + exponent.to_bytes(el, "big") + modulus.to_bytes(ml, "big"))


# --- prices ------------------------------------------------------------------------------

def _head_of_exponent(data: bytes) -> int:
    """The exponent's first 32 bytes as a number (EIP-198: "the highest bit in the first
    32 bytes of EXPONENT"; go-ethereum's vectors price it so)."""
    bl, el, _ = lengths(data)
    return int.from_bytes(_padded(data, HEADER + bl, min(el, WORD)), "big")


def _iterations(data: bytes, long_exponent_factor: int) -> int:
    _, el, _ = lengths(data)
    head = _head_of_exponent(data)
    if el <= WORD:
        count = max(head.bit_length() - 1, 0)
    else:
        count = long_exponent_factor * (el - WORD) + max(head.bit_length() - 1, 0)
    return max(count, 1)


def price_eip2565(data: bytes) -> int:
    """MODEXP's gas from Berlin to Prague (EIP-2565)."""
    bl, _, ml = lengths(data)
    words = (max(bl, ml) + 7) // 8
    return max(200, words * words * _iterations(data, 8) // 3)


def price_eip7883(data: bytes) -> int:
    """MODEXP's gas from Osaka on (EIP-7883)."""
    bl, _, ml = lengths(data)
    longest = max(bl, ml)
    words = (longest + 7) // 8
    complexity = 2 * words * words if longest > WORD else 16
    return max(500, complexity * _iterations(data, 16))
