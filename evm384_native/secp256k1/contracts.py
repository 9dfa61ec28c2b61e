"""ECRECOVER (precompile 0x01) as an EVMMAX contract ``ecrecover``.

Calldata: h, v, r, s, 32-byte big-endian words (CALLDATALOAD pads a short input with
zeros, and nothing reads past byte 128: go-ethereum's padding and cut). Output: the
address as a left-zero-padded word; empty output on any failure (the precompile never
reverts), so every rejection ends in STOP. Semantics: :mod:`.reference`.

1. Validation in EVM integers: v - 27 < 2 (v a full word), 0 < r < n, 0 < s < n.
2. R = (r, y): c = r^3 + 7 by MULMOD/ADDMOD, y = c^((p+1)/4) (p = 3 mod 4; an addition
   chain, :func:`..tower.fp.power_chain`); y^2 != c means r is no point's x. y's parity
   is made v - 27's by y = -y.
3. The scalars in a second field context (:func:`..tower.modn.inverse_products`):
   w = r^-1 mod n, u1 = -h w, u2 = s w, so that Q = [u1] G + [u2] R.
4. Both scalars split by GLV (secp256k1's endomorphism, :mod:`..curves.secp256k1`;
   :func:`..ec.glv.push_digit_words`: odd halves below 2^130, 26 regular signed
   5-bit digits each), Q = [k1] G + [k2] phi(G) + [k3] R + [k4] phi(R) by Straus' joint
   multiplication: 125 doublings (Z3 = Y Z) and 103 mixed additions, no branch. R's odd
   multiples [1] R .. [31] R by co-Z additions (Longa and Miri, PKC 2008) on one Z_T,
   taken affine on the isomorphic curve y^2 = x^3 + 7 Z_T^6 where the loop runs (no
   inversion); G's 32 records [-31] G .. [31] G are affine constants of the code on the
   curve itself, which an addition reads with Z1 Z_T in place of Z1 (one multiplication:
   :func:`..tower.jacobian.jacobian_add_affine_hmv`'s ``z_factor``); phi's images are
   x times beta. Where the code fits (plain EVM: :data:`G_DIGITS`), G's halves are read
   in 8-bit digits instead (33 additions, not 52: 17 digits each, the top two one
   record), from G's 128 odd multiples in the code, the sign applied at run time
   (:class:`..ec.windows.CodeTable`); the digits' positions from
   :func:`..ec.windows.joint_steps`. The loop starts at R's top digit (bit 125), where
   G's and phi(G)'s top digits (bit 128, d1, d2 in {-3, -1, 1, 3}) are added as one
   record [8 (d1 + d2 lam)] G, from a table of their own (:attr:`GDigits.top_span`): 3
   doublings and one addition fewer than a start at bit 128.
5. Exceptional cases: R is chosen by the signer, so its discrete logarithm may be known
   and any partial sum may meet a record (acc = +-T): there a mixed addition has H = 0
   and leaves Z = 0, and so does acc at infinity: a test of Z after each addition finds
   them and handles them there (:class:`..ec.exceptional.Exceptions`: 2T, infinity or T),
   so such inputs cost about what others do. Where a test ends a block of field code
   (plain EVM) Z is tested once a segment instead (the loop's inline top, each turn), and
   a segment that ends with Z = 0 sends the rest of the product to a careful loop that
   tests each addition (:mod:`..ec.deferred`). A final Z = 0 is Q = infinity (empty
   output).
6. Q affine (one inversion), LOADXed as x || y, KECCAK256, the low 20 bytes returned.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from typing import Dict, Iterator, List, Optional, Tuple

from ..asm import Fp, G1, G1Jacobian, Program, Slot, raw
from ..curves import weierstrass
from ..curves.secp256k1 import SECP256K1
from ..ec.deferred import DeferredTests, DigitWords, loop_tests, segments
from ..ec.glv import HALF_BITS, bound, push_digit_words
from ..ec.exceptional import Addend, Exceptions
from ..ec.groups import affine_view, g1_group
from ..ec.odd_multiples import odd_multiples
from ..ec.windows import (RECORDS, WINDOW, CodeTable, FixedDigits, Lookup, joint_steps,
                          next_turn)
from ..tower import fp, jacobian, modn
from ..tower.compare import push_field_is_zero
from ..tower.contract import first_that_fits, return_slot
from ..tower.fp import Emitter
from ..tower.target import Target
from ..tower.words import push_calldata_word, push_in_open_range
from .reference import CURVE as AFFINE

NAME = "ecrecover"
CONTRACTS = (NAME,)
TARGETS_OF = {NAME: ("evmmax", "evm")}
CURVE = SECP256K1
G1_GROUP = g1_group(CURVE)                         # y^2 = x^3 + 7
P, N = CURVE.p, CURVE.r
WORD = 32
H, V, R, S = (WORD * i for i in range(4))          # calldata offsets
ADDRESS_MASK = (1 << 160) - 1
THREE_HALVES = 3 * pow(2, -1, P) % P               # the halved doubling's constant


@dataclass(frozen=True)
class GDigits(FixedDigits):
    """How u1's GLV halves (G's and phi(G)'s digits) are read
    (:class:`..ec.windows.FixedDigits`; R's, whose table is made at run time, are WINDOW
    = 5 bits); a turn of the loop costs ~60 gas of control; from the top digit down to
    the loop's top inline."""

    @property
    def half_bits(self) -> int:
        """The digits' span: the halves' (< 2^HALF_BITS) rounded up to whole digits."""
        return -(-HALF_BITS // self.window) * self.window

    @property
    def top(self) -> int:
        """The bit the loop starts at: R's top digit's. G's top digit (at :attr:`g_top`,
        where that is higher) is added there, read as 2^(g_top - top) times its value."""
        return HALF_BITS - WINDOW

    @property
    def g_top(self) -> int:
        """The bit of G's top digit."""
        return self.half_bits - self.window

    @property
    def top_span(self) -> int:
        """How many values G's top digit can take, rounded up to a power of two: m with
        |d| < m for d = 2u + 1 - 2^window (u its bits), the m values of u around
        2^(window - 1). The digits below it sum to at most 2^g_top - 1, so
        |d| 2^g_top <= |k| + 2^g_top - 1 for the halves' :func:`..ec.glv.bound` on |k|."""
        most = ((bound(CURVE.glv, N) - 1) >> self.g_top) + 1     # |d| <= most
        values = 2 * ((most + 1) // 2)                           # the odd d in range
        return 1 << (values - 1).bit_length()

    @property
    def top_bits(self) -> int:
        """The bits of the joint index m a1 + a2 of both halves' top digits."""
        return 2 * (self.top_span.bit_length() - 1)

    @property
    def loop_top(self) -> int:
        return self.top // self.turn_bits * self.turn_bits

    @property
    def segments(self) -> List[Tuple[int, int]]:
        """The loop's segments, (top, bottom) bits: its lead, top - 1 .. loop_top, then a
        turn's, ``segment_bits`` each (where the tests are deferred: the tests once a
        segment, :func:`..ec.deferred.segments`)."""
        return segments(self.top, self.loop_top, self.turn_bits, self.segment_bits)


# Tried in turn, the first build that fits 24,576 bytes: 8-bit digits of G (33 additions
# where 5-bit ones take 52; 8.5 KB of records; a turn of 40 bits in segments of 16, 16 and
# 8, which the block compiler makes cheaper than one of 40: bench/README.md, branch ecnaf),
# else 5-bit ones in memory (EVMMAX's: its code is larger). 7-bit ones (37 additions) would
# need 4 KB of records and 8 KB for their top digits' joint table (14 values each).
# The careful loop's longest run of doublings (ec/deferred.py): the narrowest window's 5
# do not fit 24,576 bytes beside G's records (bench/README.md, branch p256q); 2, not 3,
# frees bytes for PUSHED_HALVES, the worst made input still well within 1.5x of the
# figure, where 1 would reach it (bench/README.md, branch ecsz)
CAREFUL_RUN = 2
G_DIGITS = (GDigits(8, True, lcm(WINDOW, 8), 16),
            GDigits(WINDOW, False, 6 * WINDOW, 6 * WINDOW))
# How many of a turn's doublings read 3/2 as an immediate of their block (PUSH32: 3 gas
# where a load from the constants' memory takes 6, 29 bytes more a copy; a turn runs 3
# times): as many as fit beside G's 8-bit records, all 40 since ec/glv.bound's tighter
# bound shrank G's top table (bench/README.md, branch glvr)
PUSHED_HALVES = 40
# (G's digits, PUSHED_HALVES or 0): tried in turn, the first that fits 24,576 bytes
BUILDS = ((G_DIGITS[0], PUSHED_HALVES), (G_DIGITS[0], 0), (G_DIGITS[1], 0))


class _Recover:
    def __init__(self, e: Emitter, g_digits: GDigits, pushed_halves: int = 0) -> None:
        self.e, self.asm, self.g_digits = e, e.asm, g_digits
        # where constants are loaded from memory (plain EVM's build that fits), the first
        # ``pushed_halves`` doublings of a turn push 3/2 instead (:meth:`_double`)
        self.pushed_halves = pushed_halves if e.target.field_blocks else 0
        memory = e.asm.memory
        self.record = e.target.memory_bytes(e, G1.size)
        self.r_table = memory.region("scalar_table", first=True).alloc(
            raw(RECORDS * self.record), "r_table")               # at offset 0: no base
        # in R's table before it is written and after its last read (memory is gas): r
        # and c staged for STOREX; n, r, -h mod n, s (STOREXed into context 1), then u1,
        # u2 (LOADXed back); at the end the key x || y
        self.words = self.r_table.part(raw(6 * WORD), 0, "words")
        self.stage = self.words.part(raw(2 * WORD), 0, "stage")
        self.key = self.words.part(raw(2 * WORD), 0, "key")
        self.g_table = None if g_digits.in_code else memory.region(
            "ecrecover_g_table").alloc(raw(g_digits.records * self.record), "g_table")
        self.g_data = e.asm.new_label("ecrecover_g_data")
        self.g_top_data = e.asm.new_label("ecrecover_g_top_data")
        if g_digits.g_top > g_digits.top and not g_digits.in_code:
            raise ValueError("G's top digit above the loop's top needs its table in code")
        self.r_point = memory.region("ecrecover_r").alloc(G1Jacobian, "r_point")
        self.z_table = memory.region("ecrecover_z_table").alloc(Fp, "z_table")
        self.acc = memory.region("ecrecover_acc").alloc(G1Jacobian, "acc")
        self.three_halves = e.fp_const("three_halves", THREE_HALVES)
        self.beta = e.fp_const("glv_beta", CURVE.glv.beta)
        # the records added: where field code runs in blocks, one slot for each addition
        # of a segment (the loop's lead, a turn: :meth:`_segment_addend`), so that a
        # segment loads them all before its first doubling, and its doublings and
        # additions are then one block (acc on the stack throughout); elsewhere one slot
        # that they share
        self.records = records = memory.region("ecrecover_record")
        shared = None if e.target.field_blocks else records.alloc(G1, "record")
        # (stack depth of the digit word, its name, the record): [d3] R, [d4] phi(R), then
        # [d1] G, [d2] phi(G), both on the curve itself
        self.addends = [
            (depth, name, Addend(shared or records.alloc(G1, f"record_{depth}"), x_factor,
                                 z_factor))
            for depth, name, x_factor, z_factor in (
                (2, "r", None, None), (1, "r", self.beta, None),
                (4, "g", None, self.z_table), (3, "g", self.beta, self.z_table))]
        self.segment_addends: Dict[Tuple[int, int], Addend] = {}
        self.exceptions = Exceptions(e, self.acc, self._add, self._exceptional_double)
        self.fail = e.asm.new_label("invalid")
        self.finish = e.asm.new_label("affine")

    # --- 1. validation --------------------------------------------------------------

    def validate(self) -> None:
        asm = self.asm
        asm.push(2)
        asm.push(27)
        push_calldata_word(asm, V)
        asm.op("SUB")
        asm.op("LT")                               # v - 27 < 2
        push_in_open_range(asm, R, N)
        asm.op("AND")
        push_in_open_range(asm, S, N)
        asm.op("AND")
        asm.op("ISZERO")
        asm.jumpi(self.fail)

    # --- 2. the point R ---------------------------------------------------------------

    def point_r(self) -> None:
        """r_point = (r, y, 1) with y^2 = r^3 + 7 and y's parity v - 27, else fail."""
        asm, e, point = self.asm, self.e, self.r_point
        push_calldata_word(asm, R)
        asm.push(self.stage)
        asm.op("MSTORE")
        asm.push(P)
        asm.push(CURVE.b)
        asm.push(P)
        push_calldata_word(asm, R)
        asm.push(P)
        push_calldata_word(asm, R)
        asm.op("DUP1")
        asm.op("MULMOD")                           # r^2
        asm.op("MULMOD")                           # r^3
        asm.op("ADDMOD")                           # c = r^3 + 7
        asm.push(lambda: int(self.stage) + WORD)
        asm.op("MSTORE")
        with asm.temps(Fp, Fp) as (y, t):
            c = point.y                            # r, c in one STOREX; then y there
            e.target.copy_in(e, affine_view(point, G1_GROUP), lambda: asm.push(self.stage))
            fp.power_chain(e, y, c, (P + 1) // 4)
            fp.sqr(e, t, y)
            fp.sub(e, t, t, c)
            fp.copy(e, point.y, y)
            push_field_is_zero(e, t)
        asm.op("ISZERO")
        asm.jumpi(self.fail)                       # y^2 != c: no point has x = r
        keep = asm.new_label("parity_right")
        e.target.push_parity(e, point.y)
        push_calldata_word(asm, V)
        asm.op("XOR")
        asm.push(1)
        asm.op("AND")                              # v = 27 + parity: v's bit 0 differs
        asm.jumpi(keep)
        fp.neg(e, point.y, point.y)
        asm.place(keep)
        fp.copy(e, point.z, e.one)

    # --- 3. the scalars mod n ---------------------------------------------------------

    def scalars(self) -> None:
        """Stack: -> u1 u2 (u2 on top): -h w and s w for w = r^-1 mod n."""
        asm = self.asm

        def minus_h() -> None:                     # (n - h mod n) mod n
            asm.push(N)
            asm.push(N)
            push_calldata_word(asm, H)
            asm.op("MOD")
            asm.push(N)
            asm.op("SUB")
            asm.op("MOD")
        modn.inverse_products(self.e, N, self.words, lambda: push_calldata_word(asm, R),
                              [minus_h, lambda: push_calldata_word(asm, S)])

    # --- 4. the joint multiplication ---------------------------------------------------

    def _g_data(self) -> bytes:
        """G's records (:meth:`..ec.windows.FixedDigits.records_data`)."""
        return self.g_digits.records_data(
            lambda k: weierstrass.multiply(AFFINE, CURVE.g1, k), N)

    def _g_top_data(self) -> bytes:
        """The records of G's and phi(G)'s top digits d1, d2 together, affine, for the
        upper half of the joint index i = m a1 + a2 (a_j = u_j - 2^(window - 1) + m / 2,
        d_j = 2 a_j + 1 - m, m = top_span): [2^(g_top - top) (d1 + d2 lam)] G. The lower
        half's are their negatives (i -> m^2 - 1 - i negates both digits), which
        :class:`..ec.windows.CodeTable` reads from these."""
        digits = self.g_digits
        m = digits.top_span
        out = b""
        for i in range(m * m // 2, m * m):
            d1, d2 = (2 * a + 1 - m for a in divmod(i, m))
            point = weierstrass.multiply(AFFINE, CURVE.g1, ((d1 + d2 * CURVE.glv.lam)
                                                            << (digits.g_top - digits.top)) % N)
            assert point is not None
            out += b"".join(v.to_bytes(WORD, "big") for v in point)
        return out

    def _g_top_load(self, dest: Slot) -> None:
        """dest = the joint record of G's and phi(G)'s top digits (:meth:`_g_top_data`;
        the words at DUP 4 and 3, as U themselves: their top digit u = U >> g_top)."""
        asm, digits = self.asm, self.g_digits
        m = digits.top_span
        asm.op("DUP4")
        asm.push(digits.g_top)
        asm.op("SHR")
        asm.push(m.bit_length() - 1)
        asm.op("SHL")                              # m u1
        asm.op("DUP4")
        asm.push(digits.g_top)
        asm.op("SHR")
        asm.op("ADD")
        asm.push((m + 1) * ((1 << (digits.window - 1)) - m // 2))
        asm.op("SWAP1")
        asm.op("SUB")                              # i = m a1 + a2
        CodeTable(self.e, self.g_top_data, digits.top_bits).load(dest, 1, 0)
        asm.op("POP")

    def _code_table(self) -> CodeTable:
        """G's records in the code, read from G's words with the top bits of their digits
        below :meth:`_flipped_below` flipped (:meth:`windowed` flips them once)."""
        return CodeTable(self.e, self.g_data, self.g_digits.window, flipped=True)

    def _flipped_below(self) -> int:
        """The bit below which G's words hold their digits flipped: all of them, or where
        the top digits are read apart (:meth:`_g_top_load`: the words as they are) those
        under them."""
        digits = self.g_digits
        return digits.g_top if digits.g_top > digits.top else 256

    def _g_load(self, dest: G1, depth: int, shift: int) -> None:
        """dest = G's record for u1's digit at bit ``shift`` of the word at DUP ``depth``."""
        if self.g_table is None:
            self._code_table().load(dest, depth, shift)
        else:
            Lookup(self.e, self.g_table, self.record, at_zero=False).load(dest, depth, shift)

    def _start(self) -> None:
        """acc = the sum of the records of the halves' top digits (stack: G1 G2 R1 R2,
        R2 on top): [d3] R and [d4] phi(R) at bit ``top``, [d1] G and [d2] phi(G) at
        ``g_top`` (where that is higher: one record for both, from their own table,
        scaled to bit ``top``). The first, [d3] R, sets acc (affine on Z_T's curve, where
        the loop runs), the others are added, each tested for its exceptional cases
        (:class:`Exceptions`)."""
        e, acc, digits = self.e, self.acc, self.g_digits
        folded = digits.g_top > digits.top
        _, first_name, first = self.addends[0]
        assert first_name == "r" and first.x_factor is None is first.z_factor
        start = True
        for depth, name, addend in self.addends:
            dest = affine_view(acc, G1_GROUP) if start else addend.record
            if folded and name == "g":
                if addend.x_factor is not None:    # phi(G)'s digit: in G's record
                    continue
                self._g_top_load(dest)
            else:
                self._load_one(name, dest, depth, digits.top)
            if not start:
                self.exceptions.add(addend)
                continue
            start = False
            fp.copy(e, acc.z, e.one)

    def _segment_addend(self, depth: int, index: int) -> Addend:
        """The addend of the ``index``-th addition in a segment of the digit word at
        ``depth``: the first that word's own (:attr:`addends`), the others in slots of
        their own."""
        base = next(addend for d, _, addend in self.addends if d == depth)
        if index == 0:
            return base
        key = (depth, index)
        if key not in self.segment_addends:
            self.segment_addends[key] = Addend(
                self.records.alloc(G1, f"record_{depth}_{index}"), base.x_factor,
                base.z_factor)
        return self.segment_addends[key]

    def _load_one(self, name: str, dest: Slot, depth: int, shift: int) -> None:
        """dest = the record of the digit at bit ``shift`` of the word at DUP ``depth``,
        from R's table ("r") or G's."""
        if name == "r":
            self.r_lookup.load(dest, depth, shift)
        else:
            self._g_load(dest, depth, shift)

    def _add(self, addend: Addend) -> None:
        jacobian.jacobian_add_affine_hmv(self.e, fp, self.acc, addend.record,
                                         addend.x_factor, addend.z_factor)

    def windowed(self) -> None:
        """Stack: u1 u2 -> (consumed); acc = [u1] G + [u2] R on the curve (module doc, 4
        and 5), or a jump to the failure for Q = infinity."""
        asm, e, acc, digits = self.asm, self.e, self.acc, self.g_digits
        with asm.scope("tables"):
            # plain EVM: the co-Z block spills to the table's memory, free until the
            # table is written, not to the scratch words after all other memory
            with e.target.spill_to(e, self.r_table):
                odd_multiples(e, self.r_point, self.r_table, self.record, self.z_table,
                              self.three_halves)
            asm.data(self._g_data(), label=self.g_data)
            if digits.g_top > digits.top:
                asm.data(self._g_top_data(), label=self.g_top_data)
            if self.g_table is not None:
                asm.push(digits.records * self.record)
                asm.push(self.g_data)
                asm.push(self.g_table)
                asm.op("CODECOPY")
        self.r_lookup = Lookup(e, self.r_table, self.record)
        pre_shift = self.r_lookup.pre_shift
        with asm.scope("recode"):
            asm.op("DUP2")                         # u1's words, then u2's
            push_digit_words(e, CURVE.glv, pre_shift if self.g_table is not None else 0,
                             digits.half_bits)
            if self.g_table is None:               # stack: G1 G2, each flipped once
                self._code_table().flip(self._flipped_below())
                asm.op("SWAP1")
                self._code_table().flip(self._flipped_below())
                asm.op("SWAP1")
            asm.op("DUP3")
            push_digit_words(e, CURVE.glv, pre_shift)   # stack: u1 u2 G1 G2 R1 R2
        widths = {"g": digits.window, "r": WINDOW}
        turn = digits.turn_bits
        # where a test of Z ends a block (plain EVM), one a segment (ec/deferred.py)
        tests = loop_tests(e, self.exceptions, self._deferred)
        with asm.scope("windows"):
            self._start()

            def run(high: int, low: int, above: int, halves: Iterator[bool]) -> None:
                # where field code runs in blocks, all the segment's records are loaded
                # before its first doubling: its doublings and additions are then one
                # block, acc on the stack throughout (no test of Z between:
                # ec/deferred.py); elsewhere each before its addition. ``halves``: whether
                # each doubling pushes 3/2 (:meth:`_double`), while it yields
                early = e.target.field_blocks
                used = {depth: 0 for depth, _, _ in self.addends}
                plan = []
                for doublings, bit, adds in joint_steps(high, low, widths):
                    added = []
                    for depth, name, addend in self.addends:
                        if name in adds:
                            if early:
                                addend = self._segment_addend(depth, used[depth])
                                used[depth] += 1
                                self._load_one(name, addend.record, depth + above, bit)
                            added.append((depth, name, addend))
                    plan.append((doublings, bit, added))
                for doublings, bit, added in plan:
                    for _ in range(doublings):
                        self._double(next(halves, False))
                    for depth, name, addend in added:
                        if not early:
                            self._load_one(name, addend.record, depth + above, bit)
                        tests.add(addend)
            (lead_top, lead_bottom), *turn_segments = digits.segments
            tests.checkpoint()
            run(lead_top, lead_bottom, 0, iter(()))
            tests.test_lead()
            asm.push(digits.loop_top // turn)     # stack: u1 u2 G1 G2 R1 R2 turns-left
            loop = asm.label("windows")
            halves = iter([True] * self.pushed_halves)   # a turn's first doublings push 3/2
            for high, low in turn_segments:       # digits at fixed bits: the words move
                tests.checkpoint()                # up a turn's bits a turn
                run(high, low, 1, halves)
                tests.test_turn(digits.loop_top - high)
            next_turn(asm, range(2, 6), turn, loop)
            tests.resume_here()
            asm.ops("POP", "POP", "POP", "POP", "POP")   # stack: u1 u2
        asm.ops("POP", "POP")
        push_field_is_zero(e, acc.z)               # Z = 0: Q = infinity (module doc, 5)
        asm.jumpi(self.fail)
        fp.mul(e, acc.z, acc.z, self.z_table)      # back from y^2 = x^3 + 7 Z_T^6
        asm.jump(self.finish)
        with asm.scope("careful"):
            tests.careful_path()

    def _exceptional_double(self) -> None:
        """acc = 2 acc where an addition met acc = T (:class:`Exceptions`' handlers, one
        for each kind of record): where field code runs in blocks, a call of one
        subroutine for all four (a push and two jumps more on that rare path, the
        doubling's code once: bytes for :data:`PUSHED_HALVES`); elsewhere inline."""
        e, asm = self.e, self.asm
        if not e.target.field_blocks:
            jacobian.jacobian_dbl_halved(e, fp, self.acc, self.three_halves)
            return
        asm.call(asm.subroutine("ecrecover_exceptional_double", lambda asm: (
            jacobian.jacobian_dbl_halved(e, fp, self.acc, self.three_halves))))

    def _double(self, push_halves: bool) -> None:
        """acc = 2 acc; with ``push_halves``, its 3/2 an immediate of the block (a "set"
        of a temporary, pushed where read, :meth:`..tower.target.Target.load_values`), not
        the constant's memory word (PUSH2 MLOAD): 3 gas less, 29 bytes more. Nothing to
        gain where the build pushes every constant: the code then did not fit."""
        e, three_halves = self.e, self.three_halves
        if not push_halves or e.push_constants:
            jacobian.jacobian_dbl_halved(e, fp, self.acc, three_halves)
            return
        with self.asm.temps(Fp) as (pushed,):
            e.target.load_values(e, pushed, [THREE_HALVES],
                                 lambda: fp.copy(e, pushed, three_halves))
            jacobian.jacobian_dbl_halved(e, fp, self.acc, pushed)

    def _deferred(self) -> DeferredTests:
        """The loop's tests once a segment (:mod:`..ec.deferred`): R's words at stack
        depths 3 and 2, G's at 5 and 4 under the count, as the loop's turns hold them."""
        e, digits = self.e, self.g_digits

        def kind(name: str, window: int) -> DigitWords:
            return DigitWords(window, tuple((depth + 1, addend)
                                            for depth, n, addend in self.addends if n == name),
                              lambda addend, depth, shift: self._load_one(
                                  name, addend.record, depth, shift))
        return DeferredTests(
            e, self.exceptions, (kind("r", WINDOW), kind("g", digits.window)),
            self._doublings, digits.top, digits.loop_top, digits.turn_bits, CAREFUL_RUN)

    def _doublings(self, times: int) -> None:
        """acc = 2^times acc (Z = 0 stays 0), one block of field code."""
        for _ in range(times):
            jacobian.jacobian_dbl_halved(self.e, fp, self.acc, self.three_halves)

    # --- 6. the address -----------------------------------------------------------------

    def address(self) -> None:
        asm, e = self.asm, self.e
        asm.place(self.finish)
        with asm.temps(G1) as (q,):
            jacobian.to_affine(e, fp, q, self.acc, inverse=_inverse)
            e.target.words_out(e, q, self.key)
        asm.push(2 * WORD)
        asm.push(self.key)
        asm.op("KECCAK256")
        asm.push(ADDRESS_MASK)
        asm.op("AND")                              # the low 20 bytes of the key's keccak
        asm.push(self.key)
        asm.op("MSTORE")                           # over x: no memory of its own
        return_slot(asm, self.key.part(raw(WORD), 0, "address"))

    def emit(self) -> None:
        asm = self.asm
        with asm.scope("validation"):
            self.validate()
        with asm.scope("point_r"):
            self.point_r()
        with asm.scope("scalar_inverse"):
            self.scalars()
        with asm.scope("double_scalar"):
            self.windowed()
        with asm.scope("address"):
            self.address()
            asm.place(self.fail)                   # any failure: empty output, no revert
            asm.op("STOP")


def _inverse(e: Emitter, out: Fp, a: Fp) -> None:
    """out = a^-1 = a^(p-2) by an addition chain (254 squarings, 18 multiplications)."""
    fp.power_chain(e, out, a, P - 2)


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled ``ecrecover`` (``compact`` changes nothing: one build serves all):
    the first of :data:`BUILDS` that fits EIP-170's limit."""
    return _build(name, isa)


@lru_cache(maxsize=None)
def _build(name: str, isa: Target) -> Program:
    return first_that_fits(name, CURVE, isa, [
        lambda e, digits=digits, pushed=pushed: _Recover(e, digits, pushed).emit()
        for digits, pushed in BUILDS])
