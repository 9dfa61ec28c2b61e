"""The plain-EVM target for fields wider than a word (257 to 384 bits: BLS12-381's p):
EVM384's memory model, each operation a call into plain-EVM routines.

Values live as under EVM384 (:class:`.target.EVM384`): a 48-byte memory slot each, in
Montgomery form, so the tower's code for EVM384 (copies by MCOPY, comparisons by hashing
memory images, constants copied from the code) serves unchanged. What differs: a slot is
big-endian (:mod:`.two_words`: two MLOADs read a value, where a little-endian one would
need byte swaps), R is 2**512, and an operation is not one EVM384 instruction but a call
``PUSH2 ret, PUSH2 out, PUSH2 y, PUSH2 x, PUSH2 routine, JUMP`` (13 bytes and a JUMPDEST,
EVM384's op takes 18) into the routine for add, sub or mul, its constants (p's words,
-p^-1 mod 2**256) immediates of the routine. Operand addresses computed at run time
(the tower's tables: ``indexed_op``) are pushed as the call's arguments.

:class:`~.target_words.Words` hands a field wider than a word to this target
(``for_field``): ``target="evm"`` is one name for plain EVM whatever the field.
"""
from __future__ import annotations

from typing import Callable, Tuple

from ..asm import Assembler, Fp, Label, Slot, Subroutine
from ..asm.layout import FP_BYTES
from . import two_words
from .target import EVM384, EmitterView, MontgomeryConstants, broadcast, reverse_values

R_BITS = 512                        # two words
_ROUTINES = {"add": two_words.emit_add, "sub": two_words.emit_sub, "mul": two_words.emit_mul}


class WideWords(EVM384):
    """Values of two words in 48-byte big-endian memory slots (Montgomery form, R =
    2**512); each operation a call to a routine (:mod:`.two_words`)."""
    name = "evm"
    opcodes = "evm"
    indexed_operands = True       # addresses can be computed at run time (tables)
    dense_code = False            # 14 bytes an operation: hot routines are called, as EVM384's
    compact = True
    register_pairs = 0
    cheap_products = False        # a product costs several additions
    field_blocks = False          # each operation a call into the two-word routines
    smaller = None
    byteorder = "big"

    def __repr__(self) -> str:
        return "WideWords()"

    def montgomery_constants(self, p: int) -> MontgomeryConstants:
        """No modulus slot (the routines hold p); R^2 mod p and a plain 1, big-endian."""
        return MontgomeryConstants(None, pow(2, 2 * R_BITS, p).to_bytes(FP_BYTES, "big"),
                                   (1).to_bytes(FP_BYTES, "big"))

    def _first_constant(self, e: EmitterView) -> Slot:
        """The constant region's first slot: zero (no modulus slot here)."""
        return e.zero

    def encode(self, e: EmitterView, value: int) -> bytes:
        """A constant as a slot holds it: Montgomery form (R = 2**512), big-endian."""
        return ((value << R_BITS) % e.curve.p).to_bytes(FP_BYTES, "big")

    def arith(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot) -> None:
        """out = x op y value by value: a call per value (x or y may be one Fp)."""
        asm = e.asm
        routine = self._routine(e, op)
        values = out.fps()
        for o, a, b in zip(values, broadcast(x, len(values)), broadcast(y, len(values))):
            asm.call(routine, arguments=lambda o=o, a=a, b=b: (asm.push(o), asm.push(b),
                                                              asm.push(a)))

    def indexed_op(self, e: EmitterView, op: str, out: Fp, x: Fp, y: Fp,
                   index_step: Tuple[int, int, int]) -> None:
        """The call with out, x, y advanced by ``index_step`` bytes per unit of the number
        on top of the stack (consumed)."""
        asm = e.asm

        def arguments() -> None:                      # stack: i ret
            asm.op("SWAP1")                           # ret i
            for slot, step in ((out, index_step[0]), (y, index_step[2]), (x, index_step[1])):
                asm.op("DUP1")
                if step:
                    asm.push(step)
                    asm.op("MUL")
                    asm.push(slot)
                    asm.op("ADD")                     # ret .. i a
                else:
                    asm.op("POP")
                    asm.push(slot)
                asm.op("SWAP1")                       # ret .. a i
            asm.op("POP")
        asm.call(self._routine(e, op), arguments=arguments)

    def _routine(self, e: EmitterView, op: str) -> Subroutine:
        return e.asm.subroutine(f"two_words_{op}", lambda a: _ROUTINES[op](a, e.curve.p))

    def from_staging(self, e: EmitterView, slot: Slot, staging: Slot,
                     little_endian: bool) -> None:
        """The plain values staged in ``slot`` (big-endian, or ``little_endian`` as raw
        calldata gives them: reversed first) into Montgomery form."""
        if little_endian:
            reverse_values(e.asm, slot)
        for value in slot.fps():
            self._to_montgomery(e, value)

    def load_plain(self, e: EmitterView, out: Slot, given: Slot, fail: Label,
                   little_endian: bool = True) -> None:
        """``out`` = the plain 48-byte values at ``given``, jump to ``fail`` unless each is
        below p (EVM384's test: x + 0 reduced hashes as x only for x < p)."""
        if little_endian:
            reverse_values(e.asm, given)
        super().load_plain(e, out, given, fail, little_endian=True)

    def store_decoded(self, asm: Assembler) -> None:
        """Stack: dest lo hi -> (consumed): an EIP-2537 field element (its two calldata
        words) as a staged value at dest."""
        asm.push(128)
        asm.op("SHL")
        asm.op("DUP3")
        asm.op("MSTORE")                         # dest lo: hi in the first 16 bytes
        asm.op("SWAP1")
        asm.push(16)
        asm.ops("ADD", "MSTORE")

    def store_word(self, e: EmitterView) -> None:
        """Stack: word dest -> (consumed): a value below 2^256 staged at dest."""
        asm = e.asm
        asm.op("PUSH0")
        asm.op("DUP2")
        asm.op("MSTORE")                         # the first 16 bytes zero
        asm.push(16)
        asm.ops("ADD", "MSTORE")

    def words_out(self, e: EmitterView, values: Slot, dest: Slot) -> None:
        """The values of ``values`` (below 2^256) as plain 32-byte words at ``dest``."""
        asm = e.asm
        with asm.temps(Fp) as (plain,):
            for i, value in enumerate(values.fps()):
                self.arith(e, "mul", plain, value, e.raw_one)
                asm.push(lambda: int(plain) + 16)
                asm.op("MLOAD")
                asm.push(lambda i=i: int(dest) + 32 * i)
                asm.op("MSTORE")

    def values_out(self, e: EmitterView, values: Slot, dest: Slot, width: int) -> None:
        """The values as plain big-endian numbers of 64 bytes at ``dest`` (EIP-2537's: 16
        zero bytes, then the 48-byte value)."""
        if width != 64:
            raise ValueError("the two-word target writes field values as 64-byte words only")
        asm = e.asm
        with asm.temps(Fp) as (plain,):
            for i, value in enumerate(values.fps()):
                at: Callable[[], int] = (lambda i=i: int(dest) + width * i)
                self.arith(e, "mul", plain, value, e.raw_one)
                asm.op("PUSH0")
                asm.push(at)
                asm.op("MSTORE")
                asm.push(FP_BYTES)
                asm.push(plain)
                asm.push(lambda at=at: at() + 16)
                asm.op("MCOPY")

    def push_parity(self, e: EmitterView, value: Fp) -> None:
        """Push bit 0 of the canonical ``value``: out of Montgomery form, its last byte."""
        asm = e.asm
        with asm.temps(Fp) as (plain,):
            self.arith(e, "mul", plain, value, e.raw_one)
            asm.push(lambda: int(plain) + 16)
            asm.op("MLOAD")
        asm.push(1)
        asm.op("AND")
