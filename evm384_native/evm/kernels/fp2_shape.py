"""The six field operations of an Fp2 product as the field code emits them
(``tower.fp2.mul``) for u^2 = -1, in Fp2 = Fp[u]/(u^2 + 1)::

    t0 = a0 * b0;  t1 = a1 * b1;  t2 = a0 * b1;  c1 = a1 * b0;  c1 = c1 + t2;  c0 = t0 - t1

Both opcode sets' engines may run them as Karatsuba, three 768-bit products and two
reductions (``csrc/fp2_product.h``), where they prove it leaves what the six leave: EVM384
segments (:mod:`.evm.fp2_products`) and EVMMAX vector programs
(:class:`.modx_common.VectorProgram`). This module recognises the shape and states the
aliasing rule; each caller adds what its locations need besides (the modulus in memory)
and proves the temporaries t0, t1, t2 dead its own way (the C step writes c1 and c0 only).

The shape is that of the non-residue -1 (BN254's and BLS12-381's u^2 = -1). Under EVMMAX a
curve with another non-residue beta (BLS12-377's u^2 = -5) gets the same first five
operations, then ``t1 = t1 * beta; c0 = t0 + t1`` (``tower.fp2.mul``): those five are the
*cross* shape (:func:`match_cross`), which EVMMAX vector programs may run as three 768-bit
products and three reductions, leaving t0, t1 and c1 as the five leave them (only t2 dead),
and the product by beta and the sum op by op.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

SHAPE = ("mul", "mul", "mul", "mul", "add", "sub")
CROSS_SHAPE = SHAPE[:5]
# how long the search for t2's next write goes on (bounds the analysis time per group)
DEAD_WINDOW = 64


@dataclass(frozen=True)
class Fp2Cross:
    """The locations (memory offsets or register indices) of the cross shape's values:
    t0 = a0 b0 and t1 = a1 b1 are results, t2 the one temporary."""
    t0: int
    t1: int
    t2: int
    c1: int
    a0: int
    a1: int
    b0: int
    b1: int

    @property
    def outputs(self) -> Tuple[int, ...]:
        return self.t0, self.t1, self.t2, self.c1

    @property
    def temporaries(self) -> Tuple[int, ...]:
        """The locations written before the group's last read of its inputs."""
        return self.t0, self.t1, self.t2

    @property
    def dead(self) -> Tuple[int, ...]:
        """What the fused step leaves unwritten, which must be dead after the group."""
        return (self.t2,)

    @property
    def inputs(self) -> Tuple[int, ...]:
        return self.a0, self.a1, self.b0, self.b1


@dataclass(frozen=True)
class Fp2Product(Fp2Cross):
    """A whole product's locations: the cross shape's and c0 = t0 - t1; its step writes c1
    and c0 only, so t0, t1 and t2 must be dead."""
    c0: int

    @property
    def outputs(self) -> Tuple[int, ...]:
        return super().outputs + (self.c0,)

    @property
    def dead(self) -> Tuple[int, ...]:
        return self.temporaries


def match_cross(ops: Sequence[Tuple[str, int, int, int]]) -> Optional[Fp2Cross]:
    """The locations if the five (operation, out, x, y) have the cross shape (the sum
    c1 + t2 in either order), else None."""
    if len(ops) != len(CROSS_SHAPE) or tuple(op[0] for op in ops) != CROSS_SHAPE:
        return None
    (_, t0, a0, b0), (_, t1, a1, b1), (_, t2, x2, y2), (_, c1, x3, y3), \
        (_, sum_out, sum_x, sum_y) = ops
    if (x2, y2, x3, y3) != (a0, b1, a1, b0) or sum_out != c1 \
            or sorted((sum_x, sum_y)) != sorted((c1, t2)) or c1 == t2:
        return None
    return Fp2Cross(t0, t1, t2, c1, a0, a1, b0, b1)


def match(ops: Sequence[Tuple[str, int, int, int]]) -> Optional[Fp2Product]:
    """The product's locations if the six (operation, out, x, y) have its shape: the cross
    shape, then c0 = t0 - t1; else None."""
    if len(ops) != len(SHAPE) or ops[-1][0] != SHAPE[-1]:
        return None
    cross = match_cross(ops[:-1])
    (_, c0, x5, y5) = ops[-1]
    if cross is None or (x5, y5) != (cross.t0, cross.t1):
        return None
    return Fp2Product(cross.t0, cross.t1, cross.t2, cross.c1, *cross.inputs, c0)


def separate(product: Fp2Cross, width: int) -> bool:
    """Whether the outputs are pairwise disjoint and the temporaries apart from the
    inputs, each location being ``width`` units wide (48 bytes of memory, 1 register): then
    every read in the group sees what it would see op by op. c1 and c0 may alias inputs:
    they are written after the last read of them."""
    def overlap(a: int, b: int) -> bool:
        return abs(a - b) < width
    outputs = product.outputs
    return not (any(overlap(p, q) for i, p in enumerate(outputs) for q in outputs[i + 1:])
                or any(overlap(t, i) for t in product.temporaries for i in product.inputs))
