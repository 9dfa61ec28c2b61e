"""The alt_bn128 precompiles' encodings (EIP-196/197) read and written by EVM code: field
values are 32-byte big-endian words, G2 coordinates imaginary part first; (0, 0) is the
point at infinity. A word >= p, or a point off its curve, is invalid input."""
from __future__ import annotations

from typing import Callable, Sequence

from ..asm import Label, Slot, raw
from ..curves.bn254 import BN254
from ..ec.groups import g1_group, g2_group
from ..tower.fp import Emitter

WORD = 32
G1_BYTES, G2_BYTES = 2 * WORD, 4 * WORD
PAIR_BYTES = G1_BYTES + G2_BYTES
# calldata word i of a G2 point -> its value in the slot (x.c0, x.c1, y.c0, y.c1): the
# EIP orders each Fp2 coordinate (imaginary, real)
G2_VALUE_OF_WORD = (1, 0, 3, 2)
# What pushes a calldata offset, given how many words the code has pushed above the stack
# it was written for (a base kept on the stack is then deeper: DUP1 becomes DUP2).
Offset = Callable[[int], None]


def push_word(e: Emitter, offset: Offset, fail: Label) -> None:
    """Push the calldata word at ``offset``; jump to ``fail`` unless it is below p."""
    asm = e.asm
    offset(0)
    asm.op("CALLDATALOAD")
    asm.op("DUP1")
    asm.push(BN254.p)
    asm.op("GT")
    asm.op("ISZERO")
    asm.jumpi(fail)


def stage_words(e: Emitter, staged: Slot, offsets: Sequence[Offset], fail: Label) -> None:
    """The calldata words at ``offsets`` (value i of ``staged`` from offsets[i]) into the memory image ``staged`` of a slot, as the target stages plain
    values; jump to ``fail`` on a word >= p."""
    unit = e.target.value_bytes(e)
    for i, offset in enumerate(offsets):
        push_word(e, offset, fail)
        e.asm.push(lambda i=i: int(staged) + unit * i)
        e.target.store_word(e)


def push_words_zero(e: Emitter, offsets: Sequence[Offset]) -> None:
    """Push 1 if every calldata word at ``offsets`` is zero (a point at infinity)."""
    for i, offset in enumerate(offsets):
        offset(1 if i else 0)                    # above the OR of the words before
        e.asm.op("CALLDATALOAD")
        if i:
            e.asm.op("OR")
    e.asm.op("ISZERO")


def g1_offsets(e: Emitter, base: Offset) -> Sequence[Offset]:
    """The calldata offsets of a G1 point's x, y at the offset ``base``."""
    return [plus(e, base, WORD * i) for i in range(2)]


def g2_offsets(e: Emitter, base: Offset) -> Sequence[Offset]:
    """The calldata offsets of a G2 point's x.c0, x.c1, y.c0, y.c1 (the slot's order)."""
    word_of_value = [G2_VALUE_OF_WORD.index(v) for v in range(4)]
    return [plus(e, base, WORD * word) for word in word_of_value]


def plus(e: Emitter, base: Offset, rel: int) -> Offset:
    """The offset ``rel`` bytes after ``base``."""
    def push(depth: int) -> None:
        base(depth)
        if rel:
            e.asm.push(rel)
            e.asm.op("ADD")
    return push


def constant(e: Emitter, offset: int) -> Offset:
    return lambda depth: e.asm.push(offset)


def on_stack(e: Emitter) -> Offset:
    """The offset on top of the stack (kept there)."""
    return lambda depth: e.asm.op(f"DUP{1 + depth}")


def load_values(e: Emitter, slot: Slot, offsets: Sequence[Offset], fail: Label) -> None:
    """The calldata words at ``offsets`` (one per value) into the field slot ``slot`` in
    the target's form, range-checked (a point's curve is not checked here)."""
    staged = e.target.staging(e, slot)
    stage_words(e, staged, offsets, fail)
    e.target.from_staging(e, slot, staged, little_endian=False)


def return_words(e: Emitter, values: Slot) -> None:
    """RETURN the values of ``values`` as 32-byte big-endian words."""
    asm = e.asm
    out = asm.memory.region("output").alloc(raw(WORD * len(values.fps())), "output")
    e.target.words_out(e, values, out)
    asm.push(out.size)
    asm.push(out)
    asm.op("RETURN")


G1_GROUP, G2_GROUP = g1_group(BN254), g2_group(BN254)   # y^2 = x^3 + 3; the D-type twist
