"""B^E mod M on EVMMAX (EIP-6690) for an odd modulus of at most 3 words (768 bits, M >= 3;
M = 1 answers zeros here): one SETMODX over the modulus as :mod:`.layout` leaves it, then
left-to-right fixed windows of WINDOW = 5 bits over the exponent, as :mod:`.small` does
with MULMOD.

This project's STOREX and LOADX convert to and from Montgomery form themselves (the EIP's
``mulmont(x, R**2 mod m)`` and ``mulmont(x, 1)``, each priced as one multiplication), so
canonical values go in and out and no R**2 constant is computed here.

Registers are named in immediates, so a window's value cannot pick one: the table
T[i] = B^i mod M, i < 32, is built in registers (five vector MULMODX: T2, T3..T4, T5..T8,
T9..T16, T17..T31), LOADXed to memory once, and each window STOREXes its entry from
memory into a fixed register, then multiplies the accumulator by it. Per window that is
the extraction (DUP, SHR, AND with the offset's scale folded into the shift and mask),
PUSH1 1, PUSH0, STOREX (1 + one multiplication) and the MULMODX: 35 gas with 256-bit
registers (2 gas a multiplication), 25 of them beyond the five squarings. Table entries
stand ``STRIDE`` = 32 << (words - 1) bytes apart (a power of two: the offset is a shift
and a mask), each entry's ``element_size`` bytes from its start.

The code is emitted once per modulus word count (1, 2, 3 words: stride 32, 64, 128): a
32-entry table of 64 or 128 bytes would overwrite the slots and data, so there the
exponent's words are first copied past the table, and the modulus's length is kept on
the stack. A base of several words is reduced by Horner's rule in registers,
r = r * (2**256 mod M) + w, each word w < M (EVM's MOD first where M is one word).
The stack in the exponent's blocks: [e, next, end, element_size, Msize] (e the current
exponent word, next and end the memory offsets of the exponent's next word and of its end).
"""
from __future__ import annotations

from ..asm import Assembler, Label
from .layout import (BASE_AT_SLOT, BASE_WORDS_SLOT, EXP_AT_SLOT, EXP_WORDS_SLOT,
                     MOD_AT_SLOT, MOD_LENGTH_SLOT, MOD_WORDS_SLOT, SLOTS_AT, WORD)

WINDOW = 5
ENTRIES = 1 << WINDOW
TOP_WINDOW = 256 // WINDOW                 # 51: bit 255 alone, above 51 full windows
REGISTERS = ENTRIES                        # T1..T31 in registers 0..30 (EIP-6690's bound
                                           # idx + stride * count < registers: one spare)
TMP, ACC = 0, 1                            # once the table is in memory
HORNER_TERM, HORNER_FACTOR = 2, 1          # registers while the base is reduced (r in 0)
STAGE_AT, FACTOR_AT = 128, 256             # where values wait for STOREX (table room:
                                           # the table is written after them)
MAX_WORDS = 3


def emit_native(asm: Assembler, entry: Label) -> None:
    """The EVMMAX path: from ``entry`` (empty stack, memory as :mod:`.layout`) to RETURN."""
    variants = [asm.new_label(f"modexp_x{words}") for words in range(1, MAX_WORDS + 1)]
    with asm.scope("evmmax_dispatch"):
        asm.place(entry)
        asm.push(MOD_WORDS_SLOT)
        asm.op("MLOAD")
        for words, label in enumerate(variants[:-1], 1):
            asm.op("DUP1")
            asm.push(words)
            asm.ops("EQ")
            asm.jumpi(label)
        asm.jump(variants[-1])
    for words, label in enumerate(variants, 1):
        with asm.scope(f"evmmax_{words}_words"):
            _Variant(asm, words).emit(label)


class _Variant:
    """The path for moduli of ``words`` words."""

    def __init__(self, asm: Assembler, words: int) -> None:
        self.asm, self.words = asm, words
        self.shift = 4 + words                       # log2 of the stride: 5, 6, 7
        self.stride = 1 << self.shift
        self.table_end = ENTRIES * self.stride       # the exponent's copy goes here
        self.copies_exponent = self.table_end > SLOTS_AT   # the table at 0 (TABLE_AT)
        names = ("first", "tail", "more", "out", "e0", "m1", "top")
        self.at = {n: asm.new_label(f"modexp_x{words}_{n}") for n in names}
        self.blocks = [asm.new_label(f"modexp_x{words}_w{j}")
                       for j in range(TOP_WINDOW - 1, -1, -1)]

    def emit(self, entry: Label) -> None:
        asm = self.asm
        asm.place(entry)
        asm.op("POP")                                         # the word count
        _load(asm, MOD_LENGTH_SLOT)                           # [Msize]
        if self.words == 1:
            self._modulus_one()
        self._element_size()                                  # [es, Msize]
        self._exponent_start()                                # [p, end, es, Msize]
        self._setmodx()
        self._base()
        if self.copies_exponent:                              # base and modulus are used
            self._copy_exponent()
        self._table()
        asm.ops("DUP1", "MLOAD", "SWAP1")                     # [p, e, end, es, Msize]
        asm.push(WORD)
        asm.ops("ADD", "SWAP1")                               # [e, next, end, es, Msize]
        self._first_word()
        asm.place(self.at["top"])
        self._top_block()
        for j, label in zip(range(TOP_WINDOW - 1, -1, -1), self.blocks):
            asm.place(label)
            self._block(j)
        self._tail()
        self._output()
        self._zero_exponent()

    # --- set-up ----------------------------------------------------------------------

    def _modulus_one(self) -> None:
        """[Msize]: M = 1 (SETMODX takes M >= 3) answers Msize zero bytes."""
        asm = self.asm
        _load(asm, MOD_AT_SLOT)
        asm.op("MLOAD")
        asm.push(1)
        asm.op("EQ")
        asm.jumpi(self.at["m1"])

    def _element_size(self) -> None:
        """[Msize] -> [es, Msize]: the registers' bytes, 8 per 64 bits of M."""
        asm = self.asm
        _load(asm, MOD_AT_SLOT)
        asm.ops("MLOAD", "CLZ")
        asm.push(256 * self.words + 63)
        asm.op("SUB")
        asm.push(6)
        asm.op("SHR")
        asm.push(3)
        asm.op("SHL")

    def _exponent_start(self) -> None:
        """[es, Msize] -> [p, end, es, Msize]: p the exponent's first non-zero word (E = 0
        answers 1 from here)."""
        asm = self.asm
        scan, found = self.asm.new_label("modexp_x_scan"), self.asm.new_label("modexp_x_e")
        _load(asm, EXP_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        _load(asm, EXP_AT_SLOT)
        asm.op("ADD")
        _load(asm, EXP_AT_SLOT)                               # [p, end, es, Msize]
        asm.place(scan)
        asm.ops("DUP2", "DUP2", "EQ")
        asm.jumpi(self.at["e0"])
        asm.ops("DUP1", "MLOAD")
        asm.jumpi(found)
        asm.push(WORD)
        asm.op("ADD")
        asm.jump(scan)
        asm.place(found)

    def _copy_exponent(self) -> None:
        """[p, end, ...] -> [table_end, table_end + (end - p), ...]: the exponent's words
        past the table (MCOPY moves overlapping ranges correctly; the copy lies above)."""
        asm = self.asm
        asm.ops("DUP1", "DUP3", "SUB")                        # [n, p, end, ...]
        asm.ops("SWAP2", "POP", "DUP2", "SWAP1")              # [p, n, n, ...]
        asm.push(self.table_end)
        asm.op("MCOPY")                                       # (dst, src, n)
        asm.push(self.table_end)
        asm.op("ADD")
        asm.push(self.table_end)                              # [p', end', es, Msize]

    def _setmodx(self) -> None:
        """SETMODX(id 0, the modulus's words, REGISTERS registers)."""
        asm = self.asm
        asm.push(REGISTERS)
        asm.push(WORD * self.words)
        _load(asm, MOD_AT_SLOT)
        asm.op("PUSH0")
        asm.evmmax_op("SETMODX")

    def _stage(self, at: int, register: int) -> None:
        """[v, p, end, es, Msize] -> [p, end, es, Msize], register = v (v < M), through
        memory at ``at`` (es bytes, big-endian: v's word ends there)."""
        asm = self.asm
        asm.op("DUP4")
        asm.push(at - WORD)
        asm.ops("ADD", "MSTORE")
        asm.push(1)
        asm.push(at)
        asm.push(register)
        asm.evmmax_op("STOREX")

    def _base(self) -> None:
        """Register 0 = B mod M (Montgomery form), by Horner's rule over its words."""
        asm = self.asm
        loop, done = asm.new_label("modexp_x_base"), asm.new_label("modexp_x_based")
        if self.words == 1:                                   # 2**256 mod M = (0 - M) mod M
            _load(asm, MOD_AT_SLOT)
            asm.ops("MLOAD", "DUP1", "PUSH0", "SUB", "MOD")
            self._stage(FACTOR_AT, HORNER_FACTOR)
        else:                                                 # 2**256 < M
            asm.push(1)
            asm.op("DUP4")
            asm.push(FACTOR_AT - WORD - 1)
            asm.ops("ADD", "MSTORE8")
            asm.push(1)
            asm.push(FACTOR_AT)
            asm.push(HORNER_FACTOR)
            asm.evmmax_op("STOREX")
        _load(asm, BASE_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        _load(asm, BASE_AT_SLOT)
        asm.op("ADD")
        _load(asm, BASE_AT_SLOT)                              # [q, qend, p, end, es, Msize]
        asm.place(loop)
        asm.ops("DUP2", "DUP2", "EQ")
        asm.jumpi(done)
        asm.evmmax("MULMODX", 0, 0, HORNER_FACTOR)
        asm.ops("DUP1", "MLOAD")                              # [w, q, qend, ...]
        if self.words == 1:
            _load(asm, MOD_AT_SLOT)
            asm.ops("MLOAD", "SWAP1", "MOD")
        asm.ops("SWAP2", "SWAP1")                             # [q, qend, w, p, ...]
        asm.push(WORD)
        asm.op("ADD")
        asm.ops("SWAP2")                                      # [w, qend, q, p, ...]
        asm.ops("DUP6")                                       # es
        asm.push(STAGE_AT - WORD)
        asm.ops("ADD", "MSTORE")                              # [qend, q, p, end, es, Msize]
        asm.push(1)
        asm.push(STAGE_AT)
        asm.push(HORNER_TERM)
        asm.evmmax_op("STOREX")
        asm.evmmax("ADDMODX", 0, 0, HORNER_TERM)
        asm.op("SWAP1")
        asm.jump(loop)
        asm.place(done)
        asm.ops("POP", "POP")

    def _table(self) -> None:
        """T1 in register 0 -> T1..T31 in registers 0..30 -> memory, T[i] at i * stride
        (T[0] = 1 written directly)."""
        asm = self.asm
        ops = ((1, 0, 0, 1, (1, 1, 1)),                       # T2 = T1 T1
               (2, 1, 0, 2, (1, 0, 1)),                       # T3, T4 = T2 (T1, T2)
               (4, 3, 0, 4, (1, 0, 1)),                       # T5..T8 = T4 (T1..T4)
               (8, 7, 0, 8, (1, 0, 1)),                       # T9..T16 = T8 (T1..T8)
               (16, 15, 0, 15, (1, 0, 1)))                    # T17..T31 = T16 (T1..T15)
        for out, x, y, count, strides in ops:
            asm.evmmax("MULMODX", out, x, y, count, strides)
        asm.push(1)
        asm.op("DUP4")
        asm.push(1)
        asm.ops("SWAP1", "SUB", "MSTORE8")                    # T[0] = 1
        whole, done = asm.new_label("modexp_x_whole"), asm.new_label("modexp_x_tabled")
        asm.op("DUP3")
        asm.push(self.stride)
        asm.op("EQ")
        asm.jumpi(whole)
        for i in range(1, ENTRIES):                           # es < stride: one by one
            _loadx(asm, i * self.stride, i - 1, 1)
        asm.jump(done)
        asm.place(whole)
        _loadx(asm, self.stride, 0, ENTRIES - 1)
        asm.place(done)

    # --- the exponent ----------------------------------------------------------------

    def _first_word(self) -> None:
        """[e, ...], e != 0: ACC = T[e's top non-zero window J], then the block of J - 1."""
        asm = self.asm
        asm.ops("DUP1", "CLZ")
        asm.push(255)
        asm.op("SUB")
        asm.push(WINDOW)
        asm.ops("SWAP1", "DIV")                               # [J, e, ...]
        asm.push(1)
        asm.op("DUP2")
        asm.push(WINDOW)
        asm.ops("MUL", "DUP4", "SWAP1", "SHR")
        asm.push(self.shift)
        asm.op("SHL")                                         # [offset, 1, J, e, ...]
        asm.push(ACC)
        asm.evmmax_op("STOREX")
        asm.push(TOP_WINDOW)
        asm.op("SUB")                                         # blocks to skip: 51 - J
        blocks = self.blocks
        asm.push(lambda: blocks[1].pc - blocks[0].pc, width=1)
        asm.op("MUL")
        asm.push(blocks[0])
        asm.ops("ADD", "JUMP")

    def _multiply_by_entry(self, shift_right: int, mask: int) -> None:
        """[e, ...]: ACC *= T[(e >> shift_right) & mask, scaled], as STOREX then MULMODX."""
        asm = self.asm
        asm.push(1)
        asm.op("DUP2")
        if shift_right >= 0:
            asm.push(shift_right, width=1)
            asm.op("SHR")
        else:
            asm.push(-shift_right, width=1)
            asm.op("SHL")
        asm.push(mask, width=2)
        asm.ops("AND", "PUSH0")
        asm.evmmax_op("STOREX")
        asm.evmmax("MULMODX", ACC, ACC, TMP)

    def _top_block(self) -> None:
        """Window 51: bit 255 alone."""
        self.asm.evmmax("MULMODX", ACC, ACC, ACC)
        self._multiply_by_entry(255 - self.shift, 1 << self.shift)

    def _block(self, j: int) -> None:
        """Window j (bits 5j .. 5j + 4): five squarings, one multiplication by T[window]."""
        for _ in range(WINDOW):
            self.asm.evmmax("MULMODX", ACC, ACC, ACC)
        self._multiply_by_entry(WINDOW * j - self.shift, (ENTRIES - 1) << self.shift)

    def _tail(self) -> None:
        """After a word: the next one, if any, else the output."""
        asm = self.asm
        asm.place(self.at["tail"])                            # [e, next, end, es, Msize]
        asm.ops("DUP3", "DUP3", "LT")
        asm.jumpi(self.at["more"])
        asm.jump(self.at["out"])
        asm.place(self.at["more"])
        asm.ops("POP", "DUP1", "MLOAD", "SWAP1")
        asm.push(WORD)
        asm.ops("ADD", "SWAP1")
        asm.jump(self.at["top"])

    # --- the output ------------------------------------------------------------------

    def _output(self) -> None:
        """[e, next, end, es, Msize]: RETURN ACC right-aligned in Msize bytes of fresh
        memory (LOADX writes es bytes ending at the end; where es > Msize the bytes below
        the output are zeros of the value and lie outside it)."""
        asm = self.asm
        asm.place(self.at["out"])
        asm.ops("POP", "POP", "POP", "MSIZE")                 # [out, es, Msize]
        asm.ops("DUP3", "DUP2", "ADD")                        # [end, out, es, Msize]
        asm.op("PUSH0")
        asm.push(1)
        asm.ops("DUP3", "SUB", "MSTORE8")                     # memory reaches end
        asm.push(1)
        asm.push(ACC)
        asm.ops("DUP5", "DUP4", "SUB")                        # [end - es, ACC, 1, end, ...]
        asm.evmmax_op("LOADX")
        asm.ops("POP", "SWAP1", "POP", "RETURN")

    def _zero_exponent(self) -> None:
        """[p, end, es, Msize] with E = 0: 1 (M >= 3) in Msize bytes; and M = 1's zeros."""
        asm = self.asm
        asm.place(self.at["e0"])
        asm.ops("POP", "POP", "POP", "MSIZE")                 # [out, Msize]
        asm.push(1)
        asm.ops("DUP3", "DUP3", "ADD")
        asm.push(WORD)
        asm.ops("SWAP1", "SUB", "MSTORE", "RETURN")
        if self.words == 1:
            asm.place(self.at["m1"])                          # [Msize]
            asm.ops("MSIZE", "RETURN")


def _load(asm: Assembler, slot: int) -> None:
    asm.push(slot)
    asm.op("MLOAD")


def _loadx(asm: Assembler, dest: int, source: int, count: int) -> None:
    asm.push(count)
    asm.push(source)
    asm.push(dest)
    asm.evmmax_op("LOADX")
