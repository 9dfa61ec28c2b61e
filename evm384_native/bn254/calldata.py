"""The calldata of each BN254 contract: the precompile's input as it is, and for the hinted
check that input followed by its hint (:func:`.hint.pairing_hint` computes it)."""
from __future__ import annotations

from typing import Any

from ..usage import pairing_calldata
from .contracts import CONTRACTS
from .hinted import HINT_BYTES

_ARGUMENTS = {"bn254_add": ("data",), "bn254_mul": ("data",),
              "bn254_pairing_check": ("data",), "bn254_pairing_check_hinted": ("data", "hint")}


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bn254_add(data)``, ``bn254_mul(data)``,
    ``bn254_pairing_check(data)`` (each the precompile's input) and
    ``bn254_pairing_check_hinted(data, hint)``."""
    return pairing_calldata(name, args, _ARGUMENTS, CONTRACTS, HINT_BYTES)
