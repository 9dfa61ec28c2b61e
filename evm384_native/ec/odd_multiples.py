"""The odd multiples [1] P .. [31] P of a window table (:mod:`.windows`) on one Z, without
an inversion: Longa and Miri's co-Z precomputation ("New composite operations and
precomputation scheme for elliptic curve cryptosystems over prime fields", PKC 2008).

2P by a doubling that leaves P on the same Z, 15 co-Z additions (Meloni), then each earlier
entry brought to the last Z. With Z_T that common Z, (X, Y) -> (X, Y) maps the points to
affine points of the isomorphic curve y^2 = x^3 + a Z_T^4 x + b Z_T^6, where a scalar
multiplication can run with mixed additions; its result (X, Y, Z) there is (X, Y, Z Z_T)
on the curve. The additions meet D = +-T only if 2 = +-(2j - 1) mod r: never.
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple

from ..asm import Fp, G1, G1Jacobian, Slot, array
from ..tower import fp, jacobian
from ..tower.fp import Emitter
from .groups import affine_view, g1_group
from .windows import ENTRIES

Double = Callable[[G1Jacobian, Tuple[Fp, Fp]], None]


def odd_multiples(e: Emitter, point: G1Jacobian, table: Slot, record: int, z_table: Fp,
                  three_halves: Fp, double: Optional[Double] = None,
                  upper_reversed: bool = False) -> None:
    """The table in memory, records [2u - 31] P (u = 0 .. 31), affine on the curve of the
    common Z, and that Z in ``z_table``. ``double(d, keep)`` doubles the Jacobian d = P
    (Z = 1) in place, leaving P on the new Z in ``keep`` (x, y); by default the a = 0
    doubling scaled by 1/2 (:func:`..tower.jacobian.jacobian_dbl_halved` with
    ``three_halves``). ``upper_reversed``: records 16 + i hold [31 - 2i] P instead
    (:class:`.windows.Lookup`'s ``upper_reversed`` reads them), so that records 0 .. 15
    are that block with y negated in place: no second block of temporaries, no copies of
    x (where temporaries are memory, plain EVM's)."""
    asm = e.asm
    if double is None:
        def double(d: G1Jacobian, keep: Tuple[Fp, Fp]) -> None:
            jacobian.jacobian_dbl_halved(e, fp, d, three_halves, keep=keep)
    def upper() -> None:
        asm.push(lambda: int(table) + ENTRIES * record)
    with asm.scope("odd_multiples"), asm.temps(array(Fp, 2 * ENTRIES)) as (pos,):
        _co_z_multiples(e, point, pos, z_table, double, upper_reversed)
        if upper_reversed:                         # pos: [31] P .. [1] P
            e.target.copy_out(e, pos, upper)
            # each negation reads and writes one word, so their block keeps no value
            # across them and spills nothing (where blocks spill to the table, as the
            # callers' spill_to has them, a spill would land on the records just copied)
            for j in range(ENTRIES):
                fp.neg(e, _entry(pos, j).y, _entry(pos, j).y)
            e.target.copy_out(e, pos, lambda: asm.push(table))
            return
        with asm.temps(array(Fp, 2 * ENTRIES)) as (neg,):   # where the co-Z temps were
            for j in range(ENTRIES):               # neg[j] = -pos[15 - j]: records 0 .. 15
                fp.copy(e, _entry(neg, j).x, _entry(pos, ENTRIES - 1 - j).x)
                fp.neg(e, _entry(neg, j).y, _entry(pos, ENTRIES - 1 - j).y)
            e.target.copy_out(e, neg, lambda: asm.push(table))
            e.target.copy_out(e, pos, upper)


def _entry(block: Slot, j: int) -> G1:
    """The j-th x‖y of a block of registers."""
    return block.part(G1, j * G1.size, f"{block.name}[{j}]")


def _co_z_multiples(e: Emitter, point: G1Jacobian, block: Slot, z_table: Fp,
                    double: Double, reverse: bool) -> None:
    """``block`` = [1] P, [3] P, .. [31] P (or the reverse) on one Z (x‖y each), that Z in
    ``z_table``."""
    def pos(j: int) -> G1:
        return _entry(block, ENTRIES - 1 - j if reverse else j)
    with e.asm.temps(G1Jacobian, array(Fp, ENTRIES - 1), Fp, Fp, Fp) as (d, hs, f, f2, f3):
        fp.copy(e, d, point)
        first = pos(0)
        double(d, (first.x, first.y))
        dxy = affine_view(d, g1_group(e.curve))    # 2P, on P's new Z (= y)
        h = hs.fps()
        for j in range(1, ENTRIES):                # [2j + 1] P = [2j - 1] P + 2P
            jacobian.coz_add_update(e, fp, dxy, pos(j - 1), pos(j), h[j - 1])
        factor = h[-1]                             # entry j lacks H_(j+1) .. H_15
        for j in range(ENTRIES - 2, -1, -1):
            if j < ENTRIES - 2:
                fp.mul(e, f, factor, h[j])
                factor = f
            fp.sqr(e, f2, factor)
            fp.mul(e, f3, f2, factor)
            fp.mul(e, pos(j).x, pos(j).x, f2)
            fp.mul(e, pos(j).y, pos(j).y, f3)
        fp.mul(e, z_table, d.z, factor)
