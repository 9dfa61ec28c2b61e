"""Fp6 = Fp2[v]/(v^3 - xi), xi the curve's non-residue, as EVM code (an Fp6 slot is
c0‖c1‖c2)."""
from __future__ import annotations

from typing import Tuple

from ..asm import Fp2, Fp6
from ..curves.fields import Fp2Int
from ..curves.model import PairingCurve
from . import cubic, fp, fp2
from .fp import Emitter

add = fp.add_each
sub = fp.sub_each
dbl = fp.dbl_each
neg = fp.neg_each


def mul(e: Emitter, out: Fp6, a: Fp6, b: Fp6) -> None:
    """Karatsuba over Fp2: 6 Fp2 products. Every read of a and b happens before the
    first write of out, so out may alias either."""
    with e.asm.scope("fp6_mul"), e.asm.temps(*[Fp2] * 10) as (
            v0, v1, v2, a12, b12, a01, b01, a02, b02, m):
        fp2.add(e, a12, a.c1, a.c2)
        fp2.add(e, b12, b.c1, b.c2)
        fp2.add(e, a01, a.c0, a.c1)
        fp2.add(e, b01, b.c0, b.c1)
        fp2.add(e, a02, a.c0, a.c2)
        fp2.add(e, b02, b.c0, b.c2)
        fp2.mul(e, v0, a.c0, b.c0)
        fp2.mul(e, v1, a.c1, b.c1)
        fp2.mul(e, v2, a.c2, b.c2)
        # c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2)
        fp2.mul(e, m, a12, b12)
        fp2.sub(e, m, m, v1)
        fp2.sub(e, m, m, v2)
        fp2.mul_by_xi(e, out.c0, m)
        fp2.add(e, out.c0, out.c0, v0)
        # c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
        fp2.mul(e, m, a01, b01)
        fp2.sub(e, m, m, v0)
        fp2.sub(e, m, m, v1)
        fp2.mul_by_xi(e, out.c1, v2)
        fp2.add(e, out.c1, out.c1, m)
        # c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1
        fp2.mul(e, m, a02, b02)
        fp2.sub(e, m, m, v0)
        fp2.sub(e, m, m, v2)
        fp2.add(e, out.c2, m, v1)


def mul_by_subroutine(e: Emitter, out: Fp6, a: Fp6, b: Fp6) -> None:
    """:func:`mul` through one shared subroutine: ~1.2 KB less code per use, ~140 more gas
    per call (operand copies); for routines that are not on the hottest path."""
    routine = e.asm.subroutine("fp6_mul", lambda asm, a, b: mul(e, a, a, b),
                               {"a": Fp6, "b": Fp6})
    fp.call(e, routine, {"a": out}, a=a, b=b)


def add_mul_by_v(e: Emitter, out: Fp6, a: Fp6, b: Fp6, subtract: bool = False) -> None:
    """out = a + v b (or a - v b), with v b = (xi b2, b0, b1). ``out`` must not overlap b."""
    combine = fp2.sub if subtract else fp2.add
    with e.asm.temps(Fp2) as (t,):
        fp2.mul_by_xi(e, t, b.c2)
        combine(e, out.c0, a.c0, t)
    combine(e, out.c1, a.c1, b.c0)
    combine(e, out.c2, a.c2, b.c1)


def mul_by_01(e: Emitter, out: Fp6, a: Fp6, b0: Fp2, b1: Fp2,
              scratch: fp2.Scratch = None) -> None:
    """a * (b0 + b1 v): 5 Fp2 products (Karatsuba on the first two), their temporaries
    in ``scratch`` if given (:func:`.fp2.mul`)."""
    with e.asm.scope("fp6_mul_by_01"), e.asm.temps(*[Fp2] * 6) as (v0, v1, sa, sb, m, t):
        fp2.add(e, sa, a.c0, a.c1)
        fp2.add(e, sb, b0, b1)
        fp2.mul(e, v0, a.c0, b0, scratch)
        fp2.mul(e, v1, a.c1, b1, scratch)
        fp2.mul(e, m, a.c2, b1, scratch)
        fp2.mul(e, t, a.c2, b0, scratch)
        # c2 = a1 b1 + a2 b0; c1 = (a0 + a1)(b0 + b1) - v0 - v1; c0 = v0 + xi a2 b1
        fp2.add(e, out.c2, v1, t)
        fp2.mul(e, t, sa, sb, scratch)
        fp2.sub(e, t, t, v0)
        fp2.sub(e, out.c1, t, v1)
        fp2.mul_by_xi(e, out.c0, m)
        fp2.add(e, out.c0, out.c0, v0)


def mul_by_0(e: Emitter, out: Fp6, a: Fp6, b0: Fp2, scratch: fp2.Scratch = None) -> None:
    """a * b0 for b0 in Fp2: 3 Fp2 products (temporaries as :func:`mul_by_01`'s)."""
    with e.asm.scope("fp6_mul_by_0"):
        for o, x in zip(out.children(), a.children()):
            fp2.mul(e, o, x, b0, scratch)


def mul_by_1(e: Emitter, out: Fp6, a: Fp6, b1: Fp2, scratch: fp2.Scratch = None) -> None:
    """a * (b1 v) = (xi a2 b1, a0 b1, a1 b1) (temporaries as :func:`mul_by_01`'s); every
    slot of ``out`` is written before it is read."""
    with e.asm.scope("fp6_mul_by_1"), e.asm.temps(Fp2) as (t,):
        fp2.mul(e, t, a.c2, b1, scratch)
        fp2.mul(e, out.c2, a.c1, b1, scratch)
        fp2.mul(e, out.c1, a.c0, b1, scratch)
        fp2.mul_by_xi(e, out.c0, t)


def inverse(e: Emitter, out: Fp6, a: Fp6) -> None:
    """Adjugate over Fp2 divided by the norm (:func:`.cubic.inverse`)."""
    cubic.inverse(e, fp2, fp2.mul_by_xi, out, a, "fp6_inv")


def frobenius_coefficients(curve: PairingCurve, n: int) -> Tuple[Fp2Int, Fp2Int]:
    """(v^(p^n - 1), v^(2 (p^n - 1))) = (xi^((p^n-1)/3), xi^(2(p^n-1)/3)) as Fp2 ints."""
    k1 = curve.fp2.pow(curve.xi, (curve.p ** n - 1) // 3)
    return k1, curve.fp2.mul(k1, k1)


def frobenius(e: Emitter, out: Fp6, a: Fp6, n: int) -> None:
    """a^(p^n): conjugate each coefficient if n is odd, then scale c1, c2."""
    k1, k2 = frobenius_coefficients(e.curve, n)
    odd = n % 2 == 1
    fp2.mul_const(e, out.c0, a.c0, (1, 0), "one", conjugate=odd)
    fp2.mul_const(e, out.c1, a.c1, k1, f"frob6_{n}.c1", conjugate=odd)
    fp2.mul_const(e, out.c2, a.c2, k2, f"frob6_{n}.c2", conjugate=odd)
