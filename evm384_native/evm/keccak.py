"""Keccak-256 (the original Keccak padding Ethereum uses, not NIST SHA3-256).

The permutation is C (csrc/keccak256.c): the package needs no hashing
dependency, and a pure-Python Keccak-f[1600] costs ~0.2-0.4 ms per 136-byte block.
"""
from __future__ import annotations

from .._native import ffi, lib

DIGEST_BYTES = 32


def keccak256(data: bytes) -> bytes:
    """The 32-byte Keccak-256 digest of ``data`` (any bytes-like object)."""
    digest = ffi.new("uint8_t[]", DIGEST_BYTES)
    lib.evm_keccak256(ffi.from_buffer("uint8_t[]", data), len(data), digest)
    return bytes(digest)
