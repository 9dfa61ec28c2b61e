"""Fp2 = Fp[u]/(u^2 + 1) as EVM code (blst's tower; an Fp2 slot is c0‖c1).

Products use schoolbook formulas: with MULMODMONT384 only three times as expensive as
an addition, 4 mul + 2 add beats Karatsuba's 3 mul + 5 add in ops and in gas.
"""
from __future__ import annotations

from typing import Optional, Sequence

from ..asm import Fp, Fp2
from ..curves.fields import Fp2Int
from . import fp
from .fp import Emitter

ELEMENT = Fp2     # the slot type of this field

add = fp.add_each
sub = fp.sub_each
dbl = fp.dbl_each
neg = fp.neg_each


Scratch = Optional[Sequence[Fp]]


def mul(e: Emitter, out: Fp2, a: Fp2, b: Fp2, scratch: Scratch = None) -> None:
    """(a0 b0 - a1 b1) + (a0 b1 + a1 b0) u; 4 mul, 2 add/sub. ``scratch``: three Fp
    slots for the temporaries t0, t1, t2 (apart from a, b and out), else fresh ones. The
    engines run the product as one step only where its temporaries are provably
    overwritten before they are read (:mod:`..evm.fp2_products`), so a routine whose
    last product ends a run of straight-line code hands it slots that the code after it
    writes first."""
    with e.asm.scope("fp2_mul"), e.asm.temps(*([] if scratch else [Fp] * 3)) as fresh:
        t0, t1, t2 = scratch or fresh
        fp.mul(e, t0, a.c0, b.c0)
        fp.mul(e, t1, a.c1, b.c1)
        fp.mul(e, t2, a.c0, b.c1)
        fp.mul(e, out.c1, a.c1, b.c0)           # last read of a and b
        fp.add(e, out.c1, out.c1, t2)
        fp.sub(e, out.c0, t0, t1)


def sqr(e: Emitter, out: Fp2, a: Fp2) -> None:
    """(a0 + a1)(a0 - a1) + 2 a0 a1 u; 2 mul, 3 add/sub."""
    with e.asm.scope("fp2_sqr"), e.asm.temps(Fp, Fp) as (t0, t1):
        fp.add(e, t0, a.c0, a.c1)
        fp.sub(e, t1, a.c0, a.c1)
        fp.mul(e, out.c1, a.c0, a.c1)
        fp.dbl(e, out.c1, out.c1)
        fp.mul(e, out.c0, t0, t1)


def mul_by_xi(e: Emitter, out: Fp2, a: Fp2) -> None:
    """a * xi for the curve's non-residue xi = k + u: (k a0 - a1) + (a0 + k a1) u; for
    xi = 1 + u two additions, else a product by the constant k (one vector op under
    EVMMAX: cheaper and shorter than doublings) and two additions. ``out`` must not
    overlap ``a``."""
    if fp.overlap(out, a):
        raise ValueError(f"mul_by_xi needs distinct slots: {out!r}, {a!r}")
    k, one = e.curve.xi
    if one != 1:
        raise ValueError(f"mul_by_xi needs xi = k + u, not {e.curve.xi}")
    if k == 1:
        fp.sub(e, out.c0, a.c0, a.c1)
        fp.add(e, out.c1, a.c0, a.c1)
        return
    fp.mul(e, out, a, e.fp_const("xi.re", k))
    fp.sub(e, out.c0, out.c0, a.c1)
    fp.add(e, out.c1, out.c1, a.c0)


def mul_by_fp(e: Emitter, out: Fp2, a: Fp2, s: Fp) -> None:
    fp.mul(e, out.c0, a.c0, s)
    fp.mul(e, out.c1, a.c1, s)


def conj(e: Emitter, out: Fp2, a: Fp2) -> None:
    if not fp.overlap(out, a):
        fp.copy(e, out.c0, a.c0)
    fp.neg(e, out.c1, a.c1)


def mul_const(e: Emitter, out: Fp2, a: Fp2, k: Fp2Int, name: str,
              conjugate: bool = False) -> None:
    """out = conj?(a) * k for a constant k; signs are folded into the stored constants."""
    s = -1 if conjugate else 1
    k0, k1 = k[0] % e.curve.p, k[1] % e.curve.p
    if (k0, k1) == (1, 0):
        if conjugate:
            conj(e, out, a)
        elif not fp.overlap(out, a):
            fp.copy(e, out, a)
        return
    if k1 == 0:                                   # k in Fp: two products
        fp.mul(e, out.c0, a.c0, e.fp_const(f"{name}.re", k0))
        fp.mul(e, out.c1, a.c1, e.fp_const(f"{name}.re*s", s * k0))
        return
    # real = a0 k0 - s a1 k1, imag = a0 k1 + s a1 k0
    with e.asm.temps(Fp, Fp, Fp) as (t0, t1, t2):
        fp.mul(e, t0, a.c0, e.fp_const(f"{name}.re", k0))
        fp.mul(e, t1, a.c1, e.fp_const(f"{name}.-s*im", -s * k1))
        fp.mul(e, t2, a.c1, e.fp_const(f"{name}.s*re", s * k0))
        fp.mul(e, out.c1, a.c0, e.fp_const(f"{name}.im", k1))   # last read of a
        fp.add(e, out.c1, out.c1, t2)
        fp.add(e, out.c0, t0, t1)


def inverse(e: Emitter, out: Fp2, a: Fp2) -> None:
    """(a0 - a1 u) / (a0^2 + a1^2)."""
    with e.asm.scope("fp2_inv"), e.asm.temps(Fp, Fp) as (t0, t1):
        fp.sqr(e, t0, a.c0)
        fp.sqr(e, t1, a.c1)
        fp.add(e, t0, t0, t1)
        fp.inverse(e, t0, t0)
        fp.mul(e, out.c0, a.c0, t0)
        fp.mul(e, out.c1, a.c1, t0)
        fp.neg(e, out.c1, out.c1)
