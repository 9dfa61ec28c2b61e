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
endomorphism test of :class:`SubgroupCheck` (three powers of about 64 bits instead of a
product by r).
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


def kernel_scalars(x: int) -> Tuple[int, int, int]:
    """(t, a, b): t = (x - 1) / 3 and the endomorphism a + b phi of the subgroup tests,
    a = t (x^2 + 1) + 1, b = t (2 x^2 - 1). It is ((x + 1) + (x^3 - x^2 + 1) phi)(1 - phi) / 3
    (El Housni, Guillevic and Piellard's kernel vector, ePrint 2022/352, times the
    degree-3 endomorphism 1 - phi, divided by 3): its degree a^2 - a b + b^2 has gcd r with
    both #E(Fp) and #E'(Fp) (tests/test_bw6_761_curve.py), where the vector's own has 3 r
    with the twist's, so no cubic character is needed to reject E'(Fp)'s 3-torsion. Its
    multiples of P take three powers, by t, x and x: with A = [t] P, C = [t x^2] P,
    [a] P = C + A + P and [b] P = 2 C - A. Raises unless x = 1 mod 3 (every BLS12 seed)."""
    if x % 3 != 1:
        raise ValueError(f"the subgroup tests are written for a seed x = 1 mod 3, not {x}")
    t = (x - 1) // 3
    return t, t * (x * x + 1) + 1, t * (2 * x * x - 1)


def subgroup_omegas(curve) -> Tuple[int, int]:
    """The cube roots of unity omega of G1's and G2's endomorphisms phi(x, y) =
    (omega x, y) for which [a] P + phi([b] P) = O on the generators (a, b of
    :func:`kernel_scalars`: a short vector of the kernel of (a, b) -> a + b lambda mod r)."""
    p = curve.p
    _, a, b = kernel_scalars(curve.x)
    non_cube = next(g for g in range(2, p) if pow(g, (p - 1) // 3, p) != 1)
    roots = (pow(non_cube, (p - 1) // 3, p), pow(non_cube, 2 * (p - 1) // 3, p))
    found = []
    for group in (points.G1, points.G2):
        def vanishes(omega: int) -> bool:
            left = weierstrass.multiply(group, group.g, a)
            right = weierstrass.multiply(group, group.g, b)
            assert right is not None
            return weierstrass.add(group, left, (omega * right[0] % p, right[1])) is None
        found.append(next(omega for omega in roots if vanishes(omega)))
    return found[0], found[1]


class SubgroupCheck:
    """One subroutine testing the affine point in its slot ``point`` for
    [a] P + phi([b] P) = O (phi(x, y) = (omega x, y), omega in its slot; a and b of
    :func:`kernel_scalars`): three powers (by t = (x - 1) / 3, x and x: 62 or 63 doublings
    each, Jacobian, the first with P's affine additions), compared as L = -phi(S) with
    L = C + A + P, S = 2 C - A (A = [t] P, C = [t x^2] P). Every step of a point of G1 or
    G2 meets no exceptional case (the multiples involved are distinct mod r); a step that
    meets one leaves Z = 0, which stays 0 and which the comparison rejects. The test passes
    exactly G1 on E and G2 on the twist: the endomorphism a + b phi has degree
    a^2 - a b + b^2, whose gcd with #E(Fp) and with #E'(Fp) is r
    (tests/test_bw6_761_curve.py)."""

    def __init__(self, e: Emitter, fail: Label) -> None:
        self.e, self.fail = e, fail
        region = e.asm.memory.region("subgroup6")
        self.point = region.alloc(G1, "point")
        self.omega = region.alloc(Fp, "omega")
        self.acc = region.alloc(G1Jacobian, "acc")
        self.base = region.alloc(G1Jacobian, "base")
        self.c = region.alloc(G1Jacobian, "c")
        self.a = region.alloc(G1Jacobian, "a")
        g1_omega, g2_omega = subgroup_omegas(e.curve)
        self.omegas = (e.fp_const("omega_g1", g1_omega), e.fp_const("omega_g2", g2_omega))
        self.routine = e.asm.subroutine("bw6_subgroup_check", lambda a: self._body())

    def _body(self) -> None:
        e, asm, point, acc, base = self.e, self.e.asm, self.point, self.acc, self.base
        group = Group("bw6_subgroup", fp, G1, G1Jacobian, (0,), (0,))
        third = kernel_scalars(e.curve.x)[0]
        scalars = [[int(bit) for bit in bin(n)[3:]] for n in (third, e.curve.x)]
        chain = squaring_chain(e, "bw6_subgroup_dbl_chain",
                               min(DOUBLING_RUN if e.target.dense_code
                                   else DOUBLING_RUN_SPARSE,
                                   max(longest_run(bits) for bits in scalars)),
                               lambda: jacobian.jacobian_dbl(e, fp, acc))
        add_p = asm.subroutine("bw6_subgroup_add_p",
                               lambda a: jacobian.jacobian_add_affine(e, fp, acc, point))
        add_base = asm.subroutine("bw6_subgroup_add_base",
                                  lambda a: add_distinct(e, group, acc, base))

        def times(bits, add) -> None:            # acc = [n] acc (acc = base, or P)
            if e.loops:                          # the bits read at run time: less code
                square_and_multiply(e, "".join(map(str, bits)),
                                    lambda: asm.call(chain[0], at=chain[1][1]),
                                    lambda: asm.call(add), loop=True)
            else:
                square_and_multiply_chained(e, bits, chain, lambda digit: asm.call(add))
        jacobian.from_affine(e, acc, point)
        times(scalars[0], add_p)                 # A = [t] P
        fp.copy(e, self.a, acc)
        for _ in range(2):                       # C = [t x^2] P
            fp.copy(e, base, acc)
            times(scalars[1], add_base)
        fp.copy(e, self.c, acc)
        asm.call(chain[0], at=chain[1][1])       # 2 C
        fp.copy(e, base, self.a)
        fp.neg(e, base.y, base.y)
        asm.call(add_base)                       # S = 2 C - A
        fp.copy(e, base, self.a)
        fp.copy(e, self.a, acc)
        fp.copy(e, acc, self.c)
        asm.call(add_base)                       # C + A
        asm.call(add_p)                          # L = C + A + P
        self._require_opposite(acc, self.a)

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
        self._require(point, self.omegas[1])

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
