"""Run the BLS12-381 contracts from Python: what each computes for Python inputs, on an engine
(``execute``'s options pass through; ``target`` picks the instruction set, "evmmax" for the
contracts built for it). Invalid input (the precompile's error) makes a contract REVERT:
RuntimeError."""
from __future__ import annotations

from typing import Any, Dict, Optional, Sequence

from ..ec import bls12_hinted as hinted
from . import hinted_add
from .add_hint import add_hint
from .calldata import Pair, pairs_from_eip2537
from .family import FAMILY
from .hint import pairing_hint


# ``execute`` of contract ``name`` on ``encode_calldata(name, *args)``; RuntimeError if it fails
run_contract = FAMILY.run


def pairing(g1: bytes, g2: bytes, **execute_options: Any) -> bytes:
    """e(P, Q) as blst computes it (576 bytes, blst's memory layout); P as 96 bytes x‖y,
    Q as 192 bytes x.c0‖x.c1‖y.c0‖y.c1, big-endian."""
    return FAMILY.run("pairing", g1, g2, **execute_options).output


def miller_loop(pairs: Sequence[Pair], **execute_options: Any) -> bytes:
    """The product of the Miller loops of k pairs (one shared squaring per step)."""
    return FAMILY.run("miller_loop", list(pairs), **execute_options).output


def final_exponentiation(f: bytes, **execute_options: Any) -> bytes:
    """f^(3 (p^12 - 1) / r) like blst; 576 bytes in and out."""
    return FAMILY.run("final_exponentiation", f, **execute_options).output


def pairing_product_is_one(pairs: Sequence[Pair], **execute_options: Any) -> bool:
    """True if the product of e(P_i, Q_i) is one (no validation of the points)."""
    output = FAMILY.run("pairing_product_is_one", list(pairs), **execute_options).output
    return int.from_bytes(output, "big") == 1


def pairing_check_hinted(pairs: Sequence[Pair], hint: Optional[bytes] = None,
                         **execute_options: Any) -> bool:
    """:func:`pairing_product_is_one` without a final exponentiation: the contract checks
    ``hint`` (computed by :func:`.hint.pairing_hint` on the fast engine when not given).
    False if the product is not one, or if the hint is wrong."""
    pairs = list(pairs)
    if hint is None:
        hint = pairing_hint(pairs)
    output = FAMILY.run("pairing_check_hinted", pairs, hint, **execute_options).output
    return int.from_bytes(output, "big") == 1


def eip2537_pairing_check_hinted(data: bytes, hint: Optional[bytes] = None,
                                 **execute_options: Any) -> bytes:
    """:func:`eip2537_pairing_check` without a final exponentiation: the same validation,
    then the check of ``hint`` (computed when not given). Invalid input: RuntimeError."""
    if hint is None:
        try:
            hint = pairing_hint(pairs_from_eip2537(data))
        except ValueError:                        # malformed: the contract rejects it
            hint = bytes(hinted.HINT_BYTES)
    return FAMILY.run("eip2537_pairing_check_hinted", data, hint, **execute_options).output


def eip2537_pairing_check(data: bytes, **execute_options: Any) -> bytes:
    """What the EIP-2537 precompile 0x0f returns for ``data``: a 32-byte word, 1 if the
    product of the pairings is one. Invalid input (the precompile's error) makes the
    contract revert: RuntimeError."""
    return FAMILY.run("eip2537_pairing_check", data, **execute_options).output


def eip2537_g1add(data: bytes, **execute_options: Any) -> bytes:
    """What the EIP-2537 precompile 0x0b (G1 addition) returns for ``data`` (256 bytes: two
    points) : the 128-byte sum. Invalid input makes the contract revert: RuntimeError."""
    return FAMILY.run("eip2537_g1add", data, **execute_options).output


def eip2537_g2add(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x0d (G2 addition): 512 bytes in, the 256-byte sum out."""
    return FAMILY.run("eip2537_g2add", data, **execute_options).output


def _add_hinted(name: str, data: bytes, hint: Optional[bytes],
                 execute_options: Dict[str, Any]) -> bytes:
    if hint is None:
        try:
            hint = add_hint(hinted_add.degree_of(name), data)
        except ValueError:                        # malformed: the contract rejects it
            hint = bytes(hinted_add.hint_bytes(hinted_add.degree_of(name)))
    return FAMILY.run(name, data, hint, **execute_options).output


def eip2537_g1add_hinted(data: bytes, hint: Optional[bytes] = None,
                         **execute_options: Any) -> bytes:
    """:func:`eip2537_g1add` given the slope (48 bytes; computed by
    :func:`.add_hint.add_hint` when not given), EVMMAX only: the 128-byte sum. Invalid
    input or a wrong hint makes the contract revert: RuntimeError."""
    return _add_hinted("eip2537_g1add_hinted", data, hint, execute_options)


def eip2537_g2add_hinted(data: bytes, hint: Optional[bytes] = None,
                         **execute_options: Any) -> bytes:
    """:func:`eip2537_g2add` given the slope (96 bytes, c0 then c1), EVMMAX only: the
    256-byte sum."""
    return _add_hinted("eip2537_g2add_hinted", data, hint, execute_options)


def eip2537_g1msm(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x0c (G1 MSM): k x 160 bytes of (point, scalar) in, 128 bytes out."""
    return FAMILY.run("eip2537_g1msm", data, **execute_options).output


def eip2537_g2msm(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x0e (G2 MSM): k x 288 bytes of (point, scalar) in, 256 bytes out."""
    return FAMILY.run("eip2537_g2msm", data, **execute_options).output


def eip2537_map_fp_to_g1(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x10 (map Fp to G1): 64 bytes in, the 128-byte point out."""
    return FAMILY.run("eip2537_map_fp_to_g1", data, **execute_options).output


def eip2537_map_fp2_to_g2(data: bytes, **execute_options: Any) -> bytes:
    """The precompile 0x11 (map Fp2 to G2): 128 bytes in, the 256-byte point out."""
    return FAMILY.run("eip2537_map_fp2_to_g2", data, **execute_options).output
