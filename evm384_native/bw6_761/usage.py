"""The BW6-761 contracts' :class:`~evm384_native.usage.Usage`: its calldata from points or
from random inputs (made by :mod:`.points`, pure Python), and the price of EIP-3026's
precompile for the same job (BW6_PAIRING: 120,000 k + 320,000)."""
from __future__ import annotations

import random
from typing import Dict, List

from ..curves import weierstrass
from ..usage import Usage, concatenated_pairs, pairing_check_usages, pairing_scalars
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


USAGE: Dict[str, Usage] = pairing_check_usages(
    "bw6_761_pairing_check", _PAIRS, _pairs, random_pairs, encode_calldata=encode_calldata,
    pairing_hint=pairing_hint, hint_bytes=HINT_BYTES, precompile="BW6_PAIRING (EIP-3026)",
    precompile_price=_pairing_gas)
