"""secp256k1 (SEC 2 v2, "Recommended Elliptic Curve Domain Parameters", Certicom 2010,
section 2.4.1): y^2 = x^3 + 7 over Fp, p = 2^256 - 2^32 - 977, a group of prime order n
(the curve of Ethereum's signatures and of precompile 0x01, ECRECOVER).

Its GLV endomorphism (beta x, y) = [lam] (x, y) has libsecp256k1's constants (beta, lam
cube roots of unity mod p and mod n; ``secp256k1_scalar_split_lambda``'s lattice vectors
u = (a1, b1), w = (a2, b2)); the basis here is (-(u + w), u), the shortest pair with the
parities the scalar split's parity fix reads (v1 = (1, 0), v2 = (1, 1) mod 2) and
determinant +n. tests/test_ecrecover.py checks all of it."""
from .model import Glv, WeierstrassCurve

_A1, _B1 = 0x3086d221a7d46bcde86c90e49284eb15, -0xe4437ed6010e88286f547fa90abfe4c3
_A2, _B2 = 0x114ca50f7a8e2f3f657c1108d9d44cfd8, 0x3086d221a7d46bcde86c90e49284eb15

SECP256K1 = WeierstrassCurve(
    name="secp256k1",
    p=2**256 - 2**32 - 977,
    r=0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141,
    a=0,
    b=7,
    g1=(0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798,
        0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8),
    glv=Glv(beta=0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501ee,
            lam=0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72,
            basis=((-(_A1 + _A2), -(_B1 + _B2)), (_A1, _B1))),
)
