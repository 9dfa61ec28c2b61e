"""G1 and G2 point arithmetic as EVM384 code, and the G2 line functions of the Miller loop.

G2 points on the M-twist y^2 = x^3 + 4(u + 1) are kept in Jacobian coordinates
(X/Z^2, Y/Z^3). Doubling and mixed addition follow the EFD formulas blst uses
(dbl-2009-alnr, madd-2007-bl) and produce blst's line coefficients, so the Miller loop
value equals blst's byte for byte. A line is the sparse Fp12 (l0 + l1 v) + (l2 v) w, stored
as l0‖l1‖l2 in an Fp6-sized slot; the G1 point enters as (-2 P.x, 2 P.y) ("Px2").
"""
from __future__ import annotations

from ..asm import Fp2, Fp6, G1, G2, G2Jacobian
from . import fp, fp2
from .fp import Emitter


def g1_prepare(e: Emitter, out: G1, p: G1) -> None:
    """out = (-2 x, 2 y): the factors line_by_px2 multiplies into every line."""
    fp.dbl(e, out.x, p.x)
    fp.neg(e, out.x, out.x)
    fp.dbl(e, out.y, p.y)


def g2_from_affine(e: Emitter, out: G2Jacobian, q: G2) -> None:
    """(x, y) -> (x, y, 1)."""
    if not fp.same(out.x, q.x):
        fp.copy(e, out.x, q.x)
        fp.copy(e, out.y, q.y)
    fp.copy(e, out.z.c0, e.one)
    fp.copy(e, out.z.c1, e.zero)


def line_dbl(e: Emitter, line: Fp6, t: G2Jacobian) -> None:
    """T = 2T, and the tangent line at T (before line_by_px2)."""
    x, y, z = t.x, t.y, t.z
    with e.asm.scope("line_dbl"), e.asm.temps(*[Fp2] * 6) as (a, b, zz, c, d, f):
        l0, l1, l2 = line.c0, line.c1, line.c2
        ee = l1                                  # E = 3 X^2 lives in l1 until l1 = E ZZ
        fp2.sqr(e, a, x)                         # A = X^2
        fp2.sqr(e, b, y)                         # B = Y^2
        fp2.sqr(e, zz, z)                        # ZZ = Z^2
        fp2.sqr(e, c, b)                         # C = B^2
        fp2.add(e, d, x, b)
        fp2.sqr(e, d, d)
        fp2.sub(e, d, d, a)
        fp2.sub(e, d, d, c)
        fp2.dbl(e, d, d)                         # D = 2 ((X + B)^2 - A - C)
        fp2.dbl(e, ee, a)
        fp2.add(e, ee, ee, a)                    # E = 3 A
        fp2.sqr(e, f, ee)                        # F = E^2
        fp2.add(e, l0, ee, x)                    # 3 A + X, for the line
        fp2.sub(e, x, f, d)
        fp2.sub(e, x, x, d)                      # X3 = F - 2 D
        fp2.add(e, z, y, z)
        fp2.sqr(e, z, z)
        fp2.sub(e, z, z, b)
        fp2.sub(e, z, z, zz)                     # Z3 = (Y + Z)^2 - B - ZZ
        fp2.dbl(e, c, c)
        fp2.dbl(e, c, c)
        fp2.dbl(e, c, c)                         # 8 C
        fp2.sub(e, y, d, x)
        fp2.mul(e, y, y, ee)
        fp2.sub(e, y, y, c)                      # Y3 = E (D - X3) - 8 C
        fp2.sqr(e, l0, l0)
        fp2.sub(e, l0, l0, a)
        fp2.sub(e, l0, l0, f)                    # (3A + X)^2 - A - 9 A^2 = 6 X^3
        fp2.dbl(e, b, b)
        fp2.dbl(e, b, b)
        fp2.sub(e, l0, l0, b)                    # l0 = 6 X^3 - 4 Y^2
        fp2.mul(e, l1, ee, zz)                   # l1 = 3 X^2 Z^2
        fp2.mul(e, l2, z, zz)                    # l2 = Z3 Z^2


def line_add(e: Emitter, line: Fp6, t: G2Jacobian, q: G2) -> None:
    """T = T + Q for affine Q, and the line through T and Q (before line_by_px2)."""
    x, y, z = t.x, t.y, t.z
    with e.asm.scope("line_add"), e.asm.temps(*[Fp2] * 6) as (z1z1, u2, s2, h, hh, i):
        r = line.c1                              # blst keeps r in the line's middle slot
        j, v = line.c0, line.c2                  # scratch until the line is written
        fp2.sqr(e, z1z1, z)                      # Z1Z1 = Z^2
        fp2.mul(e, u2, q.x, z1z1)                # U2 = X2 Z1Z1
        fp2.mul(e, s2, q.y, z)
        fp2.mul(e, s2, s2, z1z1)                 # S2 = Y2 Z Z1Z1
        fp2.sub(e, h, u2, x)                     # H = U2 - X
        fp2.sqr(e, hh, h)                        # HH = H^2
        fp2.dbl(e, i, hh)
        fp2.dbl(e, i, i)                         # I = 4 HH
        fp2.mul(e, j, h, i)                      # J = H I
        fp2.sub(e, r, s2, y)
        fp2.dbl(e, r, r)                         # r = 2 (S2 - Y)
        fp2.mul(e, v, x, i)                      # V = X I
        fp2.sqr(e, x, r)
        fp2.sub(e, x, x, j)
        fp2.sub(e, x, x, v)
        fp2.sub(e, x, x, v)                      # X3 = r^2 - J - 2 V
        fp2.mul(e, j, j, y)                      # Y J (old Y)
        fp2.sub(e, y, v, x)
        fp2.mul(e, y, y, r)
        fp2.sub(e, y, y, j)
        fp2.sub(e, y, y, j)                      # Y3 = r (V - X3) - 2 Y J
        fp2.add(e, z, z, h)
        fp2.sqr(e, z, z)
        fp2.sub(e, z, z, z1z1)
        fp2.sub(e, z, z, hh)                     # Z3 = (Z + H)^2 - Z1Z1 - HH
        fp2.mul(e, u2, r, q.x)
        fp2.mul(e, s2, q.y, z)
        fp2.sub(e, u2, u2, s2)
        fp2.dbl(e, line.c0, u2)                  # l0 = 2 (r X2 - Y2 Z3)
        fp.copy(e, line.c2, z)                   # l2 = Z3; l1 = r already


def line_by_px2(e: Emitter, line: Fp6, px2: G1) -> None:
    """Scale l1 by -2 P.x and l2 by 2 P.y: the line evaluated at P (up to a factor in Fp2
    that the final exponentiation removes; blst scales the same way)."""
    fp2.mul_by_fp(e, line.c1, line.c1, px2.x)
    fp2.mul_by_fp(e, line.c2, line.c2, px2.y)


def g2_add_affine(e: Emitter, t: G2Jacobian, q: G2) -> None:
    """T = T + Q (mixed addition); T must differ from +-Q."""
    with e.asm.temps(Fp6) as (scratch,):
        line_add(e, scratch, t, q)


def g2_dbl(e: Emitter, t: G2Jacobian) -> None:
    """T = 2 T."""
    with e.asm.temps(Fp6) as (scratch,):
        line_dbl(e, scratch, t)


def g2_to_affine(e: Emitter, out: G2, t: G2Jacobian) -> None:
    """(X / Z^2, Y / Z^3)."""
    with e.asm.temps(Fp2, Fp2) as (zi, zi2):
        fp2.inverse(e, zi, t.z)
        fp2.sqr(e, zi2, zi)
        fp2.mul(e, out.x, t.x, zi2)
        fp2.mul(e, zi2, zi2, zi)
        fp2.mul(e, out.y, t.y, zi2)
