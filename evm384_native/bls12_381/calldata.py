"""The BLS12-381 contracts' calldata from Python values (the layouts are in
:mod:`.contracts`' module doc), and EIP-2537's pairing-check input read back as pairs."""
from __future__ import annotations

from typing import Any, List, Tuple

from ..ec import bls12_hinted as hinted
from . import eip2537_ops, hinted_add
from .raw_pairs import pair_calldata, pairs_calldata

Pair = Tuple[bytes, bytes]
GT_BYTES = 576
# the contracts whose calldata this module makes (every one of the family's)
NAMES = ("miller_loop", "final_exponentiation", "pairing", "pairing_product_is_one",
         "eip2537_pairing_check", "pairing_check_hinted", "eip2537_pairing_check_hinted",
         *eip2537_ops.BUILDERS, *hinted_add.CONTRACTS)

EIP2537_FP_BYTES, EIP2537_PAIR_BYTES = 64, 384


def pairs_from_eip2537(data: bytes) -> List[Pair]:
    """An EIP-2537 pairing-check input (k x 384 bytes: 64-byte big-endian field elements,
    16 zero bytes of padding each) as this module's (g1, g2) pairs. Checks the length and
    the padding only."""
    if not data or len(data) % EIP2537_PAIR_BYTES:
        raise ValueError(f"EIP-2537 input must be a positive multiple of {EIP2537_PAIR_BYTES} bytes")
    pad = EIP2537_FP_BYTES - 48
    fields = []
    for i in range(0, len(data), EIP2537_FP_BYTES):
        if any(data[i:i + pad]):
            raise ValueError(f"EIP-2537 field element at byte {i} has non-zero padding")
        fields.append(bytes(data[i + pad:i + EIP2537_FP_BYTES]))
    return [(b"".join(fields[i:i + 2]), b"".join(fields[i + 2:i + 6]))
            for i in range(0, len(fields), 6)]


_UNHINTED = {"pairing_check_hinted": "pairing_product_is_one",
             "eip2537_pairing_check_hinted": "eip2537_pairing_check"}


def _arguments(name: str, args: tuple, expected: str) -> tuple:
    """``args`` if there are as many as ``expected`` names, else a ValueError saying what
    the contract takes (not Python's bare "not enough values to unpack")."""
    names = expected.split(", ")
    if len(args) != len(names):
        raise ValueError(f"encode_calldata({name!r}, ...) takes {len(names)} argument"
                         f"{'s' if len(names) > 1 else ''} after the name ({expected}), "
                         f"got {len(args)}")
    return args


def _pairs_argument(name: str, args: tuple) -> List[Pair]:
    (pairs,) = _arguments(name, args, "pairs")
    if isinstance(pairs, (bytes, bytearray)) or not all(
            isinstance(pair, (tuple, list)) and len(pair) == 2 for pair in pairs):
        raise ValueError(f"{name}: pairs must be a list of (g1 bytes, g2 bytes) tuples")
    if not pairs:
        raise ValueError("at least one pair is needed")
    return list(pairs)


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name``: ``pairing(g1, g2)``, ``miller_loop(pairs)``,
    ``pairing_product_is_one(pairs)``, ``final_exponentiation(f)``,
    ``eip2537_pairing_check(data)``, ``pairing_check_hinted(pairs, hint)``,
    ``eip2537_pairing_check_hinted(data, hint)``, ``eip2537_g1add_hinted(data, hint)``,
    ``eip2537_g2add_hinted(data, hint)`` and the other ``eip2537_*(data)``; see the module
    doc."""
    if name in _UNHINTED:                         # the unhinted input, then the hint
        inputs, hint = _arguments(name, args, "inputs, hint")
        if not isinstance(hint, (bytes, bytearray)) or len(hint) != hinted.HINT_BYTES:
            raise ValueError(f"a hint is {hinted.HINT_BYTES} bytes (pairing_hint computes it)")
        return encode_calldata(_UNHINTED[name], inputs) + bytes(hint)
    if name == "pairing":
        g1, g2 = _arguments(name, args, "g1, g2")
        return pair_calldata(g1, g2)
    if name in ("miller_loop", "pairing_product_is_one"):
        return pairs_calldata(_pairs_argument(name, args))
    if name in hinted_add.CONTRACTS:              # the precompile's input, then the hint
        data, hint = _arguments(name, args, "data, hint")
        return hinted_add.join_calldata(name, data, hint)
    if name == "eip2537_pairing_check" or name in eip2537_ops.BUILDERS:
        (data,) = _arguments(name, args, "data")  # the precompile's input, unchanged
        return bytes(data)
    if name == "final_exponentiation":
        (f,) = _arguments(name, args, "f")
        if len(f) != GT_BYTES:
            raise ValueError(f"an Fp12 is {GT_BYTES} bytes")
        return bytes(f)
    raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(NAMES)}")
