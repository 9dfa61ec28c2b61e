"""The Miller loop's G2 steps in homogeneous projective coordinates (x = X/Z, y = Y/Z on
the twist y^2 = x^3 + b'), with the line evaluated at P inside the step.

The formulas are those of Costello, Lange and Naehrig ("Faster pairing computations on
curves with high-degree twists", PKC 2010) as Aranha, Karabina, Longa, Gebotys and Lopez
write them for a = 0 ("Faster explicit formulas for computing pairings over ordinary
curves", EUROCRYPT 2011, eq. (10)-(13)), rescaled for EVMMAX's prices, where a
multiplication costs two additions (so squarings buy nothing and a product by a small
constant beats a chain of doublings): a doubling with its line is 115 gas at 4 limbs,
blst's Jacobian formulas with the evaluation (:mod:`.jacobian`) 138.

P enters as (-3 P.x, 2 P.y) (:func:`prepare`); every line is a multiple in Fp of the line
through the points, stored as :mod:`.jacobian` stores its lines (l0‖l1‖l2: l1 the
coefficient of P.x, l2 of P.y, already multiplied in), so :func:`.fp12.mul_by_line`
takes either. A factor in Fp dies in the final exponentiation and is in Fp6, which the
residue-witness check tolerates.
"""
from __future__ import annotations

from ..asm import Fp2, Fp6, G1, G2, Label, Slot
from . import fp, fp2
from .compare import require_equal, require_nonzero
from .fp import Emitter


def prepare(e: Emitter, out: G1, p: G1) -> None:
    """out = (-3 x, 2 y), the multiples of P the lines take."""
    fp.mul(e, out.x, p.x, e.fp_const("-3", -3))
    fp.dbl(e, out.y, p.y)


def line_dbl(e: Emitter, line: Fp6, t: Slot, px: G1) -> None:
    """T = 2T (as 4 (X3, Y3, Z3): the same point) and the tangent line at T, at P:
    with B = Y^2, E = 3 b' Z^2, F = 3 E,
        X3 = 2 X Y (B - F), Y3 = (B + F)^2 - 12 E^2, Z3 = 8 B Y Z,
        l = (B - E) + X^2 (-3 P.x) + Y Z (2 P.y)
    (-1 times the tangent (3 b' Z^2 - Y^2) + 3 X^2 P.x - 2 Y Z P.y, which vanishes at T:
    Y^2 Z = X^3 + b' Z^3)."""
    x, y, z = t.x, t.y, t.z
    three_b = (3 * e.curve.twist_b[0], 3 * e.curve.twist_b[1])
    with e.asm.scope("line_dbl"), e.asm.temps(*[Fp2] * 5) as (b, ee, yz, f, s):
        fp2.sqr(e, b, y)                                   # B = Y^2
        fp2.sqr(e, ee, z)
        fp2.mul_const(e, ee, ee, three_b, "3b'")           # E = 3 b' Z^2
        fp2.mul(e, yz, y, z)                               # Y Z
        fp2.mul_by_fp(e, line.c2, yz, px.y)                # l2 = Y Z (2 P.y)
        fp2.sqr(e, line.c1, x)
        fp2.mul_by_fp(e, line.c1, line.c1, px.x)           # l1 = X^2 (-3 P.x)
        fp2.sub(e, line.c0, b, ee)                         # l0 = B - E
        fp2.dbl(e, f, ee)
        fp2.add(e, f, f, ee)                               # F = 3 E
        fp2.mul(e, x, x, y)
        fp2.sub(e, s, b, f)
        fp2.mul(e, x, x, s)
        fp2.dbl(e, x, x)                                   # X3 = 2 X Y (B - F)
        fp2.add(e, s, b, f)
        fp2.sqr(e, s, s)
        fp2.sqr(e, ee, ee)
        fp2.mul_by_fp(e, ee, ee, e.fp_const("12", 12))
        fp2.sub(e, y, s, ee)                               # Y3 = (B + F)^2 - 12 E^2
        fp2.mul(e, z, yz, b)
        fp2.mul_by_fp(e, z, z, e.fp_const("8", 8))         # Z3 = 8 B Y Z


def line_add(e: Emitter, line: Fp6, t: Slot, q: G2, px: G1) -> None:
    """T = T + Q for affine Q != +-T and the line through them, at P: with
    theta = Y - y2 Z, lam = X - x2 Z (the slope is theta / lam), C = theta^2,
    D = lam^2, E = lam D, G = X D, H = E + Z C - 2 G,
        X3 = lam H, Y3 = theta (G - H) - E Y, Z3 = Z E,
        l = 2 (theta x2 - lam y2) + (2/3) theta (-3 P.x) + lam (2 P.y)
    (2 times lam (P.y - y2) - theta (P.x - x2): the scale with the fewest operations)."""
    x, y, z = t.x, t.y, t.z
    with e.asm.scope("line_add"), e.asm.temps(*[Fp2] * 6) as (theta, lam, c, d, g, h):
        fp2.mul(e, theta, q.y, z)
        fp2.sub(e, theta, y, theta)                        # theta = Y - y2 Z
        fp2.mul(e, lam, q.x, z)
        fp2.sub(e, lam, x, lam)                            # lam = X - x2 Z
        fp2.sqr(e, c, theta)                               # C = theta^2
        fp2.sqr(e, d, lam)                                 # D = lam^2
        fp2.mul(e, g, x, d)                                # G = X D
        fp2.mul(e, d, d, lam)                              # E = lam D (in d)
        fp2.mul(e, c, c, z)                                # Z C
        fp2.add(e, h, d, c)
        fp2.sub(e, h, h, g)
        fp2.sub(e, h, h, g)                                # H = E + Z C - 2 G
        fp2.mul(e, x, lam, h)                              # X3 = lam H
        fp2.mul(e, y, y, d)                                # E Y
        fp2.sub(e, g, g, h)
        fp2.mul(e, g, g, theta)
        fp2.sub(e, y, g, y)                                # Y3 = theta (G - H) - E Y
        fp2.mul(e, z, z, d)                                # Z3 = Z E
        # the line: l0 = 2 (theta x2 - lam y2), l1 = (2/3) theta (-3 P.x), l2 = lam (2 P.y)
        fp2.mul(e, c, theta, q.x)
        fp2.mul(e, h, lam, q.y)
        fp2.sub(e, c, c, h)
        fp2.dbl(e, line.c0, c)
        fp2.mul_by_fp(e, theta, theta, e.fp_const("2/3", 2 * pow(3, -1, e.curve.p)))
        fp2.mul_by_fp(e, line.c1, theta, px.x)
        fp2.mul_by_fp(e, line.c2, lam, px.y)


def require_is(e: Emitter, t: Slot, expect: G2, fail: Label) -> None:
    """T (projective, ``t``) = the affine point ``expect`` (clobbered): X = x Z, Y = y Z,
    Z != 0."""
    require_nonzero(e, t.z, fail)
    fp2.mul(e, expect.x, expect.x, t.z)
    fp2.mul(e, expect.y, expect.y, t.z)
    xy = type(expect)(t.region, t.rel, f"{t.name}.xy")    # T's X‖Y, laid out like expect
    require_equal(e, xy, expect, fail)
