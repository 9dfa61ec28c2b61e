"""Tables of regular signed windows: a scalar as odd digits d in [-31, 31], k = sum d_j 32^j
(Joye and Tunstall's regular recoding, "Exponent recoding and regular exponentiation
algorithms", AFRICACRYPT 2009). For odd k, U = (k + 32^m - 1) / 2 has 5-bit digits u_j with
d_j = 2 u_j - 31: a digit is a shift and a mask, never zero, so no window needs a branch.
A table holds record u = [2u - 31] P for u = 0 .. 31 (both signs stored), so the masked
digit u_j picks its record (:class:`Lookup`); the records of the odd multiples are
:func:`.odd_multiples.odd_multiples`'.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..asm import Assembler, Label, Slot
from ..asm.layout import WORD
from ..tower.fp import Emitter

WINDOW = 5                                        # bits per digit
ENTRIES = 1 << (WINDOW - 1)                       # [1] P, [3] P, .. [31] P
RECORDS = 2 * ENTRIES                             # record u: [2u - 31] P, u = 0 .. 31


class Lookup:
    """Loads the table record chosen by a digit of a word on the stack into registers
    (STOREX) or slots (MCOPY). A word holds U (module doc) times the record size when that
    is a power of two (the digit at bit 5j is then the record's offset under a mask),
    else U itself (a MUL). A table at memory offset 0 (``at_zero``) needs nothing added to
    that offset; another table's base is added. ``upper_reversed``: records 16 + i hold
    [31 - 2i] P (:func:`.odd_multiples.odd_multiples`' ``upper_reversed``), so record
    u >= 16 is read at u XOR 15: the words' digits changed so once
    (:meth:`reverse_upper`), a narrower digit's record at each load."""

    def __init__(self, e: Emitter, table: Slot, record: int, at_zero: bool = True,
                 upper_reversed: bool = False) -> None:
        self.e, self.table, self.record, self.at_zero = e, table, record, at_zero
        power = record & (record - 1) == 0
        self.pre_shift = record.bit_length() - 1 if power else 0
        self.mask = (RECORDS - 1) << self.pre_shift
        self.scale = 1 if power else record
        self.upper_reversed = upper_reversed
        if upper_reversed and not (power and at_zero):
            raise ValueError("reversed upper records need a table at 0 of power-of-two records")

    def reverse_upper(self, shifts: Sequence[int]) -> None:
        """The digit word on top of the stack with each WINDOW-bit digit read at a bit of
        ``shifts`` that is 16 or more (its top bit set) turned to u XOR 15:
        w XOR ((w AND tops) >> (WINDOW - 1)) * 15, no carries between digits."""
        asm = self.e.asm
        top = WINDOW - 1 + self.pre_shift
        asm.push(sum(1 << (shift + top) for shift in shifts))
        asm.op("DUP2")
        asm.op("AND")
        asm.push(WINDOW - 1)
        asm.op("SHR")
        asm.push(ENTRIES - 1)
        asm.op("MUL")
        asm.op("XOR")

    def checked_mask(self) -> int:
        """The mask, at link time, once the table is known to start memory: the offset
        of a record is then the masked digit (times the record size) with nothing added."""
        if int(self.table) != 0:
            raise AssertionError("the scalar table must be linked at offset 0")
        return self.mask

    def load(self, dest: Slot, word_depth: int, shift: int, bits: int = WINDOW) -> None:
        """dest = the record of the digit at bit ``shift`` of the word at DUP
        ``word_depth``. A narrower digit (``bits`` < WINDOW: u < 2^bits, d = 2u + 1 -
        2^bits) is masked to its bits; its record u + ENTRIES - 2^(bits - 1) is that many
        records further on."""
        asm = self.e.asm
        narrow = (RECORDS - 1) >> (WINDOW - bits) << self.pre_shift
        skipped = (ENTRIES - (1 << (bits - 1))) * self.record

        def source() -> None:                      # above the count copy_in pushed
            asm.op(f"DUP{word_depth + 1}")
            if shift:
                asm.push(shift)
                asm.op("SHR")
            if self.at_zero:                       # checked once linked
                asm.push(self.checked_mask if bits == WINDOW
                         else lambda: self.checked_mask() & narrow)
            else:
                asm.push(self.mask & narrow)
            asm.op("AND")
            if self.scale != 1:
                asm.push(self.scale)
                asm.op("MUL")
            if not self.at_zero:
                asm.push(self.table if not skipped else lambda: int(self.table) + skipped)
                asm.op("ADD")
            elif skipped:
                asm.push(skipped)
                asm.op("ADD")
            if self.upper_reversed and bits < WINDOW:      # o XOR 15 records if o >= 16
                asm.op("DUP1")
                asm.push(ENTRIES * self.record - 1)
                asm.op("LT")
                asm.push((ENTRIES - 1) * self.record)
                asm.op("MUL")
                asm.op("XOR")
        self.e.target.copy_in(self.e, dest, source)


def shift_words(asm: Assembler, depths: Sequence[int], bits: int) -> None:
    """The words at stack ``depths`` (2 or more: under the top item) shifted up ``bits``."""
    for depth in depths:
        asm.op(f"SWAP{depth - 1}")
        asm.push(bits)
        asm.op("SHL")
        asm.op(f"SWAP{depth - 1}")


def next_turn(asm: Assembler, depths: Sequence[int], bits: int, loop: Label) -> None:
    """The end of a turn of a window loop whose count of turns left is on top of the stack:
    the digit words at stack ``depths`` (2: right below the count) shifted up ``bits`` (the
    turn's digits, used, move out at the top), the count decremented, and a jump back to
    ``loop`` while turns are left (the count stays on the stack)."""
    shift_words(asm, depths, bits)
    asm.push((1 << 256) - 1)
    asm.op("ADD")                                  # turns left - 1
    asm.op("DUP1")
    asm.jumpi(loop)


@dataclass(frozen=True)
class FixedDigits:
    """How a fixed point's scalar digits are read in a joint loop: ``window`` bits each;
    the point's records ``in_code`` (its odd multiples [1] P .. [2^window - 1] P, read by
    :class:`CodeTable`, the sign applied at run time) or both signs in memory (2^window
    records, a mask picks one: :class:`Lookup`); ``turn_bits`` a turn of the loop (the
    digits' positions repeat), ``segment_bits`` a segment of it (where the tests of Z are
    deferred: :func:`..ec.deferred.segments`)."""
    window: int
    in_code: bool
    turn_bits: int
    segment_bits: int

    @property
    def records(self) -> int:
        return 1 << (self.window - 1) if self.in_code else 1 << self.window

    def records_data(self, multiple: Callable[[int], Optional[Tuple[int, int]]], n: int
                     ) -> bytes:
        """The records, affine (x, y as words): [2u + 1] P for u = 0 .. records - 1
        (``in_code``), else [2u + 1 - records] P (both signs); ``multiple(k)`` is [k] P
        for 0 < k < n, the group's order."""
        low = 0 if self.in_code else -self.records
        out = b""
        for u in range(self.records):
            point = multiple((2 * u + 1 + low) % n)
            assert point is not None
            out += b"".join(v.to_bytes(WORD, "big") for v in point)
        return out


class CodeTable:
    """Odd multiples [1] P .. [2^window - 1] P of a fixed point, affine (64 bytes a record:
    x, y as words), in the code; :meth:`load` reads a regular signed digit's point from it
    (the sign applied at run time: half the records of a table with both signs).
    ``flipped``: the digit words hold each digit with its top bit flipped (:meth:`flip`
    made them so, once), which saves each lookup its own flip (a PUSH and an XOR)."""

    def __init__(self, e: Emitter, data: Label, window: int, flipped: bool = False) -> None:
        if not 2 <= window <= 8:
            raise ValueError(f"a digit of {window} bits is not within a byte (2 to 8 bits)")
        self.e, self.data, self.window, self.flipped = e, data, window, flipped
        self.records = 1 << (window - 1)

    def flip(self, below: int = 256) -> None:
        """The digit word on top of the stack with the top bit of every digit below bit
        ``below`` flipped (digit j at bits window j ..), what a ``flipped`` table's
        :meth:`load` reads; the digits above are left as they are."""
        asm = self.e.asm
        asm.push(sum(1 << (self.window * (j + 1) - 1) for j in range(below // self.window)))
        asm.op("XOR")

    def load(self, dest: Slot, depth: int, shift: int) -> None:
        """dest (x, y) = [d] P for the digit u at bit ``shift`` of the word at DUP
        ``depth`` (d = 2u + 1 - 2^window, odd, never 0): record |d| >> 1, copied from the
        code, and y = p - y where d < 0, branchless. The record from a sign extension:
        with u's bits at the top of a byte (k = 8 - window bits of the word under them
        below) and that byte's top bit flipped, SIGNEXTEND gives x = (u - 2^(window - 1))
        2^k + the bits below, negative iff d < 0, and x XOR (x >> 255, arithmetic: the
        mask m of d < 0) is |d| >> 1 times 2^k, plus bits below (so shifted down k bits).
        The y select: (y XOR m) + ((p + 1) AND m) is y, or 2^256 - 1 - y + p + 1 = p - y
        mod 2^256 (y != 0: no point of odd prime order has y = 0)."""
        asm, e = self.e.asm, self.e
        staging = e.target.staging(e, dest)
        y_at = (lambda: int(staging) + 32)
        below = 8 - self.window                    # the bits under u in its byte
        asm.op(f"DUP{depth}")
        if shift > below:
            asm.push(shift - below)
            asm.op("SHR")
        elif shift < below:
            asm.push(below - shift)
            asm.op("SHL")                          # the byte: u, then bits below
        if not self.flipped:
            asm.push(0x80)
            asm.op("XOR")
        asm.op("PUSH0")
        asm.op("SIGNEXTEND")                       # x
        asm.op("DUP1")
        asm.push(255)
        asm.op("SAR")                              # stack: x, m (all ones if d < 0)
        asm.op("SWAP1")
        asm.op("DUP2")
        asm.op("XOR")                              # (|d| >> 1) 2^below + bits below
        if below:
            asm.push(below)
            asm.op("SHR")
        asm.push(6)
        asm.op("SHL")
        asm.push(self.data)
        asm.op("ADD")
        asm.push(64)
        asm.op("SWAP1")
        asm.push(staging)
        asm.op("CODECOPY")                         # stack: m
        asm.push(y_at)
        asm.op("MLOAD")
        asm.op("DUP2")
        asm.op("XOR")                              # stack: m, y XOR m
        asm.op("SWAP1")
        asm.push(e.curve.p + 1)
        asm.op("AND")
        asm.op("ADD")                              # d < 0 ? p - y : y
        asm.push(y_at)
        asm.op("MSTORE")
        e.target.from_staging(e, dest, staging, False)


def joint_steps(top: int, bottom: int, widths: Dict[str, int]
                ) -> List[Tuple[int, int, Tuple[str, ...]]]:
    """Bits top - 1 .. bottom of a joint (Straus) loop as (doublings, bit, the digits
    added there): the digit named n at every bit that is a multiple of widths[n]
    (``bottom`` a multiple of them all: no doubling left over)."""
    out: List[Tuple[int, int, Tuple[str, ...]]] = []
    doublings = 0
    for bit in range(top - 1, bottom - 1, -1):
        doublings += 1
        adds = tuple(name for name, width in widths.items() if bit % width == 0)
        if adds:
            out.append((doublings, bit, adds))
            doublings = 0
    assert doublings == 0
    return out
