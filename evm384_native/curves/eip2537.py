"""EIP-2537's point encodings (EIP-2539's for BLS12-377 are the same), from affine points
in Python: each field value 64 bytes big-endian (16 zero bytes, then the value); G2
coordinates real part first; the point at infinity all zero. Curve-free: any p below
2^384."""
from __future__ import annotations

from .points import Affine

FP_BYTES = 64
G1_BYTES, G2_BYTES = 2 * FP_BYTES, 4 * FP_BYTES
PAIR_BYTES = G1_BYTES + G2_BYTES


def _fields(*values: int) -> bytes:
    return b"".join(value.to_bytes(FP_BYTES, "big") for value in values)


def encode_g1(point: Affine) -> bytes:
    """128 bytes: x, y; infinity as zeros."""
    return _fields(*point) if point else bytes(G1_BYTES)


def encode_g2(point: Affine) -> bytes:
    """256 bytes: x.c0, x.c1, y.c0, y.c1; infinity as zeros."""
    return _fields(*point[0], *point[1]) if point else bytes(G2_BYTES)
