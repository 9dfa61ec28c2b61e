"""How a Miller loop computes its G2 steps: the coordinates of T and the formulas of its
doubling and addition with their lines, as data handed to :class:`.pairing.MillerLoop`.

- :data:`JACOBIAN`: blst's (:mod:`.jacobian`), lines scaled as blst scales them, so that
  BLS12-381's Miller loop value is byte for byte blst's;
- :data:`PROJECTIVE`: homogeneous coordinates (:mod:`.projective`), less gas under
  EVMMAX's prices.

Both evaluate each line at P inside the step.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..asm import Fp6, G1, G2, Label, Slot
from . import fp2, jacobian, projective
from .compare import require_jacobian_is
from .fp import Emitter


@dataclass(frozen=True)
class Lines:
    """``prepare(e, out, p)``: what the lines read of P (into the pair state's px2);
    ``dbl(e, line, t, px)`` / ``add(e, line, t, q, px)``: T = 2T / T + Q and the line
    evaluated at P; ``require_is(e, t, expect, fail)``: jump to ``fail`` unless T is the
    affine point ``expect``."""
    name: str
    prepare: Callable[[Emitter, G1, G1], None]
    dbl: Callable[[Emitter, Fp6, Slot, G1], None]
    add: Callable[[Emitter, Fp6, Slot, G2, G1], None]
    require_is: Callable[[Emitter, Slot, G2, Label], None]


JACOBIAN = Lines(
    "jacobian", jacobian.g1_prepare, jacobian.line_dbl, jacobian.line_add,
    lambda e, t, expect, fail: require_jacobian_is(e, fp2, t, expect, fail))
PROJECTIVE = Lines(
    "projective", projective.prepare, projective.line_dbl, projective.line_add,
    projective.require_is)
