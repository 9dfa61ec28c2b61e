"""Fp6 = Fp3[v]/(v^2 - u) as EVM code: the k = 6 tower's top (BW6-761, EIP-3026), over
:mod:`.fp3` (u^3 = xi). A slot is c0‖c1, each an Fp3; with w = v (w^2 = u, w^6 = xi) the
value c_j.c_i multiplies w^(2 i + j), so the Frobenius maps scale each Fp value by a
constant. Elements of the cyclotomic subgroup (order p^2 - p + 1, which divides p^3 + 1)
have norm 1 over Fp3: their inverse is the conjugate c0 - c1 v, and their square
(2 c0^2 - 1) + 2 c0 c1 v (as c0^2 - u c1^2 = 1)."""
from __future__ import annotations

from typing import List

from ..asm import Fp, Slot
from . import fp, fp3
from .fp import Emitter
from .fp3 import Fp3

add = fp.add_each
sub = fp.sub_each


class Fp6OverFp3(Slot):
    c0: Fp3
    c1: Fp3


def _add_u_times(e: Emitter, out: Fp3, a: Fp3, b: Fp3) -> None:
    """out = a + u b. ``out`` may be ``a``, not ``b``."""
    with e.asm.temps(Fp) as (t,):
        fp3.times_nonresidue(e, t, b.c2)
        fp.add(e, out.c2, a.c2, b.c1)
        fp.add(e, out.c1, a.c1, b.c0)
        fp.add(e, out.c0, a.c0, t)


def mul(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3, b: Fp6OverFp3) -> None:
    """Karatsuba over Fp3: t0 = a0 b0, t1 = a1 b1, c1 = (a0 + a1)(b0 + b1) - t0 - t1,
    c0 = t0 + u t1; 3 Fp3 products. ``out`` may alias a or b."""
    with e.asm.scope("fp6_3_mul"), e.asm.temps(Fp3, Fp3, Fp3, Fp3) as (t0, t1, sa, sb):
        fp3.add(e, sa, a.c0, a.c1)
        fp3.add(e, sb, b.c0, b.c1)
        fp3.mul(e, t0, a.c0, b.c0)
        fp3.mul(e, t1, a.c1, b.c1)               # last read of a and b
        fp3.mul(e, sa, sa, sb)
        fp3.sub(e, sa, sa, t0)
        fp3.sub(e, out.c1, sa, t1)
        _add_u_times(e, out.c0, t0, t1)


def sqr(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3) -> None:
    """The complex method: t = a0 a1, c0 = (a0 + a1)(a0 + u a1) - t - u t, c1 = 2 t; 2 Fp3
    products."""
    with e.asm.scope("fp6_3_sqr"), e.asm.temps(Fp3, Fp3, Fp3) as (t, s0, s1):
        fp3.mul(e, t, a.c0, a.c1)
        fp3.add(e, s0, a.c0, a.c1)
        _add_u_times(e, s1, a.c0, a.c1)          # last read of a
        fp3.mul(e, s0, s0, s1)
        fp3.sub(e, s0, s0, t)
        fp3.mul_by_u(e, s1, t)
        fp3.sub(e, out.c0, s0, s1)
        fp.add(e, out.c1, t, t)


def cyclotomic_sqr(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3) -> None:
    """a^2 for a of norm 1 over Fp3: (2 a0^2 - 1) + 2 a0 a1 v; an Fp3 squaring and a
    product."""
    with e.asm.scope("fp6_3_cyclotomic_sqr"), e.asm.temps(Fp3, Fp3) as (s, t):
        fp3.sqr(e, s, a.c0)
        fp3.mul(e, t, a.c0, a.c1)                # last read of a
        fp.add(e, out.c1, t, t)
        fp.add(e, s, s, s)
        fp.sub(e, out.c0.c0, s.c0, e.one)
        fp.copy(e, out.c0.c1, s.c1)
        fp.copy(e, out.c0.c2, s.c2)


def conj(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3) -> None:
    """c0 - c1 v: a^(p^3) (w^(p^3) = -w), the inverse of a cyclotomic a."""
    if not fp.same(out, a):
        fp.copy(e, out.c0, a.c0)
    fp.neg_each(e, out.c1, a.c1)


def mul_by_line(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3, l0: Fp, l2: Fp, l3: Fp
                ) -> None:
    """a (l0 + l2 w^2 + l3 w^3), the Miller loop's sparse line: with L0 = l0 + l2 u and
    L1 = l3 u, t0 = a0 L0, t1 = a1 L1, c1 = (a0 + a1)(L0 + L1) - t0 - t1, c0 = t0 + u t1:
    15 products. ``out`` may alias ``a``; the l_i must not overlap it."""
    with e.asm.scope("fp6_3_mul_by_line"), e.asm.temps(Fp3, Fp3, Fp3, Fp) as (
            t0, t1, s, m):
        fp3.mul_by_01(e, t0, a.c0, l0, l2)
        fp3.mul_by_1(e, t1, a.c1, l3)
        fp3.add(e, s, a.c0, a.c1)                # last read of a
        fp.add(e, m, l2, l3)
        fp3.mul_by_01(e, out.c1, s, l0, m)
        fp3.sub(e, out.c1, out.c1, t0)
        fp3.sub(e, out.c1, out.c1, t1)
        _add_u_times(e, out.c0, t0, t1)


def inverse(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3) -> None:
    """(a0 - a1 v) / (a0^2 - u a1^2)."""
    with e.asm.scope("fp6_3_inv"), e.asm.temps(Fp3, Fp3, Fp3) as (n, t, s):
        fp3.sqr(e, n, a.c0)
        fp3.sqr(e, t, a.c1)
        fp3.mul_by_u(e, s, t)
        fp3.sub(e, n, n, s)
        fp3.inverse(e, n, n)
        fp3.mul(e, out.c0, a.c0, n)
        fp3.mul(e, out.c1, a.c1, n)
        fp.neg_each(e, out.c1, out.c1)


def frobenius_coefficients(p: int, xi: int, n: int) -> List[int]:
    """gamma^k for the value of w^k, k = 0..5: (w^k)^(p^n) = w^k xi^(k (p^n - 1) / 6)."""
    gamma = pow(xi, (p ** n - 1) // 6, p)
    return [pow(gamma, k, p) for k in range(6)]


def frobenius(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3, n: int) -> None:
    """a^(p^n): each value times its constant (w^k's, k = 2 i + j)."""
    curve = e.curve
    gammas = frobenius_coefficients(curve.p, curve.fp3_nonresidue, n)
    for j, (o, x) in enumerate(zip(out.children(), a.children())):
        for i, (oi, xi) in enumerate(zip(o.children(), x.children())):
            k = 2 * i + j
            if gammas[k] == 1:
                if not fp.same(oi, xi):
                    fp.copy(e, oi, xi)
            else:
                fp.mul(e, oi, xi, e.fp_const(f"frob6_3_{n}.w{k}", gammas[k]))
