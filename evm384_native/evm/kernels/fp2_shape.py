"""The six field operations of an Fp2 product as the field code emits them
(``tower.fp2.mul``) for u^2 = -1, in Fp2 = Fp[u]/(u^2 + 1)::

    t0 = a0 * b0;  t1 = a1 * b1;  t2 = a0 * b1;  c1 = a1 * b0;  c1 = c1 + t2;  c0 = t0 - t1

Both opcode sets' engines may run them as Karatsuba, three 768-bit products and two
reductions (``csrc/fp2_product.h``), where they prove it leaves what the six leave: EVM384
segments (:mod:`.evm.fp2_products`) and EVMMAX vector programs
(:class:`.modx_common.VectorProgram`). This module recognises the shape and states the
aliasing rule; each caller adds what its locations need besides (the modulus in memory)
and proves the temporaries t0, t1, t2 dead its own way (the C step writes c1 and c0 only).

The shape is that of the non-residue -1 only (BN254's and BLS12-381's u^2 = -1): a curve
with another (BLS12-377's u^2 = -5) gets a Karatsuba product with a product by the
non-residue from ``tower.fp2.mul``, which this does not recognise, so the engines run it op
by op (its own recognition would be another optimisation, not a correction).
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence, Tuple

SHAPE = ("mul", "mul", "mul", "mul", "add", "sub")
# how long the search for t2's next write goes on (bounds the analysis time per group)
DEAD_WINDOW = 64


class Fp2Product(NamedTuple):
    """The locations (memory offsets or register indices) of one product's values."""
    t0: int
    t1: int
    t2: int
    c1: int
    c0: int
    a0: int
    a1: int
    b0: int
    b1: int

    @property
    def outputs(self) -> Tuple[int, ...]:
        return self.t0, self.t1, self.t2, self.c1, self.c0

    @property
    def temporaries(self) -> Tuple[int, ...]:
        return self.t0, self.t1, self.t2

    @property
    def inputs(self) -> Tuple[int, ...]:
        return self.a0, self.a1, self.b0, self.b1


def match(ops: Sequence[Tuple[str, int, int, int]]) -> Optional[Fp2Product]:
    """The product's locations if the six (operation, out, x, y) have its shape (the sum
    c1 + t2 in either order), else None."""
    if len(ops) != len(SHAPE) or tuple(op[0] for op in ops) != SHAPE:
        return None
    (_, t0, a0, b0), (_, t1, a1, b1), (_, t2, x2, y2), (_, c1, x3, y3), \
        (_, sum_out, sum_x, sum_y), (_, c0, x5, y5) = ops
    if (x2, y2, x3, y3, x5, y5) != (a0, b1, a1, b0, t0, t1) or sum_out != c1 \
            or sorted((sum_x, sum_y)) != sorted((c1, t2)) or c1 == t2:
        return None
    return Fp2Product(t0, t1, t2, c1, c0, a0, a1, b0, b1)


def separate(product: Fp2Product, width: int) -> bool:
    """Whether the five outputs are pairwise disjoint and the temporaries apart from the
    inputs, each location being ``width`` units wide (48 bytes of memory, 1 register): then
    every read in the group sees what it would see op by op. c1 and c0 may alias inputs:
    they are written after the last read of them."""
    def overlap(a: int, b: int) -> bool:
        return abs(a - b) < width
    outputs = product.outputs
    return not (any(overlap(p, q) for i, p in enumerate(outputs) for q in outputs[i + 1:])
                or any(overlap(t, i) for t in product.temporaries for i in product.inputs))
