"""The calldata of each BN254 contract: the precompile's input as it is, and for the hinted
check that input followed by its hint (:func:`.hint.pairing_hint` computes it)."""
from __future__ import annotations

from typing import Any

from .contracts import CONTRACTS
from .hinted import HINT_BYTES

_ARGUMENTS = {"bn254_add": ("data",), "bn254_mul": ("data",),
              "bn254_pairing_check": ("data",), "bn254_pairing_check_hinted": ("data", "hint")}


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``bn254_add(data)``, ``bn254_mul(data)``,
    ``bn254_pairing_check(data)`` (each the precompile's input) and
    ``bn254_pairing_check_hinted(data, hint)``."""
    expected = _ARGUMENTS.get(name)
    if expected is None:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    if len(args) != len(expected):
        raise ValueError(f"encode_calldata({name!r}, ...) takes {len(expected)} argument"
                         f"{'s' if len(expected) > 1 else ''} after the name "
                         f"({', '.join(expected)}), got {len(args)}")
    if "hint" in expected and len(args[-1]) != HINT_BYTES:
        raise ValueError(f"a hint is {HINT_BYTES} bytes (pairing_hint computes it)")
    return b"".join(bytes(arg) for arg in args)
