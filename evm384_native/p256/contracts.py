"""P256VERIFY (EIP-7951, precompile 0x100) as an EVMMAX contract ``p256verify``.

Calldata: h, r, s, qx, qy, 32-byte big-endian words (160 bytes). Output: the 32-byte
word 1 for a valid signature; empty output on any failure, invalid input included (the
EIP: the precompile never reverts), so every rejection ends in STOP.

1. Validation in EVM integers: the length, 0 < r < n, 0 < s < n, qx < p, qy < p and
   qy^2 = qx^3 - 3 qx + b (mod p) by MULMOD/ADDMOD; (0, 0), the infinity encoding, is
   not on the curve (b != 0), so that check rejects it too.
2. The scalars in a second field context (id 1, modulus n; SETMODX switches contexts by
   id, 4 pushes and 1 gas): w = s^(n-2) by a sliding window, u1 = (h mod n) w,
   u2 = r w, LOADXed back to memory; then context 0 (modulus p) again.
3. R = [u1] G + [u2] Q by Straus' joint multiplication (:meth:`_Verify._windowed`): both
   scalars in regular signed 5-bit digits (odd, never 0: no branch per window), G's
   32 records [-31] G .. [31] G affine constants in the code (where the code fits, plain
   EVM: :data:`G_DIGITS`, G's digits are 8 bits, 32 additions instead of 51, from its
   128 odd multiples in the code, the sign applied at run time:
   :class:`..ec.windows.CodeTable`; the positions from :func:`steps`), Q's computed at run time
   by co-Z additions on one Z = Z_T (:func:`..ec.odd_multiples.odd_multiples`), affine
   without an inversion on the isomorphic curve y^2 = x^3 - 3 Z_T^4 x + b Z_T^6, where
   the loop runs: 255 doublings scaled by 1/2 that carry W = Z_T^4 Z^4 (on plain EVM
   -(3/2) Z_T^4 Z^4, a sum less) (:func:`..ec.a_minus_3.dbl_weighted`: 9 products and 5
   additions, the last of a window 8;
   W made once a window, 3 products), per window two mixed additions (11 products, 7
   additions), of G's record (on the curve itself: Z Z_T in place of Z, one product
   more) and of Q's. An exceptional case (an addition meeting acc = +-T, or acc at
   infinity: inputs such as u1 G = -u2 Q, for a key whose logarithm its maker knows)
   leaves Z = 0, which a test after each addition finds and handles there
   (:class:`..ec.exceptional.Exceptions`: 2T, infinity or T), so such inputs cost about
   what others do; where a test ends a block of field code (plain EVM), once a segment
   (the inline top, each turn), the rest of the product on a careful loop where one
   finds Z = 0 (:mod:`..ec.deferred`).
4. The x-coordinate test mod n without an inversion: R finite (Z != 0) and
   X = r' (Z Z_T)^2 (Jacobian, back on the curve) for r' = r or, when
   r + n < p, r' = r + n. That condition is tested as r < p - n: r + n itself can pass 2^256
   (r < n), and a wrapped sum would stand for an x that R' does not have. Each of the two
   differences X - r' (Z Z_T)^2 is tested for 0 on its own: their product as a word is 0 mod
   2^256 whenever 2^256 divides it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import lcm
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..asm import Fp, G1, G1Jacobian, Program, Slot, array, raw
from ..curves.p256 import P256
from ..ec import a_minus_3
from ..ec.a_minus_3 import EmittedOps
from ..ec.deferred import DeferredTests, DigitWords, loop_tests, segments
from ..ec.exceptional import Addend, Exceptions
from ..ec.odd_multiples import odd_multiples
from ..ec.windows import RECORDS, WINDOW, CodeTable, FixedDigits, joint_steps, next_turn
from ..tower import fp, modn
from ..tower.contract import first_that_fits
from ..tower.fp import Emitter
from ..tower.target import Target
from ..tower.words import push_calldata_word, push_in_open_range
from .reference import G, INPUT_BYTES, multiply

NAME = "p256verify"
CONTRACTS = (NAME,)
TARGETS_OF = {NAME: ("evmmax", "evm")}
CURVE = P256
P, N, B = CURVE.p, CURVE.r, CURVE.b
WORD = 32
H, R, S, QX, QY = (WORD * i for i in range(5))      # calldata offsets


@dataclass(frozen=True)
class GDigits(FixedDigits):
    """How u1's digits (G's) are read (:class:`..ec.windows.FixedDigits`; Q's, whose
    table is made at run time, are WINDOW = 5 bits); a turn of the loop costs ~45 gas of
    control; bits 254 down to the loop's top are inline."""

    @property
    def segments(self) -> List[Tuple[int, int]]:
        """The loop's segments, (top, bottom) bits: its lead, bits 254 .. loop_top, then
        a turn's, ``segment_bits`` each (where the tests are deferred: the tests once a
        segment, :func:`..ec.deferred.segments`)."""
        return segments(255, self.loop_top, self.turn_bits, self.segment_bits)

    @property
    def loop_top(self) -> int:
        return 255 // self.turn_bits * self.turn_bits

    @property
    def top_digit(self) -> bool:
        """Whether bit 255 of u1's word is a digit of its own (+-1: :meth:`_Verify._recode`)."""
        return 256 % self.window != 0


# Tried in turn, the first build that fits 24,576 bytes: 8-bit digits (32 additions of G
# where 5-bit ones take 51, ~7,000 gas less on plain EVM; 8 KB of records), else 5-bit
# ones in memory (EVMMAX's: its code is larger, and its additions cheap). A turn of 40 bits
# one segment (where tests are deferred: plain EVM): an input that meets an exception
# wastes at most 40 bits' work, which the careful loop's runs of doublings keep within
# 1.5x (bench/README.md, "A careful loop of runs")
G_DIGITS = (GDigits(8, True, lcm(WINDOW, 8), lcm(WINDOW, 8)),
            GDigits(WINDOW, False, 12 * WINDOW, 12 * WINDOW))


def steps(top: int, bottom: int, g_window: int) -> List[Tuple[int, int, Tuple[str, ...]]]:
    """The joint loop's bits top - 1 .. bottom: G's digits every ``g_window`` bits, Q's
    every WINDOW (:func:`..ec.windows.joint_steps`)."""
    return joint_steps(top, bottom, {"g": g_window, "q": WINDOW})


def segment_additions(g_digits: GDigits) -> Dict[str, int]:
    """The most additions of each kind ("g", "q") in one segment of the loop: its lead
    (bits 254 .. loop_top) or a part of a turn (:attr:`GDigits.segments`)."""
    counts = {"g": 0, "q": 0}
    for high, low in g_digits.segments:
        for name in counts:
            added = sum(name in adds for _, _, adds in steps(high, low, g_digits.window))
            counts[name] = max(counts[name], added)
    return counts


def _xyz(point: G1Jacobian) -> Sequence[Fp]:
    return (point.x, point.y, point.z)


class _Verify:
    def __init__(self, e: Emitter, g_digits: GDigits) -> None:
        self.e, self.asm, self.g_digits = e, e.asm, g_digits
        self.ops = EmittedOps(e)
        memory = e.asm.memory
        # words: n, s, h mod n, r (STOREXed into context 1), then u1, u2 (LOADXed back)
        self.words = memory.region("p256_words").alloc(raw(6 * WORD), "words")
        self.answer = memory.region("p256_answer").alloc(raw(WORD), "answer")
        self.affine_record = e.target.memory_bytes(e, G1.size)
        assert self.affine_record == 1 << 6        # a digit's record offset is a mask
        self.q_table = memory.region("p256_q_table", first=True).alloc(
            raw(RECORDS * self.affine_record), "q_table")
        self.g_data = e.asm.new_label("p256_g_data")
        self.g_table = None if g_digits.in_code else memory.region("p256_g_table").alloc(
            raw(g_digits.records * self.affine_record), "g_table")
        self.three_halves = e.fp_const("three_halves", 3 * pow(2, -1, P))
        self.z_table = memory.region("p256_z_table").alloc(Fp, "z_table")   # Q's table's Z
        # the doublings' weights (a_minus_3.weight) with the factor -3/2 where a
        # subtraction costs more than a sum (plain EVM's stack code: a SUB and a copy of
        # p): from -(3/2) Z_T^4 on Q's table's curve; elsewhere from Z_T
        self.summed = e.target.field_blocks
        if self.summed:
            self.first_weight = e.fp_const("minus_three_halves", -3 * pow(2, -1, P) % P)
            self.weight_factor = memory.region("p256_weight_factor").alloc(
                Fp, "weight_factor")
        else:
            self.first_weight, self.weight_factor = e.one, self.z_table
        # the records added: where field code runs in blocks, one slot for each addition
        # of a segment (the loop's lead, half a turn), so that the segment loads them all
        # before its doublings, which with its additions are then one block (acc on the
        # stack throughout); elsewhere one slot that they share
        records = memory.region("p256_record")
        shared = None if e.target.field_blocks else records.alloc(G1, "record")
        counts = segment_additions(g_digits) if e.target.field_blocks else {"g": 1, "q": 1}
        self.addends = {
            name: [Addend(shared or records.alloc(G1, f"record_{name}{i}"),
                          z_factor=self.z_table if name == "g" else None)
                   for i in range(counts[name])]
            for name in ("g", "q")}      # G's on the curve, Q's on Q's table's
        self.g_addend, self.q_addend = self.addends["g"][0], self.addends["q"][0]
        self.scale = memory.region("p256_scale").alloc(Fp, "scale")   # Z, or Z^2
        self.fail = e.asm.new_label("invalid")

    # --- 1. validation --------------------------------------------------------------

    def _word(self, offset: int) -> None:
        push_calldata_word(self.asm, offset)

    def _in_open_range(self, offset: int, bound: int) -> None:
        push_in_open_range(self.asm, offset, bound)

    def _below(self, offset: int, bound: int) -> None:
        self.asm.push(bound)
        self._word(offset)
        self.asm.op("LT")

    def _on_curve(self) -> None:
        """Push qy^2 == qx^3 - 3 qx + b (mod p), by MULMOD and ADDMOD."""
        asm = self.asm
        asm.push(P)
        asm.push(B)
        asm.push(P)
        asm.push(P)
        asm.push(CURVE.a % P)
        self._word(QX)
        asm.op("MULMOD")                           # -3 x
        asm.push(P)
        self._word(QX)
        asm.push(P)
        self._word(QX)
        asm.op("DUP1")
        asm.op("MULMOD")                           # x^2
        asm.op("MULMOD")                           # x^3
        asm.op("ADDMOD")
        asm.op("ADDMOD")                           # x^3 - 3x + b
        asm.push(P)
        self._word(QY)
        asm.op("DUP1")
        asm.op("MULMOD")                           # y^2
        asm.op("EQ")

    def validate(self) -> None:
        asm = self.asm
        asm.push(INPUT_BYTES)
        asm.op("CALLDATASIZE")
        asm.op("EQ")
        checks = [lambda: self._in_open_range(R, N), lambda: self._in_open_range(S, N),
                  lambda: self._below(QX, P), lambda: self._below(QY, P), self._on_curve]
        for check in checks:
            check()
            asm.op("AND")
        asm.op("ISZERO")
        asm.jumpi(self.fail)

    # --- 2. the scalars mod n -------------------------------------------------------

    def scalars(self) -> None:
        """Stack: -> u1 u2 (u2 on top): h w and r w for w = s^-1 mod n."""
        asm = self.asm

        def h_mod_n() -> None:
            asm.push(N)
            self._word(H)
            asm.op("MOD")
        modn.inverse_products(self.e, N, self.words, lambda: self._word(S),
                              [h_mod_n, lambda: self._word(R)])

    # --- 3a. the windowed double-scalar multiplication --------------------------------

    def _recode(self) -> None:
        """Stack: u -> W: u's regular signed digits (Joye and Tunstall, AFRICACRYPT 2009):
        for odd k < 2^256, U = (k + 2^260 - 1) / 2 = 2^259 + (k >> 1) has 5-bit digits
        U_j with k = sum (2 U_j - 31) 32^j, none 0, the top one (j = 51) 16: +1. An even
        u is -k for the odd k = n - u, whose U is the complement of k's (its top digit
        15: -1). W holds digits 0 .. 50 in its low 255 bits and, in bit 255, whether the
        top digit is +1: (k >> 1) | 2^255, or its complement."""
        asm = self.asm
        asm.op("DUP1")
        asm.push(1)
        asm.op("AND")
        asm.op("ISZERO")                           # stack: u even
        asm.op("DUP2")
        asm.push(N)
        asm.op("SUB")                              # n - u
        asm.op("DUP3")
        asm.op("XOR")
        asm.op("DUP2")
        asm.op("MUL")
        asm.op("DUP3")
        asm.op("XOR")                              # k = even ? n - u : u
        asm.push(1)
        asm.op("SHR")
        asm.push(1 << 255)
        asm.op("OR")                               # k >> 1, bit 255: the top digit +1
        asm.op("SWAP1")
        asm.push(0)
        asm.op("SUB")                              # 0 - even: all ones if even
        asm.op("XOR")
        asm.op("SWAP1")
        asm.op("POP")

    def _g_data(self) -> bytes:
        """G's records (:meth:`..ec.windows.FixedDigits.records_data`)."""
        return self.g_digits.records_data(lambda k: multiply(G, k), N)

    def _g_lookup(self, dest: G1, depth: int, shift: Optional[int]) -> None:
        """dest = [d] G for u1's digit at bit ``shift`` of the word at DUP ``depth``
        (None: the top digit, +-1), from the records in memory, else from the code's."""
        if self.g_table is None:
            assert shift is not None
            self._code_table().load(dest, depth, shift)
        else:
            self._lookup(dest, depth, shift, self.g_table, self.g_digits.window)

    def _code_table(self) -> CodeTable:
        """G's records in the code, read from U1 with its digits' top bits flipped
        (:meth:`_windowed` flips them once)."""
        return CodeTable(self.e, self.g_data, self.g_digits.window, flipped=True)

    def _q_table(self) -> None:
        """Q's records in memory, records u = 0 .. 31 holding [2u - 31] Q, affine on the
        isomorphic curve y^2 = x^3 - 3 Z_T^4 x + b Z_T^6 of their common Z = Z_T (kept in
        ``z_table``): Longa and Miri's co-Z precomputation (PKC 2008) as
        :func:`..ec.odd_multiples.odd_multiples` makes it (2Q by a doubling that leaves Q on
        the same Z, 15 co-Z additions of 2Q, each entry brought to the last Z; never an
        exceptional case: 2j - 1 = +-2 mod n has no small solution), no inversion: the
        loop runs on that curve (:meth:`_windowed`)."""
        asm, e = self.asm, self.e
        with asm.temps(G1Jacobian) as (q,):
            asm.push(2 * WORD)
            asm.push(QX)
            asm.push(lambda: int(self.q_table))
            asm.op("CALLDATACOPY")
            e.target.copy_in(e, q.part(G1, 0, "q.xy"), lambda: asm.push(self.q_table))

            def double(d: G1Jacobian, keep: Tuple[Fp, Fp]) -> None:
                with asm.temps(*[Fp] * 4) as t:
                    a_minus_3.dbl_weighted(self.ops, _xyz(d), self.first_weight,
                                           self.three_halves, t, self.summed,
                                           update=False, keep=keep)   # Z = 1, u = 1
            # plain EVM: the co-Z block (from here to the table's copy) spills to the
            # table's memory, free until then, where the program's scratch words, after
            # all other memory, would grow it (~42 words on P-256)
            with e.target.spill_to(e, self.q_table):
                fp.copy(e, q.z, e.one)
                odd_multiples(e, q, self.q_table, self.affine_record, self.z_table,
                              self.three_halves, double)
            if self.summed:
                a_minus_3.weight_factor(self.ops, self.weight_factor, self.z_table,
                                        self.first_weight)

    def _lookup(self, dest: Slot, depth: int, shift: Optional[int], table: Slot,
                window: int = WINDOW) -> None:
        """dest = the record (affine, 64 bytes) in ``table`` (both signs) of the
        ``window``-bit digit at bit ``shift`` of the word at DUP ``depth``: a mask gives
        the record's offset (Q's table is at memory 0, another's base is added); shift
        None: the top digit's, record 2^(window - 1) - 1 + bit 255 (-1 or +1)."""
        asm = self.asm
        checked = self._at_zero if table is self.q_table else (lambda v: v)

        def source() -> None:                      # above the count copy_in pushed
            asm.op(f"DUP{depth + 1}")
            if shift is None:
                asm.push(255)
                asm.op("SHR")
                asm.push(checked((1 << (window - 1)) - 1))
                asm.op("ADD")
                asm.push(6)
                asm.op("SHL")
            else:
                asm.push(shift - 6)
                asm.op("SHR")
                asm.push(checked(((1 << window) - 1) << 6))
                asm.op("AND")
            if table is not self.q_table:
                asm.push(table)
                asm.op("ADD")
        self.e.target.copy_in(self.e, dest, source)

    def _at_zero(self, value: int) -> Callable[[], int]:
        """``value``, pushed once Q's table is known to be linked at memory offset 0."""
        def checked() -> int:
            if int(self.q_table) != 0:
                raise AssertionError("Q's table must be linked at memory offset 0")
            return value
        return checked

    def _windowed(self, acc: G1Jacobian) -> None:
        """Stack: u1 u2 (kept); acc = [u1] G + [u2] Q, Jacobian, by Straus' joint
        multiplication with signed digits, 5 bits for Q and ``g_digits.window`` for G
        (:func:`steps`): 255 doublings, 51 additions of Q and 32 (8-bit digits) or 52 of
        G, a test of Z after each addition (its exceptional cases handled there:
        :class:`..ec.exceptional.Exceptions`). A final Z = 0 is R = infinity."""
        asm, e, digits = self.asm, self.e, self.g_digits
        with asm.scope("tables"):
            asm.data(self._g_data(), label=self.g_data)
            if self.g_table is not None:
                asm.push(digits.records * self.affine_record)
                asm.push(self.g_data)
                asm.push(self.g_table)
                asm.op("CODECOPY")
            self._q_table()
        with asm.scope("recode"):
            asm.op("DUP2")
            self._recode()
            if self.g_table is None:
                self._code_table().flip()
            asm.op("DUP2")
            self._recode()                         # stack: u1 u2 U1 U2
        g, q = self.g_addend, self.q_addend

        def add(addend: Addend) -> None:
            """acc += the record, its temporaries dead before the exceptions' test."""
            record = addend.record
            with asm.temps(*[Fp] * 4) as t:
                a_minus_3.add_mixed(self.ops, _xyz(acc), (record.x, record.y), t,
                                    addend.z_factor, early_z3=e.target.field_blocks)
        exceptions = Exceptions(e, acc, add, lambda: self._doublings(acc))
        top, turn = digits.loop_top, digits.turn_bits
        # where a test of Z ends a block (plain EVM), one a segment (ec/deferred.py)
        self.tests = tests = loop_tests(e, exceptions, lambda: self._deferred(acc, exceptions))
        with asm.scope("windows"):
            self._lookup(acc.part(G1, 0, "acc.xy"), 1, None, self.q_table)   # +-Q
            fp.copy(e, acc.z, e.one)               # on Q's table's curve
            if digits.top_digit:
                self._g_lookup(g.record, 2, None)                             # +-G
                exceptions.add(g)

            def run(top: int, bottom: int, offset: int, depth: int,
                    z_one: bool = False) -> None:
                """Bits top - 1 .. bottom, the digits at bit b of the words at b + offset
                (U2 at DUP ``depth``, U1 under it); ``z_one``: acc's Z is 1 (a record),
                so the first weight is the factor itself (plain EVM: 3 products fewer)."""
                # where field code runs in blocks, all the segment's records are loaded
                # before its first doubling: its doublings and additions are then one
                # block, acc on the stack throughout (no test of Z between:
                # ec/deferred.py); elsewhere each before its addition
                early = e.target.field_blocks
                used = {"g": 0, "q": 0}
                plan = []
                for doublings, bit, adds in steps(top, bottom, digits.window):
                    added = []
                    for name in ("g", "q"):
                        if name in adds:
                            added.append((name, self.addends[name][used[name]]))
                            used[name] += early
                    plan.append((doublings, bit, added))
                    if early:
                        for name, addend in added:
                            load(name, addend, bit + offset, depth)
                for step, (doublings, bit, added) in enumerate(plan):
                    with asm.temps(Fp, *[Fp] * 4) as (w, *t):
                        if z_one and step == 0 and self.summed:
                            fp.copy(e, w, self.weight_factor)     # v Z^4 for Z = 1
                        else:
                            a_minus_3.weight(self.ops, w, acc.z, self.weight_factor,
                                             self.summed)
                        for i in range(doublings):
                            a_minus_3.dbl_weighted(self.ops, _xyz(acc), w,
                                                   self.three_halves, t, self.summed,
                                                   update=i < doublings - 1)
                    for name, addend in added:
                        if not early:
                            load(name, addend, bit + offset, depth)
                        tests.add(addend)

            def load(name: str, addend: Addend, shift: int, depth: int) -> None:
                """``addend``'s record = that of the digit ``name`` ("g": u1's, "q":
                u2's) at bit ``shift`` (U2 at DUP ``depth``, U1 under it)."""
                if name == "g":
                    self._g_lookup(addend.record, depth + 1, shift)
                else:
                    self._lookup(addend.record, depth, shift, self.q_table)
            (lead_top, lead_bottom), *turn_segments = digits.segments
            tests.checkpoint()
            run(lead_top, lead_bottom, 0, 1, z_one=not digits.top_digit)
            tests.test_lead()
            asm.push(top // turn)                  # stack: u1 u2 U1 U2 turns-left
            loop = asm.label("windows")
            for high, low in turn_segments:        # the turn's digits at fixed bits: the
                tests.checkpoint()                 # words move up a turn's bits each turn
                run(high, low, 0, 2)
                tests.test_turn(top - high)
            next_turn(asm, (2, 3), turn, loop)
            tests.resume_here()
            asm.ops("POP", "POP", "POP", "POP", "POP")
        fp.mul(e, self.scale, acc.z, self.z_table)  # Z on the curve itself
        fp.mul(e, self.scale, self.scale, self.scale)   # x = X / Z^2

    def _deferred(self, acc: G1Jacobian, exceptions: Exceptions) -> DeferredTests:
        """The loop's tests once a segment (:mod:`..ec.deferred`): U1 at stack depth 3,
        U2 at 2 under the count, as the loop's turns hold them."""
        digits = self.g_digits
        return DeferredTests(
            self.e, exceptions,
            (DigitWords(digits.window, ((3, self.g_addend),), lambda addend, depth, shift:
                        self._g_lookup(addend.record, depth, shift)),
             DigitWords(WINDOW, ((2, self.q_addend),), lambda addend, depth, shift:
                        self._lookup(addend.record, depth, shift, self.q_table))),
            lambda times: self._doublings(acc, times), 255, digits.loop_top,
            digits.turn_bits)

    def _doublings(self, acc: G1Jacobian, times: int = 1) -> None:
        """acc = 2^times acc on Q's table's curve, W made from Z once (for a record, Z = 1:
        W = -(3/2) Z_T^4)."""
        with self.asm.temps(Fp, *[Fp] * 4) as (w, *t):
            a_minus_3.weight(self.ops, w, acc.z, self.weight_factor, self.summed)
            for i in range(times):
                a_minus_3.dbl_weighted(self.ops, _xyz(acc), w, self.three_halves, t,
                                       self.summed, update=i < times - 1)

    # --- 4. the x-coordinate test ---------------------------------------------------

    def check(self, acc: G1Jacobian) -> None:
        """Return 1 iff Z != 0 and X = r' scale for r' = r or r + n (< p), scale = Z
        (projective) or Z^2 (Jacobian)."""
        asm, e = self.asm, self.e
        with asm.temps(array(Fp, 2)) as (rs,):
            self._word(R)                          # words[0..1] = r, r + n if < p else r
            asm.op("DUP1")
            asm.push(lambda: int(self.words))
            asm.op("MSTORE")
            asm.push(N)
            asm.push(P - N)
            asm.op("DUP3")
            asm.op("LT")                           # r < p - n: r + n < p, not wrapped
            asm.op("MUL")
            asm.op("ADD")
            asm.push(lambda: int(self.words) + WORD)
            asm.op("MSTORE")
            e.target.copy_in(e, rs, lambda: asm.push(self.words))
            fp.mul(e, rs, rs, self.scale)
            fp.sub(e, rs, rs, acc.x)               # r' scale - X for both r'
            e.target.copy_out(e, rs, lambda: asm.push(self.words))
            e.target.copy_out(e, acc.z, lambda: asm.push(lambda: int(self.words) + 2 * WORD))
        for i in range(2):
            asm.push(lambda i=i: int(self.words) + WORD * i)
            asm.op("MLOAD")
            asm.op("ISZERO")
        asm.op("OR")                               # one difference is 0 (each tested: a
        # product of two nonzero words can be 0 mod 2^256, when 2^256 divides it)
        asm.push(lambda: int(self.words) + 2 * WORD)
        asm.op("MLOAD")
        asm.op("ISZERO")
        asm.op("ISZERO")
        asm.op("AND")
        asm.op("ISZERO")
        asm.jumpi(self.fail)
        asm.push(1)
        asm.push(self.answer)
        asm.op("MSTORE")
        asm.push(WORD)
        asm.push(self.answer)
        asm.op("RETURN")

    def emit(self) -> None:
        asm = self.asm
        with asm.scope("validation"):
            self.validate()
        with asm.scope("scalar_inverse"):
            self.scalars()
        acc = asm.memory.region("p256_acc").alloc(G1Jacobian, "acc")
        with asm.scope("double_scalar"):
            self._windowed(acc)
        with asm.scope("check"):
            self.check(acc)
        with asm.scope("double_scalar"), asm.scope("careful"):
            self.tests.careful_path()
        with asm.scope("check"):
            asm.place(self.fail)                   # any failure: empty output, no revert
            asm.op("STOP")


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled ``p256verify`` (``compact`` changes nothing: one build serves all):
    the first of :data:`G_DIGITS` that fits EIP-170's limit."""
    return _build(name, isa)


@lru_cache(maxsize=None)
def _build(name: str, isa: Target) -> Program:
    return first_that_fits(name, CURVE, isa, [
        lambda e, digits=digits: _Verify(e, digits).emit() for digits in G_DIGITS])
