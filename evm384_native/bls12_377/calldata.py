"""The calldata of each BLS12-377 contract: the precompile's input as it is."""
from __future__ import annotations

from typing import Any

from .contracts import CONTRACTS


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bls12_377_pairing_check(data)``, EIP-2539's input
    (k x 384 bytes: :func:`.points.encode_g1` then :func:`.points.encode_g2` per pair)."""
    if name not in CONTRACTS:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    if len(args) != 1:
        raise ValueError(f"encode_calldata({name!r}, ...) takes 1 argument after the name "
                         f"(data), got {len(args)}")
    return bytes(args[0])
