"""BLS12-381 affine points as Python integers, and their compressed encoding.

A G1 point is ``(x, y)`` with Fp coordinates as ints; a G2 point is ``((x0, x1), (y0, y1))``
with Fp2 coordinates ``c0 + c1 u`` (u^2 = -1) as pairs of ints. The compressed encoding is
the one of blst, pyblst and chia_rs ("ZCash" format): x big-endian (for G2: c1 then c0),
48 bytes per Fp, the top bits of the first byte flagging compression, the point at infinity
and which of the two square roots y is (the "larger" one: y > -y, comparing c1 first).

Decompressing needs a square root in Fp and in Fp2 (:mod:`..curves.fields`; p = 3 mod 4
makes each a few exponentiations). Not on any fast path: it reads points that blst
computed.
"""
from __future__ import annotations

from typing import Tuple

from ..curves.bls12_381 import BLS12_381
from ..curves.fields import Fp2Int, sqrt

P = BLS12_381.p
FP2 = BLS12_381.fp2

G1Point = Tuple[int, int]
G2Point = Tuple[Fp2Int, Fp2Int]

B_G1 = BLS12_381.b           # y^2 = x^3 + 4
B_G2 = BLS12_381.twist_b     # y^2 = x^3 + 4 (1 + u)
FP_BYTES = 48
COMPRESSED_FLAG = 0x80
INFINITY_FLAG = 0x40
LARGER_ROOT_FLAG = 0x20
FLAGS = COMPRESSED_FLAG | INFINITY_FLAG | LARGER_ROOT_FLAG


def _fp_is_larger(y: int) -> bool:
    return y > (P - 1) // 2


def _fp2_is_larger(y: Fp2Int) -> bool:
    return _fp_is_larger(y[1]) if y[1] else _fp_is_larger(y[0])


def _flags(larger: bool) -> int:
    return COMPRESSED_FLAG | (LARGER_ROOT_FLAG if larger else 0)


def compress_g1(point: G1Point) -> bytes:
    x, y = point
    data = bytearray(x.to_bytes(FP_BYTES, "big"))
    data[0] |= _flags(_fp_is_larger(y))
    return bytes(data)


def compress_g2(point: G2Point) -> bytes:
    (x0, x1), y = point
    data = bytearray(x1.to_bytes(FP_BYTES, "big") + x0.to_bytes(FP_BYTES, "big"))
    data[0] |= _flags(_fp2_is_larger(y))
    return bytes(data)


def _read(data: bytes, size: int) -> Tuple[int, int]:
    """(flags, the Fp values' bytes as one integer) of a compressed encoding, checked."""
    if len(data) != size:
        raise ValueError(f"a compressed point here has {size} bytes, not {len(data)}")
    flags = data[0] & FLAGS
    if not flags & COMPRESSED_FLAG:
        raise ValueError("not a compressed point (compression flag clear)")
    if flags & INFINITY_FLAG:
        raise ValueError("the point at infinity has no affine coordinates")
    return flags, int.from_bytes(bytes([data[0] & ~FLAGS & 0xFF]) + data[1:], "big")


def decompress_g1(data: bytes) -> G1Point:
    """Affine (x, y) of a 48-byte compressed G1 point; ValueError if it is not on the curve."""
    flags, x = _read(data, FP_BYTES)
    y = sqrt(x ** 3 + B_G1, P) if x < P else None
    if y is None:
        raise ValueError("not a point of the curve y^2 = x^3 + 4")
    if _fp_is_larger(y) != bool(flags & LARGER_ROOT_FLAG):
        y = (P - y) % P
    return x, y


def decompress_g2(data: bytes) -> G2Point:
    """Affine ((x0, x1), (y0, y1)) of a 96-byte compressed G2 point; ValueError if it is not
    on the curve."""
    flags, value = _read(data, 2 * FP_BYTES)
    x1, x0 = divmod(value, 1 << (8 * FP_BYTES))
    x: Fp2Int = (x0, x1)
    y = None
    if x0 < P and x1 < P:
        x3 = FP2.mul(FP2.mul(x, x), x)
        y = FP2.sqrt(((x3[0] + B_G2[0]) % P, (x3[1] + B_G2[1]) % P))
    if y is None:
        raise ValueError("not a point of the curve y^2 = x^3 + 4 (1 + u)")
    if _fp2_is_larger(y) != bool(flags & LARGER_ROOT_FLAG):
        y = ((P - y[0]) % P, (P - y[1]) % P)
    return x, y
