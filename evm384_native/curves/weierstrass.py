"""Short Weierstrass curves y^2 = x^3 + a x + b over Fp in pure Python, from the
definitions: affine points (None is infinity), the group law, double-and-add, and ECDSA
signing (SEC 1 v2, section 4.1.3) for test inputs. The references of the contracts
(:mod:`evm384_native.p256.reference`, :mod:`evm384_native.secp256k1.reference`) read
their curve from here; the contracts never do (they are checked against it)."""
from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

Point = Optional[Tuple[int, int]]


class Curve(NamedTuple):
    p: int
    a: int
    b: int
    n: int                      # the prime order of the generator
    g: Tuple[int, int]


def on_curve(curve: Curve, x: int, y: int) -> bool:
    return (y * y - (x * x * x + curve.a * x + curve.b)) % curve.p == 0


def add(curve: Curve, a: Point, b: Point) -> Point:
    """a + b in the group (every case)."""
    if a is None:
        return b
    if b is None:
        return a
    p = curve.p
    (x1, y1), (x2, y2) = a, b
    if x1 == x2 and (y1 + y2) % p == 0:
        return None
    if a == b:
        slope = (3 * x1 * x1 + curve.a) * pow(2 * y1, -1, p) % p
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (slope * slope - x1 - x2) % p
    return x3, (slope * (x1 - x3) - y1) % p


def multiply(curve: Curve, point: Point, k: int) -> Point:
    """[k] point, by double and add."""
    result: Point = None
    for bit in bin(k % curve.n)[2:]:
        result = add(curve, result, result)
        if bit == "1":
            result = add(curve, result, point)
    return result


def sign(curve: Curve, d: int, h: int, k: int) -> Tuple[int, int, int]:
    """ECDSA (r, s, parity of the nonce point's y) of the hash ``h`` (an int) with the
    private key ``d`` and the nonce ``k``."""
    point = multiply(curve, curve.g, k)
    assert point is not None
    r = point[0] % curve.n
    s = pow(k, -1, curve.n) * (h + r * d) % curve.n
    if r == 0 or s == 0:
        raise ValueError("a nonce giving r = 0 or s = 0: choose another")
    return r, s, point[1] & 1
