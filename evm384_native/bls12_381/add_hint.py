"""The hint of the hinted EIP-2537 additions (:mod:`.hinted_add`), computed by the caller:
the slope lambda of the line through the two points of a G1ADD / G2ADD input, as the
contract reads it (48 bytes big-endian per Fp value; G2: c0 then c1).

- x1 != x2: (y2 - y1) / (x2 - x1);
- P1 = P2 (finite): 3 x1^2 / (2 y1), the tangent's;
- either point at infinity (all zeros), or P2 = -P1: zero (the contract requires it).

Only the encoding is checked (length, padding, values < p): ValueError otherwise. Points
off the curve get the formula's value; the contract rejects them whatever the hint.
"""
from __future__ import annotations

from typing import List, Tuple

from ..curves.bls12_381 import BLS12_381

P = BLS12_381.p
FP2 = BLS12_381.fp2
FIELD, VALUE = 64, 48
Element = Tuple[int, ...]                          # (c0,) in Fp or (c0, c1) in Fp2


def _mul(a: Element, b: Element) -> Element:
    return (a[0] * b[0] % P,) if len(a) == 1 else FP2.mul(a, b)  # type: ignore[arg-type]


def _inverse(a: Element) -> Element:
    return (pow(a[0], -1, P),) if len(a) == 1 else FP2.inverse(a)  # type: ignore[arg-type]


def _sub(a: Element, b: Element) -> Element:
    return tuple((x - y) % P for x, y in zip(a, b))


def _scale(a: Element, k: int) -> Element:
    return tuple(k * x % P for x in a)


def decode_points(degree: int, data: bytes) -> List[Element]:
    """x1, y1, x2, y2 of an EIP-2537 addition input (G1: ``degree`` 1, G2: 2); ValueError
    on a wrong length, non-zero padding or a value >= p."""
    if len(data) != 4 * FIELD * degree:
        raise ValueError(f"the addition's input is {4 * FIELD * degree} bytes, not {len(data)}")
    values = []
    for i in range(0, len(data), FIELD):
        if any(data[i:i + FIELD - VALUE]):
            raise ValueError(f"the field value at byte {i} has non-zero padding")
        value = int.from_bytes(data[i + FIELD - VALUE:i + FIELD], "big")
        if value >= P:
            raise ValueError(f"the field value at byte {i} is not below p")
        values.append(value)
    return [tuple(values[i:i + degree]) for i in range(0, len(values), degree)]


def slope(degree: int, data: bytes) -> Element:
    """lambda for the input ``data`` (module doc), as integers."""
    x1, y1, x2, y2 = decode_points(degree, data)
    zero = (0,) * degree
    if x1 == y1 == zero or x2 == y2 == zero:
        return zero
    if x1 != x2:
        return _mul(_sub(y2, y1), _inverse(_sub(x2, x1)))
    if y1 != y2 or y1 == zero:                    # P2 = -P1 (or no point: y1 = y2 = 0)
        return zero
    return _mul(_scale(_mul(x1, x1), 3), _inverse(_scale(y1, 2)))


def add_hint(degree: int, data: bytes) -> bytes:
    """The hint bytes for the input ``data``: lambda, 48 bytes big-endian per value."""
    return b"".join(c.to_bytes(VALUE, "big") for c in slope(degree, data))


def g1add_hint(data: bytes) -> bytes:
    """The 48-byte hint of ``eip2537_g1add_hinted`` for a 256-byte G1ADD input."""
    return add_hint(1, data)


def g2add_hint(data: bytes) -> bytes:
    """The 96-byte hint of ``eip2537_g2add_hinted`` for a 512-byte G2ADD input."""
    return add_hint(2, data)
