"""How the MSM contracts split a scalar: digits of its expansion in a radix, each
multiplying an endomorphism's image of the point. :mod:`.msm` defines the splits; its
Straus mode and the bucket mode (:mod:`.pippenger`) both run on them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from ..asm import Slot
from ..tower.fp import Emitter

Map = Optional[Callable[[Emitter, Slot], None]]   # an endomorphism, in place; None: none


@dataclass(frozen=True)
class Split:
    """How a group's scalars are split: digits of the radix's expansion, digit i
    multiplying maps[i] of the record's table tables[i] (table 0: the point's multiples;
    table 1: those of Q1 = [|x|] P, which the subgroup test computes; None: no map)."""
    radix: int
    digit_bits: int
    maps: Sequence[Map]
    tables: Sequence[int]

    @property
    def table_count(self) -> int:
        return max(self.tables) + 1
