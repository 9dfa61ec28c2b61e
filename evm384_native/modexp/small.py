"""B^E mod M for a modulus below 2**256, in plain EVM words (MULMOD), the path of 99.99%
of MODEXP's calls (EIP-8200: SNARK verifiers' inversions and square roots).

Left-to-right fixed windows of WINDOW = 5 bits over the exponent's words, most
significant first. The table T[i] = B^i mod M, i < 32, is built first (TABLE_AT, one
word each, T[0] = 1 mod M), then each exponent word runs through straight-line blocks,
one per window from bit 255 down, each five squarings and one multiplication by the
window's entry, so that no bit costs a jump. The first word enters at the block after
its top non-zero window (found with CLZ: EIP-7939, Osaka), whose entry starts the
accumulator; the others start at the top.

Every MULMOD consumes its modulus, and a squaring is ``DUP1 MULMOD`` only when a copy of
M waits under the accumulator: each block first pushes the six copies its six MULMODs
take and swaps the accumulator above them (one SWAP a block). The stack in a block is
[acc, e, M, Msize] (top first); M's length stays at the bottom for the output.

Memory besides the table: the offsets of the next exponent word and of the end of the
exponent's words (the EXP_NEXT and EXP_END slots of :mod:`.layout`, both zero where the
exponent is one word on the stack). The result leaves right-aligned in Msize bytes of
fresh memory.
"""
from __future__ import annotations

from ..asm import Assembler, Label
from .layout import EXP_END_SLOT, EXP_NEXT_SLOT, TABLE_AT, TABLE_WORDS, WORD

WINDOW = 5
TOP_WINDOW = 256 // WINDOW                 # 51: bit 255 alone, above 51 full windows
INDEX_MASK = (TABLE_WORDS - 1) * WORD      # a window's table offset, once shifted
CHAIN = 14                                 # copies of M pushed at once (DUP16's reach)


class Entries:
    """Where the other code enters the small path, and the stack each expects."""

    def __init__(self, asm: Assembler) -> None:
        self.table = asm.new_label("modexp_table")        # [b, e, M, Msize]
        self.first_word = asm.new_label("modexp_first")   # [e, M, Msize], e != 0, table built
        self.zero_exponent = asm.new_label("modexp_e0")   # [e, M, Msize], table built
        self.tail = asm.new_label("modexp_tail")          # [acc, e, M, Msize]
        self.out = asm.new_label("modexp_out")            # [acc, Msize]


def emit(asm: Assembler, at: Entries, after_table: Label) -> None:
    """The small path's code: the table (then a jump to ``after_table``), the entry of
    the first exponent word, the blocks, the tail and the output."""
    _table(asm, at, after_table)
    _zero_exponent(asm, at)
    top, blocks = asm.new_label("modexp_word"), [asm.new_label(f"modexp_w{j}")
                                                 for j in range(TOP_WINDOW - 1, -1, -1)]
    _first_word(asm, at, blocks)
    with asm.scope("exponent_word"):
        asm.place(top)
        _top_block(asm)
        for j, label in zip(range(TOP_WINDOW - 1, -1, -1), blocks):
            asm.place(label)
            _block(asm, j)
    _tail(asm, at, top)
    _output(asm, at)


def _table(asm: Assembler, at: Entries, after_table: Label) -> None:
    """[b, e, M, Msize] -> [e, M, Msize] with T[0..31] in memory."""
    with asm.scope("window_table"):
        asm.place(at.table)
        asm.op("DUP3")
        asm.push(1)
        asm.op("MOD")
        asm.push(TABLE_AT)
        asm.op("MSTORE")                                   # T[0] = 1 mod M
        asm.ops("DUP3", "SWAP1", "MOD", "DUP1", "DUP1")    # [b mod M x 3, e, M, Msize]
        asm.push(TABLE_AT + WORD)
        asm.op("MSTORE")                                   # T[1]; then [t, b, e, M, Msize]
        index = 2
        while index < TABLE_WORDS:
            count = min(CHAIN, TABLE_WORDS - index)
            asm.op("DUP4")
            asm.ops(*["DUP1"] * (count - 1))
            asm.op(f"SWAP{count}")                         # [t, M x count, b, e, M, Msize]
            for step in range(count):
                asm.op(f"DUP{count - step + 2}")           # b
                asm.ops("MULMOD", "DUP1")
                asm.push(TABLE_AT + WORD * index)
                asm.op("MSTORE")                           # T[index] = t = t * b
                index += 1
        asm.ops("POP", "POP")
        asm.jump(after_table)


def _zero_exponent(asm: Assembler, at: Entries) -> None:
    """E = 0: the result is T[0] = 1 mod M."""
    asm.place(at.zero_exponent)
    asm.push(TABLE_AT)
    asm.op("MLOAD")
    asm.jump(at.tail)


def _first_word(asm: Assembler, at: Entries, blocks: list) -> None:
    """[e, M, Msize], e != 0: the accumulator from e's top non-zero window J, then on at
    the block of window J - 1 (the blocks are one size: a computed jump)."""
    with asm.scope("first_word"):
        asm.place(at.first_word)
        asm.ops("DUP1", "CLZ")
        asm.push(255)
        asm.op("SUB")                                      # e's top bit
        asm.push(WINDOW)
        asm.ops("SWAP1", "DIV")                            # J
        asm.op("DUP1")
        asm.push(WINDOW)
        asm.ops("MUL", "DUP3", "SWAP1", "SHR")             # e >> 5 J < 32: the top window
        asm.push(5)
        asm.ops("SHL", "MLOAD", "SWAP1")                   # [J, acc, e, M, Msize]
        asm.push(TOP_WINDOW)
        asm.op("SUB")                                      # blocks to skip: 51 - J
        asm.push(lambda: blocks[1].pc - blocks[0].pc, width=1)
        asm.op("MUL")
        asm.push(blocks[0])
        asm.ops("ADD", "JUMP")


def _copies_of_modulus(asm: Assembler, count: int) -> None:
    """[acc, e, M, ...] -> [acc, M x count, e, M, ...]."""
    asm.op("DUP3")
    asm.ops(*["DUP1"] * (count - 1))
    asm.op(f"SWAP{count}")


def _top_block(asm: Assembler) -> None:
    """Window 51: bit 255 alone (one squaring)."""
    _copies_of_modulus(asm, 2)
    asm.ops("DUP1", "MULMOD", "DUP3")
    asm.push(255 - 5)
    asm.op("SHR")
    asm.push(WORD)
    asm.ops("AND", "MLOAD", "MULMOD")


def _block(asm: Assembler, j: int) -> None:
    """Window j (bits 5j .. 5j + 4): five squarings, one multiplication by T[window]."""
    _copies_of_modulus(asm, WINDOW + 1)
    asm.ops(*["DUP1", "MULMOD"] * WINDOW)
    asm.op("DUP3")
    if j:
        asm.push(WINDOW * j - 5, width=1)
        asm.op("SHR")
    else:
        asm.push(5, width=1)
        asm.op("SHL")
    asm.push(INDEX_MASK, width=2)
    asm.ops("AND", "MLOAD", "MULMOD")


def _tail(asm: Assembler, at: Entries, top: Label) -> None:
    """After a word: the next one from memory, if any, else the output."""
    more = asm.new_label("modexp_more")
    with asm.scope("next_word"):
        asm.place(at.tail)
        asm.push(EXP_END_SLOT)
        asm.op("MLOAD")
        asm.push(EXP_NEXT_SLOT)
        asm.ops("MLOAD", "LT")
        asm.jumpi(more)
        asm.ops("SWAP2", "POP", "POP")
        asm.jump(at.out)
        asm.place(more)                                    # [acc, e, M, Msize]
        asm.ops("SWAP1", "POP")
        asm.push(EXP_NEXT_SLOT)
        asm.ops("MLOAD", "DUP1", "MLOAD", "SWAP1")         # [next, e', acc, M, Msize]
        asm.push(WORD)
        asm.op("ADD")
        asm.push(EXP_NEXT_SLOT)
        asm.ops("MSTORE", "SWAP1")
        asm.jump(top)


def _output(asm: Assembler, at: Entries) -> None:
    """[acc, Msize]: RETURN acc right-aligned in Msize bytes of fresh (zero) memory."""
    with asm.scope("output"):
        asm.place(at.out)
        asm.ops("MSIZE", "SWAP1", "DUP3", "DUP3", "ADD")    # [out + Msize, acc, out, Msize]
        asm.push(WORD)
        asm.ops("SWAP1", "SUB", "MSTORE", "RETURN")
