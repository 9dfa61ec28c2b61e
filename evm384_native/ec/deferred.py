"""A joint window loop's exceptional cases tested once a turn, not after every addition.

Where field code runs in blocks (plain EVM), a test of Z after a mixed addition ends the
block: acc is stored and loaded again around the jump, ~60 gas an addition (~90 of them
in ``ecrecover``, ~83 in ``p256verify``). But an exceptional addition (acc = +-T, or acc
at infinity: :mod:`.exceptional`) leaves Z = 0, and every later doubling (Z3 = Y Z) and
addition (Z3 = Z1 H) keeps it: a Z that is not 0 at the end of a run of steps shows that
none of its additions was exceptional, so the run's result is right. So the fast path adds
without tests (a *segment*: the loop's inline top, then each turn of the loop), acc saved
at each segment's start and Z tested once at its end; where the test finds Z = 0, acc is
restored and the REST of the product runs on the careful path, never returning to the
fast one: a loop of one bit a turn (:meth:`DeferredTests.careful_loop`), a doubling, then
the digits due at that bit (the bit a multiple of their window), each addition tested and
handled where it happens (:class:`.exceptional.Exceptions`). Its digits are read at fixed
bits, each word moved up a window once its digit is read; the segments' entries shift the
words so that their next digits stand there.

Why the worst input stays within 1.5x of the figure: an input wastes at most one fast
segment (the first with an exception: its work is done again), then the careful loop
runs the bits left, never the fast path again. The careful loop does the fast path's
products and sums (per bit one doubling, the due additions) plus, per bit, what the fast
path shares over a step: the block's edges around each doubling (acc stored and loaded),
P-256's W remade (3 products), the tests after each addition, and ~40 gas of control
(the count, two tests of the bit's residues, the words' moves). So the most an input
costs is the figure, plus one turn (the longest segment: 40 bits of P-256, 35 of
secp256k1) wasted, plus that overhead on the bits after it: the first exception at the
first turn's first addition is the worst (bench/README.md, "Deferred tests": 1.48x and
1.42x the figure; tests/test_deferred_tests.py makes such inputs).

The saved acc and the fast path's states: at a segment's start Z != 0 (the previous
segment's test passed, or acc is a record) and the infinity flag of :class:`Exceptions`
is 0 (only the careful path's handlers set it), so the careful path starts from the state
it expects.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence, Tuple, Union

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


class DeferredTests:
    """The tests of a joint loop whose lead segment (inline) runs bits top - 1 ..
    ``loop_top`` and whose loop turns run ``turn_bits`` bits each at the fixed bits
    loop_top - 1 .. loop_top - turn_bits (the words moved up turn_bits a turn, the count
    of turns left on top of the stack). ``double()`` doubles acc (any Z)."""

    def __init__(self, e: Emitter, exceptions: Exceptions, kinds: Sequence[DigitWords],
                 double: Callable[[], None], top: int, loop_top: int,
                 turn_bits: int) -> None:
        self.e, self.exceptions, self.kinds, self.double = e, exceptions, kinds, double
        self.top, self.loop_top, self.turn_bits = top, loop_top, turn_bits
        self.saved = e.asm.memory.region("deferred_tests").alloc(G1Jacobian, "acc_saved")
        asm = e.asm
        self.loop, self.from_lead, self.from_turn, self.resume = (
            asm.new_label(name) for name in (
                "careful_loop", "careful_from_lead", "careful_from_turn", "windows_done"))
        for kind in kinds:
            assert turn_bits % kind.window == 0 and loop_top % kind.window == 0

    def add(self, addend: Addend) -> None:
        """acc += addend in a segment: untested, Z tested at the segment's end."""
        self.exceptions.add_untested(addend)

    def checkpoint(self) -> None:
        """acc saved: a segment starts (its additions untested)."""
        fp.copy(self.e, self.saved, self.exceptions.acc)

    def test_lead(self) -> None:
        """The lead segment's end (no count on the stack yet): Z = 0 sends the product
        from the lead's start to the careful path."""
        self._test(self.from_lead)

    def test_turn(self) -> None:
        """A turn's end, before the words move (the count of turns left on top)."""
        self._test(self.from_turn)

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
        asm.place(self.from_turn)                  # stack: words, t turns left
        asm.push(self.turn_bits)
        asm.op("MUL")
        for kind in self.kinds:                    # next digit from loop_top - window up
            shift_words(asm, [depth for depth, _ in kind.words],
                        kind.read_at(self.top) - (self.loop_top - kind.window))
        asm.push(1)
        asm.op("SWAP1")
        asm.op("SUB")                              # the bit: t turn_bits - 1
        restore = asm.new_label("careful_restore")
        asm.jump(restore)
        asm.place(self.from_lead)                  # stack: words
        asm.push(self.top - 1)
        asm.place(restore)
        fp.copy(e, self.exceptions.acc, self.saved)   # the failed segment's start
        asm.jump(self.loop)
        following = asm.label("careful_next_bit")  # the loop's back edge: the bit less 1
        asm.push((1 << 256) - 1)
        asm.op("ADD")
        asm.place(self.loop)                       # stack: words, the bit b
        self._careful_bit()
        asm.op("DUP1")
        asm.jumpi(following)                       # b = 0 was the last
        asm.jump(self.resume)

    def _careful_bit(self) -> None:
        asm = self.e.asm
        self.double()
        for kind in self.kinds:
            skip = asm.new_label("careful_no_digit")
            asm.push(kind.window)
            asm.op("DUP2")
            asm.op("MOD")                          # b mod window: no digit here
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

    def test_turn(self) -> None:
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
