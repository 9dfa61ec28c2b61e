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
on their curve (G1: y^2 = x^3 + b, G2: the twist's b') and in the subgroup by the
endomorphism test of :class:`SubgroupCheck` (three powers by x instead of a product by r),
G2's with the cubic character of y - 2 besides.
"""
from __future__ import annotations

from typing import Callable, Tuple

from ..asm import Fp, G1, G1Jacobian, Label, raw
from ..curves import weierstrass
from ..ec.groups import Group, add_distinct
from ..tower import fp, jacobian
from ..tower.compare import require_equal, require_nonzero, require_on_curve
from ..tower.control import is_zero, longest_run, require_calldata, square_and_multiply, \
    square_and_multiply_chained
from ..tower.fp import Emitter, squaring_chain
from ..tower.fp6_over_fp3 import Fp6OverFp3
from ..tower.pairing_k6 import FinalExponentiation, MillerLoops
from . import points

VALUE_BYTES = 96
POINT_BYTES = 2 * VALUE_BYTES
PAIR_BYTES = 2 * POINT_BYTES
WORD = 32
DOUBLING_RUN = 16          # the longest run of doublings one call performs
DOUBLING_RUN_SPARSE = 1    # the same where the target's code is not dense (EVM768's)


def require_below_p(e: Emitter, at: Callable[[], int], fail: Label) -> None:
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
    for i in (1, 0):                              # wi < pi or (wi = pi and the rest <)
        word(i)
        asm.push(p_words[i])
        asm.op("EQ")
        asm.op("AND")
        word(i)
        asm.push(p_words[i])
        asm.op("GT")
        asm.op("OR")
    asm.op("ISZERO")
    asm.jumpi(fail)


def subgroup_omegas(curve) -> Tuple[int, int]:
    """The cube roots of unity omega of G1's and G2's endomorphisms phi(x, y) =
    (omega x, y) for which [x + 1] P + phi([x^3 - x^2 + 1] P) = O on the generators
    (El Housni, Guillevic and Piellard, "Co-factor clearing and subgroup membership
    testing on pairing-friendly curves", ePrint 2022/352: a short vector of the kernel of
    (a, b) -> a + b lambda mod r)."""
    p, x = curve.p, curve.x
    non_cube = next(g for g in range(2, p) if pow(g, (p - 1) // 3, p) != 1)
    roots = (pow(non_cube, (p - 1) // 3, p), pow(non_cube, 2 * (p - 1) // 3, p))
    found = []
    for group in (points.G1, points.G2):
        def vanishes(omega: int) -> bool:
            left = weierstrass.multiply(group, group.g, x + 1)
            right = weierstrass.multiply(group, group.g, x ** 3 - x ** 2 + 1)
            assert right is not None
            return weierstrass.add(group, left, (omega * right[0] % p, right[1])) is None
        found.append(next(omega for omega in roots if vanishes(omega)))
    return found[0], found[1]


class SubgroupCheck:
    """One subroutine testing the affine point in its slot ``point`` for
    [x + 1] P + phi([x^3 - x^2 + 1] P) = O (phi(x, y) = (omega x, y), omega in its slot):
    three powers by x (63 doublings each, Jacobian, the first with P's affine additions),
    compared as [x + 1] P = -phi(S), S = A3 - A2 + P (A_i = [x^i] P). Every step of a
    point of G1 or G2 meets no exceptional case (the multiples involved are distinct mod
    r); a step that meets one leaves Z = 0, which the comparison rejects. The test passes
    exactly G1 on E, and G2 plus E'(Fp)'s 3-torsion on the twist: the endomorphism
    a + b phi has degree a^2 - a b + b^2, whose gcd with #E(Fp) is r and with #E'(Fp)
    3 r (tests/test_bw6_761_curve.py); G2's check adds the
    cubic character of y - 2 (:meth:`require_g2`)."""

    def __init__(self, e: Emitter, fail: Label) -> None:
        self.e, self.fail = e, fail
        region = e.asm.memory.region("subgroup6")
        self.point = region.alloc(G1, "point")
        self.omega = region.alloc(Fp, "omega")
        self.acc = region.alloc(G1Jacobian, "acc")
        self.base = region.alloc(G1Jacobian, "base")
        self.left = region.alloc(G1Jacobian, "left")
        self.minus = region.alloc(G1Jacobian, "minus")
        g1_omega, g2_omega = subgroup_omegas(e.curve)
        self.omegas = (e.fp_const("omega_g1", g1_omega), e.fp_const("omega_g2", g2_omega))
        self.routine = e.asm.subroutine("bw6_subgroup_check", lambda a: self._body())

    def _body(self) -> None:
        e, asm, point, acc, base = self.e, self.e.asm, self.point, self.acc, self.base
        group = Group("bw6_subgroup", fp, G1, G1Jacobian, (0,), (0,))
        bits = [int(bit) for bit in bin(e.curve.x)[3:]]
        chain = squaring_chain(e, "bw6_subgroup_dbl_chain",
                               min(DOUBLING_RUN if e.target.dense_code
                                   else DOUBLING_RUN_SPARSE, longest_run(bits)),
                               lambda: jacobian.jacobian_dbl(e, fp, acc))
        add_p = asm.subroutine("bw6_subgroup_add_p",
                               lambda a: jacobian.jacobian_add_affine(e, fp, acc, point))
        add_base = asm.subroutine("bw6_subgroup_add_base",
                                  lambda a: add_distinct(e, group, acc, base))

        def times_x(add) -> None:                # acc = [x] acc (acc = base, or P)
            if e.loops:                          # the bits read at run time: less code
                square_and_multiply(e, "".join(map(str, bits)),
                                    lambda: asm.call(chain[0], at=chain[1][1]),
                                    lambda: asm.call(add), loop=True)
            else:
                square_and_multiply_chained(e, bits, chain, lambda digit: asm.call(add))
        jacobian.from_affine(e, acc, point)
        times_x(add_p)                           # A1
        fp.copy(e, base, acc)
        asm.call(add_p)
        fp.copy(e, self.left, acc)               # [x + 1] P
        fp.copy(e, acc, base)
        times_x(add_base)                        # A2
        fp.copy(e, self.minus, acc)
        fp.neg(e, self.minus.y, acc.y)
        fp.copy(e, base, acc)
        times_x(add_base)                        # A3
        fp.copy(e, base, self.minus)
        asm.call(add_base)                       # A3 - A2
        asm.call(add_p)                          # S
        self._require_opposite(self.left, acc)

    def _require_opposite(self, a: G1Jacobian, s: G1Jacobian) -> None:
        """a = -phi(s) = (omega Xs, -Ys, Zs), both with Z != 0: X_a Z_s^2 = omega X_s Z_a^2
        and Y_a Z_s^3 = -Y_s Z_a^3."""
        e = self.e
        require_nonzero(e, a.z, self.fail)
        require_nonzero(e, s.z, self.fail)
        with e.asm.temps(Fp, Fp, G1, G1) as (za2, zs2, u, v):
            fp.sqr(e, za2, a.z)
            fp.sqr(e, zs2, s.z)
            fp.mul(e, u.x, a.x, zs2)
            fp.mul(e, v.x, s.x, za2)
            fp.mul(e, v.x, v.x, self.omega)
            fp.mul(e, zs2, zs2, s.z)
            fp.mul(e, za2, za2, a.z)
            fp.mul(e, u.y, a.y, zs2)
            fp.mul(e, v.y, s.y, za2)
            fp.neg(e, v.y, v.y)
            require_equal(e, u, v, self.fail)

    def require_g1(self, point: G1) -> None:
        self._require(point, self.omegas[0])

    def require_g2(self, point: G1) -> None:
        """The kernel test, then the cubic character of y - 2 (a homomorphism of the
        twist y^2 = x^3 + 2^2 to the cube roots of unity, the 3-isogeny's descent map:
        1 on G2 (of order r, prime to 3), not on (0, -2), of order 3; (0, 2) has y - 2 = 0
        and character 0): 1 exactly for the points of G2 among those the kernel test
        passes."""
        e = self.e
        self._require(point, self.omegas[1])
        with e.asm.temps(Fp) as (t,):
            fp.sub(e, t, point.y, e.fp_const("two", 2))
            fp.power(e, t, t, (e.curve.p - 1) // 3, "cubic_character")
            require_equal(e, t, e.one, self.fail)

    def _require(self, point: G1, omega: Fp) -> None:
        fp.copy(self.e, self.point, point)
        fp.copy(self.e, self.omega, omega)
        self.e.asm.call(self.routine)


def emit(e: Emitter, f: Fp6OverFp3) -> Label:
    """f = the product of the pairings of the validated input (the final exponentiation's
    multiple: :mod:`..tower.pairing_k6`); returns the label invalid input jumps to."""
    loops = MillerLoops(e, f)
    fail = load(e, loops)
    loops.emit()
    FinalExponentiation(e).emit(f)
    return fail


def load(e: Emitter, loops: MillerLoops, tail: int = 0) -> Label:
    """The validated pairs of the calldata, followed by ``tail`` more bytes, as the
    loops' pair states; returns the label invalid input jumps to."""
    asm, curve = e.asm, e.curve
    fail = asm.new_label("invalid_input")
    work = loops.work
    staged = asm.memory.region("pair_input").alloc(raw(PAIR_BYTES), "pair")
    g1_b = e.fp_const("g1_b", curve.b)
    g2_b = e.fp_const("g2_b", curve.twist_b)
    subgroup = SubgroupCheck(e, fail)

    def at(rel: int):
        return lambda: int(staged) + rel

    with asm.scope("load_pairs"):
        require_calldata(asm, 0, PAIR_BYTES, multiple=True, tail=tail)
        loops.start_records()                    # stack: ptr
        asm.push(0)                              # stack: ptr cd
        top, skip = asm.label("load_pair6"), asm.new_label("skip_pair6")
        asm.push(PAIR_BYTES)
        asm.op("DUP2")
        asm.push(staged)
        asm.op("CALLDATACOPY")
        for i in range(4):
            require_below_p(e, at(VALUE_BYTES * i), fail)
        for point, rel in ((work.p, 0), (work.q, POINT_BYTES)):
            e.target.from_staging(e, point, raw(POINT_BYTES)(staged.region, staged.rel + rel,
                                                             "point"), little_endian=False)
        for point, b, rel, require in ((work.p, g1_b, 0, subgroup.require_g1),
                                       (work.q, g2_b, POINT_BYTES, subgroup.require_g2)):
            infinity = asm.new_label("point_at_infinity")
            is_zero(asm, raw(POINT_BYTES)(staged.region, staged.rel + rel, "point"))
            asm.jumpi(infinity)
            require_on_curve(e, fp, point, b, fail)
            require(point)
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
        if tail:
            asm.push(tail)
        asm.op("CALLDATASIZE")
        if tail:
            asm.op("SUB")
        asm.op("GT")
        asm.jumpi(top)                           # while CALLDATASIZE - tail > cd
        asm.op("POP")
        loops.end_records()
    return fail
