"""``modexp``'s calldata: the precompile's input (EIP-198)."""
from __future__ import annotations

from typing import Optional

from .contracts import CONTRACTS
from .reference import encode


def encode_calldata(name: str, base: int, exponent: int, modulus: int,
                    base_length: Optional[int] = None, exponent_length: Optional[int] = None,
                    modulus_length: Optional[int] = None) -> bytes:
    """MODEXP's input for ``base ** exponent % modulus``, each value in its given length in
    bytes (None: the fewest that hold it; the modulus at least one byte)."""
    if name not in CONTRACTS:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    for value in (base, exponent, modulus):
        if not isinstance(value, int) or value < 0:
            raise ValueError(f"MODEXP takes non-negative integers, not {value!r}")
    return encode(base, exponent, modulus, base_length, exponent_length, modulus_length)
