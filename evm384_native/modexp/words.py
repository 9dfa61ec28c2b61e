"""Code shared by the MODEXP paths that read a value's words from memory (:mod:`.layout`)."""
from __future__ import annotations

from ..asm import Assembler, Label
from .layout import WORD


def scan_words(asm: Assembler, zero: Label) -> None:
    """[p, end, ...] -> [p', end, ...]: p' the first offset from p (a word at a time,
    below end) whose word is not zero; at ``zero`` (the stack [end, end, ...]) when none
    is."""
    scan, found = asm.new_label("modexp_scan"), asm.new_label("modexp_nonzero")
    asm.place(scan)
    asm.ops("DUP2", "DUP2", "EQ")
    asm.jumpi(zero)
    asm.ops("DUP1", "MLOAD")
    asm.jumpi(found)
    asm.push(WORD)
    asm.op("ADD")
    asm.jump(scan)
    asm.place(found)


def first_nonzero_word(asm: Assembler, at_slot: int, words_slot: int, zero: Label) -> None:
    """[...] -> [p, end, ...]: p the offset of the first non-zero word of the value whose
    offset and word count the slots ``at_slot`` and ``words_slot`` hold, end the offset
    past its words; at ``zero`` (the stack [end, end, ...]) when every word is zero."""
    asm.push(words_slot)
    asm.op("MLOAD")
    asm.push(5)
    asm.op("SHL")
    asm.push(at_slot)
    asm.op("MLOAD")
    asm.op("ADD")
    asm.push(at_slot)
    asm.op("MLOAD")                                   # [p, end, ...]
    scan_words(asm, zero)
