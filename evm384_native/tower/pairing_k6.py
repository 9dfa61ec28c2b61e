"""The optimal ate pairing of BW6 curves (k = 6, G1 and G2 both over Fp; BW6-761 of
EIP-3026) as EVM code: the Miller loops over the pairs kept in memory, and the final
exponentiation. The curve is a :class:`~evm384_native.curves.bw6.Bw6Curve` (``e.curve``).

Why a module of its own rather than a family beside BLS12 and BN in :mod:`.families`: the
k = 12 code (:mod:`.pairing`) is written over Fp12 = Fp6[w]/(w^2 - v), G2 over Fp2 and
lines with Fp2 coefficients; here the target field is Fp6 = Fp3[v]/(v^2 - u)
(:mod:`.fp6_over_fp3`), Q lies on a twist over Fp itself (its steps are G1's formulas) and
a line has three Fp coefficients. What is shared is below the pairing: Fp, the assembler,
the targets, :mod:`.control`'s square-and-multiply.

Miller loops: EIP-3026's e(P, Q) = (f_{x+1,Q}(P) f_{x^3-x^2-x,Q}(P)^p)^((p^6 - 1) / r)
(El Housni and Guillevic, ePrint 2020/351; tests/bw6_761_reference.py): two loops, each
as BLS12's, k pairs (known at run time) sharing one Fp6 squaring per bit; per bit every
pair doubles its T (homogeneous projective coordinates, on the M-twist y^2 = x^3 + b xi
over Fp) and multiplies its tangent line into f, on a set bit adds Q. A line at
P = (xP, yP) through T is, in Fp6 with w^6 = xi and times a factor in Fp that the final
exponentiation removes, l0 + l2 w^2 + l3 w^3 (:func:`line_dbl`, :func:`line_add`).

Final exponentiation: the easy part (p^3 - 1)(p + 1), then the hard part to the multiple
3 (x^3 - x^2 + 1) (p^2 - p + 1) / r of ePrint 2020/351, written E0(x) + E1(x) p with
polynomials of small coefficients (:func:`hard_part_digits`, found at build time): the
powers m^(x^i), i <= 9, and two multi-exponentiations by the coefficients,
m^E0(x) frob(m^E1(x)). The check's answer is whether the result is 1: the multiple is
coprime to r, so it is the same answer as the plain pairing's.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from ..asm import Fp, G1, Label, Slot, Subroutine, raw, struct
from . import fp, fp6_over_fp3 as fp6
from .compare import push_equal
from .control import longest_run, square_and_multiply_chained, square_and_multiply_signed
from .families import non_adjacent_form
from .fp import Emitter
from .fp6_over_fp3 import Fp6OverFp3


class SparseLine(Slot):
    """A line's coefficients: l0 + l2 w^2 + l3 w^3."""
    l0: Fp
    l2: Fp
    l3: Fp


class Projective(Slot):
    """A point of the twist in homogeneous projective coordinates: x = X / Z, y = Y / Z."""
    x: Fp
    y: Fp
    z: Fp


# What the Miller loops keep per pair: Q (affine, on the twist), R = [x] Q (the second
# loop's base), P as (-xP, yP), T; the steps copy in a suffix of it.
PairState = struct("Bw6PairState", ("q", G1), ("r", Projective), ("p", G1),
                   ("t", Projective))
_R_REL = G1.size
_P_REL = G1.size + Projective.size
# with at most this many pairs their states stay in registers for the Miller loops
RESIDENT_PAIRS = 4
# the longest run of cyclotomic squarings one call performs (each ~45 EVMMAX ops); where
# the target's code is not dense (18 bytes an op: EVM768) one a call, as code is larger
CYCLOTOMIC_RUN = 6
CYCLOTOMIC_RUN_SPARSE = 1
_Tail = struct("Bw6PairTail", ("p", G1), ("t", Projective))
_RTail = struct("Bw6PairRTail", ("r", Projective), ("p", G1), ("t", Projective))


def times_small(e: Emitter, out: Fp, a: Fp, k: int) -> None:
    """out = k a: for k = 2^j or 3 2^j (BW6-761's 3 b' = 12) an addition and j doublings
    (an addition costs 2 gas at twelve limbs, a product 12), else a product by k. ``out``
    may be ``a``."""
    odd, doublings = k, 0
    while odd and odd % 2 == 0:
        odd, doublings = odd // 2, doublings + 1
    if odd == 3:
        with e.asm.temps(Fp) as (twice,):
            fp.dbl(e, twice, a)
            fp.add(e, out, twice, a)
    elif odd == 1:
        fp.copy(e, out, a)
    else:
        fp.mul(e, out, a, e.fp_const(f"times_{k}", k))
        doublings = 0
    for _ in range(doublings):
        fp.dbl(e, out, out)


def line_dbl(e: Emitter, line: SparseLine, t: Projective, p: G1) -> None:
    """T = 2T in place (as 4 (X3, Y3, Z3), the same point) and the tangent at T evaluated
    at P, times 2 Y Z: the formulas of :mod:`.projective` over Fp (Costello, Lange and
    Naehrig, PKC 2010; Aranha et al., EUROCRYPT 2011, a = 0), with B = Y^2, E = 3 b' Z^2,
    F = 3 E: X3 = 2 X Y (B - F), Y3 = (B + F)^2 - 12 E^2, Z3 = 8 B Y Z; l0 = B - E,
    l2 = 3 X^2 (-xP), l3 = 2 Y Z yP (l0 = (lambda xT - yT) 2 Y Z by Y^2 Z = X^3 + b' Z^3).
    11 products where Jacobian coordinates take 13; ``p`` holds (-xP, yP)."""
    x, y, z = t.x, t.y, t.z
    with e.asm.scope("line6_dbl"), e.asm.temps(*[Fp] * 5) as (b, ee, yz, f, s):
        fp.sqr(e, b, y)                          # B = Y^2
        fp.sqr(e, ee, z)
        times_small(e, ee, ee, 3 * e.curve.twist_b)   # E = 3 b' Z^2
        fp.mul(e, yz, y, z)
        fp.dbl(e, yz, yz)                        # 2 Y Z
        fp.mul(e, line.l3, yz, p.y)
        fp.sqr(e, s, x)
        times_small(e, s, s, 3)
        fp.mul(e, line.l2, s, p.x)               # 3 X^2 (-xP)
        fp.sub(e, line.l0, b, ee)                # B - E
        times_small(e, f, ee, 3)                 # F = 3 E
        fp.mul(e, x, x, y)
        fp.sub(e, s, b, f)
        fp.mul(e, x, x, s)
        fp.dbl(e, x, x)                          # X3 = 2 X Y (B - F)
        fp.add(e, s, b, f)
        fp.sqr(e, s, s)
        fp.dbl(e, ee, ee)
        fp.sqr(e, ee, ee)
        times_small(e, ee, ee, 3)                # 12 E^2 = 3 (2 E)^2
        fp.sub(e, y, s, ee)                      # Y3 = (B + F)^2 - 12 E^2
        fp.mul(e, z, yz, b)
        fp.dbl(e, z, z)
        fp.dbl(e, z, z)                          # Z3 = 8 B Y Z


def line_add(e: Emitter, line: SparseLine, t: Projective, q: G1, p: G1) -> None:
    """T = T + Q in place for affine Q != +-T and the line through them at P, times lam
    (:mod:`.projective`'s formulas over Fp): theta = Y - yQ Z, lam = X - xQ Z (the slope
    is theta / lam), C = theta^2, D = lam^2, E = lam D, G = X D, H = E + Z C - 2 G:
    X3 = lam H, Y3 = theta (G - H) - E Y, Z3 = Z E; l0 = theta xQ - lam yQ,
    l2 = theta (-xP), l3 = lam yP. 15 products."""
    x, y, z = t.x, t.y, t.z
    with e.asm.scope("line6_add"), e.asm.temps(*[Fp] * 6) as (theta, lam, c, d, g, h):
        fp.mul(e, theta, q.y, z)
        fp.sub(e, theta, y, theta)               # theta = Y - yQ Z
        fp.mul(e, lam, q.x, z)
        fp.sub(e, lam, x, lam)                   # lam = X - xQ Z
        _add_line(e, line, theta, lam, q.x, q.y, p)
        fp.sqr(e, c, theta)
        fp.sqr(e, d, lam)
        fp.mul(e, g, x, d)                       # G = X D
        fp.mul(e, d, d, lam)                     # E = lam D
        fp.mul(e, c, c, z)                       # Z C
        _add_point(e, t, theta, lam, c, d, g, h, y)
        fp.mul(e, z, z, d)                       # Z3 = Z E


def line_add_projective(e: Emitter, line: SparseLine, t: Projective, r: Projective, p: G1
                        ) -> None:
    """T = T + R in place for R != +-T, both projective, and the line through them at P,
    times lam Z2: theta = Y1 Z2 - Y2 Z1, lam = X1 Z2 - X2 Z1, C = theta^2, D = lam^2,
    E = lam D, G = X1 Z2 D, H = E + Z1 Z2 C - 2 G: X3 = lam H, Y3 = theta (G - H) - Y1 Z2 E,
    Z3 = Z1 Z2 E (:func:`line_add`'s with Q scaled by Z2); l0 = theta X2 - lam Y2,
    l2 = theta Z2 (-xP), l3 = lam Z2 yP. 20 products (Jacobian coordinates take 23)."""
    x, y, z = t.x, t.y, t.z
    with e.asm.scope("line6_add_projective"), e.asm.temps(*[Fp] * 8) as (
            theta, lam, u1, s1, c, d, g, h):
        fp.mul(e, s1, y, r.z)                    # Y1 Z2
        fp.mul(e, theta, r.y, z)
        fp.sub(e, theta, s1, theta)
        fp.mul(e, u1, x, r.z)                    # X1 Z2
        fp.mul(e, lam, r.x, z)
        fp.sub(e, lam, u1, lam)
        with e.asm.temps(G1) as (scaled,):       # P times Z2, for l2 and l3
            fp.mul(e, scaled.x, p.x, r.z)
            fp.mul(e, scaled.y, p.y, r.z)
            _add_line(e, line, theta, lam, r.x, r.y, scaled)
        fp.sqr(e, c, theta)
        fp.sqr(e, d, lam)
        fp.mul(e, g, u1, d)                      # G = X1 Z2 D
        fp.mul(e, d, d, lam)                     # E = lam D
        fp.mul(e, z, z, r.z)                     # Z1 Z2
        fp.mul(e, c, c, z)                       # Z1 Z2 C
        _add_point(e, t, theta, lam, c, d, g, h, s1)
        fp.mul(e, z, z, d)                       # Z3 = Z1 Z2 E


def _add_line(e: Emitter, line: SparseLine, theta: Fp, lam: Fp, x2: Fp, y2: Fp, p: G1
              ) -> None:
    """l0 = theta x2 - lam y2, l2 = theta p.x, l3 = lam p.y (``lam`` kept)."""
    with e.asm.temps(Fp) as (h,):
        fp.mul(e, line.l0, theta, x2)
        fp.mul(e, h, lam, y2)
        fp.sub(e, line.l0, line.l0, h)
    fp.mul(e, line.l2, theta, p.x)
    fp.mul(e, line.l3, lam, p.y)


def _add_point(e: Emitter, t: Projective, theta: Fp, lam: Fp, zc: Fp, ee: Fp, g: Fp, h: Fp,
               y1: Fp) -> None:
    """X3 = lam H, Y3 = theta (G - H) - E y1 with H = E + zc - 2 G (``g``, ``y1``
    clobbered; Z3 is the caller's)."""
    fp.add(e, h, ee, zc)
    fp.sub(e, h, h, g)
    fp.sub(e, h, h, g)                           # H = E + Z C - 2 G
    fp.mul(e, t.x, lam, h)                       # X3 = lam H
    fp.mul(e, y1, y1, ee)                        # E y1
    fp.sub(e, g, g, h)
    fp.mul(e, g, g, theta)
    fp.sub(e, t.y, g, y1)                        # Y3 = theta (G - H) - E y1


class MillerLoops:
    """Memory and subroutines of the two Miller loops over the pair states."""

    def __init__(self, e: Emitter, f: Fp6OverFp3) -> None:
        self.e, self.f = e, f
        region = e.asm.memory.region("miller6")
        self.work = region.alloc(PairState, "work")
        self.line = region.alloc(SparseLine, "line")
        self.first = region.alloc(Fp6OverFp3, "first_loop")
        self.fx = region.alloc(Fp6OverFp3, "f_x")
        self.resident = [region.alloc(PairState, f"pair{i}") for i in range(RESIDENT_PAIRS)]
        self.resident_count = region.alloc(raw(32), "resident_count")
        self.end = region.alloc(raw(32), "pairs_end")

    def heap(self) -> int:
        """Where the pair states start: after every linked region (known at link time)."""
        memory_end = self.e.asm.memory.end
        assert memory_end is not None
        return memory_end

    def record_size(self) -> int:
        return self.e.target.memory_bytes(self.e, PairState.size)

    # --- the pair states ------------------------------------------------------------------

    def start_records(self) -> None:
        """Push the first record's address (the pointer :meth:`store_work` advances)."""
        self.e.asm.push(self.heap)

    def store_work(self) -> None:
        """The work slot's q and p (read by the caller) as the next state, T = Q (stack:
        ptr -> ptr advanced)."""
        e, asm, work = self.e, self.e.asm, self.work
        fp.copy(e, work.t.x, work.q.x)
        fp.copy(e, work.t.y, work.q.y)
        fp.copy(e, work.t.z, e.one)
        e.target.copy_out(e, work, lambda: asm.op("DUP3"), grow=True)   # ptr count index
        asm.push(self.record_size())
        asm.op("ADD")

    def end_records(self) -> None:
        """Stack: ptr -> (pairs_end = ptr)."""
        self.e.asm.push(self.end)
        self.e.asm.op("MSTORE")

    def _for_each_pair(self, step: Callable[[], None], live: Slot, back: Slot) -> None:
        """``step()`` on every pair state: its part from ``live`` on copied into the work
        slot (``live`` a suffix of it), its part ``back`` (a suffix too) copied back (at
        least one state)."""
        e, asm, work = self.e, self.e.asm, self.work
        start = e.target.memory_bytes(e, live.rel - work.rel)
        returned = e.target.memory_bytes(e, back.rel - work.rel)
        asm.push(self.heap)                       # stack: ptr
        top = asm.label("pair6")

        def record() -> None:                     # stack: ptr count
            asm.op("DUP2")
            if start:
                asm.push(start)
                asm.op("ADD")
        e.target.copy_in(e, live, record)
        step()
        e.target.copy_out(e, back, lambda: (asm.op("DUP3"), asm.push(returned),
                                            asm.op("ADD")))
        asm.push(self.record_size())
        asm.op("ADD")
        asm.op("DUP1")
        asm.push(self.end)
        asm.op("MLOAD")
        asm.op("GT")
        asm.jumpi(top)
        asm.op("POP")

    # --- pairs kept in registers ----------------------------------------------------------

    def _take_resident(self) -> None:
        """With at most len(self.resident) pairs, their states into registers of their own
        (the steps then copy register to register: ~10 gas a value less than STOREX and
        LOADX, and no loop over memory); ``resident_count`` says how many (0: the memory
        loop)."""
        asm, e = self.e.asm, self.e
        many, taken = asm.new_label("many_pairs6"), asm.new_label("resident_taken")
        asm.push(self.end)
        asm.op("MLOAD")
        asm.push(self.heap)
        asm.op("SWAP1")
        asm.op("SUB")
        asm.push(self.record_size())
        asm.op("SWAP1")
        asm.op("DIV")                             # n >= 1 pairs
        asm.op("DUP1")
        asm.push(len(self.resident))
        asm.op("LT")
        asm.jumpi(many)
        for i, state in enumerate(self.resident):
            if i:
                self._jump_unless_above(i, taken)
            e.target.copy_in(e, state, lambda i=i: asm.push(
                lambda: self.heap() + i * self.record_size()))
        asm.jump(taken)
        asm.place(many)
        asm.op("POP")
        asm.push(0)
        asm.place(taken)
        asm.push(self.resident_count)
        asm.op("MSTORE")

    def _jump_unless_above(self, i: int, target: Label) -> None:
        """Stack: n (kept): jump to ``target`` unless n > i (no pair i)."""
        asm = self.e.asm
        asm.op("DUP1")
        asm.push(i)
        asm.op("LT")
        asm.op("ISZERO")
        asm.jumpi(target)

    def _every_pair(self, body: Subroutine, live: Slot, back: Slot,
                    inline: Optional[Callable[[Slot], None]] = None) -> None:
        """``body`` (a step on the work slot) on every pair: on those in registers (copied
        register to register), else by the loop over memory (:meth:`_for_each_pair`).
        ``inline(state)``, where the target's code is dense, emits the step on a resident
        state's own registers instead of the copies and the call (for the hot doubling
        step: ~40 gas a pair and doubling less, at a copy of its code per resident pair)."""
        e, asm, work = self.e, self.e.asm, self.work
        in_memory, done = asm.new_label("pairs_in_memory6"), asm.new_label("pairs_done6")
        asm.push(self.resident_count)
        asm.op("MLOAD")                           # stack: n
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(in_memory)

        def part(state: Slot, of: Slot) -> Slot:
            return type(of)(state.region, state.rel + of.rel - work.rel, f"{state.name}.part")
        for i, state in enumerate(self.resident):
            if i:
                self._jump_unless_above(i, done)
            if inline is not None and e.target.dense_code:
                inline(state)
                continue
            fp.copy(e, live, part(state, live))
            asm.call(body)
            fp.copy(e, part(state, back), back)
        asm.jump(done)
        asm.place(in_memory)
        self._for_each_pair(lambda: asm.call(body), live, back)
        asm.place(done)
        asm.op("POP")

    # --- the loops ------------------------------------------------------------------------

    def emit(self, cinv: Optional[Fp6OverFp3] = None) -> None:
        """f = f_{x+1,Q}(P) f_{x^3-x^2-x,Q}(P)^p over every stored pair (1 without pairs),
        as ePrint 2020/351 shares the loops: with m = x^2 - x - 1,
        f_{x^3-x^2-x,Q} = f_{x,Q}^m f_{m,[x]Q} and f_{x+1,Q} = f_{x,Q} l_{[x]Q,Q}. The first
        loop makes f_x = f_{x,Q} and R = [x] Q; the second, over m's non-adjacent form,
        starts at f_x and multiplies f_x^(+-1) in at each non-zero digit besides the line
        (f_x^-1 as its conjugate, equal up to a factor in Fp3, which the final
        exponentiation removes), so that it ends at f_x^m f_{m,R}.

        ``cinv``: the hinted check's c^-1 (:mod:`..bw6_761.hinted`), folded in: the first
        loop starts at cinv (x's top bit), squared at once (the loop skips the squaring
        before its first doubling), and multiplies it in at each set bit of x, so it ends at
        f_x cinv^x; the closing line takes one more (f_{x+1} cinv^(x+1)), and the second
        loop, started at f_x cinv^x, ends at (f_x cinv^x)^m f_{m,R}, whose Frobenius
        carries cinv^(p x m): f ends times cinv^lambda, lambda = (x + 1) + p (x^3 - x^2 - x)
        (the conjugate stands for the inverse up to a factor in Fp3, as above)."""
        e, asm, work, f = self.e, self.e.asm, self.work, self.f
        one = e.const(Fp6OverFp3, "fp6_one", [1, 0, 0, 0, 0, 0])
        tail = _Tail(work.region, work.rel + _P_REL, f"{work.name}.tail")
        r_tail = _RTail(work.region, work.rel + _R_REL, f"{work.name}.r_tail")
        def times_line() -> None:
            fp6.mul_by_line(e, f, f, self.line.l0, self.line.l2, self.line.l3)
        # the doubling steps (the hot path) multiply in line, the others call this
        line_product = asm.subroutine("ml6_times_line", lambda a: times_line())

        def times_line_called() -> None:
            asm.call(line_product)

        def each(name: str, step: Callable[[], None], live: Slot, back: Slot
                 ) -> Callable[[], None]:
            body = asm.subroutine(f"{name}_step", lambda a: step())
            routine = asm.subroutine(name, lambda a: self._every_pair(body, live, back))
            return lambda: asm.call(routine)
        def doubling(state: Slot) -> None:
            line_dbl(e, self.line, state.t, state.p)
            times_line()
        dbl_step = asm.subroutine("ml6_dbl_all_step", lambda a: doubling(work))
        doubling_only = asm.new_label("ml6_dbl_only")

        def square_and_double(a) -> None:         # f = f^2, then every pair's doubling
            fp6.sqr(e, f, f)
            asm.place(doubling_only)
            self._every_pair(dbl_step, tail, work.t, inline=doubling)
        sqr_dbl = asm.subroutine("ml6_sqr_dbl_all", square_and_double)
        add_q = each("ml6_add_q_all", lambda: (line_add(e, self.line, work.t, work.q,
                                                        work.p), times_line_called()),
                     work, work.t)

        def close() -> None:                      # R = T = [x] Q; f *= l_{R,Q}; T = R
            fp.copy(e, work.r, work.t)
            line_add(e, self.line, work.t, work.q, work.p)
            times_line_called()
            fp.copy(e, work.t, work.r)
        closing = each("ml6_close_all", close, work, r_tail)

        def add_r(negative: bool) -> None:
            if negative:
                fp.neg(e, work.r.y, work.r.y)
            line_add_projective(e, self.line, work.t, work.r, work.p)
            times_line_called()
        add = each("ml6_add_r_all", lambda: add_r(False), r_tail, work.t)
        sub = each("ml6_sub_r_all", lambda: add_r(True), r_tail, work.t)
        times_fx = asm.subroutine("ml6_times_fx", lambda a: fp6.mul(e, f, f, self.fx))

        def times_fx_inverse(a) -> None:
            if not e.target.dense_code:           # conjugate fx in place around the product
                fp6.conj(e, self.fx, self.fx)     # of times_fx: no second copy of its code
                asm.call(times_fx)
                fp6.conj(e, self.fx, self.fx)
                return
            with asm.temps(Fp6OverFp3) as (inverse,):
                fp6.conj(e, inverse, self.fx)
                fp6.mul(e, f, f, inverse)
        times_fx_conj = asm.subroutine("ml6_times_fx_conj", times_fx_inverse)

        def times_cinv() -> None:
            if cinv is not None:
                asm.call(times_cinv_routine)
        if cinv is not None:
            times_cinv_routine = asm.subroutine("ml6_times_cinv",
                                                lambda a: fp6.mul(e, f, f, cinv))

        with asm.scope("miller_loops"):
            fp.copy(e, f, one)
            done = asm.new_label("no_pairs6")
            asm.push(self.end)
            asm.op("MLOAD")
            asm.push(self.heap)
            asm.op("EQ")
            asm.jumpi(done)                       # every pair had a point at infinity
            self._take_resident()
            if cinv is not None:                  # x's top bit, squared for the next
                fp.copy(e, f, cinv)
                asm.call(sqr_dbl)
            else:                                 # no squaring of f = 1 before the first
                asm.call(sqr_dbl, at=doubling_only)
            bits = bin(e.curve.x)[3:]
            for i, bit in enumerate(bits):
                if i:
                    asm.call(sqr_dbl)
                if bit == "1":
                    add_q()
                    times_cinv()
            fp.copy(e, self.fx, f)
            closing()
            times_cinv()
            fp.copy(e, self.first, f)             # f_{x+1,Q}
            fp.copy(e, f, self.fx)

            def multiply(digit: int) -> None:
                (add if digit > 0 else sub)()
                asm.call(times_fx if digit > 0 else times_fx_conj)
            # a run-time loop over the digits (~40 gas a digit, ~1.5 KB less than calls)
            square_and_multiply_signed(
                e, non_adjacent_form(e.curve.x ** 2 - e.curve.x - 1)[1:],
                lambda: asm.call(sqr_dbl), multiply, loop=True)
            fp6.frobenius(e, f, f, 1)
            if e.target.dense_code:
                fp6.mul(e, f, f, self.first)
            else:                                 # fx is dead: times_fx's code, not a copy
                fp.copy(e, self.fx, self.first)
                asm.call(times_fx)
            asm.place(done)


def hard_part_digits(x: int, p: int, r: int) -> Tuple[List[int], List[int]]:
    """(E0, E1), the coefficients in x (lowest first) with E0(x) + E1(x) p =
    3 (x^3 - x^2 + 1) (p^2 - p + 1) / r (ePrint 2020/351's multiple): E1 the balanced
    base-x digits of the quotient by p rounded up, E0 those of the remainder (it is
    negative). Raises unless the digits are small (a curve of another family)."""
    exponent = 3 * (x**3 - x**2 + 1) * (p * p - p + 1) // r
    quotient = -(-exponent // p)
    digits = (_balanced_digits(exponent - quotient * p, x), _balanced_digits(quotient, x))
    if any(abs(d) >= 1 << 10 for part in digits for d in part):
        raise ValueError("the hard part's coefficients are not small: not a BW6 curve of "
                         "a BLS12 seed")
    return digits


def _balanced_digits(n: int, x: int) -> List[int]:
    digits = []
    while n:
        digit = n % x
        if digit > x // 2:
            digit -= x
        digits.append(digit)
        n = (n - digit) // x
    return digits


class FinalExponentiation:
    """f -> f^(3 (x^3 - x^2 + 1) (p^6 - 1) / r) in place. Products and cyclotomic squarings
    act on one accumulator through subroutines (a product by ``base``; runs of squarings
    entering a chain of CYCLOTOMIC_RUN), so the code stays small."""

    def __init__(self, e: Emitter) -> None:
        self.e = e
        curve = e.curve
        if curve.x <= 0:
            raise ValueError("the powers by x are written for a positive seed x")
        self.e0, self.e1 = hard_part_digits(curve.x, curve.p, curve.r)
        region = e.asm.memory.region("final_exp6")
        self.acc = region.alloc(Fp6OverFp3, "acc")
        self.base = region.alloc(Fp6OverFp3, "base")
        self.powers = [region.alloc(Fp6OverFp3, f"m{i}")
                       for i in range(max(len(self.e0), len(self.e1)))]
        self._digits = [int(bit) for bit in bin(curve.x)[3:]]
        self._mul = e.asm.subroutine("fe6_mul", lambda a: fp6.mul(e, self.acc, self.acc,
                                                                   self.base))
        # where the code is not dense, a product by an inverse conjugates in a routine
        self._mul_conj = e.asm.subroutine(
            "fe6_mul_conj", lambda a: (fp6.conj(e, self.base, self.base), e.asm.call(self._mul)))
        self._chain = fp.squaring_chain(
            e, "fe6_cyclotomic_chain",
            min(CYCLOTOMIC_RUN if e.target.dense_code else CYCLOTOMIC_RUN_SPARSE,
                longest_run(self._digits)),
            lambda: fp6.cyclotomic_sqr(e, self.acc, self.acc))
        self._pow = e.asm.subroutine("fe6_pow_x", lambda a: self._pow_body())

    def _square(self) -> None:
        chain, entries = self._chain
        self.e.asm.call(chain, at=entries[1])

    def _times(self, factor: Fp6OverFp3, negative: bool = False) -> None:
        """acc *= factor (its conjugate, the inverse, if ``negative``)."""
        e = self.e
        if negative and e.target.dense_code:
            fp6.conj(e, self.base, factor)
        elif not fp.same(self.base, factor):
            fp.copy(e, self.base, factor)
        e.asm.call(self._mul_conj if negative and not e.target.dense_code else self._mul)

    def _pow_body(self) -> None:
        """acc = acc^x."""
        fp.copy(self.e, self.base, self.acc)
        square_and_multiply_chained(self.e, self._digits, self._chain,
                                    lambda digit: self.e.asm.call(self._mul))

    def _multi_power(self, coefficients: Sequence[int]) -> None:
        """acc = prod m_i^c_i (m_i = m^(x^i) in self.powers): one squaring per digit of the
        longest non-adjacent form of a |c_i|, a product per non-zero digit (by conj(m_i),
        m_i's inverse, where the digit and c_i differ in sign)."""
        forms = [non_adjacent_form(abs(c)) if c else [] for c in coefficients]
        top = max(len(form) for form in forms)
        fp.copy(self.e, self.acc, self.e.const(Fp6OverFp3, "fp6_one", [1, 0, 0, 0, 0, 0]))
        for position in range(top):
            if position:
                self._square()
            for power, c, form in zip(self.powers, coefficients, forms):
                digit = form[position - top + len(form)] if position >= top - len(form) else 0
                if digit:
                    self._times(power, digit * c < 0)

    def emit(self, f: Fp6OverFp3) -> None:
        e, asm, acc = self.e, self.e.asm, self.acc
        with asm.scope("final_exp6"), asm.temps(Fp6OverFp3) as (t,):
            # easy part: f^((p^3 - 1)(p + 1))
            fp6.conj(e, t, f)
            fp6.inverse(e, acc, f)
            self._times(t)
            fp6.frobenius(e, t, acc, 1)
            self._times(t)
            # hard part: m^E0(x) frob(m^E1(x)), m = f
            fp.copy(e, self.powers[0], acc)
            for power in self.powers[1:]:
                asm.call(self._pow)
                fp.copy(e, power, acc)
            self._multi_power(self.e1)
            fp6.frobenius(e, t, acc, 1)
            self._multi_power(self.e0)
            self._times(t)
            fp.copy(e, f, acc)


def push_is_one(e: Emitter, f: Fp6OverFp3) -> None:
    """Push 1 if f = 1, else 0."""
    push_equal(e, f, e.const(Fp6OverFp3, "fp6_one", [1, 0, 0, 0, 0, 0]))
