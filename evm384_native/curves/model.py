"""What a pairing-friendly curve is to the code generators: numbers only (the model is
arkworks' ``Bls12Config`` / ``BnConfig``). The algorithms of each family (the Miller loop's
digits and closing steps, the hard part of the final exponentiation, the residue-witness
check) are written once in :mod:`evm384_native.tower.families`; a curve names its family.

The tower has one shape, its non-residues the curve's: Fp2 = Fp[u]/(u^2 - beta) (beta =
``fp2_nonresidue``, -1 for BN254 and BLS12-381), Fp6 = Fp2[v]/(v^3 - xi),
Fp12 = Fp6[w]/(w^2 - v); G1: y^2 = x^3 + b over Fp; G2 on the sextic twist over Fp2,
y^2 = x^3 + b xi (M-type) or x^3 + b / xi (D-type).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional, Tuple, Union

from . import weierstrass
from .fields import Fp2Int, QuadraticExtension, is_square

G1Int = Tuple[int, int]
G2Int = Tuple[Fp2Int, Fp2Int]
TWISTS = ("M", "D")
FAMILIES = ("bls12", "bn")


@dataclass(frozen=True)
class Glv:
    """An endomorphism of G1 for GLV scalar multiplication (Gallant, Lambert and Vanstone,
    "Faster point multiplication on elliptic curves with efficient endomorphisms", CRYPTO
    2001): phi(x, y) = (beta x, y), beta a cube root of unity in Fp, acts on G1 as [lam]
    (lam a cube root of unity mod r); ``basis`` two short vectors (a, b) of the lattice
    a + b lam = 0 (mod r), Gauss-reduced."""
    beta: int
    lam: int
    basis: Tuple[Tuple[int, int], Tuple[int, int]]


@dataclass(frozen=True)
class PairingCurve:
    name: str
    family: str                   # "bls12" or "bn"
    p: int                        # the base field's modulus
    r: int                        # the order of G1, G2 and GT
    x: int                        # the family parameter (signed)
    b: int                        # G1: y^2 = x^3 + b
    xi: Fp2Int                    # the non-residue of Fp6 over Fp2 (v^3 = xi)
    twist: str                    # "M" or "D": where the sparse line's coefficients sit
    g1: G1Int                     # generators, affine
    g2: G2Int
    glv: Optional[Glv] = None     # G1's endomorphism, where a contract uses it
    fp2_nonresidue: int = -1      # beta: Fp2 = Fp[u]/(u^2 - beta)

    def __post_init__(self) -> None:
        if self.family not in FAMILIES or self.twist not in TWISTS:
            raise ValueError(f"{self.name}: family must be one of {FAMILIES}, twist one "
                             f"of {TWISTS}")
        if is_square(self.fp2_nonresidue, self.p):   # Euler's criterion
            raise ValueError(f"{self.name}: Fp[u]/(u^2 - beta) is a field only for a "
                             f"non-square beta, not {self.fp2_nonresidue}")

    @cached_property
    def fp2(self) -> QuadraticExtension:
        """Python arithmetic in the curve's Fp2."""
        return QuadraticExtension(self.p, self.fp2_nonresidue)

    @property
    def a(self) -> int:
        """G1's a: 0 (y^2 = x^3 + b) in both families."""
        return 0

    @property
    def twist_b(self) -> Fp2Int:
        """b' of the twist E': y^2 = x^3 + b'."""
        b: Fp2Int = (self.b, 0)
        if self.twist == "M":
            return self.fp2.mul(b, self.xi)
        return self.fp2.mul(b, self.fp2.inverse(self.xi))

    @property
    def field_bytes(self) -> int:
        """Bytes of a value of Fp: the modulus' 64-bit limbs, 8 bytes each."""
        return limb_bytes(self.p)


@dataclass(frozen=True)
class PrimeField:
    """A prime field with no curve over it (Poseidon's: BN254's scalar field): all the
    field code (:class:`evm384_native.tower.fp.Emitter`) reads of a curve, its modulus."""
    name: str
    p: int

    @property
    def field_bytes(self) -> int:
        return limb_bytes(self.p)


def limb_bytes(p: int) -> int:
    """Bytes of a value mod p as EVMMAX stores it: p's 64-bit limbs, 8 bytes each."""
    return 8 * -(-p.bit_length() // 64)


@dataclass(frozen=True)
class WeierstrassCurve:
    """A prime-order curve y^2 = x^3 + a x + b over Fp with no pairing (secp256k1: a = 0
    and a GLV endomorphism; P-256: a = -3): what the curve-generic code
    (:mod:`evm384_native.ec`) reads, its moduli, a, b, generator and :class:`Glv`."""
    name: str
    p: int                        # the base field's modulus
    r: int                        # the group's prime order (ECDSA's n)
    a: int
    b: int
    g1: G1Int
    glv: Optional[Glv] = None     # an endomorphism, where a contract uses it

    @property
    def field_bytes(self) -> int:
        return limb_bytes(self.p)

    @property
    def affine(self) -> weierstrass.Curve:
        """The curve for the pure-Python group law (:mod:`.weierstrass`)."""
        return weierstrass.Curve(self.p, self.a, self.b, self.r, self.g1)


# What the field code takes: a curve's base field, or a bare prime field.
Field = Union[PairingCurve, PrimeField, WeierstrassCurve]
# A curve whose G1 the curve-generic code (:mod:`evm384_native.ec`) works on.
EllipticCurve = Union[PairingCurve, WeierstrassCurve]
