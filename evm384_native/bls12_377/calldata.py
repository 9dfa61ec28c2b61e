"""The calldata of each BLS12-377 contract: the precompile's input as it is, and for the
hinted check that input followed by its hint (:func:`.hint.pairing_hint` computes it)."""
from __future__ import annotations

from typing import Any

from ..ec.bls12_hinted import HINT_BYTES
from .contracts import CONTRACTS

_ARGUMENTS = {"bls12_377_pairing_check": ("data",),
              "bls12_377_pairing_check_hinted": ("data", "hint")}


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bls12_377_pairing_check(data)``, EIP-2539's input
    (k x 384 bytes: :func:`.points.encode_g1` then :func:`.points.encode_g2` per pair), and
    ``bls12_377_pairing_check_hinted(data, hint)``."""
    expected = _ARGUMENTS.get(name)
    if expected is None or name not in CONTRACTS:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    if len(args) != len(expected):
        raise ValueError(f"encode_calldata({name!r}, ...) takes {len(expected)} argument"
                         f"{'s' if len(expected) > 1 else ''} after the name "
                         f"({', '.join(expected)}), got {len(args)}")
    if "hint" in expected and len(args[-1]) != HINT_BYTES:
        raise ValueError(f"a hint is {HINT_BYTES} bytes (pairing_hint computes it)")
    return b"".join(bytes(arg) for arg in args)
