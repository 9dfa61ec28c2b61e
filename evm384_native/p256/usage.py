"""``p256verify``'s :class:`~evm384_native.usage.Usage` and calldata: h, r, s, qx, qy as
32-byte big-endian words (160 bytes), priced beside EIP-7951's P256VERIFY (0x100,
6,900 gas whatever the input)."""
from __future__ import annotations

import random
from typing import Dict

from ..usage import Usage, words_input
from .contract import NAME
from .reference import G, N, PRECOMPILE_PRICE, encode, multiply, sign

WORD = 32


def encode_calldata(name: str, h: int, r: int, s: int, qx: int, qy: int) -> bytes:
    """Calldata for ``p256verify``: the five values, each an int in [0, 2^256) (out of
    range ones are the contract's to reject)."""
    if name != NAME:
        raise ValueError(f"unknown contract {name!r}; choose {NAME}")
    if any(not 0 <= v < 1 << 256 for v in (h, r, s, qx, qy)):
        raise ValueError(f"{NAME} takes five 32-byte words: ints in [0, 2^256)")
    return encode(h, r, s, qx, qy)


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
                precompile_price=lambda data: PRECOMPILE_PRICE),
}
