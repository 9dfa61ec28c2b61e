"""What a BW6 curve (Brezing-Weng, embedding degree k = 6, both G1 and G2 over Fp) is to
the code: numbers only, as :class:`evm384_native.curves.model.PairingCurve` is for the
k = 12 families. The tower: Fp3 = Fp[u]/(u^3 - xi) for a non-cube xi (``fp3_nonresidue``),
Fp6 = Fp3[v]/(v^2 - u) (v^6 = xi, so xi must be no square either: a sextic non-residue);
G1: y^2 = x^3 + b over Fp; G2 on the sextic twist over Fp, y^2 = x^3 + b xi (M-type) or
x^3 + b / xi (D-type). The optimal ate pairing's two Miller loops run over x + 1 and
x^3 - x^2 - x (El Housni and Guillevic, "Optimized and secure pairing-friendly elliptic
curves suitable for one layer proof composition", ePrint 2020/351; EIP-3026's loop_count_1
and loop_count_2), x the seed of the BLS12 curve whose p is this curve's r (the two-chain:
BLS12-377's x for BW6-761)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

from .model import TWISTS, limb_bytes

G1Int = Tuple[int, int]


@dataclass(frozen=True)
class Bw6Curve:
    name: str
    p: int                        # the base field's modulus
    r: int                        # the order of G1, G2 and GT
    x: int                        # the seed (BLS12-377's x for BW6-761)
    b: int                        # G1: y^2 = x^3 + b
    fp3_nonresidue: int           # xi: Fp3 = Fp[u]/(u^3 - xi)
    twist: str                    # "M" or "D"
    g1: G1Int                     # generators, affine, both over Fp
    g2: G1Int

    def __post_init__(self) -> None:
        p, xi = self.p, self.fp3_nonresidue
        if self.twist not in TWISTS:
            raise ValueError(f"{self.name}: twist must be one of {TWISTS}")
        if p % 6 != 1 or pow(xi, (p - 1) // 3, p) == 1 or pow(xi, (p - 1) // 2, p) == 1:
            raise ValueError(f"{self.name}: Fp[w]/(w^6 - xi) is a field only for p = 1 "
                             f"mod 6 and xi neither a cube nor a square, not {xi}")

    @property
    def twist_b(self) -> int:
        """b' of the twist E': y^2 = x^3 + b' over Fp."""
        if self.twist == "M":
            return self.b * self.fp3_nonresidue % self.p
        return self.b * pow(self.fp3_nonresidue, -1, self.p) % self.p

    @property
    def loop_counts(self) -> Tuple[int, int]:
        """The two Miller loops' counts: x + 1 and x^3 - x^2 - x, a short vector of the
        optimal ate lattice, (x + 1) + p (x^3 - x^2 - x) = 0 mod r (ePrint 2020/351)."""
        x = self.x
        return x + 1, x**3 - x**2 - x

    @property
    def field_bytes(self) -> int:
        """Bytes of a value of Fp: the modulus' 64-bit limbs, 8 bytes each."""
        return limb_bytes(self.p)
