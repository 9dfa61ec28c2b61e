"""``p256verify``'s calldata: h, r, s, qx, qy as 32-byte big-endian words (160 bytes)."""
from .contracts import NAME
from .reference import encode


def encode_calldata(name: str, h: int, r: int, s: int, qx: int, qy: int) -> bytes:
    """Calldata for ``p256verify``: the five values, each an int in [0, 2^256) (out of
    range ones are the contract's to reject)."""
    if name != NAME:
        raise ValueError(f"unknown contract {name!r}; choose {NAME}")
    if any(not 0 <= v < 1 << 256 for v in (h, r, s, qx, qy)):
        raise ValueError(f"{NAME} takes five 32-byte words: ints in [0, 2^256)")
    return encode(h, r, s, qx, qy)
