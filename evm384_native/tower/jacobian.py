"""G1 and G2 point arithmetic as EVM384 code, and the G2 line functions of the Miller loop.

Both curves have a = 0 (G1: y^2 = x^3 + 4 over Fp; G2: the M-twist y^2 = x^3 + 4(u + 1) over
Fp2), so one set of Jacobian formulas (X/Z^2, Y/Z^3) serves both, written once over a
``field`` module (:mod:`.fp` or :mod:`.fp2`): doubling dbl-2009-alnr and mixed addition
madd-2007-bl from the EFD, the formulas blst uses (a doubling without a line takes
dbl-2009-l's Z3 = 2 Y Z, cheaper when Z^2 is not needed for the line). With a ``line`` slot they also produce
blst's line coefficients (same formulas, same scaling). A line is the
sparse Fp12 (l0 + l1 v) + (l2 v) w, stored as l0‖l1‖l2 in an Fp6-sized slot; the G1 point
enters it as (-2 P.x, 2 P.y) ("Px2").
"""
from __future__ import annotations

from types import ModuleType
from typing import Optional

from ..asm import Fp6, G1, G2, Slot
from . import fp, fp2
from .fp import Emitter


def jacobian_dbl(e: Emitter, field: ModuleType, t: Slot, line: Optional[Fp6] = None) -> None:
    """T = 2T in place; with ``line`` (G2 only), also the tangent line at T (before
    :func:`line_by_px2`): l0 = 6 X^3 - 4 Y^2, l1 = 3 X^2 Z^2, l2 = Z3 Z^2."""
    x, y, z = t.x, t.y, t.z
    kind = field.ELEMENT
    with e.asm.scope("line_dbl" if line else "point_dbl"), \
            e.asm.temps(*[kind] * 6) as (a, b, zz, c, d, f), \
            e.asm.temps(*([] if line else [kind])) as spare:
        ee = line.c1 if line is not None else spare[0]   # E lives in l1 until l1 = E ZZ
        field.sqr(e, a, x)                       # A = X^2
        field.sqr(e, b, y)                       # B = Y^2
        if line is not None:
            field.sqr(e, zz, z)                  # ZZ = Z^2, for Z3 and the line
        field.sqr(e, c, b)                       # C = B^2
        field.add(e, d, x, b)
        field.sqr(e, d, d)
        field.sub(e, d, d, a)
        field.sub(e, d, d, c)
        field.dbl(e, d, d)                       # D = 2 ((X + B)^2 - A - C)
        field.dbl(e, ee, a)
        field.add(e, ee, ee, a)                  # E = 3 A
        field.sqr(e, f, ee)                      # F = E^2
        if line is not None:
            field.add(e, line.c0, ee, x)         # 3 A + X, for the line
        field.sub(e, x, f, d)
        field.sub(e, x, x, d)                    # X3 = F - 2 D
        if line is None:
            field.mul(e, z, y, z)
            field.dbl(e, z, z)                   # Z3 = 2 Y Z
        else:                                    # blst's form, which reuses ZZ
            field.add(e, z, y, z)
            field.sqr(e, z, z)
            field.sub(e, z, z, b)
            field.sub(e, z, z, zz)               # Z3 = (Y + Z)^2 - B - ZZ
        field.dbl(e, c, c)
        field.dbl(e, c, c)
        field.dbl(e, c, c)                       # 8 C
        field.sub(e, y, d, x)
        field.mul(e, y, y, ee)
        field.sub(e, y, y, c)                    # Y3 = E (D - X3) - 8 C
        if line is None:
            return
        l0, l1, l2 = line.c0, line.c1, line.c2
        field.sqr(e, l0, l0)
        field.sub(e, l0, l0, a)
        field.sub(e, l0, l0, f)                  # (3A + X)^2 - A - 9 A^2 = 6 X^3
        field.dbl(e, b, b)
        field.dbl(e, b, b)
        field.sub(e, l0, l0, b)                  # l0 = 6 X^3 - 4 Y^2
        field.mul(e, l1, ee, zz)                 # l1 = 3 X^2 Z^2
        field.mul(e, l2, z, zz)                  # l2 = Z3 Z^2


def jacobian_add_affine(e: Emitter, field: ModuleType, t: Slot, q: Slot,
                        line: Optional[Fp6] = None) -> None:
    """T = T + Q in place for affine Q != +-T; with ``line`` (G2 only), also the line
    through T and Q: l0 = 2 (r X2 - Y2 Z3), l1 = r, l2 = Z3."""
    x, y, z = t.x, t.y, t.z
    kind = field.ELEMENT
    with e.asm.scope("line_add" if line else "point_add"), \
            e.asm.temps(*[kind] * 6) as (z1z1, u2, s2, h, hh, i), \
            e.asm.temps(*([] if line else [kind] * 3)) as spare:
        # blst keeps r in l1 and uses l0, l2 as scratch for J and V
        j, r, v = (line.c0, line.c1, line.c2) if line is not None else spare
        field.sqr(e, z1z1, z)                    # Z1Z1 = Z^2
        field.mul(e, u2, q.x, z1z1)              # U2 = X2 Z1Z1
        field.mul(e, s2, q.y, z)
        field.mul(e, s2, s2, z1z1)               # S2 = Y2 Z Z1Z1
        field.sub(e, h, u2, x)                   # H = U2 - X
        field.sqr(e, hh, h)                      # HH = H^2
        field.dbl(e, i, hh)
        field.dbl(e, i, i)                       # I = 4 HH
        field.mul(e, j, h, i)                    # J = H I
        field.sub(e, r, s2, y)
        field.dbl(e, r, r)                       # r = 2 (S2 - Y)
        field.mul(e, v, x, i)                    # V = X I
        field.sqr(e, x, r)
        field.sub(e, x, x, j)
        field.sub(e, x, x, v)
        field.sub(e, x, x, v)                    # X3 = r^2 - J - 2 V
        field.mul(e, j, j, y)                    # Y J (old Y)
        field.sub(e, y, v, x)
        field.mul(e, y, y, r)
        field.sub(e, y, y, j)
        field.sub(e, y, y, j)                    # Y3 = r (V - X3) - 2 Y J
        field.add(e, z, z, h)
        field.sqr(e, z, z)
        field.sub(e, z, z, z1z1)
        field.sub(e, z, z, hh)                   # Z3 = (Z + H)^2 - Z1Z1 - HH
        if line is None:
            return
        field.mul(e, u2, r, q.x)
        field.mul(e, s2, q.y, z)
        field.sub(e, u2, u2, s2)
        field.dbl(e, line.c0, u2)                # l0 = 2 (r X2 - Y2 Z3)
        fp.copy(e, line.c2, z)                   # l2 = Z3; l1 = r already


def from_affine(e: Emitter, out: Slot, p: Slot) -> None:
    """(x, y) -> (x, y, 1) for G1 or G2 (``out`` Jacobian, ``p`` affine)."""
    if not fp.same(out.x, p.x):
        fp.copy(e, out.x, p.x)
        fp.copy(e, out.y, p.y)
    z = out.z.fps()
    fp.copy(e, z[0], e.one)
    for coefficient in z[1:]:
        fp.copy(e, coefficient, e.zero)


def to_affine(e: Emitter, field: ModuleType, out: Slot, t: Slot) -> None:
    """(X / Z^2, Y / Z^3); Z = 0 (infinity) gives (0, 0)."""
    with e.asm.temps(field.ELEMENT, field.ELEMENT) as (zi, zi2):
        field.inverse(e, zi, t.z)
        field.sqr(e, zi2, zi)
        field.mul(e, out.x, t.x, zi2)
        field.mul(e, zi2, zi2, zi)
        field.mul(e, out.y, t.y, zi2)


# --- the Miller loop's pieces ----------------------------------------------------------------

def g1_prepare(e: Emitter, out: G1, p: G1) -> None:
    """out = (-2 x, 2 y): the factors line_by_px2 multiplies into every line."""
    fp.dbl(e, out.x, p.x)
    fp.neg(e, out.x, out.x)
    fp.dbl(e, out.y, p.y)


def line_dbl(e: Emitter, line: Fp6, t: Slot) -> None:
    """T = 2T for T in G2 (Jacobian), and the tangent line at T."""
    jacobian_dbl(e, fp2, t, line)


def line_add(e: Emitter, line: Fp6, t: Slot, q: G2) -> None:
    """T = T + Q for T in G2 (Jacobian), Q affine, and the line through them."""
    jacobian_add_affine(e, fp2, t, q, line)


def line_by_px2(e: Emitter, line: Fp6, px2: G1) -> None:
    """Scale l1 by -2 P.x and l2 by 2 P.y: the line evaluated at P (up to a factor in Fp2
    that the final exponentiation removes; blst scales the same way)."""
    fp2.mul_by_fp(e, line.c1, line.c1, px2.x)
    fp2.mul_by_fp(e, line.c2, line.c2, px2.y)
