"""P-256 (secp256r1): y^2 = x^3 - 3x + b over Fp, p = 2^256 - 2^224 + 2^192 + 2^96 - 1, a
group of prime order n (the curve of EIP-7951's P256VERIFY, precompile 0x100).

Every number is from SEC 2 v2 ("Recommended Elliptic Curve Domain Parameters", Certicom
2010), section 2.4.2 (secp256r1), equal to FIPS 186-4 appendix D.1.2.3 (curve P-256);
tests/test_p256.py checks G on the curve and [n] G = infinity."""
from .model import WeierstrassCurve

P256 = WeierstrassCurve(
    name="p256",
    p=0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
    r=0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
    a=-3,
    b=0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
    g1=(0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296,
        0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5),
)
