"""Control flow and calldata checks the contracts share: square-and-multiply over a
constant's digits (unrolled, a run-time loop, or runs of squarings in one subroutine), a
memory zero test, and the calldata length check.
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

from ..asm import Assembler, Label, Slot, Subroutine
from .fp import Emitter, squaring_chain


def square_and_multiply(e: Emitter, bits: str, square: Callable[[], None],
                        multiply: Callable[[], None], loop: Optional[bool] = None) -> None:
    """Per bit of ``bits``: ``square()``, then ``multiply()`` if the bit is set. Unrolled at
    generation time, or a run-time loop over the bits if ``loop`` (default ``e.loops``;
    ~55 gas per bit)."""
    if not (e.loops if loop is None else loop):
        for bit in bits:
            square()
            if bit == "1":
                multiply()
        return
    asm = e.asm

    def step() -> None:                           # stack: bit
        square()
        clear = asm.new_label("bit_clear")
        asm.op("ISZERO")
        asm.jumpi(clear)
        multiply()
        asm.place(clear)
    asm.digit_loop([int(bit) for bit in bits], 1, step)


def square_and_multiply_signed(e: Emitter, digits: Sequence[int], square: Callable[[], None],
                               multiply: Callable[[int], None],
                               loop: Optional[bool] = None) -> None:
    """Per digit: ``square()``, then ``multiply(digit)`` if it is not zero. Unrolled (any
    digits), or if ``loop`` (default ``e.loops``; digits -1, 0 and 1 only) a run-time loop:
    :func:`square_and_multiply`'s for binary digits, else over 2-bit digits (0, 1, and 2
    for -1)."""
    if not (e.loops if loop is None else loop):
        for digit in digits:
            square()
            if digit:
                multiply(digit)
        return
    if any(abs(digit) > 1 for digit in digits):
        raise ValueError("a run-time loop takes digits -1, 0 and 1")
    if -1 not in digits:
        square_and_multiply(e, "".join(str(d) for d in digits), square,
                            lambda: multiply(1), loop)
        return
    asm = e.asm

    def step() -> None:                           # stack: digit
        square()
        zero, negative, done = (asm.new_label(name) for name in ("digit_zero",
                                                                 "digit_minus", "digit_done"))
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(zero)
        asm.push(2)
        asm.op("EQ")
        asm.jumpi(negative)
        multiply(1)
        asm.jump(done)
        asm.place(negative)
        multiply(-1)
        asm.jump(done)
        asm.place(zero)
        asm.op("POP")
        asm.place(done)
    asm.digit_loop([2 if d < 0 else d for d in digits], 2, step)


def longest_run(digits: Sequence[int]) -> int:
    """The most squarings between two multiplications (or the ends) that square-and-
    multiply over ``digits`` performs."""
    return max(len(zeros) + 1 for zeros in "".join("1" if d else "0" for d in digits)
               .split("1"))


def square_and_multiply_chained(e: Emitter, digits: Sequence[int],
                                chain: Tuple[Subroutine, List[Label]],
                                multiply: Callable[[int], None]) -> None:
    """Per digit (-1, 0 or 1): a squaring, then ``multiply(digit)`` for a non-zero one,
    with the squarings made by ``chain`` (:func:`.fp.squaring_chain`): one call per run of
    up to its length instead of one per squaring (for targets with ``dense_code``)."""
    subroutine, entries = chain
    run = len(entries) - 1
    count = 0
    for digit in digits:
        count += 1
        if digit:
            _squarings(e, subroutine, entries, count, run)
            count = 0
            multiply(digit)
    _squarings(e, subroutine, entries, count, run)


def double_and_add(e: Emitter, name: str, bits: str, double: Callable[[], None],
                   add: Callable[[], None], run: int) -> None:
    """Per bit of ``bits``: a doubling (``double()`` emits one), then ``add()`` if the bit
    is set. Where code is dense (EVMMAX) the doublings go through a chain
    (:func:`.fp.squaring_chain` ``name + "_chain"``, up to ``run`` a call), else each is a
    call of subroutine ``name``."""
    Doubler(e, name, [bits], double, run).bits(bits, add)


class Doubler:
    """The doublings of several double-and-add runs over one accumulator, emitted once:
    a chain (:func:`.fp.squaring_chain` ``name + "_chain"``, long enough for the longest
    run of zeros in ``bit_strings``, at most ``run``) where code is dense (EVMMAX), else a
    subroutine ``name`` of one doubling."""

    def __init__(self, e: Emitter, name: str, bit_strings: Sequence[str],
                 double: Callable[[], None], run: int) -> None:
        self.e = e
        if e.target.dense_code:
            longest = max(longest_run([int(bit) for bit in bits]) for bits in bit_strings)
            self.chain: Optional[Tuple[Subroutine, List[Label]]] = squaring_chain(
                e, f"{name}_chain", min(run, longest), double)
        else:
            self.chain = None
            self.routine = e.asm.subroutine(name, lambda a: double())

    def bits(self, bits: str, add: Callable[[], None]) -> None:
        """Per bit: a doubling, then ``add()`` if the bit is set."""
        if self.chain is not None:
            square_and_multiply_chained(self.e, [int(bit) for bit in bits], self.chain,
                                        lambda digit: add())
        else:
            square_and_multiply(self.e, bits, self.once, add)

    def once(self) -> None:
        """One doubling (a call)."""
        if self.chain is not None:
            subroutine, entries = self.chain
            self.e.asm.call(subroutine, at=entries[1])
        else:
            self.e.asm.call(self.routine)


def _squarings(e: Emitter, chain, entries, count: int, run: int) -> None:
    while count:
        step = min(count, run)
        e.asm.call(chain, at=entries[step])
        count -= step


def is_zero(asm: Assembler, slot: Slot) -> None:
    """Push 1 if every byte of ``slot`` is zero, else 0 (OR of its words)."""
    if slot.size % 32:
        raise ValueError("slot size must be a multiple of 32 bytes")
    for i, rel in enumerate(range(0, slot.size, 32)):
        asm.push(lambda rel=rel: int(slot) + rel)
        asm.op("MLOAD")
        if i:
            asm.op("OR")
    asm.op("ISZERO")


def copy_calldata_tail(asm: Assembler, size: int, dest: Slot) -> None:
    """The last ``size`` bytes of calldata (a hinted check's hint) to memory at ``dest``."""
    asm.push(size)
    asm.push(size)
    asm.op("CALLDATASIZE")
    asm.op("SUB")
    asm.push(dest)
    asm.op("CALLDATACOPY")


def require_calldata(asm: Assembler, offset: int, size: int, multiple: bool = False,
                     tail: int = 0, allow_empty: bool = False) -> None:
    """Fail (the contract's failure) unless the calldata after ``offset`` is ``size`` bytes (or a positive multiple
    of ``size``, or with ``allow_empty`` any multiple), followed by ``tail`` more bytes
    (only with ``multiple``)."""
    ok = asm.new_label("calldata_ok")
    asm.push(offset + tail)
    asm.op("CALLDATASIZE")
    asm.op("SUB")                                 # n = CALLDATASIZE - offset - tail
    if multiple:
        asm.push(size)
        asm.op("DUP2")
        asm.op("MOD")                             # n % size
        if allow_empty:
            asm.op("SWAP1")
            asm.op("POP")                         # bad if n % size
        else:
            asm.op("SWAP1")
            asm.op("ISZERO")
            asm.op("OR")                          # bad if n % size or n == 0
        if offset + tail:                         # or n < 0 (it wrapped around)
            asm.push(offset + tail)
            asm.op("CALLDATASIZE")
            asm.op("LT")
            asm.op("OR")
        asm.op("ISZERO")
    else:
        if tail:
            raise ValueError("a calldata tail needs multiple=True")
        asm.push(size)
        asm.op("EQ")
    asm.jumpi(ok)
    asm.fail()
    asm.place(ok)
