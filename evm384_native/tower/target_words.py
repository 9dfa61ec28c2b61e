"""The plain-EVM target: field values of up to 256 bits as EVM words, the arithmetic in
mainnet's instructions (ADDMOD, MULMOD, SUB, MOD), runs of it compiled to stack code.

Values live in a register file in memory (the register space of :mod:`..asm.layout`, as
EVMMAX's, but each register a 32-byte big-endian word of memory, canonical: no Montgomery
form, since MULMOD reduces a full product itself). The tower's operations are collected into
blocks and compiled once memory is linked (:mod:`.stack_code`): values stay on the stack
between the operations of a block, and only what a block changes is written back. Outside
the blocks, field values are plain memory words, so copies in and out are MCOPY, a
comparison hashes the words themselves, and the calldata's big-endian words are stored
where the values live.

Fields wider than 256 bits (BLS12-381's) are held as two words: ``for_field`` gives such a
field :class:`.target_wide.WideWords` (the same name, ``"evm"``).
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from typing import Callable, ContextManager, Iterator, List, Optional, Sequence, Tuple, Type

from ..asm import Assembler, Fp, Label, Memory, Region, Slot, raw
from ..asm.layout import FP_BYTES, WORD, RegisterSpace
from ..curves.model import Field
from .stack_code import BlockMemory, FieldOp, Path, Segment, compile_block
from .target import (EmitterView, MontgomeryConstants, PowerPlan, Target, broadcast,
                     reverse_values, scratch_buffer, strided_values)
from .target_wide import WideWords
from .word_power import emit_word_power
from .words import bswap256

WIDE = WideWords()
MAX_HEADROOM = 8
SCRATCH_WORDS = 64          # words a block may spill values to (the largest needs ~20)
COMPARED_WORDS = 8          # values of at most this many words compare word by word


def headroom(p: int) -> int:
    """How many multiples of p fit a word (BN254's 5, P-256's 1): the unreduced sums and
    differences the block compiler may leave (:class:`~.stack_code.BlockMemory`; at most
    MAX_HEADROOM: more buys little and each is a word of data)."""
    return min(((1 << 256) - 1) // p, MAX_HEADROOM)


class WordView(Slot):
    """The memory of a field slot (its registers, the register file's bytes each: 32 under
    plain EVM, 96 under EVM768): what EVM code reads and writes of it. Its address is known
    once memory is linked."""

    def __init__(self, file: Region, source: Slot, rel: int = 0) -> None:
        super().__init__(file, rel, f"{source.name}@memory")
        self.source = source

    @property
    def offset(self) -> int:
        return (self.region.base_offset()
                + self.source.offset // FP_BYTES * self.region.memory.register_bytes + self.rel)

    def part(self, kind: Type[Slot], rel: int, name: str) -> Slot:  # type: ignore[override]
        if rel < 0 or rel + kind.size > self.size:
            raise ValueError(f"{name}: {kind.size} bytes at +{rel} are outside {self!r}")
        return view_type(kind.size)(self.region, self.source, self.rel + rel)


@lru_cache(maxsize=None)
def view_type(size: int) -> Type[WordView]:
    """The view type of ``size`` bytes of words."""
    return type(f"Words{size}", (WordView,), {"size": size})


def view(e: EmitterView, slot: Slot) -> WordView:
    """The memory of the field slot ``slot``."""
    memory = e.asm.memory
    file = memory.register_file
    assert file is not None, "the memory was not made by a target with registers in memory"
    return view_type(slot.size // FP_BYTES * memory.register_bytes)(file, slot)


def copy_data(e: EmitterView, head: Slot, head_bytes: int) -> None:
    """Copy the code's data to memory: its first ``head_bytes`` (the modulus' data) to
    ``head``, the constants after them to the register file's constants (from zero's)."""
    asm = e.asm
    asm.push(head_bytes)
    asm.push(e.data_label)
    asm.push(head)
    asm.op("CODECOPY")
    asm.push(lambda: len(e.blob))
    asm.push(lambda: e.data_label.pc + head_bytes, width=2)     # code is below 64 KB
    asm.push(lambda: int(view(e, e.zero)))
    asm.op("CODECOPY")


Address = Callable[[], int]


class _Block:
    """Field operations on memory words (their addresses known once memory is linked),
    compiled when the code is assembled; ``memory()`` gives the block's
    :class:`~.stack_code.BlockMemory`."""

    def __init__(self, e: EmitterView, memory: Callable[[], BlockMemory]) -> None:
        self.e, self.asm, self.memory = e, e.asm, memory
        self.ops: List[Tuple[str, Address, Address, Address, Path]] = []

    def add(self, op: str, out: Address, x: Address, y: Address) -> None:
        self.ops.append((op, out, x, y, self.asm.path))

    def release(self, slots: Sequence[Slot]) -> None:
        """Temporaries leaving scope: their last values need not reach memory."""
        for slot in slots:
            for value in slot.fps():
                where = _at(self.e, value)
                self.add("kill", where, where, where)

    def segments(self) -> List[Segment]:
        ops = [FieldOp(op, out(), x(), y(), path) for op, out, x, y, path in self.ops]
        return compile_block(ops, self.memory())


def _field_block(e: EmitterView) -> _Block:
    """The open block of the emitter's field (its modulus, constants and scratch words:
    those of the program, or of :func:`block_scratch_at` where the block begins)."""
    scratch = e.buffers["block_scratch"]

    def memory() -> BlockMemory:
        first = int(view(e, e.zero))
        constants = {first + WORD * i: int.from_bytes(e.blob[WORD * i:WORD * (i + 1)], "big")
                     for i in range(len(e.blob) // WORD)}
        return BlockMemory(int(e.buffers["modulus"]), constants,
                           int(scratch), SCRATCH_WORDS,
                           headroom=headroom(e.curve.p),
                           modulus=e.curve.p if e.push_constants else None)
    return e.asm.late_block(e, lambda: _Block(e, memory))


@contextmanager
def block_scratch_at(e: EmitterView, slot: Slot) -> Iterator[None]:
    """Blocks begun inside spill values they read much later to ``slot`` (SCRATCH_WORDS
    words of memory nothing else reads or writes while they run: a table written after
    them), not to the program's scratch words, which lie after all other memory: there a
    long block's spills cost memory expansion. The block open at the end must not run on
    past the slot's free time (the caller ends it: a copy into the slot does)."""
    if slot.size < WORD * SCRATCH_WORDS:
        raise ValueError(f"{slot.name}: {slot.size} bytes, a block's scratch takes "
                         f"{WORD * SCRATCH_WORDS}")
    program_scratch = e.buffers["block_scratch"]
    e.buffers["block_scratch"] = slot
    try:
        yield
    finally:
        e.buffers["block_scratch"] = program_scratch


def _at(e: EmitterView, slot: Slot) -> Address:
    return lambda: int(view(e, slot))


class Words:
    """Values as memory words (up to 256 bits), runs of arithmetic as stack code.

    ``dense_code`` (the default) inlines hot code: long blocks, the least gas. The variant
    without it (``smaller``: calls instead, shorter blocks) is what a build falls back to
    when the inlined code exceeds the size limit (the BN254 pairing check's)."""
    name = "evm"
    opcodes = "evm"
    indexed_operands = False      # addresses are compiled into the blocks
    compact = False
    register_pairs = 2            # pair states in registers of their own (no copies)
    cheap_products = True         # MULMOD costs what ADDMOD does; a subtraction more
    field_blocks = True           # runs of operations compiled to stack code (stack_code)
    bit_loop_powers = False       # words' powers are short: unrolled

    def __init__(self, dense_code: bool = True) -> None:
        self.dense_code = dense_code
        self.smaller: Optional[Words] = Words(dense_code=False) if dense_code else None

    def __repr__(self) -> str:
        return "Words()" if self.dense_code else "Words(dense_code=False)"

    def for_field(self, curve: Field) -> Target:
        """The target for ``curve``'s field: this one for a word, else plain EVM's two-word
        form (:class:`.target_wide.WideWords`)."""
        return self if curve.p >> 256 == 0 else WIDE

    def montgomery_constants(self, p: int) -> Optional[MontgomeryConstants]:
        """None: words hold canonical values (MULMOD reduces a full product itself)."""
        return None

    def new_memory(self) -> Memory:
        return Memory(registers=RegisterSpace(limit=None), register_bytes=WORD)

    def encode(self, e: EmitterView, value: int) -> bytes:
        """A constant as memory holds it: canonical, big-endian."""
        return value.to_bytes(WORD, "big")

    def value_bytes(self, e: EmitterView) -> int:
        return WORD

    def memory_bytes(self, e: EmitterView, rel: int) -> int:
        """The memory size (or offset) of ``rel`` bytes of register slots."""
        return rel // FP_BYTES * WORD

    def setup(self, e: EmitterView) -> None:
        """Refuse a field wider than a word; copy p's multiples (:func:`headroom`) and the
        constants from the code."""
        if e.curve.p >> 256:
            raise ValueError(f"the plain-EVM target holds field values of up to 256 bits; "
                             f"this field's p has {e.curve.p.bit_length()}")
        asm = e.asm
        multiples = WORD * headroom(e.curve.p)
        modulus = scratch_buffer(e, "modulus", multiples)
        memory = asm.memory
        if "block_scratch" not in memory.by_name:      # one for the program's blocks, last
            memory.region("block_scratch", last=True).alloc(raw(WORD * SCRATCH_WORDS), "words")
        e.buffers["block_scratch"] = memory.by_name["block_scratch"].allocations[0]
        copy_data(e, modulus, multiples)

    def release_constants(self, e: EmitterView) -> None:
        """The constants live in the register file for the whole program."""

    def finish(self, e: EmitterView) -> None:
        multiples = b"".join((k * e.curve.p).to_bytes(WORD, "big")
                             for k in range(1, headroom(e.curve.p) + 1))
        e.asm.data(multiples + bytes(e.blob), label=e.data_label)

    def arith(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot) -> None:
        """Add ``out = x op y`` (value by value; x or y may be one Fp for all) to the open
        block."""
        block = _field_block(e)
        values = out.fps()
        for o, a, b in zip(values, broadcast(x, len(values)), broadcast(y, len(values))):
            block.add(op, _at(e, o), _at(e, a), _at(e, b))

    def strided(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot, count: int,
                strides: Tuple[int, int, int]) -> None:
        """``count`` results, the operands' values ``strides`` apart, value by value."""
        for o, a, b in strided_values((out, x, y), count, strides):
            self.arith(e, op, o, a, b)

    def load_values(self, e: EmitterView, dest: Slot, values: Sequence[int],
                    load: Callable[[], None]) -> None:
        """``dest`` = the constants ``values``, as the open block's immediates: pushed where
        they are read (PUSH32, 3 gas), where a copy from the code's data into memory and a
        load at each read take ~12. A build with loops (less code) takes ``load()``, the
        copy: a PUSH32 is 29 bytes more than a load at each read."""
        if e.loops:
            load()
            return
        block = _field_block(e)
        for slot, value in zip(dest.fps(), values):
            block.add("set", _at(e, slot), (lambda value=value: value), _at(e, slot))

    def copy(self, e: EmitterView, dst: Slot, src: Slot) -> None:
        block = _field_block(e)
        for o, a in zip(dst.fps(), src.fps()):
            block.add("copy", _at(e, o), _at(e, a), _at(e, a))

    def power_inline(self, e: EmitterView, out: Fp, a: Fp, exponent: int,
                     tower_steps: Callable[[], None]) -> None:
        """out = a^exponent as one run of stack code (:mod:`.word_power`: 14 gas a squaring
        or a multiplication, where the blocks' general code takes ~19)."""
        asm = e.asm
        asm.push(e.curve.p)
        asm.push(view(e, a))
        asm.op("MLOAD")
        emit_word_power(asm, exponent, lambda: (asm.push(view(e, out)), asm.op("MSTORE")))

    def push_equal(self, e: EmitterView, a: Slot, b: Slot, hashed: Callable[[], None]
                   ) -> None:
        """Push whether ``a`` and ``b`` hold equal values: up to COMPARED_WORDS words
        compared one by one (MLOAD, MLOAD, EQ: 15 gas a word, AND between them), larger
        values by ``hashed()`` (two KECCAK256: 72 gas and 12 a word)."""
        left, right = view(e, a), view(e, b)
        words = left.size // WORD
        if words > COMPARED_WORDS:
            hashed()
            return
        asm = e.asm
        for i in range(words):
            for side in (left, right):
                asm.push(lambda side=side, i=i: int(side) + WORD * i)
                asm.op("MLOAD")
            asm.op("EQ")
            if i:
                asm.op("AND")

    def products_mod(self, e: EmitterView, words: Slot, k: int, plan: PowerPlan
                     ) -> None:
        """The words at ``words`` hold n, x, f_1 .. f_k: write f_i x^e mod n after them,
        e the exponent ``plan`` computes, by one run of :mod:`.word_power` (14 gas a
        squaring or a multiplication: the plan's steps as a block of stack code took ~17)
        and a MULMOD per factor, k >= 1."""
        asm = e.asm
        at = lambda i: (lambda: int(words) + WORD * i)   # noqa: E731
        powers = {0: 1}
        for value, x, y in plan:
            powers[value] = powers[x] + powers[y]
        for word in (0, 1):                              # [x, n]
            asm.push(at(word))
            asm.op("MLOAD")

        def products() -> None:                          # [w, ..] -> [..], f_i w stored
            for i in range(k):
                asm.push(at(0))
                asm.op("MLOAD")
                asm.op("DUP2" if i < k - 1 else "SWAP1")
                asm.push(at(2 + i))
                asm.op("MLOAD")
                asm.op("MULMOD")
                asm.push(at(k + 2 + i))
                asm.op("MSTORE")
        emit_word_power(asm, powers[plan[-1][0]], products)

    def copy_in(self, e: EmitterView, slot: Slot, source: Callable[[], None]) -> None:
        """slot = the words at the memory address ``source()`` pushes (MCOPY)."""
        asm = e.asm
        asm.push(self.memory_bytes(e, slot.size))
        source()
        asm.push(view(e, slot))
        asm.op("MCOPY")

    def copy_out(self, e: EmitterView, slot: Slot, dest: Callable[[], None],
                 grow: bool = False) -> None:
        """The words of ``slot`` to the memory address ``dest()`` pushes (MCOPY grows
        memory itself: ``grow`` needs nothing)."""
        asm = e.asm
        asm.push(self.memory_bytes(e, slot.size))
        asm.push(view(e, slot))
        dest()
        asm.op("MCOPY")

    def spill_to(self, e: EmitterView, slot: Slot) -> ContextManager[None]:
        """Blocks begun inside spill to ``slot`` (:func:`block_scratch_at`)."""
        return block_scratch_at(e, slot)

    def staging(self, e: EmitterView, slot: Slot) -> Slot:
        """Values are staged where they live: the slot's own words."""
        return view(e, slot)

    def from_staging(self, e: EmitterView, slot: Slot, staging: Slot,
                     little_endian: bool) -> None:
        """Staged big-endian words are the values already; little-endian ones are byte
        reversed in place."""
        if little_endian:
            bswap = e.asm.subroutine("bswap256", bswap256)
            for i in range(len(slot.fps())):
                at = (lambda i=i: int(staging) + WORD * i)
                e.asm.push(at)
                e.asm.op("MLOAD")
                e.asm.call(bswap)
                e.asm.push(at)
                e.asm.op("MSTORE")

    def load_plain(self, e: EmitterView, out: Slot, given: Slot, fail: Label,
                   little_endian: bool = True) -> None:
        """``out`` = the plain 48-byte values at ``given`` (memory; little-endian ones are
        byte reversed in place); jump to ``fail`` unless each is below p (its first 16
        bytes zero, the word after them below p)."""
        asm = e.asm
        if little_endian:
            reverse_values(asm, given)
        for i, value in enumerate(out.fps()):
            at = (lambda i=i: int(given) + FP_BYTES * i)
            asm.push(at)
            asm.op("MLOAD")
            asm.push(128)
            asm.op("SHR")                        # the top 16 bytes: must be 0
            asm.push(lambda at=at: at() + 16)
            asm.op("MLOAD")
            asm.op("DUP1")
            asm.push(lambda value=value: int(view(e, value)))
            asm.op("MSTORE")
            asm.push(e.curve.p)
            asm.op("GT")
            asm.ops("ISZERO", "OR")
            asm.jumpi(fail)

    def store_decoded(self, asm: Assembler) -> None:
        raise ValueError("EIP-2537's 64-byte field elements are BLS12-381's: the plain-EVM "
                         "target holds values of up to 256 bits")

    def store_word(self, e: EmitterView) -> None:
        """Stack: word dest -> (consumed): the word is the value as memory keeps it."""
        e.asm.op("MSTORE")

    def words_out(self, e: EmitterView, values: Slot, dest: Slot) -> None:
        """The values as 32-byte big-endian words at ``dest``: one MCOPY."""
        self.copy_out(e, values, lambda: e.asm.push(dest))

    def values_out(self, e: EmitterView, values: Slot, dest: Slot, width: int) -> None:
        """The values as big-endian numbers of ``width`` (>= 32) bytes at ``dest``."""
        if width < WORD:
            raise ValueError(f"{width}-byte words cannot hold {WORD}-byte values")
        asm = e.asm
        for i, value in enumerate(values.fps()):
            if width > WORD:
                asm.push(0)
                asm.push(lambda i=i: int(dest) + width * i)
                asm.op("MSTORE")
            asm.push(lambda value=value: int(view(e, value)))
            asm.op("MLOAD")
            asm.push(lambda i=i: int(dest) + width * i + width - WORD)
            asm.op("MSTORE")

    def push_parity(self, e: EmitterView, value: Fp) -> None:
        """Push bit 0 of ``value`` (its word's last bit)."""
        asm = e.asm
        asm.push(lambda: int(view(e, value)))
        asm.op("MLOAD")
        asm.push(1)
        asm.op("AND")

    def memory_image(self, e: EmitterView, slot: Slot, which: int = 0) -> Slot:
        """The slot's own words."""
        return view(e, slot)
