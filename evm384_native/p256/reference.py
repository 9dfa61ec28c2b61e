"""P-256 in pure Python from the definitions (:mod:`evm384_native.curves.weierstrass` over
:mod:`evm384_native.curves.p256`'s numbers): affine points (None is infinity), ECDSA
signing for test inputs, and P256VERIFY as EIP-7951 writes it (the contract's oracle
beside the ``cryptography`` package in the tests)."""
from __future__ import annotations

from typing import Tuple

from ..curves import weierstrass
from ..curves.p256 import P256
from ..curves.weierstrass import Point

CURVE = P256.affine
P, N = P256.p, P256.r
G: Point = P256.g1
INPUT_BYTES = 160                       # h, r, s, qx, qy: 32-byte big-endian words
PRECOMPILE_PRICE = 6_900                # EIP-7951's P256VERIFY (0x100)


def on_curve(x: int, y: int) -> bool:
    return weierstrass.on_curve(CURVE, x, y)


def add(a: Point, b: Point) -> Point:
    """a + b in the group (every case)."""
    return weierstrass.add(CURVE, a, b)


def multiply(point: Point, k: int) -> Point:
    """[k] point, by double and add."""
    return weierstrass.multiply(CURVE, point, k)


def sign(d: int, h: int, k: int) -> Tuple[int, int]:
    """ECDSA (r, s) of the hash ``h`` with the private key ``d`` and the nonce ``k``."""
    return weierstrass.sign(CURVE, d, h, k)[:2]


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
