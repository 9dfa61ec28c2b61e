"""The calldata of each BLS12-377 contract: the precompile's input as it is, and for the
hinted check that input followed by its hint (:func:`.hint.pairing_hint` computes it)."""
from __future__ import annotations

from typing import Any

from ..ec.bls12_hinted import HINT_BYTES
from ..usage import pairing_calldata
from .contracts import CONTRACTS

_ARGUMENTS = {"bls12_377_pairing_check": ("data",),
              "bls12_377_pairing_check_hinted": ("data", "hint")}


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bls12_377_pairing_check(data)``, EIP-2539's input
    (k x 384 bytes: :func:`.points.encode_g1` then :func:`.points.encode_g2` per pair), and
    ``bls12_377_pairing_check_hinted(data, hint)``."""
    return pairing_calldata(name, args, _ARGUMENTS, CONTRACTS, HINT_BYTES)
