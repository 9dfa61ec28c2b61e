"""Python arithmetic in a prime field Fp (squares and square roots) and in its quadratic
extension Fp2 = Fp[u]/(u^2 - beta) for a non-square beta (a curve's ``fp2_nonresidue``:
-1 for BN254 and BLS12-381, -5 for BLS12-377), for constants worked out at build time
(Frobenius coefficients, twist constants) and for the off-chain point codecs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

Fp2Int = Tuple[int, int]                          # (c0, c1) = c0 + c1 u


def is_square(a: int, p: int) -> bool:
    """Whether a is a square mod the odd prime p (Euler's criterion: a^((p-1)/2) = 1;
    0 is one)."""
    return pow(a, (p - 1) // 2, p) != p - 1


def sqrt(a: int, p: int) -> Optional[int]:
    """A square root of a mod the odd prime p, or None if a is not a square: for
    p = 3 mod 4 the power a^((p+1)/4) (one exponentiation), else Tonelli and Shanks'
    algorithm (Cohen, "A Course in Computational Algebraic Number Theory", algorithm
    1.5.1)."""
    a %= p
    if p % 4 == 3:
        root = pow(a, (p + 1) // 4, p)
        return root if root * root % p == a else None
    if a == 0:
        return 0
    if not is_square(a, p):
        return None
    s = ((p - 1) & (1 - p)).bit_length() - 1         # p - 1 = q 2^s, q odd
    q = (p - 1) >> s
    z = next(z for z in range(2, p) if not is_square(z, p))
    order, c, t, root = s, pow(z, q, p), pow(a, q, p), pow(a, (q + 1) // 2, p)
    while t != 1:                                     # root^2 = a t, t of order 2^i < 2^order
        i, t_power = 0, t
        while t_power != 1:
            t_power = t_power * t_power % p
            i += 1
        b = pow(c, 1 << (order - i - 1), p)
        order, c, t, root = i, b * b % p, t * b * b % p, root * b % p
    return root


@dataclass(frozen=True)
class QuadraticExtension:
    """Fp2 = Fp[u]/(u^2 - beta) on pairs of ints: ``beta`` must be a non-square mod p (the
    curve description checks it)."""
    p: int
    beta: int

    def mul(self, a: Fp2Int, b: Fp2Int) -> Fp2Int:
        p = self.p
        return ((a[0] * b[0] + self.beta * a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)

    def pow(self, a: Fp2Int, exponent: int) -> Fp2Int:
        result: Fp2Int = (1, 0)
        for bit in bin(exponent)[2:]:
            result = self.mul(result, result)
            if bit == "1":
                result = self.mul(result, a)
        return result

    def norm(self, a: Fp2Int) -> int:
        """a conj(a) = a0^2 - beta a1^2, in Fp."""
        return (a[0] * a[0] - self.beta * a[1] * a[1]) % self.p

    def inverse(self, a: Fp2Int) -> Fp2Int:
        """a^-1 = conj(a) / N(a)."""
        norm_inverse = pow(self.norm(a), -1, self.p)
        return (a[0] * norm_inverse % self.p, -a[1] * norm_inverse % self.p)

    def sqrt(self, a: Fp2Int) -> Optional[Fp2Int]:
        """A square root of a, or None: a is a square iff its norm is one in Fp; with
        alpha^2 = N(a), x0^2 = (a0 +- alpha) / 2 for one sign, and x1 = a1 / (2 x0) (then
        x0^2 + beta x1^2 = a0). An a in Fp has a root in Fp, or r u with r^2 = a / beta."""
        p = self.p
        a0, a1 = a[0] % p, a[1] % p
        if a1 == 0:
            root = sqrt(a0, p)
            if root is not None:
                return (root, 0)
            root = sqrt(a0 * pow(self.beta, -1, p), p)
            return None if root is None else (0, root)
        alpha = sqrt(self.norm(a), p)
        if alpha is None:
            return None
        half = pow(2, -1, p)
        for delta in ((a0 + alpha) * half % p, (a0 - alpha) * half % p):
            x0 = sqrt(delta, p)
            if x0:                                    # x0 = 0 would need a1 = 0
                return (x0, a1 * pow(2 * x0, -1, p) % p)
        return None
