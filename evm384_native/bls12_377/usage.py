"""The BLS12-377 contracts' :class:`~evm384_native.usage.Usage`: their calldata from points
or from random inputs (made by :mod:`.points`, pure Python), and the price of EIP-2539's
precompile for the same job (BLS12_377_PAIRING: 55,000 k + 65,000)."""
from __future__ import annotations

import random
from typing import Dict, List

from ..ec.bls12_hinted import HINT_BYTES
from ..usage import Usage, concatenated_pairs, pairing_check_usages, pairing_scalars
from .calldata import encode_calldata
from .hint import pairing_hint
from .points import G1, G1_BYTES, G2, G2_BYTES, PAIR_BYTES, R, encode_g1, encode_g2

_PAIRS = (f"G1 ({G1_BYTES}-byte x||y) G2 ({G2_BYTES}-byte x.c0||x.c1||y.c0||y.c1) "
          "[G1 G2 ...] (64-byte big-endian field elements, as EIP-2539)")


def _pairs(points: List[bytes]) -> bytes:
    return concatenated_pairs(points, G1_BYTES, G2_BYTES)


def random_pairs(rng: random.Random, k: int, true: bool) -> bytes:
    """k pairs ([a] G1, [b] G2) (:func:`..usage.pairing_scalars`: a true check when
    ``true``)."""
    return b"".join(encode_g1(G1.generator_multiple(a)) + encode_g2(G2.generator_multiple(b))
                    for a, b in pairing_scalars(rng, k, true, R))


def _pairing_gas(data: bytes) -> int:
    """EIP-2539's BLS12_377_PAIRING price, 55,000 k + 65,000, for k pairs of its input."""
    return 55_000 * (len(data) // PAIR_BYTES) + 65_000


USAGE: Dict[str, Usage] = pairing_check_usages(
    "bls12_377_pairing_check", _PAIRS, _pairs, random_pairs, encode_calldata=encode_calldata,
    pairing_hint=pairing_hint, hint_bytes=HINT_BYTES,
    precompile="BLS12_377_PAIRING (0x1b, EIP-2539)", precompile_price=_pairing_gas)
