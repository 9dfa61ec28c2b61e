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
from typing import Callable, Optional

from ..asm import Fp6, G1, G2, Slot
from . import fp, fp2
from .fp import Emitter


def jacobian_dbl(e: Emitter, field: ModuleType, t: Slot, line: Optional[Fp6] = None,
                 px2: Optional[G1] = None) -> None:
    """T = 2T in place; with ``line`` and ``px2`` (G2 only), also the tangent line at T
    evaluated at P (:func:`g1_prepare`): l0 = 6 X^3 - 4 Y^2, l1 = 3 X^2 Z^2 (-2 P.x),
    l2 = Z3 Z^2 (2 P.y). The Fp2 products keep their temporaries in l1 and l2, which the
    evaluation writes first, so each can run as one step (:func:`.fp2.mul`)."""
    x, y, z = t.x, t.y, t.z
    kind = field.ELEMENT
    scratch = None if line is None else (line.c1.fps() + line.c2.fps())[:3]
    mul = field.mul if line is None else (lambda e, out, a, b: fp2.mul(e, out, a, b, scratch))
    with e.asm.scope("line_dbl" if line else "point_dbl"), \
            e.asm.temps(*[kind] * 7) as (a, b, zz, c, d, f, ee):
        field.sqr(e, a, x)                       # A = X^2
        field.sqr(e, b, y)                       # B = Y^2
        if line is not None:
            field.sqr(e, zz, z)                  # ZZ = Z^2, for Z3 and the line
        dbl_terms(e, field, x, a, b, c, d, ee, f)
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
        mul(e, y, y, ee)
        field.sub(e, y, y, c)                    # Y3 = E (D - X3) - 8 C
        if line is None:
            return
        assert px2 is not None
        l0 = line.c0
        field.sqr(e, l0, l0)
        field.sub(e, l0, l0, a)
        field.sub(e, l0, l0, f)                  # (3A + X)^2 - A - 9 A^2 = 6 X^3
        field.dbl(e, b, b)
        field.dbl(e, b, b)
        field.sub(e, l0, l0, b)                  # l0 = 6 X^3 - 4 Y^2
        mul(e, c, ee, zz)                        # 3 X^2 Z^2 (C and D are spent)
        mul(e, d, z, zz)                         # Z3 Z^2
        fp2.mul_by_fp(e, line.c1, c, px2.x)
        fp2.mul_by_fp(e, line.c2, d, px2.y)


def dbl_terms(e: Emitter, field: ModuleType, x: Slot, a: Slot, b: Slot, c: Slot, d: Slot,
              ee: Slot, f: Slot) -> None:
    """dbl-2009-l's terms from A = X^2 and B = Y^2: C = B^2, D = 2 ((X + B)^2 - A - C),
    E = 3 A, F = E^2 (X3 = F - 2 D, Y3 = E (D - X3) - 8 C)."""
    field.sqr(e, c, b)                           # C = B^2
    field.add(e, d, x, b)
    field.sqr(e, d, d)
    field.sub(e, d, d, a)
    field.sub(e, d, d, c)
    field.dbl(e, d, d)                           # D = 2 ((X + B)^2 - A - C)
    field.dbl(e, ee, a)
    field.add(e, ee, ee, a)                      # E = 3 A
    field.sqr(e, f, ee)                          # F = E^2


def jacobian_add_affine(e: Emitter, field: ModuleType, t: Slot, q: Slot,
                        line: Optional[Fp6] = None, px2: Optional[G1] = None) -> None:
    """T = T + Q in place for affine Q != +-T; with ``line`` and ``px2`` (G2 only), also
    the line through T and Q evaluated at P: l0 = 2 (r X2 - Y2 Z3), l1 = r (-2 P.x),
    l2 = Z3 (2 P.y)."""
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
        assert px2 is not None
        fp2.mul_by_fp(e, line.c1, line.c1, px2.x)    # r is in l1
        fp2.mul_by_fp(e, line.c2, z, px2.y)


def from_affine(e: Emitter, out: Slot, p: Slot) -> None:
    """(x, y) -> (x, y, 1) for G1 or G2 (``out`` Jacobian, ``p`` affine)."""
    if not fp.same(out.x, p.x):
        fp.copy(e, out.x, p.x)
        fp.copy(e, out.y, p.y)
    z = out.z.fps()
    fp.copy(e, z[0], e.one)
    for coefficient in z[1:]:
        fp.copy(e, coefficient, e.zero)


def to_affine(e: Emitter, field: ModuleType, out: Slot, t: Slot,
              inverse: Optional[Callable[[Emitter, Slot, Slot], None]] = None) -> None:
    """(X / Z^2, Y / Z^3); Z = 0 (infinity) gives (0, 0). ``inverse`` (default the
    field's) emits out = a^-1."""
    with e.asm.temps(field.ELEMENT, field.ELEMENT) as (zi, zi2):
        (inverse or field.inverse)(e, zi, t.z)
        field.sqr(e, zi2, zi)
        field.mul(e, out.x, t.x, zi2)
        field.mul(e, zi2, zi2, zi)
        field.mul(e, out.y, t.y, zi2)


# --- the Miller loop's pieces ----------------------------------------------------------------

def g1_prepare(e: Emitter, out: G1, p: G1) -> None:
    """out = (-2 x, 2 y): the factors every line is evaluated with (l1 by -2 x, l2 by 2 y)."""
    fp.dbl(e, out.x, p.x)
    fp.neg(e, out.x, out.x)
    fp.dbl(e, out.y, p.y)


def line_dbl(e: Emitter, line: Fp6, t: Slot, px2: G1) -> None:
    """T = 2T for T in G2 (Jacobian), and the tangent line at T evaluated at P (up to a
    factor in Fp2 that the final exponentiation removes; blst scales the same way)."""
    jacobian_dbl(e, fp2, t, line, px2)


def line_add(e: Emitter, line: Fp6, t: Slot, q: G2, px2: G1) -> None:
    """T = T + Q for T in G2 (Jacobian), Q affine, and the line through them evaluated
    at P (scaled as :func:`line_dbl`'s)."""
    jacobian_add_affine(e, fp2, t, q, line, px2)


# --- formulas priced for EVMMAX (a multiplication costs two additions) -----------------------

def jacobian_dbl_halved(e: Emitter, field: ModuleType, t: Slot, three_halves: Slot,
                        keep: Optional[tuple] = None) -> None:
    """T = 2T in place for a = 0, with Z3 = Y Z (half of dbl-2009-l's 2 Y Z, so X3 and Y3
    are 1/4 and 1/8 of its values): M = (3/2) X^2, S = X Y^2, X3 = M^2 - 2 S,
    Y3 = M (S - X3) - Y^4. 8 multiplications (one by the constant ``three_halves``) and 4
    subtractions, where dbl-2009-l takes 7 and 14: less gas when S = M = 2 A.
    ``keep`` = (s, c): slots that end holding S and Y^4, i.e. the old T with Z = Z3
    (X Y^2, Y Y^3) when Z was 1 (the start of a co-Z table)."""
    x, y, z = t.x, t.y, t.z
    kind = field.ELEMENT
    with e.asm.scope("point_dbl_halved"), \
            e.asm.temps(*[kind] * (1 if keep else 3)) as scratch:
        m, s, c = (scratch[0], *keep) if keep else scratch
        field.sqr(e, m, x)
        fp.mul(e, m, m, three_halves)            # M = 3/2 X^2 (a constant of Fp)
        field.sqr(e, c, y)                       # B = Y^2
        field.mul(e, z, y, z)                    # Z3 = Y Z
        field.mul(e, s, x, c)                    # S = X B
        field.sqr(e, c, c)                       # C = B^2
        field.sqr(e, x, m)
        field.sub(e, x, x, s)
        field.sub(e, x, x, s)                    # X3 = M^2 - 2 S
        field.sub(e, y, s, x)
        field.mul(e, y, y, m)
        field.sub(e, y, y, c)                    # Y3 = M (S - X3) - C


def point_dbl(e: Emitter, field: ModuleType, t: Slot, extension: bool = False) -> None:
    """T = 2T in place for a = 0 by the cheaper formula for the target: where a product
    costs at most three additions (EVMMAX) and T is over Fp (or, with ``extension``, over
    Fp2 too: 92 gas against 101), :func:`jacobian_dbl_halved` (8 products and 4
    additions), else dbl-2009-l (:func:`jacobian_dbl`: 7 and 14). Both give the same
    point (in other Jacobian coordinates)."""
    if e.target.cheap_products and (field is fp or extension):
        p = e.curve.p
        jacobian_dbl_halved(e, field, t, e.fp_const("3/2", 3 * pow(2, -1, p) % p))
    else:
        jacobian_dbl(e, field, t)


def jacobian_add_affine_hmv(e: Emitter, field: ModuleType, t: Slot, q: Slot,
                            x_factor: Optional[Slot] = None,
                            z_factor: Optional[Slot] = None) -> None:
    """T = T + Q in place for affine Q != +-T, T finite: madd-2004-hmv (EFD; Hankerson,
    Menezes and Vanstone, "Guide to Elliptic Curve Cryptography", Alg. 3.22): 11
    multiplications and 7 additions, where madd-2007-bl (:func:`jacobian_add_affine`)
    takes 11 and 14. With ``x_factor`` c, Q is (c Q.x, Q.y) (an endomorphism's image, one
    multiplication more). With ``z_factor`` w, T lives on the isomorphic curve
    y^2 = x^3 + b w^6 and Q on the curve itself: Q there is (w^2 Q.x, w^3 Q.y), which is
    Z1 w in place of Z1 in U2 and S2 (one multiplication more)."""
    x, y, z = t.x, t.y, t.z
    kind = field.ELEMENT
    with e.asm.scope("point_madd"), e.asm.temps(*[kind] * 4) as (t1, t2, t3, t4):
        if z_factor is None:
            field.sqr(e, t1, z)
            field.mul(e, t2, t1, z)
        else:
            field.mul(e, t3, z, z_factor)
            field.sqr(e, t1, t3)
            field.mul(e, t2, t1, t3)
        if x_factor is not None:
            field.mul(e, t1, t1, x_factor)
        field.mul(e, t1, t1, q.x)
        field.mul(e, t2, t2, q.y)
        # R before H, Z3 after H^3: of the orders searched, the one with the fewest stack
        # moves on plain EVM (bench/README.md, "The mixed addition's order")
        field.sub(e, t2, t2, y)                  # R = Y2 Z^3 - Y
        field.sub(e, t1, t1, x)                  # H = X2 Z^2 - X
        field.sqr(e, t4, t1)
        field.mul(e, t3, t4, t1)                 # H^3
        field.mul(e, z, z, t1)                   # Z3 = Z H
        field.mul(e, t4, t4, x)                  # X H^2
        field.sqr(e, x, t2)
        field.sub(e, x, x, t3)
        field.sub(e, x, x, t4)
        field.sub(e, x, x, t4)                   # X3 = R^2 - H^3 - 2 X H^2
        field.sub(e, t4, t4, x)
        field.mul(e, t4, t4, t2)
        field.mul(e, t3, t3, y)
        field.sub(e, y, t4, t3)                  # Y3 = R (X H^2 - X3) - Y H^3


def coz_add_update(e: Emitter, field: ModuleType, d: Slot, t: Slot, out: Slot,
                   h: Slot) -> None:
    """Co-Z addition with update (Meloni, "New point addition formulae for ECC
    applications", WAIFI 2007): for D and T (x‖y slots) sharing one Z, ``out`` = T + D and
    D becomes D with the new Z' = Z H, H = X_T - X_D (left in ``h``; the caller keeps the
    product of the Z factors). 6 multiplications and 7 additions; D != +-T."""
    kind = field.ELEMENT
    with e.asm.scope("coz_add"), e.asm.temps(kind, kind, kind) as (a, r, c):
        field.sub(e, h, t.x, d.x)                # H
        field.sub(e, r, t.y, d.y)
        field.sqr(e, a, h)
        field.mul(e, d.x, d.x, a)                # B = X_D H^2 (D's new X)
        field.mul(e, c, t.x, a)                  # C = X_T H^2
        field.sub(e, a, c, d.x)                  # C - B = H^3
        field.mul(e, d.y, d.y, a)                # D's new Y = Y_D H^3
        field.sqr(e, out.x, r)
        field.sub(e, out.x, out.x, d.x)
        field.sub(e, out.x, out.x, c)            # X3 = R^2 - B - C
        field.sub(e, out.y, d.x, out.x)
        field.mul(e, out.y, out.y, r)
        field.sub(e, out.y, out.y, d.y)          # Y3 = R (B - X3) - Y_D H^3
