"""The EVM768 target (docs/evm768.md): EVM384's memory model and calling convention at
96-byte values, for fields of up to 768 bits (BW6-761's p).

EVM384's tower code (:class:`.target.EVM384`) assumes 48-byte memory slots. Here a field
value takes 96 bytes, so field slots are allocated in a register space as EVMMAX's (48
bytes a value in the layout's addresses) whose register file is a region of memory of 96
bytes a register (:func:`.target_words.view`, the plain-EVM target's mechanism): a value
is 96 bytes little-endian in Montgomery form (R = 2**768), an operation is ``PUSH16
<out|x|y|mod>`` and ADDMOD768, SUBMOD768 or MULMODMONT768 on the values' memory addresses,
the modulus (p, then its 8-byte Montgomery constant) a memory buffer of its own. Copies,
records and memory images are the values' memory itself (MCOPY, keccak).
"""
from __future__ import annotations

from typing import Callable, Tuple

from ..asm import Assembler, Fp, Label, Memory, Slot
from ..asm.layout import FP_BYTES, WORD, RegisterSpace
from ..curves.model import Field
from ..evm.kernels.limbs import BYTES768, LIMBS768
from ..evm.kernels.montgomery import montgomery_inv, to_montgomery
from .target import EVM384, EmitterView, MontgomeryConstants, Target, broadcast, scratch_buffer
from .target_words import copy_data, view
from .words import bswap256

_OPS = {"add": "ADDMOD768", "sub": "SUBMOD768", "mul": "MULMODMONT768"}
MODULUS_BYTES = BYTES768 + 8            # p, then -p^-1 mod 2^64


class EVM768(EVM384):
    """Values of 96 bytes (little-endian, Montgomery form) in a register file in memory;
    one PUSH16 + op per value, as EVM384's."""
    name = "evm768"
    opcodes = "evm768"
    indexed_operands = False      # slot addresses go through the register file's layout
    dense_code = False            # 18 bytes an op: hot routines are called, as EVM384's
    compact = True
    register_pairs = 0
    cheap_products = False        # a product costs many additions (96 gas against 16)
    field_blocks = False          # each operation is its own instruction
    bit_loop_powers = True        # 761-bit exponents: no 4-bit tables (indexed operands)
    smaller = None

    def __repr__(self) -> str:
        return "EVM768()"

    def for_field(self, curve: Field) -> Target:
        """The target for ``curve``'s field: this one, for a p of up to 768 bits."""
        if curve.p.bit_length() > 8 * BYTES768:
            raise ValueError(f"EVM768 holds field values of up to 768 bits; this field's p "
                             f"has {curve.p.bit_length()}")
        return self

    def montgomery_constants(self, p: int) -> MontgomeryConstants:
        """No modulus slot among the field constants (a buffer of its own: 104 bytes, not a
        field value); R^2 mod p and a plain 1, 96 bytes little-endian."""
        return MontgomeryConstants(None, self._montgomery(1 << (64 * LIMBS768), p),
                                   (1).to_bytes(BYTES768, "little"))

    @staticmethod
    def _montgomery(value: int, p: int) -> bytes:
        return to_montgomery(value, p, LIMBS768).to_bytes(BYTES768, "little")

    def new_memory(self) -> Memory:
        return Memory(registers=RegisterSpace(limit=None), register_bytes=BYTES768)

    def encode(self, e: EmitterView, value: int) -> bytes:
        """A constant as the register file holds it (Montgomery form, little-endian)."""
        return self._montgomery(value, e.curve.p)

    def value_bytes(self, e: EmitterView) -> int:
        return BYTES768

    def memory_bytes(self, e: EmitterView, rel: int) -> int:
        """The memory size (or offset) of ``rel`` bytes of register slots."""
        return rel // FP_BYTES * BYTES768

    def _modulus(self, e: EmitterView) -> Slot:
        return scratch_buffer(e, "modulus", MODULUS_BYTES)

    def setup(self, e: EmitterView) -> None:
        """Copy the modulus and the constants (the code's data, in that order) to memory."""
        copy_data(e, self._modulus(e), MODULUS_BYTES)

    def finish(self, e: EmitterView) -> None:
        p = e.curve.p
        modulus = (p.to_bytes(BYTES768, "little")
                   + montgomery_inv(p, LIMBS768).to_bytes(8, "little"))
        e.asm.data(modulus + bytes(e.blob), label=e.data_label)

    def arith(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot) -> None:
        """out = x op y value by value (x or y may be one Fp, used for every value)."""
        values = out.fps()
        modulus = self._modulus(e)
        for o, a, b in zip(values, broadcast(x, len(values)), broadcast(y, len(values))):
            e.asm.evm384(_OPS[op], view(e, o), view(e, a), view(e, b), modulus)

    def indexed_op(self, e: EmitterView, op: str, out: Fp, x: Fp, y: Fp,
                   index_step: Tuple[int, int, int]) -> None:
        raise ValueError("EVM768's operand addresses are not indexed (indexed_operands "
                         "is False)")

    def copy(self, e: EmitterView, dst: Slot, src: Slot) -> None:
        """MCOPY of the values' memory."""
        self._mcopy(e, self.memory_bytes(e, dst.size), lambda: e.asm.push(view(e, src)),
                    lambda: e.asm.push(view(e, dst)))

    @staticmethod
    def _mcopy(e: EmitterView, size: int, src: Callable[[], None],
               dst: Callable[[], None]) -> None:
        e.asm.push(size)
        src()
        dst()
        e.asm.op("MCOPY")

    def copy_in(self, e: EmitterView, slot: Slot, source: Callable[[], None]) -> None:
        """slot = the values at the memory address ``source()`` pushes (a record written
        by :meth:`copy_out`)."""
        self._mcopy(e, self.memory_bytes(e, slot.size), source,
                    lambda: e.asm.push(view(e, slot)))

    def copy_out(self, e: EmitterView, slot: Slot, dest: Callable[[], None],
                 grow: bool = False) -> None:
        """The values of ``slot`` to the memory address ``dest()`` pushes (MCOPY grows
        memory itself: ``grow`` needs nothing)."""
        self._mcopy(e, self.memory_bytes(e, slot.size), lambda: e.asm.push(view(e, slot)),
                    dest)

    def staging(self, e: EmitterView, slot: Slot) -> Slot:
        """A memory buffer of the slot's values (plain, as the input gives them)."""
        return scratch_buffer(e, f"staging.{slot.name}", self.memory_bytes(e, slot.size))

    def from_staging(self, e: EmitterView, slot: Slot, staging: Slot,
                     little_endian: bool) -> None:
        """The plain 96-byte values (below p) at ``staging`` into ``slot``: copied
        (big-endian ones byte reversed, word by word), then into Montgomery form."""
        asm = e.asm
        words = BYTES768 // WORD
        if little_endian:
            self.copy_in(e, slot, lambda: asm.push(staging))
        else:
            bswap = asm.subroutine("bswap256", bswap256)
            for i, value in enumerate(slot.fps()):
                for w in range(words):          # word w of the value is word words-1-w LE
                    asm.push(lambda i=i, w=w: int(staging) + BYTES768 * i + WORD * w)
                    asm.op("MLOAD")
                    asm.call(bswap)
                    asm.push(lambda value=value, w=w: int(view(e, value))
                             + WORD * (words - 1 - w))
                    asm.op("MSTORE")
        for value in slot.fps():
            self._to_montgomery(e, value)

    def load_plain(self, e: EmitterView, out: Slot, given: Slot, fail: Label,
                   little_endian: bool = True) -> None:
        raise ValueError("EVM768 contracts range-check their 96-byte inputs themselves")

    def store_decoded(self, asm: Assembler) -> None:
        raise ValueError("EIP-2537's 64-byte field elements are BLS12-381's: build them "
                         "for EVM384 or EVMMAX")

    def store_word(self, e: EmitterView) -> None:
        raise ValueError("EVM768 stages no 32-byte words")

    def words_out(self, e: EmitterView, values: Slot, dest: Slot) -> None:
        raise ValueError("words_out needs a modulus below 2^256")

    def values_out(self, e: EmitterView, values: Slot, dest: Slot, width: int) -> None:
        raise ValueError("EVM768 contracts return words, not field values")

    def push_parity(self, e: EmitterView, value: Fp) -> None:
        raise ValueError("EVM768 contracts decode no compressed points")

    def memory_image(self, e: EmitterView, slot: Slot, which: int = 0) -> Slot:
        """The slot's own memory (values in Montgomery form: equal exactly when equal)."""
        return view(e, slot)

