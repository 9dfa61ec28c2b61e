"""The raw pair encoding of ``miller_loop`` and ``pairing_product_is_one`` (and the hint
prover): per pair G1 x‖y then G2 x.c0‖x.c1‖y.c0‖y.c1, each value 48 bytes little-endian,
from points given as big-endian affine coordinates."""
from __future__ import annotations

from typing import List, Sequence, Tuple

from ..curves.bls12_381 import BLS12_381


def _be_values(data: bytes, count: int, what: str) -> List[int]:
    if not isinstance(data, (bytes, bytearray)) or len(data) != 48 * count:
        raise ValueError(f"{what} must be {48 * count} bytes (big-endian affine coordinates)")
    values = [int.from_bytes(data[i:i + 48], "big") for i in range(0, len(data), 48)]
    if any(v >= BLS12_381.p for v in values):
        raise ValueError(f"{what}: coordinate not below p")
    return values


def pair_calldata(g1: bytes, g2: bytes) -> bytes:
    values = _be_values(g1, 2, "G1 point") + _be_values(g2, 4, "G2 point")
    return b"".join(v.to_bytes(48, "little") for v in values)


def pairs_calldata(pairs: Sequence[Tuple[bytes, bytes]]) -> bytes:
    """The raw encoding of k (G1, G2) pairs of big-endian affine coordinates."""
    return b"".join(pair_calldata(g1, g2) for g1, g2 in pairs)
