"""``p256verify``'s :class:`~evm384_native.usage.Usage`: h, r, s, qx, qy as
32-byte big-endian words (160 bytes), priced beside EIP-7951's P256VERIFY (0x100,
6,900 gas whatever the input)."""
from __future__ import annotations

import random
from typing import Dict

from ..usage import Usage, words_input
from .contracts import NAME
from .reference import G, N, PRECOMPILE_PRICE, encode, multiply, sign



def random_signature(rng: random.Random, valid: bool = True) -> bytes:
    """A signature of a random hash under a random key (``valid`` False: of the hash
    plus one, so it does not verify)."""
    d, h, k = (rng.randrange(1, N) for _ in range(3))
    r, s = sign(d, h, k)
    q = multiply(G, d)
    assert q is not None
    return encode(h if valid else h ^ 1, r, s, *q)


USAGE: Dict[str, Usage] = {
    NAME: Usage("H R S QX QY (32-byte big-endian words)", words_input(("h", "r", "s", "qx", "qy")),
                lambda rng, k, true: random_signature(rng, true), example_k=1, one_input=True,
                precompile="P256VERIFY (0x100)",
                precompile_price=lambda data: PRECOMPILE_PRICE,
                measured_price=lambda data: 3_814),                   # EIP-7904
}
