"""A pure-Python BLS12-377 pairing, written from EIP-2539's parameters
(shared/docs/eip-2539.md) and the textbook optimal ate pairing of BLS12 curves, sharing no
code with the package (its Fp2, G1, G2 and Fp12 are written here): the tests' oracle.

Fp12 is Fp[w]/(w^12 + 5), a polynomial of 12 coefficients: the EIP's tower Fp2 = Fp[u]/
(u^2 + 5), Fp6 = Fp2[v]/(v^3 - u), Fp12 = Fp6[w]/(w^2 - v) gives w^2 = v, w^6 = u and
w^12 = -5. The twist is a D-type one, E': y^2 = x^3 + 1/u over Fp2, mapped into E(Fp12)
by (x, y) -> (x w^2, y w^3) (then y^2 = (x^3 + 1/u) w^6 = (x w^2)^3 + 1 as w^6 = u).
The pairing is e(P, Q) = f_{x,Q}(P)^((p^12 - 1) / r), the Miller loop over the positive
x = 0x8508c00000000001 with affine steps on the twist, each line
l(P) = yP - yT - lambda (xP - xT) evaluated in Fp12 (vertical lines dropped: they lie in
Fp6, which the final exponentiation sends to 1)."""
from __future__ import annotations

from typing import List, Optional, Tuple

P = 0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
R = 0x12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001
X = 0x8508c00000000001
NON_RESIDUE = P - 5                     # Fp2 = Fp[u]/(u^2 - (p - 5))
TWIST_B = (0, 0x010222f6db0fd6f343bd03737460c589dc7b4f91cd5fd889129207b63c6bf8000dd39e5c1ccccccd1c9ed9999999999a)
G1 = (0x008848defe740a67c8fc6225bf87ff5485951e2caa9d41bb188282c8bd37cb5cd5481512ffcd394eeab9b16eb21be9ef,
      0x01914a69c5102eff1f674f5d30afeec4bd7fb348ca3e52d96d182ad44fb82305c2fe3d3634a9591afd82de55559c8ea6)
G2 = ((0x018480be71c785fec89630a2a3841d01c565f071203e50317ea501f557db6b9b71889f52bb53540274e3e48f7c005196,
       0x00ea6040e700403170dc5a51b1b140d5532777ee6651cecbe7223ece0799c9de5cf89984bff76fe6b26bfefa6ea16afe),
      (0x00690d665d446f7bd960736bcbb2efb4de03ed7274b49a58e458c282f832d204f2cf88886d8c7c2ef094094409fd4ddf,
       0x00f8169fd28355189e549da3151a70aa61ef11ac3d591bf12463b01acee304c24279b83f5e52270bd9a1cdd185eb8f93))

Fp2 = Tuple[int, int]
Poly = List[int]
INFINITY = None


# --- Fp2 ---------------------------------------------------------------------------------

def f2_add(a: Fp2, b: Fp2) -> Fp2:
    return (a[0] + b[0]) % P, (a[1] + b[1]) % P


def f2_sub(a: Fp2, b: Fp2) -> Fp2:
    return (a[0] - b[0]) % P, (a[1] - b[1]) % P


def f2_mul(a: Fp2, b: Fp2) -> Fp2:
    return ((a[0] * b[0] + NON_RESIDUE * a[1] * b[1]) % P,
            (a[0] * b[1] + a[1] * b[0]) % P)


def f2_inverse(a: Fp2) -> Fp2:
    norm = (a[0] * a[0] - NON_RESIDUE * a[1] * a[1]) % P     # a * conj(a)
    scale = pow(norm, -1, P)
    return a[0] * scale % P, -a[1] * scale % P


# --- the curves: G1 over Fp (ints), G2 over Fp2 (pairs), affine, None at infinity ------------

class Field:
    """What the group law needs of a field, for Fp and Fp2 alike."""

    def __init__(self, add, sub, mul, inverse, zero, from_int):
        self.add, self.sub, self.mul, self.inverse = add, sub, mul, inverse
        self.zero, self.from_int = zero, from_int


FP = Field(lambda a, b: (a + b) % P, lambda a, b: (a - b) % P, lambda a, b: a * b % P,
           lambda a: pow(a, -1, P), 0, lambda n: n % P)
FP2 = Field(f2_add, f2_sub, f2_mul, f2_inverse, (0, 0), lambda n: (n % P, 0))


def on_curve(field: Field, point, b) -> bool:
    if point is INFINITY:
        return True
    x, y = point
    return field.mul(y, y) == field.add(field.mul(field.mul(x, x), x), b)


def add(field: Field, a, b):
    """a + b on y^2 = x^3 + b (the chord-and-tangent law; a = 0)."""
    if a is INFINITY:
        return b
    if b is INFINITY:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2:
        if field.add(y1, y2) == field.zero:
            return INFINITY
        slope = field.mul(field.mul(field.from_int(3), field.mul(x1, x1)),
                          field.inverse(field.add(y1, y1)))
    else:
        slope = field.mul(field.sub(y2, y1), field.inverse(field.sub(x2, x1)))
    x3 = field.sub(field.sub(field.mul(slope, slope), x1), x2)
    return x3, field.sub(field.mul(slope, field.sub(x1, x3)), y1)


def neg(field: Field, a):
    return INFINITY if a is INFINITY else (a[0], field.sub(field.zero, a[1]))


def multiply(field: Field, point, k: int):
    result = INFINITY
    for bit in bin(k)[2:] if k > 0 else "":
        result = add(field, result, result)
        if bit == "1":
            result = add(field, result, point)
    return result


# --- Fp12 = Fp[w]/(w^12 + 5) ------------------------------------------------------------------

ONE: Poly = [1] + [0] * 11


def poly_mul(a: Poly, b: Poly) -> Poly:
    out = [0] * 12
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if i + j < 12:
                    out[i + j] += x * y
                else:
                    out[i + j - 12] -= 5 * x * y        # w^12 = -5
    return [v % P for v in out]


def poly_pow(a: Poly, exponent: int) -> Poly:
    result = ONE
    for bit in bin(exponent)[2:]:
        result = poly_mul(result, result)
        if bit == "1":
            result = poly_mul(result, a)
    return result


def embed(a: Fp2, shift: int = 0) -> Poly:
    """(a0 + a1 u) w^shift, u = w^6 (shift < 6)."""
    out = [0] * 12
    out[shift], out[shift + 6] = a[0] % P, a[1] % P
    return out


# --- the pairing ---------------------------------------------------------------------------------

def _line(t: Fp2Point, slope: Fp2, p: Tuple[int, int]) -> Poly:
    """l(P) = yP - yT - lambda (xP - xT) with T = (xt w^2, yt w^3) untwisted, whose slope
    on E is lambda = slope' w (slope': the twist's): yP - slope' xP w + (slope' xt - yt) w^3."""
    xp, yp = p
    xt, yt = t
    out = embed(f2_mul(slope, (-xp % P, 0)), 1)
    cubic = embed(f2_sub(f2_mul(slope, xt), yt), 3)
    out = [(a + b) % P for a, b in zip(out, cubic)]
    out[0] = (out[0] + yp) % P
    return out


Fp2Point = Tuple[Fp2, Fp2]


def _slope(t: Fp2Point, q: Fp2Point) -> Fp2:
    if t == q:
        return f2_mul(f2_mul((3, 0), f2_mul(t[0], t[0])), f2_inverse(f2_add(t[1], t[1])))
    return f2_mul(f2_sub(q[1], t[1]), f2_inverse(f2_sub(q[0], t[0])))


def miller_loop(p, q) -> Poly:
    """f_{x,Q}(P); 1 when either point is at infinity."""
    if p is INFINITY or q is INFINITY:
        return ONE
    f, t = ONE, q
    for bit in bin(X)[3:]:
        f = poly_mul(poly_mul(f, f), _line(t, _slope(t, t), p))
        t = add(FP2, t, t)
        if bit == "1":
            f = poly_mul(f, _line(t, _slope(t, q), p))
            t = add(FP2, t, q)
    return f


FINAL_EXPONENT = (P ** 12 - 1) // R


def final_exponentiation(f: Poly) -> Poly:
    return poly_pow(f, FINAL_EXPONENT)


def pairing(p, q) -> Poly:
    return final_exponentiation(miller_loop(p, q))


def pairing_product_is_one(pairs) -> bool:
    """Whether prod e(P_i, Q_i) = 1: one final exponentiation of the Miller loops' product."""
    f = ONE
    for p, q in pairs:
        f = poly_mul(f, miller_loop(p, q))
    return final_exponentiation(f) == ONE


def g1_in_subgroup(point) -> bool:
    return on_curve(FP, point, 1) and multiply(FP, point, R) is INFINITY


def g2_in_subgroup(point) -> bool:
    return on_curve(FP2, point, TWIST_B) and multiply(FP2, point, R) is INFINITY
