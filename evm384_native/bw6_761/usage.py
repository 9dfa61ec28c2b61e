"""The BW6-761 contracts' :class:`~evm384_native.usage.Usage`: its calldata from points or
from random inputs (made by :mod:`.points`, pure Python), and the price of EIP-3026's
precompile for the same job (BW6_PAIRING: 120,000 k + 320,000)."""
from __future__ import annotations

import random
from typing import Dict, List

from ..curves import weierstrass
from ..usage import Usage, concatenated_pairs, pairing_scalars
from .calldata import encode_calldata
from .hint import pairing_hint
from .hinted import HINT_BYTES
from .points import G1, G1_BYTES, G2, G2_BYTES, PAIR_BYTES, R, encode_point

_PAIRS = (f"G1 ({G1_BYTES}-byte x||y) G2 ({G2_BYTES}-byte x||y) [G1 G2 ...] (96-byte "
          "big-endian field elements, as EIP-3026)")


def _pairs(points: List[bytes]) -> bytes:
    return concatenated_pairs(points, G1_BYTES, G2_BYTES)


def random_pairs(rng: random.Random, k: int, true: bool) -> bytes:
    """k pairs ([a] G1, [b] G2) (:func:`..usage.pairing_scalars`: a true check when
    ``true``)."""
    return b"".join(encode_point(weierstrass.multiply(G1, G1.g, a))
                    + encode_point(weierstrass.multiply(G2, G2.g, b))
                    for a, b in pairing_scalars(rng, k, true, R))


def _pairing_gas(data: bytes) -> int:
    """EIP-3026's BW6_PAIRING price, 120,000 k + 320,000, for k pairs of its input."""
    return 120_000 * (len(data) // PAIR_BYTES) + 320_000


def _hinted(data: bytes) -> bytes:
    return encode_calldata("bw6_761_pairing_check_hinted", data, pairing_hint(data))


def _without_hint(calldata: bytes) -> bytes:
    return calldata[:len(calldata) - HINT_BYTES]


_PRECOMPILE = "BW6_PAIRING (EIP-3026)"
USAGE: Dict[str, Usage] = {
    "bw6_761_pairing_check": Usage(_PAIRS, _pairs, random_pairs, precompile=_PRECOMPILE,
                                   precompile_price=_pairing_gas),
    "bw6_761_pairing_check_hinted": Usage(
        _PAIRS + "; the hint is computed and appended",
        lambda points: _hinted(_pairs(points)),
        lambda rng, k, true: _hinted(random_pairs(rng, k, true)),
        precompile=_PRECOMPILE, precompile_input=_without_hint, precompile_price=_pairing_gas),
}
