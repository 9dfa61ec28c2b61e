"""Fp12 = Fp6[w]/(w^2 - v) as EVM code (an Fp12 slot is c0‖c1, blst's memory order).

The big routines (mul, sqr, cyclotomic sqr, sparse mul by a line, inverse) are also
available as subroutines working in place on fixed argument slots (:func:`routine`),
which keeps bytecode small: each is emitted once, callers copy operands with MCOPY.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional, Sequence, Tuple

from ..asm import Fp, Fp2, Fp6, Fp12, Slot, Subroutine
from ..curves.fields import Fp2Int
from ..curves.model import PairingCurve
from . import fp, fp2, fp6
from .fp import Emitter

add = fp.add_each
sub = fp.sub_each


Mul6 = Callable[[Emitter, Fp6, Fp6, Fp6], None]


def mul(e: Emitter, out: Fp12, a: Fp12, b: Fp12, mul6: Mul6 = fp6.mul) -> None:
    """Karatsuba over Fp6: (a0 b0 + v a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w.

    ``mul6`` multiplies in Fp6 (inline by default, or :func:`fp6.mul_by_subroutine`)."""
    with e.asm.scope("fp12_mul"), e.asm.temps(Fp6, Fp6, Fp6, Fp6) as (t0, t1, s, r):
        fp6.add(e, s, a.c0, a.c1)
        fp6.add(e, r, b.c0, b.c1)
        mul6(e, t0, a.c0, b.c0)
        mul6(e, t1, a.c1, b.c1)
        mul6(e, s, s, r)
        fp6.sub(e, s, s, t0)
        fp6.sub(e, out.c1, s, t1)
        fp6.add_mul_by_v(e, out.c0, t0, t1)


def sqr(e: Emitter, out: Fp12, a: Fp12) -> None:
    """Chung-Hasan squaring over Fp4 (SQR2): Fp12 = Fp4[w]/(w^3 - t) with t = w^3, t^2 = xi,
    a = A + B w + C w^2 (the Fp4 pairs of :func:`_fp4_pairs`):
        a^2 = (S0 + t S3) + (S1 + t S4) w + (S1 + S2 + S3 - S0 - S4) w^2
    with S0 = A^2, S1 = 2AB, S2 = (A - B + C)^2, S3 = 2BC, S4 = C^2: three Fp4 squarings and
    two Fp4 products, 42 MULMODMONT384 (the complex squaring over Fp6: 48) and less gas
    under every schedule. Every read of a happens before the first write of out.
    Compact builds for towers other than blst's (whose Fp4 squarings are longer)
    take the complex squaring through the shared Fp6 product instead: ~3 KB less code."""
    if e.compact and not _blst_tower(e):
        _sqr_complex(e, out, a, fp6.mul_by_subroutine)
        return
    (a_0, a_1), (b_0, b_1), (c_0, c_1) = _fp4_pairs(a)
    # The Fp4 squarings' scratch (see _sqr_fp4) is overwritten before it is read after each
    # of them: by the next squaring, by A - B + C (which the allocator puts where the first
    # scratch was) and by the w^2 sums.
    scratch_types = _sqr_fp4_scratch(e)
    with e.asm.scope("fp12_sqr"), e.asm.temps(*[Fp2] * 10) as (
            s00, s01, s20, s21, s40, s41, p0, p1, q0, q1):
        with e.asm.temps(*scratch_types) as scratch:
            _sqr_fp4(e, s00, s01, a_0, a_1, scratch)
            _sqr_fp4(e, s40, s41, c_0, c_1, scratch)
        _mul_fp4(e, p0, p1, a_0, a_1, b_0, b_1)
        _mul_fp4(e, q0, q1, b_0, b_1, c_0, c_1)
        (o00, o01), (o10, o11), (o20, o21) = _fp4_pairs(out)
        with e.asm.temps(Fp2, Fp2) as (d0, d1), e.asm.temps(*scratch_types) as scratch:
            fp2.sub(e, d0, a_0, b_0)                  # A - B + C
            fp2.add(e, d0, d0, c_0)
            fp2.sub(e, d1, a_1, b_1)
            fp2.add(e, d1, d1, c_1)
            _sqr_fp4(e, s20, s21, d0, d1, scratch)
            # a is read; S1 = 2P and S3 = 2Q
            for x in (p0, p1, q0, q1):
                fp2.dbl(e, x, x)
            # w^2: S1 + S2 + S3 - S0 - S4, summed in the scratch where there is one
            for k, (o, s1, s2, s3, s0, s4) in enumerate(((o20, p0, s20, q0, s00, s40),
                                                         (o21, p1, s21, q1, s01, s41))):
                total = scratch[k] if scratch else s2
                fp2.add(e, total, s2, s1)
                fp2.add(e, total, total, s3)
                fp2.sub(e, total, total, s0)
                fp2.sub(e, o, total, s4)
        # t (x0 + x1 t) = xi x1 + x0 t
        fp2.mul_by_xi(e, o00, q1)
        fp2.add(e, o00, o00, s00)
        fp2.add(e, o01, s01, q0)
        fp2.mul_by_xi(e, o10, s41)
        fp2.add(e, o10, o10, p0)
        fp2.add(e, o11, p1, s40)


def _sqr_complex(e: Emitter, out: Fp12, a: Fp12, mul6: Mul6) -> None:
    """(a0 + a1 w)^2 = (s - t - v t) + 2 t w with t = a0 a1, s = (a0 + a1)(a0 + v a1): two
    Fp6 products. Every read of a happens before the first write of out."""
    with e.asm.scope("fp12_sqr"), e.asm.temps(Fp6, Fp6, Fp6) as (t, u, s):
        mul6(e, t, a.c0, a.c1)
        fp6.add(e, u, a.c0, a.c1)
        fp6.add_mul_by_v(e, s, a.c0, a.c1)
        mul6(e, s, s, u)
        fp6.add_mul_by_v(e, out.c0, s, t, subtract=True)
        fp6.sub(e, out.c0, out.c0, t)
        fp6.dbl(e, out.c1, t)


def conj(e: Emitter, out: Fp12, a: Fp12) -> None:
    """a^(p^6) = a0 - a1 w."""
    if not fp.overlap(out, a):
        fp.copy(e, out.c0, a.c0)
    fp6.neg(e, out.c1, a.c1)


def mul_by_line(e: Emitter, out: Fp12, a: Fp12, line: Fp6) -> None:
    """a * l for the sparse line of the curve's twist, with line = l0‖l1‖l2 (see
    :mod:`.jacobian`): on an M-type twist l = (l0 + l1 v) + (l2 v) w (blst's "xy00z0"
    layout), on a D-type twist l = l2 + (l1 + l0 v) w (arkworks' mul_by_034). Karatsuba
    over Fp6 either way: 13 Fp2 products. ``out`` may be ``a``.

    The products' temporaries: the first sparse product's in t1, which the second writes
    before reading; the later ones' in out.c0, which is free once a0 is read and written
    first at the end. So every product's temporaries are overwritten before they are
    read, in this code, and the engines run each as one step (:func:`.fp2.mul`)."""
    l0, l1, l2 = line.c0, line.c1, line.c2
    with e.asm.scope("fp12_mul_by_line"), e.asm.temps(Fp6, Fp6, Fp6, Fp2) as (t0, t1, s, l12):
        first, later = t1.fps()[:3], out.c0.fps()[:3]
        fp6.add(e, s, a.c0, a.c1)                 # the last read of a0
        if e.curve.twist == "M":                  # a0 l0' and a1 l1' with l0' = l0 + l1 v,
            fp2.add(e, l12, l1, l2)               # l1' = l2 v
            fp6.mul_by_01(e, t0, a.c0, l0, l1, first)
            fp6.mul_by_1(e, t1, a.c1, l2, later)
            fp6.mul_by_01(e, s, s, l0, l12, later)    # (a0 + a1)(l0' + l1')
        else:                                     # l0' = l2, l1' = l1 + l0 v
            fp2.add(e, l12, l2, l1)
            fp6.mul_by_0(e, t0, a.c0, l2, first)
            fp6.mul_by_01(e, t1, a.c1, l1, l0, later)
            fp6.mul_by_01(e, s, s, l12, l0, later)
        fp6.sub(e, s, s, t0)
        fp6.sub(e, out.c1, s, t1)
        fp6.add_mul_by_v(e, out.c0, t0, t1)


def mul_by_one_plus(e: Emitter, out: Fp12, a: Fp12, t: Fp6, mul6: Mul6 = fp6.mul) -> None:
    """a * (1 + t w) = (a0 + v a1 t) + (a1 + a0 t) w: two Fp6 products (a full product
    takes three). ``out`` may be ``a``; ``t`` must not overlap ``out``."""
    with e.asm.scope("fp12_mul_by_one_plus"), e.asm.temps(Fp6, Fp6) as (a0t, a1t):
        mul6(e, a0t, a.c0, t)
        mul6(e, a1t, a.c1, t)
        fp6.add(e, out.c1, a.c1, a0t)
        fp6.add_mul_by_v(e, out.c0, a.c0, a1t)


def _fp4_pairs(a: Fp12) -> Tuple[Tuple[Fp2, Fp2], Tuple[Fp2, Fp2], Tuple[Fp2, Fp2]]:
    """a as A + B w + C w^2 over Fp4 = Fp2[t]/(t^2 - xi), t = w^3: A = c00 + c11 t,
    B = c10 + c02 t, C = c01 + c12 t (since v = w^2)."""
    return (a.c0.c0, a.c1.c1), (a.c1.c0, a.c0.c2), (a.c0.c1, a.c1.c2)


def _mul_fp4(e: Emitter, out0: Fp2, out1: Fp2, a0: Fp2, a1: Fp2, b0: Fp2, b1: Fp2) -> None:
    """(a0 + a1 t)(b0 + b1 t) = (a0 b0 + xi a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) t:
    3 Fp2 products. ``out0`` and ``out1`` must not overlap the inputs."""
    with e.asm.temps(Fp2, Fp2) as (m, n):
        fp2.add(e, m, a0, a1)
        fp2.add(e, n, b0, b1)
        fp2.mul(e, out1, m, n)
        fp2.mul(e, m, a0, b0)
        fp2.mul(e, n, a1, b1)
        fp2.sub(e, out1, out1, m)
        fp2.sub(e, out1, out1, n)
        fp2.mul_by_xi(e, out0, n)
        fp2.add(e, out0, out0, m)


def _blst_tower(e: Emitter) -> bool:
    """Whether the tower is blst's (BLS12-381's), u^2 = -1 and xi = 1 + u: the Fp4
    squarings then expand xi b^2 by additions (:func:`_sqr_fp4`)."""
    return e.curve.xi == (1, 1) and e.curve.fp2_nonresidue == -1


def _half_sqr(e: Emitter, re: Fp, im: Fp, a: Fp2) -> None:
    """a^2 = re + 2 im u with the imaginary part left undoubled: re = (a0 + a1)(a0 - a1),
    im = a0 a1; 2 mul, 2 add/sub. The sum and the difference wait in re and im (which must
    not overlap a), so the squaring needs no temporaries of its own."""
    fp.add(e, re, a.c0, a.c1)
    fp.sub(e, im, a.c0, a.c1)
    fp.mul(e, re, re, im)
    fp.mul(e, im, a.c0, a.c1)


def _sqr_fp4_scratch(e: Emitter) -> Tuple[type, ...]:
    """The temporaries :func:`_sqr_fp4` takes for the curve's xi (none for another xi)."""
    return (Fp2, Fp2) if _blst_tower(e) else ()


def _sqr_fp4(e: Emitter, out0: Fp2, out1: Fp2, a: Fp2, b: Fp2,
             scratch: Sequence[Fp2]) -> None:
    """(a + b t)^2 in Fp4 = Fp2[t]/(t^2 - xi) from three Fp2 squarings: out1 = 2ab =
    (a + b)^2 - a^2 - b^2, out0 = a^2 + xi b^2. With a^2 = A0 + 2 A1 u (and B, C for b^2,
    (a + b)^2), the doublings wait till the end:
        out0 = (A0 + B0 - 2 B1) + (2 (A1 + B1) + B0) u,  out1 = (C0 - A0 - B0) + 2 (C1 - A1 - B1) u.
    6 mul and 17 add/sub (the schoolbook 2ab: 8 mul, 14 add/sub): less gas under every
    schedule. That expands xi = 1 + u over u^2 = -1; for another tower, out0 = a^2 + xi b^2
    with the Fp2 squarings done in full. ``out0`` and ``out1`` must not overlap ``a`` or ``b``.
    ``scratch`` (:func:`_sqr_fp4_scratch`, apart from all of them) holds the partial
    squares; the callers hand the same scratch to their three squarings and then overwrite
    it before reading it, which lets the engines prove it dead and run each squaring as one
    step (evm/fp4_squares.py)."""
    if not _blst_tower(e):
        _sqr_fp4_any_xi(e, out0, out1, a, b)
        return
    (a0, a1), (b0, b1) = (t.children() for t in scratch)
    fp2.add(e, out0, a, b)                       # a + b, until out0 is written
    _half_sqr(e, out1.c0, out1.c1, out0)
    _half_sqr(e, a0, a1, a)
    _half_sqr(e, b0, b1, b)
    fp.add(e, a0, a0, b0)                        # A0 + B0
    fp.add(e, a1, a1, b1)                        # A1 + B1
    fp.sub(e, out1.c0, out1.c0, a0)
    fp.sub(e, out1.c1, out1.c1, a1)
    fp.dbl(e, out1.c1, out1.c1)
    fp.dbl(e, b1, b1)
    fp.sub(e, out0.c0, a0, b1)
    fp.dbl(e, a1, a1)
    fp.add(e, out0.c1, a1, b0)


def _sqr_fp4_any_xi(e: Emitter, out0: Fp2, out1: Fp2, a: Fp2, b: Fp2) -> None:
    """(a + b t)^2 = (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) t: three Fp2 squarings; for
    xi = u over another beta, :func:`_sqr_fp4_xi_u`."""
    if e.curve.xi == (0, 1) and e.curve.fp2_nonresidue != -1:
        _sqr_fp4_xi_u(e, out0, out1, a, b)
        return
    with e.asm.temps(Fp2, Fp2) as (aa, bb):
        fp2.add(e, out1, a, b)
        fp2.sqr(e, out1, out1)
        fp2.sqr(e, aa, a)
        fp2.sqr(e, bb, b)
        fp2.sub(e, out1, out1, aa)
        fp2.sub(e, out1, out1, bb)
        fp2.mul_by_xi(e, out0, bb)
        fp2.add(e, out0, out0, aa)


def _sqr_fp4_xi_u(e: Emitter, out0: Fp2, out1: Fp2, a: Fp2, b: Fp2) -> None:
    """(a + b t)^2 for t^2 = u (Fp4 = Fp[t]/(t^4 - beta)) in Fp: with B = beta b1, A = beta a1,
        out0 = (a0^2 + a1 A + 2 b0 B) + (2 a0 a1 + b0^2 + b1 B) u,
        out1 = 2 (a0 b0 + a1 B) + 2 (a0 b1 + a1 b0) u:
    12 products (two by beta) and 10 additions, where three Fp2 squarings take 12 products
    and 14 additions besides the product by xi. ``out0`` and ``out1`` must not overlap
    ``a`` or ``b``."""
    (a0, a1), (b0, b1) = a.children(), b.children()
    beta = e.fp_const("fp2_nonresidue", e.curve.fp2_nonresidue)
    with e.asm.scope("fp4_sqr"), e.asm.temps(Fp, Fp, Fp) as (big_a, big_b, t):
        fp.mul(e, big_a, a1, beta)
        fp.mul(e, big_b, b1, beta)
        # (out, its products, whether the first is doubled, whether the sum is)
        for o, products, double_first, double_sum in (
                (out0.c0, ((b0, big_b), (a0, a0), (a1, big_a)), True, False),
                (out0.c1, ((a0, a1), (b0, b0), (b1, big_b)), True, False),
                (out1.c0, ((a0, b0), (a1, big_b)), False, True),
                (out1.c1, ((a0, b1), (a1, b0)), False, True)):
            (x, y), *rest = products
            fp.mul(e, o, x, y)
            if double_first:
                fp.dbl(e, o, o)
            for x, y in rest:
                fp.mul(e, t, x, y)
                fp.add(e, o, o, t)
            if double_sum:
                fp.dbl(e, o, o)


def cyclotomic_sqr(e: Emitter, out: Fp12, a: Fp12) -> None:
    """Granger-Scott squaring, valid for a in the cyclotomic subgroup (after the easy part
    of the final exponentiation)."""
    with e.asm.scope("fp12_cyclotomic_sqr"), e.asm.temps(*[Fp2] * 7) as (
            t00, t01, t10, t11, t20, t21, x), e.asm.temps(*_sqr_fp4_scratch(e)) as scratch:
        _sqr_fp4(e, t00, t01, a.c0.c0, a.c1.c1, scratch)
        _sqr_fp4(e, t10, t11, a.c1.c0, a.c0.c2, scratch)
        _sqr_fp4(e, t20, t21, a.c0.c1, a.c1.c2, scratch)
        fp2.mul_by_xi(e, x, t21)
        # c = 3 t - 2 c for the c0 coefficients, c = 3 t + 2 c for the c1 coefficients; the
        # first differences in the squarings' scratch where there is one (overwritten before
        # it is read), then doubled into c
        for k, (o, t, c, sign) in enumerate(
                ((out.c0.c0, t00, a.c0.c0, -1), (out.c0.c1, t10, a.c0.c1, -1),
                 (out.c0.c2, t20, a.c0.c2, -1), (out.c1.c0, x, a.c1.c0, 1),
                 (out.c1.c1, t01, a.c1.c1, 1), (out.c1.c2, t11, a.c1.c2, 1))):
            combine = fp2.add if sign > 0 else fp2.sub
            if k < len(scratch):
                combine(e, scratch[k], t, c)
                fp2.add(e, o, scratch[k], scratch[k])
            else:
                combine(e, o, t, c)
                fp2.dbl(e, o, o)
            fp2.add(e, o, o, t)


def frobenius_coefficients(curve: PairingCurve, n: int) -> Tuple[Fp2Int, ...]:
    """Multipliers of the six Fp2 coefficients (c0.c0 .. c1.c2) after conjugating them n
    times: v^(p^n-1) and powers, times w^(p^n-1) = xi^((p^n-1)/6) for the c1 half."""
    k1, k2 = fp6.frobenius_coefficients(curve, n)
    gamma = curve.fp2.pow(curve.xi, (curve.p ** n - 1) // 6)
    return ((1, 0), k1, k2, gamma, curve.fp2.mul(k1, gamma), curve.fp2.mul(k2, gamma))


def frobenius(e: Emitter, out: Fp12, a: Fp12, n: int) -> None:
    """a^(p^n); one constant product per Fp2 coefficient."""
    with e.asm.scope(f"fp12_frobenius{n}"):
        _frobenius_each(e, out.c0.children() + out.c1.children(),
                                a.c0.children() + a.c1.children(), n, 0)


def frobenius_of_one_plus(e: Emitter, out: Fp6, t: Fp6, n: int) -> None:
    """out = t' with (1 + t w)^(p^n) = 1 + t' w: the c1 half of :func:`frobenius` (its
    c0 half maps 1 to 1)."""
    with e.asm.scope(f"fp12_frobenius{n}"):
        _frobenius_each(e, out.children(), t.children(), n, 3)


def _frobenius_each(e: Emitter, outs, ins, n: int, first: int) -> None:
    """Each Fp2 coefficient conjugated n times and multiplied by its Frobenius
    coefficient, the ``first``-th onwards."""
    coefficients = frobenius_coefficients(e.curve, n)
    for i, (o, x) in enumerate(zip(outs, ins), first):
        fp2.mul_const(e, o, x, coefficients[i], f"frob12_{n}.{i}", conjugate=n % 2 == 1)


def inverse(e: Emitter, out: Fp12, a: Fp12, mul6: Mul6 = fp6.mul) -> None:
    """(a0 - a1 w) / (a0^2 - v a1^2)."""
    with e.asm.scope("fp12_inv"), e.asm.temps(Fp6, Fp6) as (t0, t1):
        mul6(e, t0, a.c0, a.c0)
        mul6(e, t1, a.c1, a.c1)
        fp6.add_mul_by_v(e, t0, t0, t1, subtract=True)
        fp6.inverse(e, t0, t0)
        mul6(e, out.c0, a.c0, t0)
        mul6(e, out.c1, a.c1, t0)
        fp6.neg(e, out.c1, out.c1)


# --- subroutines ------------------------------------------------------------------------------

def _mul6(e: Emitter) -> Mul6:
    return fp6.mul_by_subroutine if e.compact else fp6.mul


_ROUTINES: Dict[str, Tuple[Callable[..., None], Dict[str, type]]] = {
    # name: (body acting in place on argument "a", parameters). In compact builds mul and
    # inv share one Fp6 multiplication subroutine; squaring (the Miller loop's) stays inline.
    "fp12_mul": (lambda e, a, b: mul(e, a, a, b, _mul6(e)), {"a": Fp12, "b": Fp12}),
    "fp12_sqr": (lambda e, a: sqr(e, a, a), {"a": Fp12}),
    "fp12_cyclotomic_sqr": (lambda e, a: cyclotomic_sqr(e, a, a), {"a": Fp12}),
    "fp12_mul_by_line": (lambda e, a, line: mul_by_line(e, a, a, line),
                         {"a": Fp12, "line": Fp6}),
    "fp12_mul_by_one_plus": (lambda e, a, t: mul_by_one_plus(e, a, a, t), {"a": Fp12, "t": Fp6}),
    "fp12_inv": (lambda e, a: inverse(e, a, a, _mul6(e)), {"a": Fp12}),
    # the inverse with its four Fp6 products through the shared subroutine whatever the
    # build (~1.4 KB less code than inline, ~560 gas more)
    "fp12_inv_shared": (lambda e, a: inverse(e, a, a, fp6.mul_by_subroutine), {"a": Fp12}),
}


def routine(e: Emitter, name: str, label: Optional[str] = None, **bound: Slot) -> Subroutine:
    """The subroutine ``name`` (see _ROUTINES), updating its argument ``a`` in place.

    ``bound`` ties arguments to existing slots; give such a variant its own ``label``.
    """
    body, params = _ROUTINES[name]
    return e.asm.subroutine(label or name, lambda asm, **args: body(e, **args),
                            {**params, **bound})


def call(e: Emitter, name: str, out: Slot, **args: Slot) -> None:
    """out = name(args...) through the subroutine; copies only what is not in place."""
    fp.call(e, routine(e, name), {"a": out}, **args)
