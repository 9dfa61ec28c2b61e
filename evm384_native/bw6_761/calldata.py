"""The calldata of the BW6-761 contract: EIP-3026's pairing input as it is."""
from __future__ import annotations

from typing import Any

from ..usage import pairing_calldata
from .contracts import CONTRACTS

_ARGUMENTS = {"bw6_761_pairing_check": ("data",)}


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bw6_761_pairing_check(data)``, EIP-3026's input
    (k x 384 bytes: :func:`.points.encode_point` of G1 then of G2 per pair)."""
    return pairing_calldata(name, args, _ARGUMENTS, CONTRACTS, 0)
