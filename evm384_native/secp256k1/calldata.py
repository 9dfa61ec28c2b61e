"""``ecrecover``'s calldata: h, v, r, s as 32-byte big-endian words (128 bytes)."""
from .contracts import NAME
from .reference import encode


def encode_calldata(name: str, h: int, v: int, r: int, s: int) -> bytes:
    """Calldata for ``ecrecover``: the four values, each an int in [0, 2^256) (out of
    range ones are the contract's to reject)."""
    if name != NAME:
        raise ValueError(f"unknown contract {name!r}; choose {NAME}")
    if any(not 0 <= value < 1 << 256 for value in (h, v, r, s)):
        raise ValueError(f"{NAME} takes four 32-byte words: ints in [0, 2^256)")
    return encode(h, v, r, s)
