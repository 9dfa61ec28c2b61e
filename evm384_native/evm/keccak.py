"""Keccak-256 (the original Keccak padding Ethereum uses, not NIST SHA3-256).

Written from the Keccak reference so the package needs no hashing dependency;
KECCAK256 is rare in EVM384 code, so clarity beats speed here.
"""
from __future__ import annotations

from typing import List

_LANE_MASK = (1 << 64) - 1
_RATE_BYTES = 136  # 1600 - 2 * 256 bits


def _rotl(lane: int, shift: int) -> int:
    return ((lane << shift) | (lane >> (64 - shift))) & _LANE_MASK if shift else lane


def _rotation_offsets() -> List[int]:
    """rho offsets, indexed x + 5 * y."""
    offsets = [0] * 25
    x, y = 1, 0
    for t in range(24):
        offsets[x + 5 * y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return offsets


def _round_constants() -> List[int]:
    """iota constants from the LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    constants = []
    lfsr = 1
    for _ in range(24):
        constant = 0
        for j in range(7):
            if lfsr & 1:
                constant |= 1 << ((1 << j) - 1)
            lfsr = ((lfsr << 1) ^ 0x71) & 0xFF if lfsr & 0x80 else lfsr << 1
        constants.append(constant)
    return constants


_ROTATIONS = _rotation_offsets()
_ROUND_CONSTANTS = _round_constants()


def _keccak_f1600(a: List[int]) -> None:
    for constant in _ROUND_CONSTANTS:
        # theta
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        for x in range(5):
            d = c[(x - 1) % 5] ^ _rotl(c[(x + 1) % 5], 1)
            for y in range(0, 25, 5):
                a[x + y] ^= d
        # rho and pi: B[y, 2x + 3y] = rot(A[x, y])
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rotl(a[x + 5 * y], _ROTATIONS[x + 5 * y])
        # chi
        for y in range(0, 25, 5):
            for x in range(5):
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y])
        # iota
        a[0] ^= constant


def keccak256(data: bytes) -> bytes:
    """The 32-byte Keccak-256 digest of ``data``."""
    padded = bytearray(data)
    padded.append(0x01)
    padded.extend(bytes(-len(padded) % _RATE_BYTES))
    padded[-1] |= 0x80
    state = [0] * 25
    for start in range(0, len(padded), _RATE_BYTES):
        for i in range(_RATE_BYTES // 8):
            state[i] ^= int.from_bytes(padded[start + 8 * i:start + 8 * i + 8], "little")
        _keccak_f1600(state)
    return b"".join(lane.to_bytes(8, "little") for lane in state[:4])
