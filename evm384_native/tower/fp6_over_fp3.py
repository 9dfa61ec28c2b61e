"""Fp6 = Fp3[v]/(v^2 - u) as EVM code: the k = 6 tower's top (BW6-761, EIP-3026), over
:mod:`.fp3` (u^3 = xi). A slot is c0‖c1, each an Fp3; with w = v (w^2 = u, w^6 = xi) the
value c_j.c_i multiplies w^(2 i + j), so the Frobenius maps scale each Fp value by a
constant. Elements of the cyclotomic subgroup (order p^2 - p + 1, which divides p^3 + 1)
have norm 1 over Fp3: their inverse is the conjugate c0 - c1 v; their squares take
Granger and Scott's formulas (:func:`cyclotomic_sqr`)."""
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


def _add_u_times(e: Emitter, out: Fp3, a: Fp3, b: Fp3, negated: bool = False) -> None:
    """out = a + u b (a - u b if ``negated``). ``out`` may be ``a``, not ``b``."""
    with e.asm.temps(Fp) as (t,):
        fp3.add_times_nonresidue(e, out.c0, a.c0, b.c2, t, negated)
        (fp.sub if negated else fp.add)(e, out.c1, a.c1, b.c0)
        (fp.sub if negated else fp.add)(e, out.c2, a.c2, b.c1)


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
        _add_u_times(e, out.c0, s0, t, negated=True)
        fp.add(e, out.c1, t, t)


def _norm_and_product(e: Emitter, s: Fp, t: Fp, u: Fp, v: Fp, m: Fp, n: Fp) -> None:
    """s = u^2 + xi v^2 and t = 2 u v (m, n scratch). Where xi = -4 (BW6-761's),
    s = (u + 2 v)(u - 2 v) and t = u (2 v): two products and three additions; else
    s = (u + v)(u + xi v) - (1 + xi) u v."""
    if e.curve.fp3_nonresidue == -4:
        fp.dbl(e, n, v)
        fp.add(e, m, u, n)
        fp.sub(e, s, u, n)
        fp.mul(e, s, s, m)
        fp.mul(e, t, u, n)
        return
    fp.mul(e, t, u, v)
    fp3.times_nonresidue(e, n, v)
    fp.add(e, n, n, u)                           # u + xi v
    fp.add(e, m, u, v)
    fp.mul(e, s, m, n)
    fp3.times_nonresidue(e, n, t)
    fp.add(e, n, n, t)                           # (1 + xi) u v
    fp.sub(e, s, s, n)
    fp.dbl(e, t, t)


def cyclotomic_sqr(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3) -> None:
    """a^2 for a in the cyclotomic subgroup (order p^2 - p + 1): Granger and Scott's
    squaring ("Faster squaring in the cyclotomic subgroup of sixth degree extensions",
    PKC 2010) in the coordinates Fp6 = Fp2[z]/(z^3 - xi), Fp2 = Fp[s]/(s^2 - xi), s = w^3,
    z = w^2: with a_k the coefficient of w^k, A0 = a0 + a3 s, A1 = a2 + a5 s,
    A2 = a4 + (a1 / xi) s, a^2 = (3 A0^2 - 2 conj(A0)) + (3 xi A2^2 - 2 conj(A1)) z
    + (3 A1^2 - 2 conj(A2)) z^2; in this module's coordinates, with S(u, v) = u^2 + xi v^2
    and T(u, v) = 2 u v (:func:`_norm_and_product`):
    b0 = 3 S(a0, a3) - 2 a0, b3 = 3 T(a0, a3) + 2 a3, b2 = 3 S(a1, a4) - 2 a2,
    b5 = 3 T(a1, a4) + 2 a5, b4 = 3 S(a2, a5) - 2 a4, b1 = 3 xi T(a2, a5) + 2 a1: six
    products (tests/test_bw6_761_tower.py checks it against the plain square). ``out`` may
    be ``a``: each output reads its own input's slot only, after every product."""
    (a0, a2, a4), (a1, a3, a5) = a.c0.children(), a.c1.children()
    (b0, b2, b4), (b1, b3, b5) = out.c0.children(), out.c1.children()
    with e.asm.scope("fp6_3_cyclotomic_sqr"), e.asm.temps(*[Fp] * 8) as (
            s0, s1, s2, t0, t1, t2, m, n):
        for (u, v), s, t in zip(((a0, a3), (a1, a4), (a2, a5)), (s0, s1, s2), (t0, t1, t2)):
            _norm_and_product(e, s, t, u, v, m, n)
        fp3.times_nonresidue(e, t2, t2)          # xi T(a2, a5), for b1
        for even, s, own in ((b0, s0, a0), (b2, s1, a2), (b4, s2, a4)):
            fp.sub(e, m, s, own)
            fp.dbl(e, m, m)
            fp.add(e, even, s, m)                # 3 S - 2 own
        for odd, t, own in ((b3, t0, a3), (b5, t1, a5), (b1, t2, a1)):
            fp.add(e, m, t, own)
            fp.dbl(e, m, m)
            fp.add(e, odd, m, t)                 # 3 T + 2 own


def conj(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3) -> None:
    """c0 - c1 v: a^(p^3) (w^(p^3) = -w), the inverse of a cyclotomic a."""
    if not fp.same(out, a):
        fp.copy(e, out.c0, a.c0)
    fp.neg_each(e, out.c1, a.c1)


def mul_by_line(e: Emitter, out: Fp6OverFp3, a: Fp6OverFp3, l0: Fp, l2: Fp, l3: Fp
                ) -> None:
    """a (l0 + l2 w^2 + l3 w^3), the Miller loop's sparse line: Karatsuba over Fp3 with
    L0 = l0 + l2 u and L1 = l3 u: t0 = a0 L0, q = a1 l3 (a1 L1 = u q),
    c1 = (a0 + a1)(L0 + L1) - t0 - u q, c0 = t0 + u^2 q = t0 + (xi q1, xi q2, q0), with
    u q and u^2 q written out (xi q2 made once): 15 products. ``out`` may alias ``a``; the
    l_i must not overlap it."""
    with e.asm.scope("fp6_3_mul_by_line"), e.asm.temps(Fp3, Fp3, Fp3, Fp) as (
            t0, q, s, m):
        fp3.mul_by_01(e, t0, a.c0, l0, l2)
        fp3.mul_by_fp(e, q, a.c1, l3)
        fp3.add(e, s, a.c0, a.c1)                # last read of a
        fp.add(e, m, l2, l3)
        fp3.mul_by_01(e, out.c1, s, l0, m)
        fp3.sub(e, out.c1, out.c1, t0)
        fp3.times_nonresidue(e, m, q.c2, negated=True)   # -xi q2
        fp.add(e, out.c1.c0, out.c1.c0, m)       # c1 -= u q = (xi q2, q0, q1)
        fp.sub(e, out.c1.c1, out.c1.c1, q.c0)
        fp.sub(e, out.c1.c2, out.c1.c2, q.c1)
        fp3.add_times_nonresidue(e, out.c0.c0, t0.c0, q.c1, q.c1)
        fp.sub(e, out.c0.c1, t0.c1, m)
        fp.add(e, out.c0.c2, t0.c2, q.c0)


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
