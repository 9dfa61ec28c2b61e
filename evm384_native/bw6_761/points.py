"""BW6-761 points off-chain, in pure Python (:mod:`..curves.weierstrass`: G1 on
y^2 = x^3 - 1, G2 on the M-twist y^2 = x^3 + 4, both over Fp), and EIP-3026's encodings
(96-byte big-endian coordinates, x then y; infinity as zeros): what makes example inputs
for ``evm384 calldata`` and ``evm384 gas`` on the plain wheel."""
from __future__ import annotations

from ..curves import weierstrass
from ..curves.bw6_761 import BW6_761

FP_BYTES = 96
G1_BYTES = G2_BYTES = 2 * FP_BYTES
PAIR_BYTES = G1_BYTES + G2_BYTES
P, R = BW6_761.p, BW6_761.r
G1 = weierstrass.Curve(P, 0, BW6_761.b % P, R, BW6_761.g1)
G2 = weierstrass.Curve(P, 0, BW6_761.twist_b, R, BW6_761.g2)


def encode_point(point: weierstrass.Point) -> bytes:
    """x || y, 96 bytes each big-endian; 192 zero bytes for infinity."""
    if point is None:
        return bytes(G1_BYTES)
    return b"".join(value.to_bytes(FP_BYTES, "big") for value in point)
