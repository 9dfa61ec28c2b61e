"""P-256 in pure Python from the definitions: affine points (None is infinity), ECDSA
signing for test inputs, and P256VERIFY as EIP-7951 writes it (the contract's oracle
beside the ``cryptography`` package in the tests)."""
from __future__ import annotations

from typing import Optional, Tuple

from .params import A, B, GX, GY, INPUT_BYTES, N, P

Point = Optional[Tuple[int, int]]
G: Point = (GX, GY)


def on_curve(x: int, y: int) -> bool:
    return (y * y - (x * x * x + A * x + B)) % P == 0


def add(a: Point, b: Point) -> Point:
    """a + b in the group (every case)."""
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2 and (y1 + y2) % P == 0:
        return None
    if a == b:
        slope = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return x3, (slope * (x1 - x3) - y1) % P


def multiply(point: Point, k: int) -> Point:
    """[k] point, by double and add."""
    result: Point = None
    for bit in bin(k % N)[2:]:
        result = add(result, result)
        if bit == "1":
            result = add(result, point)
    return result


def sign(d: int, h: int, k: int) -> Tuple[int, int]:
    """ECDSA (r, s) of the hash ``h`` with the private key ``d`` and the nonce ``k``."""
    point = multiply(G, k)
    assert point is not None
    r = point[0] % N
    s = pow(k, -1, N) * (h + r * d) % N
    if r == 0 or s == 0:
        raise ValueError("a nonce giving r = 0 or s = 0: choose another")
    return r, s


def verify(data: bytes) -> bool:
    """EIP-7951's P256VERIFY on ``data``: True for a valid signature, False on any
    failure (a wrong length, a range, a point off the curve, a wrong signature)."""
    if len(data) != INPUT_BYTES:
        return False
    h, r, s, qx, qy = (int.from_bytes(data[i:i + 32], "big") for i in range(0, 160, 32))
    if not (0 < r < N and 0 < s < N and qx < P and qy < P and on_curve(qx, qy)):
        return False            # (0, 0), the infinity encoding, is not on the curve
    w = pow(s, -1, N)
    point = add(multiply(G, h * w % N), multiply((qx, qy), r * w % N))
    return point is not None and point[0] % N == r


def encode(h: int, r: int, s: int, qx: int, qy: int) -> bytes:
    """The 160-byte input: five 32-byte big-endian words."""
    return b"".join(v.to_bytes(32, "big") for v in (h, r, s, qx, qy))
