"""``ecrecover``'s :class:`~evm384_native.usage.Usage`: h, v, r, s as 32-byte
big-endian words (128 bytes), priced beside ECRECOVER (0x01, 3,000 gas whatever the
input)."""
from __future__ import annotations

import random
from typing import Dict

from ..usage import Usage, words_input
from .contracts import NAME
from .reference import N, PRECOMPILE_PRICE, encode, sign

WORD = 32


def random_signature(rng: random.Random, valid: bool = True) -> bytes:
    """A signature of a random hash under a random key (``valid`` False: v = 29, which
    the precompile rejects)."""
    d, h, k = (rng.randrange(1, N) for _ in range(3))
    data = sign(d, h, k)
    return data if valid else data[:WORD] + (29).to_bytes(WORD, "big") + data[2 * WORD:]


USAGE: Dict[str, Usage] = {
    NAME: Usage("H V R S (32-byte big-endian words)", words_input(("h", "v", "r", "s")),
                lambda rng, k, true: random_signature(rng, true), example_k=1, one_input=True,
                precompile="ECRECOVER (0x01)",
                precompile_price=lambda data: PRECOMPILE_PRICE,
                measured_price=lambda data: 841),                     # EIP-7904
}
