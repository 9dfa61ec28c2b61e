"""``modexp``'s :class:`~evm384_native.usage.Usage`: the precompile's input, priced as
MODEXP (0x05) is since Osaka (EIP-7883, whose prices EIP-7904 takes as measured)."""
from __future__ import annotations

import random
from typing import Dict, List

from ..curves.bn254 import BN254
from ..usage import Usage
from .contracts import NAME
from .reference import encode, price_eip7883


def _from_values(values: List[bytes]) -> bytes:
    """BASE EXPONENT MODULUS as big-endian bytes, each in its own length."""
    if len(values) != 3:
        raise ValueError(f"three values (base, exponent, modulus); got {len(values)}")
    base, exponent, modulus = values
    return encode(*(int.from_bytes(v, "big") for v in values),
                  len(base), len(exponent), len(modulus))


def _inversion(rng: random.Random, k: int, true: bool) -> bytes:
    """The call EIP-8200 found most common: an inversion modulo BN254's p (E = p - 2)."""
    p = BN254.p
    return encode(rng.randrange(1, p), p - 2, p, 32, 32, 32)


USAGE: Dict[str, Usage] = {
    NAME: Usage("BASE EXPONENT MODULUS (big-endian values, each in its own length)",
                _from_values, _inversion, example_k=1, one_input=True, relation=False,
                precompile="MODEXP (0x05)", precompile_price=price_eip7883,
                measured_price=price_eip7883),
}
