"""Run the BN254 contracts from Python: what each precompile returns for an input, computed
by the contract on an engine (``execute``'s options pass through; ``target`` picks the
instruction set). Invalid input (the precompile's error) makes the contract REVERT:
RuntimeError."""
from __future__ import annotations

from typing import Any, Optional

from .family import FAMILY
from .hint import pairing_hint

# ``execute`` of contract ``name`` on ``encode_calldata(name, *args)``; RuntimeError if it fails
run_contract = FAMILY.run


def bn254_add(data: bytes, **options: Any) -> bytes:
    """ECADD (0x06): the 64-byte sum of the two G1 points in ``data``."""
    return run_contract("bn254_add", data, **options).output


def bn254_mul(data: bytes, **options: Any) -> bytes:
    """ECMUL (0x07): the 64-byte product of the G1 point and the scalar in ``data``."""
    return run_contract("bn254_mul", data, **options).output


def bn254_pairing_check(data: bytes, **options: Any) -> bytes:
    """ECPAIRING (0x08): a 32-byte word, 1 if the product of the pairings is one."""
    return run_contract("bn254_pairing_check", data, **options).output


def bn254_pairing_check_hinted(data: bytes, hint: Optional[bytes] = None,
                               **options: Any) -> bytes:
    """:func:`bn254_pairing_check` without a final exponentiation: the contract checks
    ``hint`` (computed by :func:`.hint.pairing_hint` when not given)."""
    if hint is None:
        try:
            hint = pairing_hint(data)
        except ValueError:                        # invalid input: the contract rejects it
            hint = bytes(192)
    return run_contract("bn254_pairing_check_hinted", data, hint, **options).output
