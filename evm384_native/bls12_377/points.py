"""BLS12-377 points off-chain, in pure Python (:mod:`..curves.points`' groups of the curve),
and EIP-2539's encodings: what makes example inputs for ``evm384 calldata`` and ``evm384
gas`` on the plain wheel."""
from __future__ import annotations

from ..curves.bls12_377 import BLS12_377
from ..curves.points import Affine, pairing_groups

P, R = BLS12_377.p, BLS12_377.r
FP_BYTES = 64                               # 16 zero bytes, then the value (48 bytes)
G1_BYTES, G2_BYTES = 2 * FP_BYTES, 4 * FP_BYTES
PAIR_BYTES = G1_BYTES + G2_BYTES
G1, G2 = pairing_groups(BLS12_377)


def _fields(*values: int) -> bytes:
    return b"".join(value.to_bytes(FP_BYTES, "big") for value in values)


def encode_g1(point: Affine) -> bytes:
    """128 bytes: x, y (EIP-2539); infinity as zeros."""
    x, y = point or (0, 0)
    return _fields(x, y)


def encode_g2(point: Affine) -> bytes:
    """256 bytes: x.c0, x.c1, y.c0, y.c1 (EIP-2539); infinity as zeros."""
    (x0, x1), (y0, y1) = point or ((0, 0), (0, 0))
    return _fields(x0, x1, y0, y1)
