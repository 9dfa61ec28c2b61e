"""Subgroup membership tests as EVM384 code (what EIP-2537 requires of its inputs, beside
the curve checks of :mod:`.groups`).

Every check jumps to a ``fail`` label when it does not hold; points are affine, in
Montgomery form, not at infinity.

Subgroup tests (Scott, "A note on group membership tests for G1, G2 and GT on BLS
pairing-friendly curves", 2021), checked against py_ecc for BLS12-381 on points in and out
of the subgroups:

- G1: phi(P) = [-x^2] P with phi(x, y) = (beta x, y) and beta the cube root of unity
  below (the other root gives [x^2 - 1] P instead). [x^2] P is a run-time double-and-add
  over the 128 bits of x^2, in Jacobian coordinates.
- G2: psi(Q) = [x] Q with psi = untwist o Frobenius o twist:
  psi(x, y) = (conj(x) (u+1)^-((p-1)/3), conj(y) (u+1)^-((p-1)/2)). No scalar
  multiplication is needed: the Miller loop leaves T = [|x|] Q = -[x] Q in every pair
  state, so the test is T = -psi(Q).

Exceptional cases of the Jacobian formulas (T = +-Q in an addition, T of order 2 in a
doubling) can only occur for points outside the subgroup; they make Z = 0 for good (every
formula then keeps Z = 0), so requiring Z != 0 rejects them, and with Z != 0 the result is
the true multiple.
"""
from __future__ import annotations


from types import ModuleType
from typing import Callable

from ..asm import G1, G1Jacobian, G2, G2Jacobian, Label, Slot
from ..curves.bls12_381 import BLS12_381
from ..tower import fp, fp2, jacobian
from ..tower.control import double_and_add
from ..tower.compare import require_jacobian_is
from ..tower.fp import Emitter

# the cube root of unity with phi(P) = [-x^2] P on G1
BETA = 0x5F19672FDF76CE51BA69C6076A0F77EADDB3A93BE6F89688DE17D813620A00022E01FFFFFFFEFFFE
P = BLS12_381.p
# longest run of G1 doublings one call performs, for targets with dense_code
G1_DBL_RUN = 16
PSI_X = BLS12_381.fp2.inverse(BLS12_381.fp2.pow(BLS12_381.xi, (P - 1) // 3))
PSI_Y = BLS12_381.fp2.inverse(BLS12_381.fp2.pow(BLS12_381.xi, (P - 1) // 2))


def require_g1_in_subgroup(e: Emitter, p: G1, fail: Label,
                           double: Callable[[Emitter, ModuleType, Slot], None] =
                           jacobian.jacobian_dbl) -> None:
    """phi(P) = [-x^2] P, i.e. [x^2] P = (beta P.x, -P.y); ``double`` emits a doubling."""
    asm = e.asm
    with asm.scope("g1_subgroup"):
        region = asm.memory.region("g1_subgroup")
        acc = region.alloc(G1Jacobian, "acc")
        expect = region.alloc(G1, "expect")
        add = asm.subroutine("g1_add", lambda a: jacobian.jacobian_add_affine(e, fp, acc, p))
        jacobian.from_affine(e, acc, p)
        double_and_add(e, "g1_dbl", bin(BLS12_381.x ** 2)[3:],
                       lambda: double(e, fp, acc), lambda: asm.call(add),
                       G1_DBL_RUN)
        fp.mul(e, expect.x, p.x, e.fp_const("beta", BETA))
        fp.neg(e, expect.y, p.y)
        require_jacobian_is(e, fp, acc, expect, fail)


def require_g2_in_subgroup(e: Emitter, q: G2, t: G2Jacobian, fail: Label) -> None:
    """psi(Q) = [x] Q, given T = [|x|] Q (the Miller loop's): T = -psi(Q)."""
    with e.asm.scope("g2_subgroup"), e.asm.temps(G2) as (expect,):
        fp2.mul_const(e, expect.x, q.x, PSI_X, "psi_x", conjugate=True)
        fp2.mul_const(e, expect.y, q.y, (-PSI_Y[0], -PSI_Y[1]), "-psi_y", conjugate=True)
        require_jacobian_is(e, fp2, t, expect, fail)

