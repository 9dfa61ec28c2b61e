"""The curve P-256 (secp256r1): y^2 = x^3 - 3x + b over Fp, a group of prime order n.

Every number is from SEC 2 v2 ("Recommended Elliptic Curve Domain Parameters", Certicom
2010), section 2.4.2 (secp256r1), equal to FIPS 186-4 appendix D.1.2.3 (curve P-256);
:mod:`tests.test_p256` checks G on the curve and [n] G = infinity.
"""
from __future__ import annotations

from ..curves.model import PrimeField

# p = 2^256 - 2^224 + 2^192 + 2^96 - 1
P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff
A = P - 3
B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b
N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296
GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5

FIELD = PrimeField("P-256", P)          # what the field code (the Emitter) reads
PRECOMPILE_PRICE = 6_900                # EIP-7951's P256VERIFY (0x100)
INPUT_BYTES = 160                       # h, r, s, qx, qy: 32-byte big-endian words
