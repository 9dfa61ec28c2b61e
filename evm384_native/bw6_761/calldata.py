"""The calldata of the BW6-761 contracts: EIP-3026's pairing input as it is, and for the
hinted check that input followed by its hint (:func:`.hint.pairing_hint` computes it)."""
from __future__ import annotations

from typing import Any

from ..usage import pairing_calldata
from .contracts import CONTRACTS
from .hinted import HINT_BYTES

_ARGUMENTS = {"bw6_761_pairing_check": ("data",),
              "bw6_761_pairing_check_hinted": ("data", "hint")}


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bw6_761_pairing_check(data)``, EIP-3026's input
    (k x 384 bytes: :func:`.points.encode_point` of G1 then of G2 per pair), and
    ``bw6_761_pairing_check_hinted(data, hint)``."""
    return pairing_calldata(name, args, _ARGUMENTS, CONTRACTS, HINT_BYTES)
