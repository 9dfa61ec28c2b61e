"""Fp2 = Fp[u]/(u^2 - beta) as EVM code, beta the curve's ``fp2_nonresidue`` (blst's tower
for beta = -1; an Fp2 slot is c0‖c1).

For u^2 = -1 (BN254, BLS12-381) products use schoolbook formulas: with MULMODMONT384 only
three times as expensive as an addition, 4 mul + 2 add beats Karatsuba's 3 mul + 5 add in
ops and in gas, and the engines run that product as one step (:mod:`..fp2_shape`). Another
beta (BLS12-377's -5) adds one product by the constant beta (:func:`_times_nonresidue`);
where a product costs several additions (EVM384) its product is Karatsuba's.
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


def _times_nonresidue(e: Emitter, out: Fp, a: Fp) -> None:
    """out = beta a: one product by the constant (under EVMMAX a product costs two
    additions; -5 a by additions takes three), a negation for beta = -1."""
    beta = e.curve.fp2_nonresidue
    if beta == -1:
        fp.neg(e, out, a)
    else:
        fp.mul(e, out, a, e.fp_const("fp2_nonresidue", beta))


def mul(e: Emitter, out: Fp2, a: Fp2, b: Fp2, scratch: Scratch = None) -> None:
    """(a0 b0 + beta a1 b1) + (a0 b1 + a1 b0) u; 4 mul, 2 add/sub for u^2 = -1, and one
    product by beta more for another beta where products are cheap (EVMMAX, plain EVM:
    as much gas as Karatsuba's, two operations less). ``scratch``:
    three Fp slots for the temporaries t0, t1, t2 (apart from a, b and out), else fresh
    ones. The engines run the product as one step only where its temporaries are provably
    overwritten before they are read (:mod:`..evm.fp2_products`), so a routine whose
    last product ends a run of straight-line code hands it slots that the code after it
    writes first. Another beta where products are dear (EVM384): :func:`_mul_karatsuba`
    (``scratch`` unused)."""
    minus_one = e.curve.fp2_nonresidue == -1
    if not minus_one and not e.target.cheap_products:
        _mul_karatsuba(e, out, a, b)
        return
    with e.asm.scope("fp2_mul"), e.asm.temps(*([] if scratch else [Fp] * 3)) as fresh:
        t0, t1, t2 = scratch or fresh
        fp.mul(e, t0, a.c0, b.c0)
        fp.mul(e, t1, a.c1, b.c1)
        fp.mul(e, t2, a.c0, b.c1)
        fp.mul(e, out.c1, a.c1, b.c0)           # last read of a and b
        fp.add(e, out.c1, out.c1, t2)
        if minus_one:
            fp.sub(e, out.c0, t0, t1)
        else:
            _times_nonresidue(e, t1, t1)
            fp.add(e, out.c0, t0, t1)


def _mul_karatsuba(e: Emitter, out: Fp2, a: Fp2, b: Fp2) -> None:
    """(a0 b0 + beta a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u; 3 mul, one by beta,
    5 add/sub."""
    with e.asm.scope("fp2_mul"), e.asm.temps(Fp, Fp, Fp, Fp) as (t0, t1, sa, sb):
        fp.add(e, sa, a.c0, a.c1)
        fp.add(e, sb, b.c0, b.c1)
        fp.mul(e, t0, a.c0, b.c0)
        fp.mul(e, t1, a.c1, b.c1)               # last read of a and b
        fp.mul(e, out.c1, sa, sb)
        fp.sub(e, out.c1, out.c1, t0)
        fp.sub(e, out.c1, out.c1, t1)
        _times_nonresidue(e, t1, t1)
        fp.add(e, out.c0, t0, t1)


def sqr(e: Emitter, out: Fp2, a: Fp2) -> None:
    """For u^2 = -1 (a0 + a1)(a0 - a1) + 2 a0 a1 u; 2 mul, 3 add/sub. Another beta:
    :func:`_sqr_schoolbook`."""
    if e.curve.fp2_nonresidue != -1:
        _sqr_schoolbook(e, out, a)
        return
    with e.asm.scope("fp2_sqr"), e.asm.temps(Fp, Fp) as (t0, t1):
        fp.add(e, t0, a.c0, a.c1)
        fp.sub(e, t1, a.c0, a.c1)
        fp.mul(e, out.c1, a.c0, a.c1)
        fp.dbl(e, out.c1, out.c1)
        fp.mul(e, out.c0, t0, t1)


def _sqr_schoolbook(e: Emitter, out: Fp2, a: Fp2) -> None:
    """(a0^2 + beta a1^2) + 2 a0 a1 u: 3 products, one by beta, 2 add (Karatsuba's
    (a0 + a1)^2 - a0^2 - a1^2 saves no product where a squaring costs a product, and
    takes two more additions)."""
    with e.asm.scope("fp2_sqr"), e.asm.temps(Fp, Fp) as (t0, t1):
        fp.sqr(e, t0, a.c0)
        fp.sqr(e, t1, a.c1)
        fp.mul(e, out.c1, a.c0, a.c1)           # last read of a
        fp.dbl(e, out.c1, out.c1)
        _times_nonresidue(e, t1, t1)
        fp.add(e, out.c0, t0, t1)


def mul_by_xi(e: Emitter, out: Fp2, a: Fp2) -> None:
    """a * xi for the curve's non-residue xi = k + u: (k a0 + beta a1) + (a0 + k a1) u; for
    u^2 = -1 and xi = 1 + u two additions, else a product by the constant k (one vector
    op under EVMMAX: cheaper and shorter than doublings; none for k = 0), beta a1 and two
    additions. ``out`` must not overlap ``a``."""
    if fp.overlap(out, a):
        raise ValueError(f"mul_by_xi needs distinct slots: {out!r}, {a!r}")
    k, one = e.curve.xi
    if one != 1:
        raise ValueError(f"mul_by_xi needs xi = k + u, not {e.curve.xi}")
    minus_one = e.curve.fp2_nonresidue == -1
    if k == 1 and minus_one:
        fp.sub(e, out.c0, a.c0, a.c1)
        fp.add(e, out.c1, a.c0, a.c1)
        return
    if k == 0:                                   # xi = u: (beta a1) + a0 u
        _times_nonresidue(e, out.c0, a.c1)
        fp.copy(e, out.c1, a.c0)
        return
    fp.mul(e, out, a, e.fp_const("xi.re", k))
    if minus_one:
        fp.sub(e, out.c0, out.c0, a.c1)
    else:
        with e.asm.temps(Fp) as (t,):
            _times_nonresidue(e, t, a.c1)
            fp.add(e, out.c0, out.c0, t)
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
    """out = conj?(a) * k for a constant k; signs and beta are folded into the stored
    constants."""
    s = -1 if conjugate else 1
    beta = e.curve.fp2_nonresidue
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
    # real = a0 k0 + beta s a1 k1, imag = a0 k1 + s a1 k0
    with e.asm.temps(Fp, Fp, Fp) as (t0, t1, t2):
        fp.mul(e, t0, a.c0, e.fp_const(f"{name}.re", k0))
        fp.mul(e, t1, a.c1, e.fp_const(f"{name}.beta*s*im", beta * s * k1))
        fp.mul(e, t2, a.c1, e.fp_const(f"{name}.s*re", s * k0))
        fp.mul(e, out.c1, a.c0, e.fp_const(f"{name}.im", k1))   # last read of a
        fp.add(e, out.c1, out.c1, t2)
        fp.add(e, out.c0, t0, t1)


def inverse(e: Emitter, out: Fp2, a: Fp2) -> None:
    """(a0 - a1 u) / (a0^2 - beta a1^2)."""
    with e.asm.scope("fp2_inv"), e.asm.temps(Fp, Fp) as (t0, t1):
        fp.sqr(e, t0, a.c0)
        fp.sqr(e, t1, a.c1)
        if e.curve.fp2_nonresidue == -1:
            fp.add(e, t0, t0, t1)
        else:
            _times_nonresidue(e, t1, t1)
            fp.sub(e, t0, t0, t1)
        fp.inverse(e, t0, t0)
        fp.mul(e, out.c0, a.c0, t0)
        fp.mul(e, out.c1, a.c1, t0)
        fp.neg(e, out.c1, out.c1)
