"""EIP-3026's pairing check (BW6_PAIRING) as EVM code: decoding and validation of its input,
then the two Miller loops and one final exponentiation (:mod:`..tower.pairing_k6`). The
curve is the emitter's (``e.curve``, a :class:`~..curves.bw6.Bw6Curve`).

Input: k >= 1 pairs of 384 bytes, G1 (x, y) then G2 (x, y), each coordinate 96 bytes
big-endian below p; an all-zero point is the point at infinity (its pair contributes 1;
the other point of the pair is still validated). Output: a 32-byte word, 1 if the product
of the pairings is one, else 0. Where the precompile fails (length not a positive
multiple of 384, a coordinate >= p, a point not on its curve or not in the r-order
subgroup), the contract fails as its builder says (as the precompile: an exceptional
halt).

Per pair: its 384 bytes are copied to memory, each coordinate range-checked (three words
against p's), each point tested for infinity; the finite ones are loaded (STOREX), checked
on their curve (G1: y^2 = x^3 + b, G2: the twist's b') and in the subgroup: [r - 1] P = -P
with Jacobian steps over the non-adjacent form of r - 1, where any step meeting an
exceptional case (a point of other order) leaves Z = 0, which the comparison rejects.
"""
from __future__ import annotations

from ..asm import G1, G1Jacobian, Label, raw
from ..tower import fp, jacobian
from ..tower.compare import require_jacobian_is, require_on_curve
from ..tower.control import is_zero, longest_run, require_calldata, \
    square_and_multiply_chained
from ..tower.families import non_adjacent_form
from ..tower.fp import Emitter, squaring_chain
from ..tower.fp6_over_fp3 import Fp6OverFp3
from ..tower.pairing_k6 import FinalExponentiation, MillerLoops

VALUE_BYTES = 96
POINT_BYTES = 2 * VALUE_BYTES
PAIR_BYTES = 2 * POINT_BYTES
WORD = 32
DOUBLING_RUN = 16          # the longest run of doublings one call performs


def _require_below_p(e: Emitter, at: int, fail: Label) -> None:
    """Jump to ``fail`` unless the 96-byte big-endian value at memory ``at`` (known at
    link time: a slot offset and a constant) is below p: its words w0 w1 w2 against p's,
    w0 < p0, or w0 = p0 and (w1 < p1, or w1 = p1 and w2 < p2)."""
    asm = e.asm
    p_words = [(e.curve.p >> (WORD * 8 * (2 - i))) % (1 << 256) for i in range(3)]

    def word(i: int) -> None:
        asm.push(lambda: at() + WORD * i)
        asm.op("MLOAD")
    word(2)
    asm.push(p_words[2])
    asm.op("GT")                                  # w2 < p2
    word(1)
    asm.push(p_words[1])
    asm.op("EQ")
    asm.op("AND")
    word(1)
    asm.push(p_words[1])
    asm.op("GT")
    asm.op("OR")                                  # w1 < p1 or (w1 = p1 and w2 < p2)
    word(0)
    asm.push(p_words[0])
    asm.op("EQ")
    asm.op("AND")
    word(0)
    asm.push(p_words[0])
    asm.op("GT")
    asm.op("OR")
    asm.op("ISZERO")
    asm.jumpi(fail)


class SubgroupCheck:
    """One subroutine testing the affine point in its slot ``point`` for [r] P = O, as
    [r - 1] P = -P (G1's and the twist's group law are the same for a = 0)."""

    def __init__(self, e: Emitter, fail: Label) -> None:
        self.e, self.fail = e, fail
        region = e.asm.memory.region("subgroup6")
        self.point = region.alloc(G1, "point")
        self.acc = region.alloc(G1Jacobian, "acc")
        self.expect = region.alloc(G1, "expect")
        self.routine = e.asm.subroutine("bw6_subgroup_check", lambda a: self._body())

    def _body(self) -> None:
        e, asm, point, acc = self.e, self.e.asm, self.point, self.acc
        digits = non_adjacent_form(e.curve.r - 1)[1:]
        chain = squaring_chain(e, "bw6_subgroup_dbl_chain",
                               min(DOUBLING_RUN, longest_run(digits)),
                               lambda: jacobian.jacobian_dbl(e, fp, acc))
        add = asm.subroutine("bw6_subgroup_add",
                             lambda a: jacobian.jacobian_add_affine(e, fp, acc, point))

        def multiply(digit: int) -> None:
            if digit < 0:
                fp.neg(e, point.y, point.y)
            asm.call(add)
            if digit < 0:
                fp.neg(e, point.y, point.y)
        jacobian.from_affine(e, acc, point)
        square_and_multiply_chained(e, digits, chain, multiply)
        fp.copy(e, self.expect.x, point.x)
        fp.neg(e, self.expect.y, point.y)
        require_jacobian_is(e, fp, acc, self.expect, self.fail)

    def require(self, point: G1) -> None:
        fp.copy(self.e, self.point, point)
        self.e.asm.call(self.routine)


def emit(e: Emitter, f: Fp6OverFp3) -> Label:
    """f = the product of the pairings of the validated input (the final exponentiation's
    multiple: :mod:`..tower.pairing_k6`); returns the label invalid input jumps to."""
    asm, curve = e.asm, e.curve
    fail = asm.new_label("invalid_input")
    loops = MillerLoops(e, f)
    work = loops.work
    staged = asm.memory.region("pair_input").alloc(raw(PAIR_BYTES), "pair")
    g1_b = e.fp_const("g1_b", curve.b)
    g2_b = e.fp_const("g2_b", curve.twist_b)
    subgroup = SubgroupCheck(e, fail)

    def at(rel: int):
        return lambda: int(staged) + rel

    with asm.scope("load_pairs"):
        require_calldata(asm, 0, PAIR_BYTES, multiple=True)
        loops.start_records()                    # stack: ptr
        asm.push(0)                              # stack: ptr cd
        top, skip = asm.label("load_pair6"), asm.new_label("skip_pair6")
        asm.push(PAIR_BYTES)
        asm.op("DUP2")
        asm.push(staged)
        asm.op("CALLDATACOPY")
        for i in range(4):
            _require_below_p(e, at(VALUE_BYTES * i), fail)
        e.target.copy_in(e, work.p, lambda: asm.push(staged))
        e.target.copy_in(e, work.q, lambda: asm.push(at(POINT_BYTES)))
        for point, b, rel in ((work.p, g1_b, 0), (work.q, g2_b, POINT_BYTES)):
            infinity = asm.new_label("point_at_infinity")
            is_zero(asm, raw(POINT_BYTES)(staged.region, staged.rel + rel, "point"))
            asm.jumpi(infinity)
            require_on_curve(e, fp, point, b, fail)
            subgroup.require(point)
            asm.place(infinity)
        for rel in (0, POINT_BYTES):             # a pair with a point at infinity adds 1
            is_zero(asm, raw(POINT_BYTES)(staged.region, staged.rel + rel, "point"))
            asm.jumpi(skip)
        fp.neg(e, work.p.x, work.p.x)            # the loops read (-xP, yP)
        asm.op("SWAP1")                          # stack: cd ptr
        loops.store_work()
        asm.op("SWAP1")                          # stack: ptr cd
        asm.place(skip)
        asm.push(PAIR_BYTES)
        asm.op("ADD")
        asm.op("DUP1")
        asm.op("CALLDATASIZE")
        asm.op("GT")
        asm.jumpi(top)                           # while CALLDATASIZE > cd
        asm.op("POP")
        loops.end_records()
    loops.emit()
    FinalExponentiation(e).emit(f)
    return fail
