"""BN254, alias alt_bn128 (the curve of EIP-196/197's precompiles 0x06-0x08). Constants
from EIP-197 and py_ecc's ``bn128`` (p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,
r = 36x^4 + 36x^3 + 18x^2 + 6x + 1); checked against py_ecc in the tests.

G1's GLV endomorphism: beta and lam are the cube roots of unity (mod p and mod r) with
(beta x, y) = [lam] (x, y) on G1 (lam = 36x^3 + 18x^2 + 6x + 1); the lattice basis
(-(2x + 1), 6x^2 + 2x), (-(6x^2 + 4x + 1), -(2x + 1)) is what Gauss reduction of
(r, 0), (-lam, 1) gives (determinant r; both vectors about 2^127 long).
tests/test_bn254_glv.py checks all of it."""
from .model import Glv, PairingCurve

_X = 4965661367192848881

BN254 = PairingCurve(
    name="bn254",
    family="bn",
    p=21888242871839275222246405745257275088696311157297823662689037894645226208583,
    r=21888242871839275222246405745257275088548364400416034343698204186575808495617,
    x=_X,
    b=3,
    xi=(9, 1),
    twist="D",
    g1=(1, 2),
    g2=((10857046999023057135944570762232829481370756359578518086990519993285655852781,
         11559732032986387107991004021392285783925812861821192530917403151452391805634),
        (8495653923123431417604973247489272438418190587263600148770280649306958101930,
         4082367875863433681332203403145435568316851327593401208105741076214120093531)),
    glv=Glv(beta=2203960485148121921418603742825762020974279258880205651966,
            lam=36 * _X**3 + 18 * _X**2 + 6 * _X + 1,
            basis=((-(2 * _X + 1), 6 * _X**2 + 2 * _X),
                   (-(6 * _X**2 + 4 * _X + 1), -(2 * _X + 1)))),
)
