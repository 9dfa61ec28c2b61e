"""The BW6-761 contract's :class:`~evm384_native.usage.Usage`: its calldata from points or
from random inputs (made by :mod:`.points`, pure Python), and the price of EIP-3026's
precompile for the same job (BW6_PAIRING: 120,000 k + 320,000)."""
from __future__ import annotations

import random
from typing import Dict, List

from ..curves import weierstrass
from ..usage import Usage
from .points import G1, G1_BYTES, G2, G2_BYTES, PAIR_BYTES, R, encode_point

_PAIRS = (f"G1 ({G1_BYTES}-byte x||y) G2 ({G2_BYTES}-byte x||y) [G1 G2 ...] (96-byte "
          "big-endian field elements, as EIP-3026)")


def _pairs(points: List[bytes]) -> bytes:
    if not points or len(points) % 2:
        raise ValueError(f"points come in (G1, G2) pairs; got {len(points)} point(s)")
    if any(len(point) != G1_BYTES for point in points):
        raise ValueError(f"points of {G1_BYTES} bytes each; got "
                         f"{', '.join(str(len(point)) for point in points)}")
    return b"".join(points)


def random_pairs(rng: random.Random, k: int, true: bool) -> bytes:
    """k pairs ([a] G1, [b] G2); when ``true`` the last is ([-(sum of the others' a b)] G1,
    G2), so that the product of the pairings is one; else its scalar is off by one."""
    if k < 1 or (true and k == 1):
        raise ValueError("a product of pairings of finite points can be one only for k >= 2"
                         if k >= 1 else f"k must be at least 1, got {k}")
    scalars = [(rng.randrange(1, R), rng.randrange(1, R)) for _ in range(k - 1)]
    last = -sum(a * b for a, b in scalars) % R
    if not true:
        last = (last + 1) % R or 1
    pairs = [(weierstrass.multiply(G1, G1.g, a), weierstrass.multiply(G2, G2.g, b))
             for a, b in scalars]
    pairs.append((weierstrass.multiply(G1, G1.g, last), G2.g))
    return b"".join(encode_point(p) + encode_point(q) for p, q in pairs)


def _pairing_gas(data: bytes) -> int:
    """EIP-3026's BW6_PAIRING price, 120,000 k + 320,000, for k pairs of its input."""
    return 120_000 * (len(data) // PAIR_BYTES) + 320_000


USAGE: Dict[str, Usage] = {
    "bw6_761_pairing_check": Usage(_PAIRS, _pairs, random_pairs,
                                   precompile="BW6_PAIRING (EIP-3026)",
                                   precompile_price=_pairing_gas),
}
