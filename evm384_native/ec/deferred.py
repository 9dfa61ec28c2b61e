"""A joint window loop's exceptional cases tested once a segment, not after every addition.

Where field code runs in blocks (plain EVM), a test of Z after a mixed addition ends the
block: acc is stored and loaded again around the jump, ~60 gas an addition (~90 of them
in ``ecrecover``, ~83 in ``p256verify``). But an exceptional addition (acc = +-T, or acc
at infinity: :mod:`.exceptional`) leaves Z = 0, and every later doubling (Z3 = Y Z) and
addition (Z3 = Z1 H) keeps it: a Z that is not 0 at the end of a run of steps shows that
none of its additions was exceptional, so the run's result is right. So the fast path adds
without tests (a *segment*: the loop's inline top, then each turn of the loop or each
part of a turn, :func:`segments`), acc saved
at each segment's start and Z tested once at its end; where the test finds Z = 0, acc is
restored and the REST of the product runs on the careful path, never returning to the
fast one: a loop (:meth:`DeferredTests.careful_path`) whose turn is a run of doublings
down to the next bit with a digit (at most the narrowest window's bits, one block of
field code), then the digits due at that bit (the bit a multiple of their window), each
addition tested and handled where it happens (:class:`.exceptional.Exceptions`). Its
digits are read at fixed bits, each word moved up a window once its digit is read; the
segments' entries shift the words so that their next digits stand there.

Why the worst input stays within 1.5x of the figure: an input wastes at most one fast
segment (the first with an exception: its work is done again), then the careful loop
runs the bits left, never the fast path again. The careful loop does the fast path's
products and sums (per bit one doubling, the due additions) plus, per run of doublings
(~3.3 bits on P-256), what the fast path shares over a segment: the block's edges (acc
loaded and stored), P-256's W made (3 products), ~60 gas of control (two table lookups
for the run's length and entry, two tests of the bit's residues, the count), and the
tests after each addition. So the most an input costs is the figure, plus one segment
(the longest: P-256's 40-bit turn, secp256k1's 35) wasted, plus that overhead on the
bits after it: the first exception at the first turn's first addition is the worst
(bench/README.md, "A careful loop of runs": 1.34x and 1.40x the figure; with a loop of
one bit a turn P-256 needed two segments a turn to stay under 1.5x;
tests/test_deferred_tests.py makes such inputs).

The saved acc and the fast path's states: at a segment's start Z != 0 (the previous
segment's test passed, or acc is a record) and the infinity flag of :class:`Exceptions`
is 0 (only the careful path's handlers set it), so the careful path starts from the state
it expects.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Callable, Dict, List, Sequence, Tuple, Union

from ..asm import G1Jacobian, Label
from ..tower import fp
from ..tower.compare import push_field_is_zero
from ..tower.fp import Emitter
from .exceptional import Addend, Exceptions
from .windows import shift_words


@dataclass(frozen=True)
class DigitWords:
    """The words of one kind of digit (one window): each word's stack depth (1: the top,
    where the loop keeps its count) and the addend its digit's record is loaded into;
    ``load(addend, depth, shift)`` loads the record of the digit at bit ``shift`` of the
    word at ``depth``."""
    window: int
    words: Tuple[Tuple[int, Addend], ...]
    load: Callable[[Addend, int, int], None]

    def read_at(self, top: int) -> int:
        """The bit the careful loop reads this kind's digits at: the highest multiple of
        the window below ``top`` (the fast path's first doubled bit + 1), the next digit's
        bit at the lead segment's end with no move of the words."""
        return (top - 1) // self.window * self.window


def segments(top: int, loop_top: int, turn_bits: int, segment_bits: int
             ) -> List[Tuple[int, int]]:
    """A joint loop's segments as (top, bottom) bits (:func:`.windows.joint_steps`): its
    inline lead, bits top - 1 .. loop_top, then a turn's, ``segment_bits`` each (the
    turn's fixed bits loop_top - 1 .. loop_top - turn_bits), each bottom a bit with an
    addition."""
    turn = [(loop_top - start, max(loop_top - start - segment_bits, loop_top - turn_bits))
            for start in range(0, turn_bits, segment_bits)]
    return [(top, loop_top)] + turn


class DeferredTests:
    """The tests of a joint loop whose lead segment (inline) runs bits top - 1 ..
    ``loop_top`` and whose loop turns run ``turn_bits`` bits each at the fixed bits
    loop_top - 1 .. loop_top - turn_bits (the words moved up turn_bits a turn, the count
    of turns left on top of the stack). ``double(k)`` doubles acc k times (any Z), one
    block of field code, k up to ``longest_run``."""

    def __init__(self, e: Emitter, exceptions: Exceptions, kinds: Sequence[DigitWords],
                 double: Callable[[int], None], top: int, loop_top: int,
                 turn_bits: int, longest_run: int = 0) -> None:
        self.e, self.exceptions, self.kinds, self.double = e, exceptions, kinds, double
        self.top, self.loop_top, self.turn_bits = top, loop_top, turn_bits
        # the careful loop's longest run of doublings (0: the narrowest window, so that
        # each run reaches the next bit with a digit; fewer where the code must fit)
        self.longest_run = longest_run or min(kind.window for kind in kinds)
        self.saved = e.asm.memory.region("deferred_tests").alloc(G1Jacobian, "acc_saved")
        asm = e.asm
        self.loop, self.from_lead, self.resume = (
            asm.new_label(name) for name in ("careful_loop", "careful_from_lead",
                                             "windows_done"))
        self.from_turn: Dict[int, Label] = {}      # by the segment's start in its turn
        for kind in kinds:
            assert turn_bits % kind.window == 0 and loop_top % kind.window == 0

    def add(self, addend: Addend) -> None:
        """acc += addend in a segment: untested, Z tested at the segment's end."""
        self.exceptions.add_untested(addend)

    def checkpoint(self) -> None:
        """acc saved: a segment starts (its additions untested). One MCOPY of acc's words
        (21 gas, acc in memory between blocks), where the field code's copy loads and
        stores each word."""
        e = self.e
        e.target.copy_out(e, self.exceptions.acc,
                          lambda: e.asm.push(e.target.staging(e, self.saved)))

    def test_lead(self) -> None:
        """The lead segment's end (no count on the stack yet): Z = 0 sends the product
        from the lead's start to the careful path."""
        self._test(self.from_lead)

    def test_turn(self, start: int = 0) -> None:
        """The end of a segment of a turn, before the words move (the count of turns left
        on top): Z = 0 sends the product from the segment's start, ``start`` bits into the
        turn (where :meth:`checkpoint` saved acc), to the careful path. More than one
        segment a turn shortens the work an exceptional input wastes (module doc)."""
        if start not in self.from_turn:
            self.from_turn[start] = self.e.asm.new_label(f"careful_from_turn_{start}")
        self._test(self.from_turn[start])

    def _test(self, entry: Label) -> None:
        push_field_is_zero(self.e, self.exceptions.acc.z)
        self.e.asm.jumpi(entry)

    def resume_here(self) -> None:
        """Where the careful path ends: the loop's exit (the words, a count of 0 on top)."""
        self.e.asm.place(self.resume)

    def careful_path(self) -> None:
        """The careful path's two entries and its loop, ending in a jump to the loop's
        exit (:meth:`resume_here`). Emitted where the fast path does not run into it."""
        asm, e = self.e.asm, self.e
        restore = asm.new_label("careful_restore")
        for start, entry in sorted(self.from_turn.items()):
            asm.place(entry)                       # stack: words, t turns left
            asm.push(self.turn_bits)
            asm.op("MUL")
            for kind in self.kinds:                # the next digit, at the turn's fixed
                # bit loop_top - start - 1 or the first multiple of the window under it
                below = (self.loop_top - start - 1) // kind.window * kind.window
                shift_words(asm, [depth for depth, _ in kind.words],
                            kind.read_at(self.top) - below)
            asm.push(start + 1)
            asm.op("SWAP1")
            asm.op("SUB")                          # the bit: t turn_bits - start - 1
            asm.jump(restore)
        asm.place(self.from_lead)                  # stack: words
        asm.push(self.top - 1)
        asm.place(restore)
        fp.copy(e, self.exceptions.acc, self.saved)   # the failed segment's start
        # the loop: from bit b (on top, not yet doubled) down to the next bit with a digit,
        # d = b - g + 1, in one run of g doublings (one block, acc loaded and stored and
        # P-256's W made once a run, where a loop of one bit a turn paid them each bit),
        # then d's digits (none where the run was cut at ``longest_run``); g from a
        # table by b mod the windows' lcm, the run's entry from a table by g
        windows = [kind.window for kind in self.kinds]
        period, longest = lcm(*windows), self.longest_run
        assert 4 * period <= 256 and longest < 16
        gaps = sum(min(min(r % w for w in windows) + 1, longest) << (4 * r)
                   for r in range(period))
        runs = {k: asm.new_label(f"careful_run_{k}") for k in range(1, longest + 1)}
        digits = asm.new_label("careful_digits")
        asm.place(self.loop)                       # stack: words, the bit b
        asm.push(gaps)
        asm.push(period)
        asm.op("DUP3")
        asm.op("MOD")
        asm.push(2)
        asm.op("SHL")
        asm.op("SHR")
        asm.push(15)
        asm.op("AND")                              # g
        asm.push(4)
        asm.op("SHL")
        asm.push(lambda: sum(runs[k].pc << (16 * k) for k in runs), width=32)
        asm.op("SWAP1")
        asm.op("SHR")
        asm.push(0xFFFF)
        asm.op("AND")
        asm.op("JUMP")
        for k, run in runs.items():
            asm.place(run)
            self.double(k)
            asm.push(k - 1)
            asm.op("SWAP1")
            asm.op("SUB")                          # d = b - (k - 1)
            asm.jump(digits)
        asm.place(digits)
        self._digits()
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(self.resume)                     # d = 0 was the last
        asm.push((1 << 256) - 1)
        asm.op("ADD")
        asm.jump(self.loop)

    def _digits(self) -> None:
        """The digits due at the bit d on top (those whose window divides d), each
        addition tested."""
        asm = self.e.asm
        for kind in self.kinds:
            skip = asm.new_label("careful_no_digit")
            asm.push(kind.window)
            asm.op("DUP2")
            asm.op("MOD")                          # d mod window: no digit here
            asm.jumpi(skip)
            read_at = kind.read_at(self.top)
            for depth, addend in kind.words:
                kind.load(addend, depth, read_at)
                self.exceptions.add(addend)
            shift_words(asm, [depth for depth, _ in kind.words], kind.window)
            asm.place(skip)


class TestsAtEachAddition:
    """The loop's tests where a test does not end a block (EVMMAX, EVM384): each addition
    tested where it happens (:meth:`.exceptional.Exceptions.add`); the segments' hooks of
    :class:`DeferredTests` emit nothing."""

    def __init__(self, exceptions: Exceptions) -> None:
        self.add = exceptions.add

    def checkpoint(self) -> None:
        """Nothing to save."""

    def test_lead(self) -> None:
        """Nothing to test: each addition was."""

    def test_turn(self, start: int = 0) -> None:
        """Nothing to test: each addition was."""

    def resume_here(self) -> None:
        """No careful path to return from."""

    def careful_path(self) -> None:
        """No careful path."""


def loop_tests(e: Emitter, exceptions: Exceptions,
               deferred: Callable[[], DeferredTests]) -> Union[DeferredTests, TestsAtEachAddition]:
    """The tests a joint loop runs for this target: once a segment where a test of Z ends a
    block of field code (``Target.field_blocks``: plain EVM; ``deferred()`` makes them),
    else after each addition."""
    return deferred() if e.target.field_blocks else TestsAtEachAddition(exceptions)
