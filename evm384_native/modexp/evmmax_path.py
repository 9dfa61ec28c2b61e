"""B^E mod M on EVMMAX (EIP-6690) for an odd modulus of at most 3 words (768 bits, M >= 3;
M = 1 answers zeros here): one SETMODX over the modulus as :mod:`.layout` leaves it, then
left-to-right fixed windows of WINDOW = 5 bits over the exponent, as :mod:`.small` does
with MULMOD.

This project's STOREX and LOADX convert to and from Montgomery form themselves (the EIP's
``mulmont(x, R**2 mod m)`` and ``mulmont(x, 1)``, each priced as one multiplication), so
canonical values go in and out and no R**2 constant is computed here.

Registers are named in immediates, so a window's value cannot pick one: the table
T[i] = B^i mod M, i < 32, is built in registers by vector MULMODX (doubling the run:
T2, T3..T4, T5..T8, T9..T16, then T17..T31 in the registers of T2..T16 once those are
out), LOADXed to memory, and each window STOREXes its entry from memory into a fixed
register and multiplies the accumulator by it. Beyond its five squarings a window costs
the extraction (DUP, SHR, AND: the offset's scale is folded into the shift and the
mask), PUSH1 1, PUSH0, STOREX (1 + one multiplication), the MULMODX and the block's
JUMPDEST: 26 gas with 256-bit registers (2 gas a multiplication), 36 with the squarings.

Entries stand ``stride`` bytes apart (a power of two, so the offset is a shift and a
mask), each entry's ``element_size`` bytes from its start: 32 for a one-word modulus
(the table fills TABLE_AT..SLOTS_AT), 128 for two and three words (the table covers the
slots and the data, so the exponent's words are first copied past it and the modulus's
length waits on the stack). One-word moduli of 193..256 bits, the common case, have
32-byte registers, the stride: their code knows the element size and copies the table
out in two LOADX; M = 1, M < 2**192 and the chains' moduli (below) are sent aside by one
test, and go back where they share the code. A base of one word goes straight into a register, a longer
one through Horner's rule in registers, r = r * (2**256 mod M) + w, each word w < M
(EVM's MOD first where M is one word).
The stack in the exponent's blocks: [e, next, end, element_size, Msize] (e the current
exponent word, next and end the memory offsets of the exponent's next word and its end).

The (modulus, exponent) pairs of :data:`.chains.KNOWN` (SNARK verifiers' inversions and
square roots modulo BN254's p and r, nearly all of MODEXP's calls: EIP-8200) skip the
windows: their exponent is known at build time, so a chain of sliding windows written out
as MULMODX names its odd powers' registers directly (no STOREX, no bit read at run time).
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from ..asm import Assembler, Label
from .chains import KNOWN, SQUARE, sliding_windows
from .layout import (BASE_AT_SLOT, BASE_WORDS_SLOT, EXP_AT_SLOT, EXP_WORDS_SLOT,
                     MOD_AT_SLOT, MOD_LENGTH_SLOT, MOD_WORDS_SLOT, SLOTS_AT, WORD)
from .words import first_nonzero_word

WINDOW = 5
ENTRIES = 1 << WINDOW
HALF = ENTRIES // 2
TOP_WINDOW = 256 // WINDOW                 # 51: bit 255 alone, above 51 full windows
REGISTERS = HALF + 1                       # T1..T16 in registers 0..15 (EIP-6690's bound
                                           # idx + stride * count < registers: one spare)
TMP, ACC = 0, 1                            # once the table is in memory
HORNER_TERM, HORNER_FACTOR = 2, 1          # registers while the base is reduced (r in 0)
CHAINS = KNOWN                             # (one-word modulus, exponent) pairs run as
                                           # chains of MULMODX (some 2.7 KB of code each)
STAGE_AT, FACTOR_AT = 128, 256             # where values wait for STOREX (table room:
                                           # the table is written after them)


def emit_native(asm: Assembler, entry: Label) -> None:
    """The EVMMAX path: from ``entry`` (empty stack, memory as :mod:`.layout`) to RETURN."""
    one, more = asm.new_label("modexp_x_one_word"), asm.new_label("modexp_x_words")
    with asm.scope("evmmax_dispatch"):
        asm.place(entry)
        _load(asm, MOD_WORDS_SLOT)
        asm.push(1)
        asm.op("EQ")
        asm.jumpi(one)
        asm.jump(more)
    with asm.scope("evmmax_one_word"):
        _Variant(asm, one_word=True).emit(one)
    with asm.scope("evmmax_words"):
        _Variant(asm, one_word=False).emit(more)


class _Variant:
    """The path for one-word moduli (``one_word``: base words reduced by MOD, M = 1
    possible, 32-byte table entries) or for two- and three-word ones (128-byte entries)."""

    def __init__(self, asm: Assembler, one_word: bool) -> None:
        self.asm, self.one_word = asm, one_word
        self.known: Dict[int, List[int]] = {}                # modulus -> exponents with chains
        for modulus, exponent in (CHAINS if one_word else ()):
            self.known.setdefault(modulus, []).append(exponent)
        self.shift = 5 if one_word else 7            # log2 of the stride
        self.stride = 1 << self.shift
        self.table_end = ENTRIES * self.stride       # the exponent's copy goes here
        self.copies_exponent = self.table_end > SLOTS_AT   # the table at 0 (TABLE_AT)
        tag = "x1" if one_word else "xn"
        names = ("tail", "more", "e0", "m1", "top", "tabled", "special", "es32", "small",
                 "out")
        self.at = {n: asm.new_label(f"modexp_{tag}_{n}") for n in names}
        self.blocks = [asm.new_label(f"modexp_{tag}_w{j}")     # windows 50, 49, .., 0
                       for j in range(TOP_WINDOW - 1, -1, -1)]
        self.long_bases: List[Tuple[Label, Label]] = []    # each base's Horner, out of line

    def emit(self, entry: Label) -> None:
        asm = self.asm
        asm.place(entry)
        _load(asm, MOD_LENGTH_SLOT)                           # [Msize]
        _load(asm, MOD_AT_SLOT)
        asm.op("MLOAD")                                       # [M's top word, Msize]
        if self.one_word:                                     # M >= 2**192: es = 32
            self._filter()
            asm.place(self.at["es32"])
            asm.op("POP")
            asm.push(self.stride)                             # [es, Msize]
            self._prelude(whole=True)
        else:
            self._element_size()
            self._prelude(whole=False)
        asm.place(self.at["tabled"])
        asm.ops("DUP1", "MLOAD", "SWAP1")                     # [p, e, end, es, Msize]
        asm.push(WORD)
        asm.ops("ADD", "SWAP1")                               # [e, next, end, es, Msize]
        self._first_word()
        self._top_block()
        for j in range(TOP_WINDOW - 1, -1, -1):
            self._block(j)
        self._tail()                                          # on into the output
        self._zero_exponent()
        if self.one_word:
            self._special()
        for long_base, based in self.long_bases:
            self._long_base(long_base, based)

    def _prelude(self, whole: bool) -> None:
        """[es, Msize] -> [p, end, es, Msize] with the table in memory: the exponent's
        first non-zero word p (E = 0: 1, at e0), SETMODX, the base, the table."""
        asm = self.asm
        first_nonzero_word(asm, EXP_AT_SLOT, EXP_WORDS_SLOT, self.at["e0"])
        self._setmodx()
        self._base()
        if self.copies_exponent:                              # base and modulus are used
            self._copy_exponent()
        self._build_table(whole)

    # --- set-up ----------------------------------------------------------------------

    def _filter(self) -> None:
        """[M, Msize], M one word: to ``special`` where M < 2**192 (registers below 32
        bytes, and M = 1, which SETMODX refuses) or M has chains, all in one test."""
        asm = self.asm
        asm.op("DUP1")
        asm.push(192)
        asm.ops("SHR", "ISZERO")
        for modulus in self.known:
            asm.op("DUP2")
            asm.push(modulus)
            asm.ops("EQ", "OR")
        asm.jumpi(self.at["special"])

    def _element_size(self) -> None:
        """[M's top word, Msize] -> [es, Msize]: the registers' bytes, 8 per 64 bits."""
        asm = self.asm
        asm.op("CLZ")                                         # M's bits: 256 words - clz
        self._modulus_words(8)
        asm.push(63)
        asm.ops("ADD", "SUB")
        asm.push(6)
        asm.op("SHR")
        asm.push(3)
        asm.op("SHL")

    def _special(self) -> None:
        """[M, Msize] at ``special``: a modulus with chains runs the chain of its exponent
        (one word), else goes back to the generic path; M = 1 answers zeros; another
        modulus below 2**192 takes the generic path with its own element size."""
        asm = self.asm
        labels = {m: asm.new_label("modexp_x_known") for m in self.known}
        asm.place(self.at["special"])
        for modulus, label in labels.items():
            asm.op("DUP1")
            asm.push(modulus)
            asm.op("EQ")
            asm.jumpi(label)
        asm.op("DUP1")
        asm.push(1)
        asm.op("EQ")
        asm.jumpi(self.at["m1"])
        asm.place(self.at["small"])                           # M < 2**192
        self._element_size()
        self._prelude(whole=False)
        asm.jump(self.at["tabled"])
        for modulus, label in labels.items():
            generic = asm.new_label("modexp_x_not_known")
            chains = {e: asm.new_label("modexp_x_chain") for e in self.known[modulus]}
            asm.place(label)
            _load(asm, EXP_AT_SLOT)
            asm.op("MLOAD")                                   # [e's first word, M, Msize]
            for exponent, chain in chains.items():
                asm.op("DUP1")
                asm.push(exponent)
                asm.op("EQ")
                asm.jumpi(chain)
            asm.place(generic)
            asm.op("POP")
            asm.jump(self.at["es32" if element_size(modulus) == self.stride else "small"])
            for exponent, chain in chains.items():
                asm.place(chain)
                self._chain(modulus, exponent, generic)

    def _chain(self, modulus: int, exponent: int, generic: Label) -> None:
        """[e, M, Msize], e the exponent's first word (= ``exponent``; to ``generic``
        unless it is the only word): B^exponent as a chain of MULMODX
        (:func:`chain_steps`), the base and output as in the generic path."""
        asm = self.asm
        _load(asm, EXP_WORDS_SLOT)
        asm.push(1)
        asm.ops("EQ", "ISZERO")
        asm.jumpi(generic)
        asm.ops("POP", "POP")
        asm.push(element_size(modulus))
        asm.ops("PUSH0", "PUSH0")                             # [-, -, es, Msize]
        self._setmodx()
        self._base()
        first, steps = chain_steps(exponent)
        powers = max([first] + [s for s in steps if s != SQUARE]) // 2 + 1
        odd = [0] + list(range(CHAIN_SQUARE + 1, CHAIN_SQUARE + powers))  # B^(2i+1) in odd[i]
        asm.evmmax("MULMODX", CHAIN_SQUARE, 0, 0)             # B^2
        for i in range(1, powers):
            asm.evmmax("MULMODX", odd[i], odd[i - 1], CHAIN_SQUARE)
        if not steps or steps[0] != SQUARE:
            raise ValueError(f"the chain of {exponent:#x} does not start with a squaring")
        asm.evmmax("MULMODX", ACC, odd[first >> 1], odd[first >> 1])   # the first squaring
        for step in steps[1:]:
            y = ACC if step == SQUARE else odd[step >> 1]
            asm.evmmax("MULMODX", ACC, ACC, y)
        asm.op("PUSH0")                                       # [-, -, -, es, Msize]
        asm.jump(self.at["out"])

    def _modulus_words(self, shift: int) -> None:
        """Push the modulus's word count << shift (a constant for one word)."""
        if self.one_word:
            self.asm.push(1 << shift)
            return
        _load(self.asm, MOD_WORDS_SLOT)
        self.asm.push(shift)
        self.asm.op("SHL")

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
        self._modulus_words(5)
        _load(asm, MOD_AT_SLOT)
        asm.op("PUSH0")
        asm.evmmax_op("SETMODX")

    def _stage(self, at: int, register: int, es_depth: int) -> None:
        """[v, ...] -> [...], register = v (v < M), through memory at ``at`` (es bytes,
        big-endian: v's word ends there); es is at ``es_depth`` under v."""
        asm = self.asm
        asm.op(f"DUP{es_depth + 1}")
        asm.push(at - WORD)
        asm.ops("ADD", "MSTORE")
        asm.push(1)
        asm.push(at)
        asm.push(register)
        asm.evmmax_op("STOREX")

    def _reduce(self) -> None:
        """[w, ...] -> [w mod M, ...] where M is one word (else w < 2**256 <= M already)."""
        if self.one_word:
            _load(self.asm, MOD_AT_SLOT)
            self.asm.ops("MLOAD", "SWAP1", "MOD")

    def _base(self) -> None:
        """[p, end, es, Msize]: register 0 = B mod M (Montgomery form): one word (or none:
        its word times 0) here, more by Horner's rule out of line (:meth:`_long_base`)."""
        asm = self.asm
        long_base, based = asm.new_label("modexp_x_long_base"), asm.new_label("modexp_x_based")
        self.long_bases.append((long_base, based))
        _load(asm, BASE_WORDS_SLOT)
        asm.push(1)
        asm.ops("DUP2", "GT")
        asm.jumpi(long_base)                                  # [n, p, end, es, Msize]
        _load(asm, BASE_AT_SLOT)
        asm.ops("MLOAD", "MUL")
        self._reduce()
        self._stage(STAGE_AT, 0, 3)
        asm.place(based)

    def _base_word(self, register: int) -> None:
        """[q, qend, p, end, es, Msize] -> [q + 32, qend, ...], ``register`` = the word at
        q, reduced."""
        asm = self.asm
        asm.ops("DUP1", "MLOAD")                              # [w, q, qend, ...]
        self._reduce()
        self._stage(STAGE_AT, register, 5)
        asm.push(WORD)
        asm.op("ADD")

    def _long_base(self, long_base: Label, based: Label) -> None:
        """[n >= 2, p, end, es, Msize]: r = r * (2**256 mod M) + w over the base's words,
        r in register 0, then back."""
        asm = self.asm
        loop = asm.new_label("modexp_x_horner")
        asm.place(long_base)
        asm.push(5)
        asm.op("SHL")
        _load(asm, BASE_AT_SLOT)
        asm.op("ADD")
        _load(asm, BASE_AT_SLOT)                              # [q, qend, p, end, es, Msize]
        self._base_word(0)
        if self.one_word:                                     # 2**256 mod M = (0 - M) mod M
            _load(asm, MOD_AT_SLOT)
            asm.ops("MLOAD", "DUP1", "PUSH0", "SUB", "MOD")
            self._stage(FACTOR_AT, HORNER_FACTOR, 5)
        else:                                                 # 2**256 < M
            asm.push(1)
            asm.op("DUP6")
            asm.push(FACTOR_AT - WORD - 1)
            asm.ops("ADD", "MSTORE8")
            asm.push(1)
            asm.push(FACTOR_AT)
            asm.push(HORNER_FACTOR)
            asm.evmmax_op("STOREX")
        asm.place(loop)
        asm.evmmax("MULMODX", 0, 0, HORNER_FACTOR)
        self._base_word(HORNER_TERM)
        asm.evmmax("ADDMODX", 0, 0, HORNER_TERM)
        asm.ops("DUP2", "DUP2", "LT")
        asm.jumpi(loop)
        asm.ops("POP", "POP")
        asm.jump(based)

    def _build_table(self, whole: bool) -> None:
        """[p, end, es, Msize], T1 in register 0: T[i] at i * stride in memory, T[0] = 1
        written directly, T1..T16 built in registers 0..15 and copied out, then T17..T31
        in registers 1..15 (EIP-6690: a vector's operands are read before it writes);
        one LOADX a half where es = stride (``whole``), else one an entry."""
        asm = self.asm
        asm.push(1)
        if whole:                                             # T[0] = 1 (es known)
            asm.push(self.stride - 1)
        else:
            asm.op("DUP4")
            asm.push(1)
            asm.ops("SWAP1", "SUB")
        asm.op("MSTORE8")
        for count in (1, 2, 4, 8):                            # T(c+1..2c) = Tc T(1..c)
            asm.evmmax("MULMODX", count, count - 1, 0, count, (1, 0, 1))
        self._copy_out(1, 0, HALF, whole)                     # T1..T16
        asm.evmmax("MULMODX", 1, HALF - 1, 0, HALF - 1, (1, 0, 1))  # T17..T31 = T16 T(1..15)
        self._copy_out(HALF + 1, 1, HALF - 1, whole)

    def _copy_out(self, entry: int, register: int, count: int, whole: bool) -> None:
        """Entries entry.. from registers register.."""
        if whole:
            _loadx(self.asm, entry * self.stride, register, count)
            return
        for i in range(count):
            _loadx(self.asm, (entry + i) * self.stride, register + i, 1)

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
        """Window 51 of a word after the first: bit 255 alone."""
        self.asm.place(self.at["top"])
        self.asm.evmmax("MULMODX", ACC, ACC, ACC)
        self._multiply_by_entry(255 - self.shift, 1 << self.shift)

    def _block(self, j: int) -> None:
        """Window j (bits 5j .. 5j + 4): five squarings, one multiplication by T[window]."""
        self.asm.place(self.blocks[TOP_WINDOW - 1 - j])
        for _ in range(WINDOW):
            self.asm.evmmax("MULMODX", ACC, ACC, ACC)
        self._multiply_by_entry(WINDOW * j - self.shift, (ENTRIES - 1) << self.shift)

    def _tail(self) -> None:
        """After a word: the next one, if any; else RETURN ACC right-aligned in Msize
        bytes of fresh memory (LOADX writes es bytes ending at the output's end; where
        es > Msize, the bytes below the output are the value's zeros, outside it)."""
        asm = self.asm
        asm.place(self.at["tail"])                            # [e, next, end, es, Msize]
        asm.ops("DUP3", "DUP3", "LT")
        asm.jumpi(self.at["more"])
        if self.known:
            asm.place(self.at["out"])                         # the chains' output
        asm.op("MSIZE")                                       # [out, e, next, end, es, Msize]
        asm.ops("DUP6", "DUP2", "ADD")                        # [end', out, ...]
        asm.op("PUSH0")
        asm.push(1)
        asm.ops("DUP3", "SUB", "MSTORE8")                     # memory reaches end'
        asm.push(1)
        asm.push(ACC)
        asm.ops("DUP8", "DUP4", "SUB")                        # [end' - es, ACC, 1, end', ...]
        asm.evmmax_op("LOADX")
        asm.ops("POP", "DUP6", "SWAP1", "RETURN")             # (out, Msize)
        asm.place(self.at["more"])
        asm.ops("POP", "DUP1", "MLOAD", "SWAP1")
        asm.push(WORD)
        asm.ops("ADD", "SWAP1")
        asm.jump(self.at["top"])

    def _zero_exponent(self) -> None:
        """[p, end, es, Msize] with E = 0: 1 (M >= 3) in Msize bytes; and M = 1's zeros."""
        asm = self.asm
        asm.place(self.at["e0"])
        asm.ops("POP", "POP", "POP", "MSIZE")                 # [out, Msize]
        asm.push(1)
        asm.ops("DUP3", "DUP3", "ADD")
        asm.push(WORD)
        asm.ops("SWAP1", "SUB", "MSTORE", "RETURN")
        if self.one_word:
            asm.place(self.at["m1"])                          # [M = 1, Msize]
            asm.ops("POP", "MSIZE", "RETURN")


CHAIN_SQUARE = 2                           # B^2 while a chain's odd powers are built
CHAIN_POWERS = REGISTERS - 2 - CHAIN_SQUARE    # odd powers B^3.. in registers 3..15


def element_size(modulus: int) -> int:
    """EIP-6690's register bytes for ``modulus``: 8 per 64 bits."""
    return 8 * -(-modulus.bit_length() // 64)


def chain_steps(exponent: int) -> Tuple[int, list]:
    """Sliding windows (:func:`.chains.sliding_windows`) for a chain of MULMODX, all of one
    price: the width with the fewest operations whose odd powers fit the registers."""
    def operations(width: int) -> int:
        return len(sliding_windows(exponent, width)[1]) + (1 << (width - 1))
    width = min((w for w in range(1, 8) if (1 << (w - 1)) - 1 <= CHAIN_POWERS), key=operations)
    return sliding_windows(exponent, width)


def _load(asm: Assembler, slot: int) -> None:
    asm.push(slot)
    asm.op("MLOAD")


def _loadx(asm: Assembler, dest: int, source: int, count: int) -> None:
    asm.push(count)
    asm.push(source)
    asm.push(dest)
    asm.evmmax_op("LOADX")
