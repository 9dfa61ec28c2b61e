"""Python arithmetic in Fp2 = Fp[u]/(u^2 + 1), for constants worked out at build time
(Frobenius coefficients, twist constants) and for the off-chain point codecs."""
from __future__ import annotations

from typing import Tuple

Fp2Int = Tuple[int, int]                          # (c0, c1) = c0 + c1 u


def fp2_mul(a: Fp2Int, b: Fp2Int, p: int) -> Fp2Int:
    return ((a[0] * b[0] - a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)


def fp2_pow(a: Fp2Int, exponent: int, p: int) -> Fp2Int:
    result: Fp2Int = (1, 0)
    for bit in bin(exponent)[2:]:
        result = fp2_mul(result, result, p)
        if bit == "1":
            result = fp2_mul(result, a, p)
    return result


def fp2_inverse(a: Fp2Int, p: int) -> Fp2Int:
    """a^-1 = conj(a) / (a0^2 + a1^2)."""
    norm_inverse = pow(a[0] * a[0] + a[1] * a[1], -1, p)
    return (a[0] * norm_inverse % p, -a[1] * norm_inverse % p)
