"""MODEXP (precompile 0x05) as a contract ``modexp``, for plain EVM (``target="evm"``) and
EVMMAX (``"evmmax"``): the precompile's input and output (:mod:`.reference`), meant to
stand at its address (EIP-8200), so a length above 1,024 bytes (EIP-7823) fails as the
precompile does, by an exceptional halt (INVALID) that consumes the call's gas.

The parser picks a path by the modulus, once:
- all three lengths 1..32 bytes (the common call): the values straight from calldata as
  words, no copies (the word path);
- otherwise each value copied to memory as whole words (:mod:`.layout`), the modulus's
  leading zero words dropped; a zero modulus answers Msize zero bytes, Msize = 0 nothing;
- a modulus below 2**256: :mod:`.small` (MULMOD, windows), the base first reduced word by
  word (Horner: r = r * 2**256 + w mod M) and the exponent's leading zero words skipped;
  on plain EVM, the word path's inversions and square roots modulo BN254's p and r as
  chains written out at build time (:mod:`.chains`);
- a larger one: :mod:`.multiword` (word-level Montgomery arithmetic for odd moduli, and
  the even ones' method), or on EVMMAX an odd modulus of at most 768 bits through one
  SETMODX (:mod:`.evmmax_path`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional, Tuple

from ..asm import Assembler, Label, Program
from ..asm.failure import HALT
from ..asm.layout import Memory
from ..tower.target import Target
from . import chains, small
from .layout import (BASE_AT_SLOT, BASE_LENGTH_SLOT, BASE_WORDS_SLOT, DATA_AT, EXP_AT_SLOT,
                     EXP_END_SLOT, EXP_LENGTH_SLOT, EXP_NEXT_SLOT, EXP_WORDS_SLOT,
                     FREE_AT_SLOT, MOD_AT_SLOT, MOD_LENGTH_SLOT, MOD_WORDS_SLOT, WORD)
from .reference import HEADER, MAX_LENGTH
from .words import first_nonzero_word, scan_words

NAME = "modexp"
CONTRACTS = (NAME,)
TARGETS_OF = {NAME: ("evmmax", "evm")}


@dataclass(frozen=True)
class Paths:
    """What a target's build does beyond the generic plain-EVM paths: odd moduli of at
    most ``native_words`` words go to its own arithmetic (0: none); ``known`` (modulus,
    exponent) pairs run as written-out chains (:mod:`.chains`)."""
    native_words: int = 0
    known: Tuple[Tuple[int, int], ...] = ()


PATHS = {"evm": Paths(known=chains.KNOWN), "evmmax": Paths(native_words=3)}


class _Modexp:
    def __init__(self, asm: Assembler, paths: Paths) -> None:
        self.asm, self.paths = asm, paths
        self.small = small.Entries(asm)
        self.multiword = asm.new_label("modexp_multiword")
        self.native = asm.new_label("modexp_native")
        self.zero_modulus = asm.new_label("modexp_m0")     # [0, Msize]
        self.spill = asm.new_label("modexp_spill")        # [b, e, M, Msize]
        self.fail = asm.new_label("modexp_fail")
        self.small_general = asm.new_label("modexp_small_general")
        self.chains = {known: asm.new_label("modexp_chain") for known in paths.known}

    def emit(self) -> None:
        asm = self.asm
        general, words = asm.new_label("modexp_general"), asm.new_label("modexp_words")
        with asm.scope("header"):
            self._header(general, words)
        with asm.scope("word_path"):
            asm.place(words)
            self._word_path()
        with asm.scope("general_path"):
            asm.place(general)
            self._general_path()
        after_table = asm.new_label("modexp_exponent")
        small.emit(asm, self.small, after_table)
        for (_, exponent), entry in self.chains.items():
            chains.emit_chain(asm, exponent, entry, self.small.out)
        with asm.scope("exponent"):
            asm.place(after_table)                         # [e, M, Msize]
            asm.op("DUP1")
            asm.jumpi(self.small.first_word)
            asm.jump(self.small.zero_exponent)
        with asm.scope("zero_modulus"):
            asm.place(self.zero_modulus)                   # [M = 0, Msize]: Msize zeros
            asm.ops("POP", "MSIZE", "RETURN")
        asm.place(self.fail)
        asm.fail()
        if self.paths.native_words:
            with asm.scope("spill"):
                self._spill()
        self._big_paths()

    # --- the header ------------------------------------------------------------------

    def _header(self, general: Label, words: Label) -> None:
        """[] -> [Msize] at ``words`` when all three lengths are 1..32 bytes, else
        [Msize] at ``general`` when all are at most 1,024; else the failure. With u =
        (bl - 1) | (el - 1) | (Msize - 1): u < 32 iff all are 1..32 (0 - 1 wraps above),
        u < 1024 iff all are 1..1024."""
        asm = self.asm
        asm.push(2 * WORD)
        asm.op("CALLDATALOAD")                             # [Msize]
        asm.push(1)
        asm.ops("DUP2", "SUB")
        for at in (0, WORD):
            asm.push(1)
            asm.push(at)
            asm.ops("CALLDATALOAD", "SUB", "OR")           # [u, Msize]
        asm.push(WORD)
        asm.ops("DUP2", "LT")
        asm.jumpi(words)
        asm.push(MAX_LENGTH)
        asm.ops("DUP2", "LT")
        asm.jumpi(general)
        # some length is 0 or above 1,024: fail if one is above
        for at in (0, WORD, 2 * WORD):
            asm.push(MAX_LENGTH)
            asm.push(at)
            asm.ops("CALLDATALOAD", "GT")
            asm.jumpi(self.fail)
        asm.jump(general)

    # --- all lengths 1..32 -----------------------------------------------------------

    def _word_path(self) -> None:
        """[u, Msize] -> [b, e, M, Msize] at the small path's table (or the native path's
        entry with the values spilled to memory)."""
        asm = self.asm
        asm.op("POP")
        self._calldata_value(lambda: (asm.push(WORD), asm.op("CALLDATALOAD"), asm.push(0),
                                      asm.ops("CALLDATALOAD", "ADD"), asm.push(HEADER),
                                      asm.op("ADD")),
                             2 * WORD)                     # [M, Msize]
        asm.ops("DUP1", "ISZERO")
        asm.jumpi(self.zero_modulus)
        self._calldata_value(lambda: (asm.push(0), asm.op("CALLDATALOAD"), asm.push(HEADER),
                                      asm.op("ADD")),
                             WORD)                         # [e, M, Msize]
        self._calldata_value(lambda: asm.push(HEADER), 0)  # [b, e, M, Msize]
        if self.paths.native_words:
            asm.push(1)
            asm.ops("DUP4", "AND")                         # M odd: the native path
            asm.jumpi(self.spill)
        if self.chains:
            chains.emit_dispatch(asm, self.chains, self.small.table)
        else:
            asm.jump(self.small.table)

    def _calldata_value(self, push_offset, length_at: int) -> None:
        """Push the value whose calldata offset ``push_offset()`` pushes and whose length
        (1..32 bytes) is the header word at ``length_at``."""
        asm = self.asm
        push_offset()
        asm.op("CALLDATALOAD")
        asm.push(length_at)
        asm.op("CALLDATALOAD")
        asm.push(3)
        asm.op("SHL")
        asm.push(256)
        asm.ops("SUB", "SHR")

    def _spill(self) -> None:
        """[b, e, M, Msize] of the word path -> memory as :mod:`.layout` states it, for the
        native path: the values' words, the declared lengths copied from the header, and
        the slots that are the same for every such call (one word each, at DATA_AT on)
        copied from the code."""
        asm = self.asm
        asm.place(self.spill)
        for i in range(3):                                  # b, e, M at DATA_AT + 32 i
            _store(asm, DATA_AT + WORD * i)
        asm.push(HEADER)
        asm.op("PUSH0")
        asm.push(_first_of_run((BASE_LENGTH_SLOT, EXP_LENGTH_SLOT, MOD_LENGTH_SLOT)))
        asm.op("CALLDATACOPY")                              # the lengths, from the header
        constants = b"".join(_SPILLED_CONSTANTS[at].to_bytes(WORD, "big")
                             for at in sorted(_SPILLED_CONSTANTS))
        asm.push(len(constants))
        asm.push(asm.data(constants, "modexp_spilled_slots"))
        asm.push(_first_of_run(_SPILLED_CONSTANTS))
        asm.op("CODECOPY")
        asm.op("POP")
        asm.jump(self.native)

    # --- lengths 0 or 33..1,024 ------------------------------------------------------

    def _general_path(self) -> None:
        """[u, Msize] -> the values in memory (:mod:`.layout`), then the path of the
        modulus's size."""
        asm = self.asm
        stop = asm.new_label("modexp_empty")
        asm.op("POP")
        asm.ops("DUP1", "ISZERO")
        asm.jumpi(stop)                                     # Msize = 0: no output
        asm.push(DATA_AT)                                   # [at, Msize]: where words go
        for i, slots in enumerate(_VALUE_SLOTS):
            self._copy_value(i, *slots)                     # [at of the next, Msize]
        self._strip_modulus()
        asm.place(stop)
        asm.op("STOP")
        with asm.scope("small_general"):
            self._small_general()

    def _copy_value(self, i: int, length_slot: int, words_slot: int, at_slot: int) -> None:
        """[at, Msize] -> [at + 32 words, Msize]: value ``i`` (base, exponent, modulus)
        right-aligned in whole words from ``at``, its slots written."""
        asm = self.asm
        asm.op("DUP1")
        _store(asm, at_slot)
        asm.push(WORD * i)
        asm.ops("CALLDATALOAD", "DUP1")
        _store(asm, length_slot)                            # [length, at, Msize]
        asm.push(WORD - 1)
        asm.ops("DUP2", "ADD")
        asm.push(5)
        asm.ops("SHR", "DUP1")
        _store(asm, words_slot)                             # [words, length, at, Msize]
        asm.push(5)
        asm.ops("SHL", "DUP3", "ADD")                       # [end, length, at, Msize]
        asm.op("DUP2")
        asm.push(HEADER)                                    # its calldata offset:
        for before in range(i):                             # the header, the lengths before
            asm.push(WORD * before)
            asm.ops("CALLDATALOAD", "ADD")
        asm.ops("DUP4", "DUP4", "SUB")                      # [end - length, from, length, ...]
        asm.op("CALLDATACOPY")                              # [end, length, at, Msize]
        asm.ops("SWAP2", "POP", "POP")

    def _strip_modulus(self) -> None:
        """[end, Msize], the modulus's words up to ``end``: drop its leading zero words,
        then the path of its size."""
        asm = self.asm
        zero = asm.new_label("modexp_no_word")
        asm.op("DUP1")
        _store(asm, FREE_AT_SLOT)
        _load(asm, MOD_AT_SLOT)                             # [p, end, Msize]
        scan_words(asm, zero)
        asm.op("DUP1")
        _store(asm, MOD_AT_SLOT)
        asm.ops("SWAP1", "SUB")
        asm.push(5)
        asm.ops("SHR", "DUP1")
        _store(asm, MOD_WORDS_SLOT)                         # [words, Msize]
        if self.paths.native_words:                         # odd and short enough
            native = asm.new_label("modexp_to_native")
            asm.push(self.paths.native_words + 1)
            asm.ops("DUP2", "LT")
            asm.push(1)
            _load(asm, FREE_AT_SLOT)
            asm.push(WORD)
            asm.ops("SWAP1", "SUB", "MLOAD", "AND", "AND")
            asm.jumpi(native)
        asm.push(1)
        asm.ops("DUP2", "EQ")
        asm.jumpi(self.small_general)
        asm.ops("POP", "POP")
        asm.jump(self.multiword)
        if self.paths.native_words:
            asm.place(native)
            asm.ops("POP", "POP")
            asm.jump(self.native)
        asm.place(zero)                                     # M = 0
        asm.op("POP")
        asm.jump(self.zero_modulus)

    def _small_general(self) -> None:
        """[words = 1, Msize]: the base reduced mod M word by word, the exponent's first
        non-zero word found, then the small path's table."""
        asm = self.asm
        asm.place(self.small_general)
        asm.op("POP")
        _load(asm, MOD_AT_SLOT)
        asm.op("MLOAD")                                     # [M, Msize]
        asm.push(0)                                         # r
        _load(asm, BASE_AT_SLOT)                            # [p, r, M, Msize]
        loop, done = asm.new_label("modexp_reduce"), asm.new_label("modexp_reduced")
        asm.place(loop)
        _load(asm, BASE_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        _load(asm, BASE_AT_SLOT)
        asm.ops("ADD", "DUP2", "EQ")
        asm.jumpi(done)
        asm.ops("DUP3", "DUP1")
        asm.push(0)
        asm.ops("SUB", "MOD")                               # [2**256 mod M, p, r, M, Msize]
        asm.ops("DUP4", "SWAP1", "DUP4", "MULMOD")          # [r 2**256 mod M, p, r, M, ...]
        asm.ops("DUP4", "SWAP1", "DUP3", "MLOAD", "ADDMOD")  # [r', p, r, M, Msize]
        asm.ops("SWAP2", "POP")
        asm.push(WORD)
        asm.op("ADD")
        asm.jump(loop)
        asm.place(done)
        asm.op("POP")                                       # [b, M, Msize]
        none = asm.new_label("modexp_e_zero")
        first_nonzero_word(asm, EXP_AT_SLOT, EXP_WORDS_SLOT, none)  # [p, end, b, M, Msize]
        asm.op("SWAP1")
        _store(asm, EXP_END_SLOT)                           # [p, b, M, Msize]
        asm.ops("DUP1", "MLOAD", "SWAP1")
        asm.push(WORD)
        asm.op("ADD")
        _store(asm, EXP_NEXT_SLOT)                          # [e, b, M, Msize]
        asm.op("SWAP1")
        asm.jump(self.small.table)
        asm.place(none)                                     # E = 0 (NEXT = END = 0)
        asm.ops("POP", "POP")
        asm.push(0)
        asm.op("SWAP1")
        asm.jump(self.small.table)

    def _big_paths(self) -> None:
        """The multi-word path, and the target's native one."""
        from .multiword import emit_multiword
        emit_multiword(self.asm, self.multiword)
        if self.paths.native_words:
            from .evmmax_path import emit_native
            emit_native(self.asm, self.native)


# The slots that are the same for every call of the word path (for the spill's one copy).
_SPILLED_CONSTANTS = {BASE_WORDS_SLOT: 1, EXP_WORDS_SLOT: 1, MOD_WORDS_SLOT: 1,
                      BASE_AT_SLOT: DATA_AT, EXP_AT_SLOT: DATA_AT + WORD,
                      MOD_AT_SLOT: DATA_AT + 2 * WORD, FREE_AT_SLOT: DATA_AT + 3 * WORD}


def _first_of_run(slots: Iterable[int]) -> int:
    """The first of ``slots``, checked to be consecutive words (one copy fills them)."""
    ordered = sorted(slots)
    if ordered != [ordered[0] + WORD * i for i in range(len(ordered))]:
        raise ValueError(f"slots {ordered} are not consecutive words")
    return ordered[0]


_VALUE_SLOTS = ((BASE_LENGTH_SLOT, BASE_WORDS_SLOT, BASE_AT_SLOT),
                (EXP_LENGTH_SLOT, EXP_WORDS_SLOT, EXP_AT_SLOT),
                (MOD_LENGTH_SLOT, MOD_WORDS_SLOT, MOD_AT_SLOT))


def _store(asm: Assembler, slot: int) -> None:
    asm.push(slot)
    asm.op("MSTORE")


def _load(asm: Assembler, slot: int) -> None:
    asm.push(slot)
    asm.op("MLOAD")


@lru_cache(maxsize=None)
def program_for(paths: Paths, opcodes: str) -> Program:
    """The contract with ``paths`` for the opcode set ``opcodes`` (:data:`PATHS` holds each
    target's; another choice measures what a path is worth)."""
    asm = Assembler(NAME, memory=Memory(), opcodes=opcodes, failure=HALT)
    _Modexp(asm, paths).emit()
    return asm.assemble()


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled ``modexp`` for ``isa`` (``compact`` changes nothing: one layout)."""
    return program_for(PATHS[isa.name], isa.opcodes)
