"""The inverse in a cubic extension K[v]/(v^3 - xi), written once for Fp6 over Fp2
(:mod:`.fp6`) and Fp3 over Fp (:mod:`.fp3`): the adjugate divided by the norm."""
from __future__ import annotations

from types import ModuleType
from typing import Callable

from ..asm import Slot
from .fp import Emitter


def inverse(e: Emitter, field: ModuleType, times_xi: Callable[[Emitter, Slot, Slot], None],
            out: Slot, a: Slot, scope: str) -> None:
    """out = a^-1 over ``field`` (:mod:`.fp` or :mod:`.fp2`, its own inverse), ``times_xi``
    emitting a product by xi into a distinct slot: c0 = a0^2 - xi a1 a2,
    c1 = xi a2^2 - a0 a1, c2 = a1^2 - a0 a2, norm = a0 c0 + xi (a2 c1 + a1 c2)."""
    kind = field.ELEMENT
    with e.asm.scope(scope), e.asm.temps(kind, kind, kind, kind, kind) as (c0, c1, c2, t, n):
        field.mul(e, t, a.c1, a.c2)
        times_xi(e, n, t)
        field.sqr(e, c0, a.c0)
        field.sub(e, c0, c0, n)
        field.sqr(e, t, a.c2)
        times_xi(e, c1, t)
        field.mul(e, t, a.c0, a.c1)
        field.sub(e, c1, c1, t)
        field.sqr(e, c2, a.c1)
        field.mul(e, t, a.c0, a.c2)
        field.sub(e, c2, c2, t)
        field.mul(e, t, a.c2, c1)
        field.mul(e, n, a.c1, c2)
        field.add(e, t, t, n)
        times_xi(e, n, t)
        field.mul(e, t, a.c0, c0)
        field.add(e, n, n, t)
        field.inverse(e, n, n)
        field.mul(e, out.c0, c0, n)
        field.mul(e, out.c1, c1, n)
        field.mul(e, out.c2, c2, n)
