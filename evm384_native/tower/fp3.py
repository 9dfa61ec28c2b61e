"""Fp3 = Fp[u]/(u^3 - xi) as EVM code, xi the curve's ``fp3_nonresidue`` (BW6-761's -4,
EIP-3026's tower; an Fp3 slot is c0‖c1‖c2). The k = 6 tower's base (:mod:`.fp6_over_fp3`).
Products are Karatsuba's (6 products where schoolbook takes 9: at twelve limbs a product
costs several additions), squarings Chung and Hasan's SQR2 ("Asymmetric squaring formulae",
ARITH 2007: 5 products), each product by xi additions where xi is a small power of two
(:func:`times_nonresidue`)."""
from __future__ import annotations

from ..asm import Fp, Slot
from . import cubic, fp
from .fp import Emitter

add = fp.add_each
sub = fp.sub_each
neg = fp.neg_each


class Fp3(Slot):
    c0: Fp
    c1: Fp
    c2: Fp


def times_nonresidue(e: Emitter, out: Fp, a: Fp, negated: bool = False) -> None:
    """out = xi a (-xi a if ``negated``): for xi = +-2^k, k <= 3 (BW6-761's -4), k
    doublings and a negation where the factor is negative (under EVMMAX at twelve limbs an
    addition costs 2 gas, a product 12), else one product by the constant. ``out`` may be
    ``a``."""
    xi = -e.curve.fp3_nonresidue if negated else e.curve.fp3_nonresidue
    magnitude = abs(xi)
    if magnitude & (magnitude - 1) or magnitude > 8:
        fp.mul(e, out, a, e.fp_const("fp3_nonresidue_negated" if negated
                                     else "fp3_nonresidue", xi))
        return
    source = a                                   # |xi| > 1: +-1 are cubes
    if xi < 0:
        fp.neg(e, out, a)
        source = out
    for _ in range(magnitude.bit_length() - 1):
        fp.dbl(e, out, source)
        source = out


def add_times_nonresidue(e: Emitter, out: Fp, a: Fp, b: Fp, scratch: Fp,
                         negated: bool = False) -> None:
    """out = a + xi b (a - xi b if ``negated``), with |xi| b made in ``scratch`` (which may
    be ``b``, then overwritten): for xi = +-2^k, k <= 3, k doublings and an addition or a
    subtraction (one operation fewer than :func:`times_nonresidue` and an addition where
    xi < 0), else a product by xi. ``out`` may be ``a``."""
    xi = -e.curve.fp3_nonresidue if negated else e.curve.fp3_nonresidue
    magnitude = abs(xi)
    if magnitude & (magnitude - 1) or magnitude > 8:
        fp.mul(e, scratch, b, e.fp_const("fp3_nonresidue", e.curve.fp3_nonresidue))
        (fp.sub if negated else fp.add)(e, out, a, scratch)
        return
    source = b
    for _ in range(magnitude.bit_length() - 1):
        fp.dbl(e, scratch, source)
        source = scratch
    (fp.sub if xi < 0 else fp.add)(e, out, a, source)


def mul(e: Emitter, out: Fp3, a: Fp3, b: Fp3) -> None:
    """Karatsuba: v_i = a_i b_i, c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2),
    c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2, c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1.
    Every read of a and b comes before the first write of out (out may alias them)."""
    with e.asm.scope("fp3_mul"), e.asm.temps(*[Fp] * 8) as (v0, v1, v2, sa, sb, m0, m1, m2):
        fp.add(e, sa, a.c1, a.c2)
        fp.add(e, sb, b.c1, b.c2)
        fp.mul(e, m0, sa, sb)
        fp.add(e, sa, a.c0, a.c1)
        fp.add(e, sb, b.c0, b.c1)
        fp.mul(e, m1, sa, sb)
        fp.add(e, sa, a.c0, a.c2)
        fp.add(e, sb, b.c0, b.c2)
        fp.mul(e, m2, sa, sb)
        fp.mul(e, v0, a.c0, b.c0)
        fp.mul(e, v1, a.c1, b.c1)
        fp.mul(e, v2, a.c2, b.c2)                # last read of a and b
        fp.sub(e, m0, m0, v1)
        fp.sub(e, m0, m0, v2)
        fp.sub(e, m1, m1, v0)
        fp.sub(e, m1, m1, v1)
        fp.sub(e, m2, m2, v0)
        fp.sub(e, m2, m2, v2)
        fp.add(e, out.c2, m2, v1)
        add_times_nonresidue(e, out.c1, m1, v2, v2)
        add_times_nonresidue(e, out.c0, v0, m0, m0)


def sqr(e: Emitter, out: Fp3, a: Fp3) -> None:
    """Chung-Hasan SQR2: s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2,
    s4 = a2^2; c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4."""
    with e.asm.scope("fp3_sqr"), e.asm.temps(*[Fp] * 5) as (s0, s1, s2, s3, s4):
        fp.sub(e, s2, a.c0, a.c1)
        fp.add(e, s2, s2, a.c2)
        fp.sqr(e, s2, s2)
        fp.mul(e, s1, a.c0, a.c1)
        fp.dbl(e, s1, s1)
        fp.mul(e, s3, a.c1, a.c2)
        fp.dbl(e, s3, s3)
        fp.sqr(e, s0, a.c0)
        fp.sqr(e, s4, a.c2)                      # last read of a
        fp.add(e, out.c2, s1, s2)
        fp.add(e, out.c2, out.c2, s3)
        fp.sub(e, out.c2, out.c2, s0)
        fp.sub(e, out.c2, out.c2, s4)
        add_times_nonresidue(e, out.c1, s1, s4, s4)
        add_times_nonresidue(e, out.c0, s0, s3, s3)


def mul_by_u(e: Emitter, out: Fp3, a: Fp3) -> None:
    """out = u a = (xi a2, a0, a1). ``out`` must not overlap ``a``."""
    if fp.overlap(out, a):
        raise ValueError(f"mul_by_u needs distinct slots: {out!r}, {a!r}")
    times_nonresidue(e, out.c0, a.c2)
    fp.copy(e, out.c1, a.c0)
    fp.copy(e, out.c2, a.c1)


def mul_by_fp(e: Emitter, out: Fp3, a: Fp3, s: Fp) -> None:
    """out = s a for s in Fp: one vector product (a scalar operand)."""
    fp.mul(e, out, a, s)


def mul_by_01(e: Emitter, out: Fp3, a: Fp3, b0: Fp, b1: Fp) -> None:
    """a (b0 + b1 u): a b0 + u (a b1), 6 products. ``out`` must not overlap ``a``."""
    if fp.overlap(out, a):
        raise ValueError(f"mul_by_01 needs distinct slots: {out!r}, {a!r}")
    with e.asm.temps(Fp3) as (t,):
        fp.mul(e, t, a, b1)
        fp.mul(e, out, a, b0)
        add_times_nonresidue(e, out.c0, out.c0, t.c2, t.c2)
        fp.add(e, out.c1, out.c1, t.c0)
        fp.add(e, out.c2, out.c2, t.c1)


def inverse(e: Emitter, out: Fp3, a: Fp3) -> None:
    """The adjugate divided by the norm (:func:`.cubic.inverse`)."""
    cubic.inverse(e, fp, times_nonresidue, out, a, "fp3_inv")
