"""The BLS12-377 contracts' :class:`~evm384_native.usage.Usage`: their calldata from points
or from random inputs (made by :mod:`.points`, pure Python), and the price of EIP-2539's
precompile for the same job (BLS12_377_PAIRING: 55,000 k + 65,000)."""
from __future__ import annotations

import random
from typing import Dict, List

from ..ec.bls12_hinted import HINT_BYTES
from ..usage import Usage
from .calldata import encode_calldata
from .hint import pairing_hint
from .points import G1, G1_BYTES, G2, G2_BYTES, PAIR_BYTES, R, encode_g1, encode_g2

_PAIRS = (f"G1 ({G1_BYTES}-byte x||y) G2 ({G2_BYTES}-byte x.c0||x.c1||y.c0||y.c1) "
          "[G1 G2 ...] (64-byte big-endian field elements, as EIP-2539)")


def _pairs(points: List[bytes]) -> bytes:
    if not points or len(points) % 2:
        raise ValueError(f"points come in (G1, G2) pairs; got {len(points)} point(s)")
    sizes = [G1_BYTES, G2_BYTES] * (len(points) // 2)
    if [len(point) for point in points] != sizes:
        raise ValueError(f"points of {', '.join(map(str, sizes))} bytes; got "
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
    pairs = [(G1.generator_multiple(a), G2.generator_multiple(b)) for a, b in scalars]
    pairs.append((G1.generator_multiple(last), G2.generator_multiple(1)))
    return b"".join(encode_g1(p) + encode_g2(q) for p, q in pairs)


def _pairing_gas(data: bytes) -> int:
    """EIP-2539's BLS12_377_PAIRING price, 55,000 k + 65,000, for k pairs of its input."""
    return 55_000 * (len(data) // PAIR_BYTES) + 65_000


def _hinted(data: bytes) -> bytes:
    return encode_calldata("bls12_377_pairing_check_hinted", data, pairing_hint(data))


def _without_hint(calldata: bytes) -> bytes:
    return calldata[:len(calldata) - HINT_BYTES]


_PRECOMPILE = "BLS12_377_PAIRING (0x1b, EIP-2539)"
USAGE: Dict[str, Usage] = {
    "bls12_377_pairing_check": Usage(_PAIRS, _pairs, random_pairs, precompile=_PRECOMPILE,
                                     precompile_price=_pairing_gas),
    "bls12_377_pairing_check_hinted": Usage(
        _PAIRS + "; the hint is computed and appended",
        lambda points: _hinted(_pairs(points)),
        lambda rng, k, true: _hinted(random_pairs(rng, k, true)),
        precompile=_PRECOMPILE, precompile_input=_without_hint, precompile_price=_pairing_gas),
}
