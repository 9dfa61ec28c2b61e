"""BLS12-381's two groups for the EIP-2537 operations (field, slot types, curve check), and
their subgroup test."""
from __future__ import annotations

from typing import Callable

from ..asm import Label, Slot
from ..curves.bls12_381 import BLS12_381
from ..ec.bls12_subgroups import (g1_beta, psi_constants, require_g1_in_subgroup,
                                  require_g2_in_subgroup)
from ..ec.groups import Group, g1_group, g2_group
from ..tower import jacobian
from ..tower.control import double_and_add
from ..tower.fp import Emitter
from .oracle import g1_point, g2_point


G1_GROUP, G2_GROUP = g1_group(BLS12_381), g2_group(BLS12_381)   # y^2 = x^3 + 4; the M-type twist
# G1's endomorphism phi(x, y) = (BETA x, y) = [-x^2] (x, y); G2's psi = (conj(x) PSI_X,
# conj(y) PSI_Y) = [x] (the subgroup tests' constants, :mod:`..ec.bls12_subgroups`)
BETA = g1_beta(BLS12_381)
PSI_X, PSI_Y = psi_constants(BLS12_381)
DBL_RUN = 16             # longest run of doublings one call performs (dense code)


def require_in_subgroup(e: Emitter, group: Group, p: Slot, work: Slot, name: str,
                        add_p: Callable[[], None], fail: Label) -> None:
    """Jump to ``fail`` unless the affine point ``p`` (finite, on the curve) is in the
    r-order subgroup. G1: Scott's test (:func:`..ec.bls12_subgroups.require_g1_in_subgroup`). G2:
    ``work`` = [|x|] p by double-and-add (doublings: :func:`.control.double_and_add`
    ``name``; ``add_p``: work = work + p), then work = -psi(p)."""
    if group is G1_GROUP:
        require_g1_in_subgroup(e, p, fail, jacobian.point_dbl)
        return
    with e.asm.scope("g2_subgroup"):
        jacobian.from_affine(e, work, p)
        double_and_add(e, name, bin(abs(BLS12_381.x))[3:],
                       lambda: jacobian.point_dbl(e, group.field, work, extension=True),
                       add_p, DBL_RUN)
        require_g2_in_subgroup(e, p, work, fail)


def generator_multiple(group: Group, scalar: int):
    """[scalar mod r] G of the group (blst computes it), affine."""
    point = g1_point if group is G1_GROUP else g2_point
    return point(scalar % BLS12_381.r)


def affine_values(point) -> list:
    """An affine point's Fp values in slot order (G2: x.c0, x.c1, y.c0, y.c1)."""
    return [v for coordinate in point
            for v in (coordinate if isinstance(coordinate, tuple) else (coordinate,))]
