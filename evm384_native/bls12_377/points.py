"""BLS12-377 points off-chain, in pure Python (:mod:`..curves.points`' groups of the curve),
and EIP-2539's encodings (EIP-2537's: :mod:`..curves.eip2537`): what makes example inputs
for ``evm384 calldata`` and ``evm384 gas`` on the plain wheel."""
from __future__ import annotations

from ..curves.bls12_377 import BLS12_377
from ..curves.eip2537 import FP_BYTES, G1_BYTES, G2_BYTES, PAIR_BYTES, encode_g1, encode_g2
from ..curves.points import pairing_groups

__all__ = ["FP_BYTES", "G1", "G1_BYTES", "G2", "G2_BYTES", "P", "PAIR_BYTES", "R",
           "encode_g1", "encode_g2"]

P, R = BLS12_377.p, BLS12_377.r
G1, G2 = pairing_groups(BLS12_377)
