"""BN254 points off-chain, in pure Python: G1 over Fp, G2 (the D-type twist) over Fp2
(:mod:`..curves.points`' groups of the curve), and the precompiles' encodings
(EIP-196/197): what makes random example inputs for ``evm384 calldata`` and ``evm384 gas``
on the plain wheel."""
from __future__ import annotations

from ..curves.bn254 import BN254
from ..curves.points import Affine, pairing_groups

P, R = BN254.p, BN254.r
WORD = 32
G1, G2 = pairing_groups(BN254)


def encode_g1(point: Affine) -> bytes:
    """64 bytes: x, y as 32-byte big-endian words (EIP-196); infinity as (0, 0)."""
    x, y = point or (0, 0)
    return _words(x, y)


def encode_g2(point: Affine) -> bytes:
    """128 bytes: x.c1, x.c0, y.c1, y.c0 (EIP-197: imaginary part first); infinity all 0."""
    (x0, x1), (y0, y1) = point or ((0, 0), (0, 0))
    return _words(x1, x0, y1, y0)


def _words(*values: int) -> bytes:
    return b"".join(value.to_bytes(WORD, "big") for value in values)
