"""A pure-Python BW6-761 pairing, written from EIP-3026's parameters
(shared/docs/eip-3026.md) and El Housni and Guillevic, "Optimized and secure
pairing-friendly elliptic curves suitable for one layer proof composition" (ePrint
2020/351), sharing no code with the package (its fields, curves and Fp6 are written here):
the tests' oracle.

Fp6 is Fp[w]/(w^6 + 4), a polynomial of 6 coefficients: the EIP's tower Fp3 = Fp[u]/
(u^3 + 4), Fp6 = Fp3[v]/(v^2 - u) gives w = v, w^2 = u and w^6 = -4. G1 is E: y^2 = x^3 - 1
over Fp, G2 lies on the M-type twist E': y^2 = x^3 + 4, also over Fp, mapped into E(Fp6) by
(x, y) -> (x w^-2, y w^-3) (then (y w^-3)^2 = (x^3 + 4) / -4 = (x w^-2)^3 - 1).

The pairing is EIP-3026's e(P, Q) = (f_{x+1,Q}(P) f_{x^3-x^2-x,Q}(P)^p)^((p^6 - 1) / r), two
Miller loops with affine steps on the twist, each line l(P) = yP - yT - lambda (xP - xT)
with T untwisted, whose slope on E is lambda' w^-1 (lambda' the twist's), taken times w^3:
(lambda' xT - yT) - lambda' xP w^2 + yP w^3. The factor w^3 (a square root of -4, in the
subfield Fp2 of Fp6) and the vertical lines (x coordinates in Fp3) are sent to 1 by the
final exponentiation, whose exponent (p^6 - 1) / r is a multiple of p^3 - 1 and of
p^2 - 1."""
from __future__ import annotations

from typing import List, Optional, Tuple

P = 0x122e824fb83ce0ad187c94004faff3eb926186a81d14688528275ef8087be41707ba638e584e91903cebaff25b423048689c8ed12f9fd9071dcd3dc73ebff2e98a116c25667a8f8160cf8aeeaf0a437e6913e6870000082f49d00000000008b
R = 0x1ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001
X = 0x8508c00000000001
B = P - 1                               # E: y^2 = x^3 - 1
TWIST_B = 4                             # E': y^2 = x^3 + 4
W6 = P - 4                              # w^6 = u^3 = -4
LOOP_COUNT_1 = 0x8508c00000000002
LOOP_COUNT_2 = 0x23ed1347970dec008a442f991fffffffffffffffffffffff
G1 = (0x1075b020ea190c8b277ce98a477beaee6a0cfb7551b27f0ee05c54b85f56fc779017ffac15520ac11dbfcd294c2e746a17a54ce47729b905bd71fa0c9ea097103758f9a280ca27f6750dd0356133e82055928aca6af603f4088f3af66e5b43d,
      0x58b84e0a6fc574e6fd637b45cc2a420f952589884c9ec61a7348d2a2e573a3265909f1af7e0dbac5b8fa1771b5b806cc685d31717a4c55be3fb90b6fc2cdd49f9df141b3053253b2b08119cad0fb93ad1cb2be0b20d2a1bafc8f2db4e95363)
G2 = (0x110133241d9b816c852a82e69d660f9d61053aac5a7115f4c06201013890f6d26b41c5dab3da268734ec3f1f09feb58c5bbcae9ac70e7c7963317a300e1b6bace6948cb3cd208d700e96efbc2ad54b06410cf4fe1bf995ba830c194cd025f1c,
      0x17c3357761369f8179eb10e4b6d2dc26b7cf9acec2181c81a78e2753ffe3160a1d86c80b95a59c94c97eb733293fef64f293dbd2c712b88906c170ffa823003ea96fcd504affc758aa2d3a3c5a02a591ec0594f9eac689eb70a16728c73b61)

Point = Optional[Tuple[int, int]]       # affine, None at infinity
Poly = List[int]
INFINITY: Point = None


# --- the curves E and E' over Fp ---------------------------------------------------------------

def on_curve(point: Point, b: int) -> bool:
    if point is INFINITY:
        return True
    x, y = point
    return (y * y - x * x * x - b) % P == 0


def add(a: Point, b: Point) -> Point:
    """a + b on y^2 = x^3 + b (the chord-and-tangent law; a = 0, so b plays no part)."""
    if a is INFINITY:
        return b
    if b is INFINITY:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return INFINITY
        slope = 3 * x1 * x1 * pow(2 * y1, -1, P) % P
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (slope * slope - x1 - x2) % P
    return x3, (slope * (x1 - x3) - y1) % P


def neg(a: Point) -> Point:
    return INFINITY if a is INFINITY else (a[0], -a[1] % P)


def multiply(point: Point, k: int) -> Point:
    result = INFINITY
    for bit in bin(k)[2:] if k > 0 else "":
        result = add(result, result)
        if bit == "1":
            result = add(result, point)
    return result


def g1_in_subgroup(point: Point) -> bool:
    return on_curve(point, B) and multiply(point, R) is INFINITY


def g2_in_subgroup(point: Point) -> bool:
    return on_curve(point, TWIST_B) and multiply(point, R) is INFINITY


# --- Fp6 = Fp[w]/(w^6 + 4) ------------------------------------------------------------------

ONE: Poly = [1, 0, 0, 0, 0, 0]


def poly_mul(a: Poly, b: Poly) -> Poly:
    out = [0] * 11
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return [(out[i] + (W6 * out[i + 6] if i < 5 else 0)) % P for i in range(6)]


def poly_pow(a: Poly, exponent: int) -> Poly:
    """a^exponent; a negative exponent through the inverse (a^(p^6 - 2))."""
    if exponent < 0:
        return poly_pow(poly_pow(a, P**6 - 2), -exponent)
    result = ONE
    for bit in bin(exponent)[2:]:
        result = poly_mul(result, result)
        if bit == "1":
            result = poly_mul(result, a)
    return result


# w^p = w (w^6)^((p - 1) / 6): the Frobenius map multiplies w^i by GAMMA^i.
GAMMA = pow(W6, (P - 1) // 6, P)


def frobenius(a: Poly) -> Poly:
    """a^p."""
    return [c * pow(GAMMA, i, P) % P for i, c in enumerate(a)]


# --- the pairing ---------------------------------------------------------------------------

def _line(t: Tuple[int, int], slope: int, p: Tuple[int, int]) -> Poly:
    """w^3 l(P): (slope xT - yT) - slope xP w^2 + yP w^3 (the module's docstring)."""
    return [(slope * t[0] - t[1]) % P, 0, -slope * p[0] % P, p[1] % P, 0, 0]


def _slope(t: Tuple[int, int], q: Tuple[int, int]) -> int:
    if t == q:
        return 3 * t[0] * t[0] * pow(2 * t[1], -1, P) % P
    return (q[1] - t[1]) * pow(q[0] - t[0], -1, P) % P


def miller_loop(n: int, p: Point, q: Point) -> Poly:
    """f_{n,Q}(P) for n > 1 below r (no step meets infinity); 1 when either point is at
    infinity."""
    if p is INFINITY or q is INFINITY:
        return ONE
    f, t = ONE, q
    for bit in bin(n)[3:]:
        f = poly_mul(poly_mul(f, f), _line(t, _slope(t, t), p))
        t = add(t, t)
        if bit == "1":
            f = poly_mul(f, _line(t, _slope(t, q), p))
            t = add(t, q)
    return f


def miller_loops(p: Point, q: Point) -> Poly:
    """EIP-3026's ML1(P, Q) ML2(P, Q)^p."""
    return poly_mul(miller_loop(LOOP_COUNT_1, p, q),
                    frobenius(miller_loop(LOOP_COUNT_2, p, q)))


FINAL_EXPONENT = (P**6 - 1) // R


def final_exponentiation(f: Poly) -> Poly:
    return poly_pow(f, FINAL_EXPONENT)


def pairing(p: Point, q: Point) -> Poly:
    return final_exponentiation(miller_loops(p, q))


def pairing_product_is_one(pairs) -> bool:
    """Whether prod e(P_i, Q_i) = 1: one final exponentiation of the Miller loops' product."""
    f = ONE
    for p, q in pairs:
        f = poly_mul(f, miller_loops(p, q))
    return final_exponentiation(f) == ONE


# --- the final exponentiation in two parts (ePrint 2020/351's) ----------------------------------

def easy_part(f: Poly) -> Poly:
    """f^((p^3 - 1) (p + 1)): into the cyclotomic subgroup of order p^2 - p + 1, where
    a^(p^3) is a's inverse."""
    g = poly_mul(poly_pow(f, P**3), poly_pow(f, -1))
    return poly_mul(frobenius(g), g)


# The hard part raises to a multiple of (p^2 - p + 1) / r, 3 (x^3 - x^2 + 1) (p^2 - p + 1) / r
# (prime to r), written E0(x) + E1(x) p with polynomials of small coefficients in the seed
# x (the paper's authors' scripts; tests/test_bw6_761_curve.py checks the identity):
# one chain of powers m^(x^i), i <= 9, and one Frobenius.
HARD_MULTIPLE = 3 * (X**3 - X**2 + 1)
E0 = (-220, -263, -73, -314, -197, 269, 70, -103)
E1 = (229, 34, -181, 452, -65, -445, 492, 77, -276, 103)


def hard_part(m: Poly) -> Poly:
    """m^(HARD_MULTIPLE (p^2 - p + 1) / r) for m in the cyclotomic subgroup."""
    powers = [m]
    for _ in range(len(E1) - 1):
        powers.append(poly_pow(powers[-1], X))
    result = ONE
    for coefficients, frobenius_power in ((E0, 0), (E1, 1)):
        for power, c in zip(powers, coefficients):
            term = frobenius(power) if frobenius_power else power
            result = poly_mul(result, poly_pow(_conjugate(term) if c < 0 else term, abs(c)))
    return result


def _conjugate(a: Poly) -> Poly:
    """a^(p^3): the inverse of a cyclotomic a (w^(p^3) = -w, (w^3)^(p^3 - 1) = -1)."""
    return [c if i % 2 == 0 else -c % P for i, c in enumerate(a)]
