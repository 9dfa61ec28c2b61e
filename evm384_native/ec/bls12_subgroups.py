"""Subgroup membership tests on BLS12 curves as EVM code (what EIP-2537 and EIP-2539 require
of their inputs, beside the curve checks of :mod:`.groups`), written once over the curve
description (BLS12-381: x < 0, an M-type twist; BLS12-377: x > 0, a D-type twist).

Every check jumps to a ``fail`` label when it does not hold; points are affine, in
Montgomery form, not at infinity.

Subgroup tests (Scott, "A note on group membership tests for G1, G2 and GT on BLS
pairing-friendly curves", 2021), checked against py_ecc for BLS12-381 and against the
tests' reference for BLS12-377 on points in and out of the subgroups:

- G1: phi(P) = [-x^2] P with phi(x, y) = (beta x, y) and beta the cube root of unity
  with that property (:func:`g1_beta`; the other root gives [x^2 - 1] P instead). [x^2] P
  is a run-time double-and-add over the bits of x^2, in Jacobian coordinates.
- G2: psi(Q) = [x] Q with psi = untwist o Frobenius o twist (:func:`psi_constants`):
  psi(x, y) = (conj(x) gx, conj(y) gy). No scalar multiplication is needed: the Miller
  loop leaves T = [|x|] Q in every pair state, so the test is T = sign(x) psi(Q).

Exceptional cases of the Jacobian formulas (T = +-Q in an addition, T of order 2 in a
doubling) can only occur for points outside the subgroup; they make Z = 0 for good (every
formula then keeps Z = 0), so requiring Z != 0 rejects them, and with Z != 0 the result is
the true multiple.
"""
from __future__ import annotations

from functools import lru_cache
from types import ModuleType
from typing import Callable, Tuple

from ..asm import G1, G1Jacobian, G2, G2Jacobian, Label, Slot
from ..curves.fields import sqrt
from ..curves.model import Fp2Int, PairingCurve
from ..curves.points import pairing_groups
from ..tower import fp, fp2, jacobian
from ..tower.control import double_and_add
from ..tower.compare import require_jacobian_is
from ..tower.fp import Emitter

# longest run of G1 doublings one call performs, for targets with dense_code
G1_DBL_RUN = 16


@lru_cache(maxsize=None)
def g1_beta(curve: PairingCurve) -> int:
    """The cube root of unity beta mod p with (beta x, y) = [-x^2] (x, y) on G1: a root of
    t^2 + t + 1, (-1 +- sqrt(-3)) / 2, the one the generator confirms."""
    p = curve.p
    root = sqrt(p - 3, p)
    assert root is not None, "p = 1 mod 3 for BLS12 curves"
    g1, _ = pairing_groups(curve)
    image = g1.negate(g1.multiply(curve.g1, curve.x ** 2))
    for beta in ((-1 + root) * pow(2, -1, p) % p, (-1 - root) * pow(2, -1, p) % p):
        if image == (beta * curve.g1[0] % p, curve.g1[1]):
            return beta
    raise ValueError(f"{curve.name}: no cube root of unity gives phi(P) = [-x^2] P")


@lru_cache(maxsize=None)
def psi_constants(curve: PairingCurve) -> Tuple[Fp2Int, Fp2Int]:
    """(gx, gy) with psi(x, y) = (conj(x) gx, conj(y) gy), the p-power Frobenius moved to
    the twist: xi^((p - 1) / 3) and xi^((p - 1) / 2) for a D-type twist, their inverses
    for an M-type one."""
    fp2_ints, exponent = curve.fp2, curve.p - 1
    gx, gy = fp2_ints.pow(curve.xi, exponent // 3), fp2_ints.pow(curve.xi, exponent // 2)
    if curve.twist == "M":
        gx, gy = fp2_ints.inverse(gx), fp2_ints.inverse(gy)
    return gx, gy


def require_g1_in_subgroup(e: Emitter, p: G1, fail: Label,
                           double: Callable[[Emitter, ModuleType, Slot], None] =
                           jacobian.jacobian_dbl, run: int = G1_DBL_RUN) -> None:
    """phi(P) = [-x^2] P, i.e. [x^2] P = (beta P.x, -P.y); ``double`` emits a doubling;
    ``run``: the longest run of doublings one call performs where code is dense."""
    asm = e.asm
    with asm.scope("g1_subgroup"):
        region = asm.memory.region("g1_subgroup")
        acc = region.alloc(G1Jacobian, "acc")
        expect = region.alloc(G1, "expect")
        add = asm.subroutine("g1_add", lambda a: jacobian.jacobian_add_affine(e, fp, acc, p))
        jacobian.from_affine(e, acc, p)
        double_and_add(e, "g1_dbl", bin(e.curve.x ** 2)[3:],
                       lambda: double(e, fp, acc), lambda: asm.call(add), run)
        fp.mul(e, expect.x, p.x, e.fp_const("beta", g1_beta(e.curve)))
        fp.neg(e, expect.y, p.y)
        require_jacobian_is(e, fp, acc, expect, fail)


def _require_jacobian_is(e: Emitter, t: Slot, expect: G2, fail: Label) -> None:
    require_jacobian_is(e, fp2, t, expect, fail)


def require_g2_in_subgroup(e: Emitter, q: G2, t: G2Jacobian, fail: Label,
                           require_is: Callable[[Emitter, Slot, G2, Label], None] =
                           _require_jacobian_is) -> None:
    """psi(Q) = [x] Q, given T = [|x|] Q (the Miller loop's): T = sign(x) psi(Q);
    ``require_is(e, t, expect, fail)`` compares T in its coordinates (Jacobian unless
    the loop's lines keep others: :attr:`..tower.lines.Lines.require_is`)."""
    gx, gy = psi_constants(e.curve)
    p = e.curve.p
    negative = e.curve.x < 0
    with e.asm.scope("g2_subgroup"), e.asm.temps(G2) as (expect,):
        fp2.mul_const(e, expect.x, q.x, gx, "psi_x", conjugate=True)
        fp2.mul_const(e, expect.y, q.y, (-gy[0] % p, -gy[1] % p) if negative else gy,
                      "-psi_y" if negative else "psi_y", conjugate=True)
        require_is(e, t, expect, fail)
