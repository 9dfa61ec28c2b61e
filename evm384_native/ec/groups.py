"""Point arithmetic beyond the pairing's, over Fp or Fp2 for any short-Weierstrass curve: a
group described once (field, slot types, the curve's a and b, read from the curve's
description), its curve check, and the addition of two Jacobian points with every case
(infinity, P = Q, P = -Q).

Jacobian points are (X, Y, Z) with x = X / Z^2, y = Y / Z^3; Z = 0 is the point at
infinity. The curves here have no points of order 2 on the groups used (odd orders), so a
doubling never meets y = 0 on a finite point.
"""
from __future__ import annotations

from types import ModuleType
from typing import Callable, NamedTuple, Tuple, Type

from ..asm import G1, G1Jacobian, G2, G2Jacobian, Label, Slot
from ..asm.layout import FP_BYTES
from ..curves.model import EllipticCurve, PairingCurve
from ..tower import fp, fp2
from ..tower.compare import push_field_is_zero, require_on_curve
from ..tower.fp import Emitter


class Group(NamedTuple):
    """What the generic code needs to know about a group of points y^2 = x^3 + a x + b:
    G1 over Fp, or G2 on a twist over Fp2 (``a`` and ``b`` one value per Fp of the field,
    reduced mod p)."""
    name: str
    field: ModuleType                                # fp or fp2
    affine: Type[Slot]
    jacobian: Type[Slot]
    a: Tuple[int, ...]
    b: Tuple[int, ...]

    @property
    def fields(self) -> int:
        """Fp values per affine point (2 for G1, 4 for G2)."""
        return self.affine.size // FP_BYTES

    def require_on_curve(self, e: Emitter, point: Slot, fail: Label) -> None:
        """Jump to ``fail`` unless the affine ``point`` is on the curve (a = 0 costs no
        addition)."""
        kind = self.field.ELEMENT
        a = e.const(kind, f"a_{self.name}", list(self.a)) if any(self.a) else None
        require_on_curve(e, self.field, point, e.const(kind, f"b_{self.name}", list(self.b)),
                         fail, a)


def g1_group(curve: EllipticCurve) -> Group:
    """G1 of ``curve``: y^2 = x^3 + a x + b over Fp."""
    return Group("g1", fp, G1, G1Jacobian, (curve.a % curve.p,), (curve.b % curve.p,))


def g2_group(curve: PairingCurve) -> Group:
    """G2 of a pairing-friendly ``curve``: its sextic twist y^2 = x^3 + b' over Fp2."""
    return Group("g2", fp2, G2, G2Jacobian, (0, 0), curve.twist_b)


def affine_view(point: Slot, group: Group) -> Slot:
    """The X‖Y of a Jacobian slot as an affine slot (an affine point with Z = 1 is itself)."""
    return group.affine(point.region, point.rel, f"{point.name}.xy")


def set_infinity(e: Emitter, point: Slot) -> None:
    for value in point.z.fps():
        fp.copy(e, value, e.zero)


def add(e: Emitter, group: Group, acc: Slot, t: Slot, double: Callable[[], None],
        t_may_be_infinity: bool = False) -> None:
    """acc = acc + t for Jacobian points, acc possibly infinity, t finite unless
    ``t_may_be_infinity`` (emitted inline). ``double()`` doubles acc in place (used when
    acc = t). The general case is add-2007-bl (EFD): H = U2 - U1, r = 2 (S2 - S1); H = 0
    means acc = +-t."""
    asm, field = e.asm, group.field
    done, finite, distinct, opposite = (asm.new_label(name) for name in (
        "add_done", "acc_finite", "add_distinct", "add_opposite"))
    with asm.scope(f"{group.name}_add"), \
            asm.temps(*[field.ELEMENT] * 7) as temps:
        if t_may_be_infinity:
            push_field_is_zero(e, t.z)
            asm.jumpi(done)                      # acc + infinity = acc
        push_field_is_zero(e, acc.z)
        asm.op("ISZERO")
        asm.jumpi(finite)
        fp.copy(e, acc, t)                       # infinity + t = t
        asm.jump(done)
        asm.place(finite)
        _sums(e, field, acc, t, temps)
        *_, r, h = temps
        push_field_is_zero(e, h)
        asm.op("ISZERO")
        asm.jumpi(distinct)
        push_field_is_zero(e, r)
        asm.op("ISZERO")
        asm.jumpi(opposite)
        double()                                 # acc = t
        asm.jump(done)
        asm.place(opposite)                      # acc = -t
        set_infinity(e, acc)
        asm.jump(done)
        asm.place(distinct)
        _distinct(e, field, acc, t, temps)
    asm.place(done)


def add_distinct(e: Emitter, group: Group, acc: Slot, t: Slot) -> None:
    """acc = acc + t for finite Jacobian points with acc != +-t (no checks: the caller
    knows, e.g. multiples [k] P and [d] P with 0 < d < k < r - d)."""
    field = group.field
    with e.asm.scope(f"{group.name}_add_distinct"), \
            e.asm.temps(*[field.ELEMENT] * 7) as temps:
        _sums(e, field, acc, t, temps)
        _distinct(e, field, acc, t, temps)


def _sums(e: Emitter, field: ModuleType, acc: Slot, t: Slot, temps) -> None:
    """Z1Z1, Z2Z2, U1, U2, S1, S2 - S1 (in r) and H of add-2007-bl into ``temps``."""
    z1z1, z2z2, u1, u2, s1, r, h = temps
    field.sqr(e, z1z1, acc.z)
    field.sqr(e, z2z2, t.z)
    field.mul(e, u1, acc.x, z2z2)                # U1 = X1 Z2^2
    field.mul(e, u2, t.x, z1z1)                  # U2 = X2 Z1^2
    field.mul(e, s1, acc.y, t.z)
    field.mul(e, s1, s1, z2z2)                   # S1 = Y1 Z2^3
    field.mul(e, r, t.y, acc.z)
    field.mul(e, r, r, z1z1)                     # S2 = Y2 Z1^3
    field.sub(e, r, r, s1)                       # S2 - S1
    field.sub(e, h, u2, u1)                      # H


def _distinct(e: Emitter, field: ModuleType, acc: Slot, t: Slot, temps) -> None:
    """The rest of add-2007-bl for H != 0, from :func:`_sums`' values."""
    z1z1, z2z2, u1, u2, s1, r, h = temps
    i, j, v = u2, s1, z1z1                       # reuse: U2 and S1 were read, Z1Z1 read last
    field.dbl(e, r, r)                           # r = 2 (S2 - S1)
    with e.asm.temps(field.ELEMENT, field.ELEMENT) as (s1_j, zz):
        field.add(e, zz, acc.z, t.z)
        field.sqr(e, zz, zz)
        field.sub(e, zz, zz, z1z1)
        field.sub(e, zz, zz, z2z2)               # (Z1 + Z2)^2 - Z1Z1 - Z2Z2 = 2 Z1 Z2
        field.dbl(e, i, h)
        field.sqr(e, i, i)                       # I = (2 H)^2
        field.mul(e, s1_j, s1, h)
        field.mul(e, s1_j, s1_j, i)              # S1 J, J = H I
        field.mul(e, j, h, i)                    # J (S1 no longer needed)
        field.mul(e, v, u1, i)                   # V = U1 I
        field.sqr(e, acc.x, r)
        field.sub(e, acc.x, acc.x, j)
        field.sub(e, acc.x, acc.x, v)
        field.sub(e, acc.x, acc.x, v)            # X3 = r^2 - J - 2 V
        field.sub(e, acc.y, v, acc.x)
        field.mul(e, acc.y, acc.y, r)
        field.sub(e, acc.y, acc.y, s1_j)
        field.sub(e, acc.y, acc.y, s1_j)         # Y3 = r (V - X3) - 2 S1 J
        field.mul(e, acc.z, zz, h)               # Z3 = 2 Z1 Z2 H
