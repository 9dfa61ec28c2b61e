"""Instruction-set targets of the field tower: what EVM384 and EVMMAX code differ in.

The field, curve and pairing code is written once; an :class:`.fp.Emitter` carries one
target, as a compiler carries an ISA backend, and every place where the two designs
differ asks it:

- where field values live: EVM384 in memory slots (48-byte LE, Montgomery form), EVMMAX
  in the registers of one field context (slots of field types are allocated in a
  :class:`~evm384_native.asm.layout.RegisterSpace`; index = offset / 48);
- the arithmetic: ``PUSH16 <out|x|y|mod>`` and an EVM384 op per Fp value, or one EVMMAX
  op with seven immediates for a whole run of values (an Fp2 addition is one count-2
  ADDMODX);
- copies (MCOPY, or ADDMODX with a zero register), moving values between memory and the
  field (MCOPY, or STOREX/LOADX, which convert to and from Montgomery form themselves);
- constants and the modulus (CODECOPY into memory; under EVMMAX then SETMODX and STOREX);
- the memory image of a value that EVM code inspects (a comparison, a zero test): the
  slot itself under EVM384, a LOADX into a scratch buffer under EVMMAX.

EVM384 is the default and emits exactly the bytecode the project emitted before targets
existed.
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import (Callable, ContextManager, Dict, List, NamedTuple, Optional, Protocol,
                    Sequence, Tuple)

from ..asm import Assembler, Fp, Label, Memory, Region, Slot, pack_offsets, raw
from ..asm.layout import FP_BYTES, RegisterSpace
from ..curves.model import Field
from ..evm.kernels.montgomery import R_BITS, montgomery_inv, to_montgomery
from .power_plans import kept_values
from .words import bswap256, store_field_le

WORD = 32
PowerPlan = Sequence[Tuple[int, int, int]]     # (value, x, y): value = x * y, value 0 is x

_OPS = {"add": ("ADDMOD384", "ADDMODX"), "sub": ("SUBMOD384", "SUBMODX"),
        "mul": ("MULMODMONT384", "MULMODX")}
IMAGE_BYTES = 12 * FP_BYTES            # the largest value EVM code inspects: an Fp12


class MontgomeryConstants(NamedTuple):
    """The memory constants of a target whose slots hold Montgomery forms: the modulus slot
    its operations read (p and its constant; None: none), R^2 mod p and a plain 1, as the
    slots hold them."""
    modulus: Optional[bytes]
    r2: bytes
    raw_one: bytes


class EmitterView(Protocol):
    """What a target uses of the emitter it emits for (:class:`.fp.Emitter`, which takes
    the target: so the target names only this much of it). The assembler and the field;
    the constants' bytes and the label of their data; the constant slots the arithmetic
    reads (zero; under EVM384 also p with its Montgomery constant, R^2 and a plain 1); and
    the memory the target keeps on the emitter (scratch buffers by name, EVMMAX's memory
    image of the constants)."""
    asm: Assembler
    curve: Field
    blob: bytearray
    data_label: Label
    zero: Fp
    p: Slot
    r2: Fp
    raw_one: Fp
    buffers: Dict[str, Slot]
    const_image: Region
    loops: bool                   # a build with run-time loops: less code
    push_constants: bool          # blocks of field code push their constants (plain EVM)


class Target(Protocol):
    """What the tower asks an instruction-set target (EVM384, EVMMAX): its name and opcode
    set, the choices it implies for code layout, and the code of each operation whose form
    differs between targets. Resolved once from its name at a public entry
    (:func:`resolve_target`) and passed as this object from there on."""
    name: str
    opcodes: str                  # the opcode set its code runs with (``execute(opcodes=)``)
    indexed_operands: bool
    dense_code: bool
    compact: bool
    register_pairs: int
    cheap_products: bool
    # runs of field code between other code are compiled as one block each (plain EVM:
    # values stay on the stack inside a run): a table lookup is best made before a run
    # that does not read it, so that the runs around it merge
    field_blocks: bool
    # with run-time loops, powers square and multiply over the bits read at run time (a
    # target without indexed operands whose code is large: EVM768)
    bit_loop_powers: bool
    smaller: Optional["Target"]   # a variant whose builds take less code, tried if none fits

    def for_field(self, curve: Field) -> "Target": ...
    def montgomery_constants(self, p: int) -> Optional[MontgomeryConstants]: ...
    def new_memory(self) -> Memory: ...
    def encode(self, e: EmitterView, value: int) -> bytes: ...
    def setup(self, e: EmitterView) -> None: ...
    def release_constants(self, e: EmitterView) -> None: ...
    def finish(self, e: EmitterView) -> None: ...
    def arith(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot) -> None: ...
    def strided(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot, count: int,
                strides: Tuple[int, int, int]) -> None: ...
    def indexed_op(self, e: EmitterView, op: str, out: Fp, x: Fp, y: Fp,
                   index_step: Tuple[int, int, int]) -> None: ...
    def copy(self, e: EmitterView, dst: Slot, src: Slot) -> None: ...
    def products_mod(self, e: EmitterView, words: Slot, k: int, plan: PowerPlan
                     ) -> None: ...
    def power_inline(self, e: EmitterView, out: Fp, a: Fp, exponent: int,
                     tower_steps: Callable[[], None]) -> None: ...
    def push_equal(self, e: EmitterView, a: Slot, b: Slot, hashed: Callable[[], None]
                   ) -> None: ...
    def copy_in(self, e: EmitterView, slot: Slot, source: Callable[[], None]) -> None: ...
    def copy_out(self, e: EmitterView, slot: Slot, dest: Callable[[], None],
                 grow: bool = False) -> None: ...
    def staging(self, e: EmitterView, slot: Slot) -> Slot: ...
    def from_staging(self, e: EmitterView, slot: Slot, staging: Slot,
                     little_endian: bool) -> None: ...
    def value_bytes(self, e: EmitterView) -> int: ...
    def memory_bytes(self, e: EmitterView, rel: int) -> int: ...
    def load_plain(self, e: EmitterView, out: Slot, given: Slot, fail: Label,
                   little_endian: bool = True) -> None: ...
    def store_decoded(self, asm: Assembler) -> None: ...
    def store_word(self, e: EmitterView) -> None: ...
    def words_out(self, e: EmitterView, values: Slot, dest: Slot) -> None: ...
    def values_out(self, e: EmitterView, values: Slot, dest: Slot, width: int) -> None: ...
    def push_parity(self, e: EmitterView, value: Fp) -> None: ...
    def memory_image(self, e: EmitterView, slot: Slot, which: int = 0) -> Slot: ...
    def load_values(self, e: EmitterView, dest: Slot, values: Sequence[int],
                    load: Callable[[], None]) -> None: ...
    def spill_to(self, e: EmitterView, slot: Slot) -> ContextManager[None]: ...


class _TowerSteps:
    """What EVM384 and EVMMAX write with the tower's generic code: powers as its steps,
    equality as the keccak of two memory images, constants copied from the code."""

    def load_values(self, e: EmitterView, dest: Slot, values: Sequence[int],
                    load: Callable[[], None]) -> None:
        """``dest`` = the constants ``values``: ``load()``, the caller's code that copies
        them from the code's data into the registers."""
        load()

    def power_inline(self, e: EmitterView, out: Fp, a: Fp, exponent: int,
                     tower_steps: Callable[[], None]) -> None:
        """out = a^exponent written out: the tower's own steps (``tower_steps()``)."""
        tower_steps()

    def push_equal(self, e: EmitterView, a: Slot, b: Slot, hashed: Callable[[], None]
                   ) -> None:
        """Push whether ``a`` and ``b`` hold equal values: ``hashed()``, the keccak of their
        memory images (:func:`.compare.push_equal`)."""
        hashed()

    def spill_to(self, e: EmitterView, slot: Slot) -> ContextManager[None]:
        """Nothing: each operation is its own instruction, no value is spilled."""
        return nullcontext()


class EVM384(_TowerSteps):
    """Values in memory, one PUSH16 + op per Fp value."""
    name = "evm384"
    opcodes = "evm384"
    indexed_operands = True       # operand offsets can be computed at run time (tables)
    dense_code = False            # 18 bytes an op (PUSH16 + op): hot routines are called
    compact = True                # share cold routines by default: 24,576 bytes otherwise
    register_pairs = 0            # pair states live in memory anyway
    cheap_products = False        # a product costs as much as several additions
    field_blocks = False          # each operation is its own instruction
    bit_loop_powers = False       # its loops read 4-bit windows from a table instead
    smaller = None

    def for_field(self, curve: Field) -> Target:
        """The target for ``curve``'s field: this one (48-byte slots hold any of them)."""
        return self

    def montgomery_constants(self, p: int) -> Optional[MontgomeryConstants]:
        """p and its constant (MULMODMONT384 reads them), R^2 mod p and 1, little-endian."""
        return MontgomeryConstants(
            p.to_bytes(48, "little") + montgomery_inv(p).to_bytes(8, "little"),
            to_montgomery(1 << R_BITS, p).to_bytes(48, "little"), (1).to_bytes(48, "little"))

    def new_memory(self) -> Memory:
        return Memory()

    def encode(self, e: EmitterView, value: int) -> bytes:
        """A constant as the contract stores it (Montgomery form, little-endian)."""
        return to_montgomery(value, e.curve.p).to_bytes(FP_BYTES, "little")

    def setup(self, e: EmitterView) -> None:
        """Fill the constant region, from its first slot, from the code's data section."""
        asm = e.asm
        asm.push(lambda: len(e.blob))
        asm.push(e.data_label)
        asm.push(self._first_constant(e))
        asm.op("CODECOPY")

    def _first_constant(self, e: EmitterView) -> Slot:
        """The constant region's first slot: the modulus slot MULMODMONT384 reads."""
        return e.p

    def release_constants(self, e: EmitterView) -> None:
        """Constants stay in memory slots for the whole program: nothing to release."""

    def finish(self, e: EmitterView) -> None:
        e.asm.data(bytes(e.blob), label=e.data_label)

    def arith(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot) -> None:
        """out = x op y value by value (x or y may be one Fp, used for every value)."""
        mnemonic = _OPS[op][0]
        values = out.fps()
        xs, ys = broadcast(x, len(values)), broadcast(y, len(values))
        for o, a, b in zip(values, xs, ys):
            e.asm.evm384(mnemonic, o, a, b, e.p)

    def strided(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot, count: int,
                strides: Tuple[int, int, int]) -> None:
        """``count`` results, the operands' values ``strides`` apart: value by value."""
        for o, a, b in strided_values((out, x, y), count, strides):
            self.arith(e, op, o, a, b)

    def indexed_op(self, e: EmitterView, op: str, out: Fp, x: Fp, y: Fp,
                   index_step: Tuple[int, int, int]) -> None:
        """An op whose operands move with the number on top of the stack (consumed): out,
        x, y advance by ``index_step`` bytes per unit, so a loop can walk a table (for
        targets with ``indexed_operands``)."""
        step = pack_offsets(*index_step, 0)
        e.asm.push(step)
        e.asm.op("MUL")
        e.asm.push(lambda: pack_offsets(int(out), int(x), int(y), int(e.p)))
        e.asm.op("ADD")
        e.asm.op(_OPS[op][0])

    def copy(self, e: EmitterView, dst: Slot, src: Slot) -> None:
        """MCOPY of a whole slot: cheaper than an EVM384 op for anything above one word."""
        e.asm.push(dst.size)
        e.asm.push(src)
        e.asm.push(dst)
        e.asm.op("MCOPY")

    def products_mod(self, e: EmitterView, words: Slot, k: int, plan: PowerPlan
                     ) -> None:
        raise ValueError("EVM384's operations take one modulus, p: arithmetic mod a "
                         "second one is built for EVMMAX and plain EVM")

    def copy_in(self, e: EmitterView, slot: Slot, source: Callable[[], None]) -> None:
        """slot = the values at the memory address ``source()`` pushes (a heap record
        written by :meth:`copy_out`)."""
        asm = e.asm
        asm.push(slot.size)
        source()
        asm.push(slot)
        asm.op("MCOPY")

    def copy_out(self, e: EmitterView, slot: Slot, dest: Callable[[], None],
                 grow: bool = False) -> None:
        """The values of ``slot`` to the memory address ``dest()`` pushes; ``grow``: the
        range may lie beyond the memory's end (MCOPY grows memory anyway)."""
        asm = e.asm
        asm.push(slot.size)
        asm.push(slot)
        dest()
        asm.op("MCOPY")

    def staging(self, e: EmitterView, slot: Slot) -> Slot:
        """Where input values for ``slot`` are decoded in memory: the slot itself."""
        return slot

    def from_staging(self, e: EmitterView, slot: Slot, staging: Slot,
                     little_endian: bool) -> None:
        """The plain values decoded at ``staging`` (48-byte LE here) into ``slot``."""
        for value in slot.fps():                 # staging is slot
            self._to_montgomery(e, value)

    def _to_montgomery(self, e: EmitterView, value: Fp) -> None:
        """value = value * R mod p in place, for a plain value < p (a product by R^2)."""
        self.arith(e, "mul", value, value, e.r2)

    def value_bytes(self, e: EmitterView) -> int:
        """Bytes a field value takes in memory: a 48-byte slot whatever the modulus."""
        return FP_BYTES

    def memory_bytes(self, e: EmitterView, rel: int) -> int:
        """The memory size (or offset) of ``rel`` bytes of slots: the same."""
        return rel

    def load_plain(self, e: EmitterView, out: Slot, given: Slot, fail: Label,
                   little_endian: bool = True) -> None:
        """``out`` = the plain 48-byte values at ``given`` (memory, a different place;
        big-endian ones are byte reversed first, in place); jump to ``fail`` unless each
        is below p: x + 0 mod p equals x only for x < p, so the reduced copy must hash
        like the given one."""
        asm = e.asm
        if not little_endian:
            reverse_values(asm, given)
        for i, value in enumerate(out.fps()):
            self.arith(e, "add", value, given.part(Fp, FP_BYTES * i, f"v{i}"), e.zero)
        for slot in (given, out):                # keccak(given) == keccak(reduced)
            asm.push(slot.size); asm.push(slot); asm.op("KECCAK256")
        asm.op("EQ")
        asm.op("ISZERO")
        asm.jumpi(fail)
        for value in out.fps():
            self._to_montgomery(e, value)

    def store_decoded(self, asm: Assembler) -> None:
        """Stack: dest lo hi -> (consumed): an EIP-2537 field element (its two calldata
        words) as a staged value at dest; 16 zero bytes spill past it."""
        store_field_le(asm)

    def store_word(self, e: EmitterView) -> None:
        """Stack: word dest -> (consumed): a value below 2^256 staged at dest as the
        slot keeps plain values (48 bytes LE: the word byte-reversed, then 16 zeros)."""
        asm = e.asm
        asm.push(0)
        asm.op("DUP2")
        asm.push(16)
        asm.op("ADD")
        asm.op("MSTORE")                         # bytes 16..47 zero
        asm.op("SWAP1")
        asm.call(asm.subroutine("bswap256", bswap256))
        asm.op("SWAP1")
        asm.op("MSTORE")

    def words_out(self, e: EmitterView, values: Slot, dest: Slot) -> None:
        """The values of ``values`` (below 2^256) as plain 32-byte big-endian words at
        ``dest`` (memory): out of Montgomery form, byte reversed."""
        asm = e.asm
        with asm.temps(Fp) as (plain,):
            for i, value in enumerate(values.fps()):
                self.arith(e, "mul", plain, value, e.raw_one)
                asm.push(plain)
                asm.op("MLOAD")
                asm.call(asm.subroutine("bswap256", bswap256))
                asm.push(lambda i=i: int(dest) + 32 * i)
                asm.op("MSTORE")

    def values_out(self, e: EmitterView, values: Slot, dest: Slot, width: int) -> None:
        """The values of ``values`` as plain big-endian numbers of ``width`` bytes at
        ``dest`` (memory; EIP-2537's 64: 16 zero bytes, then the 48-byte value)."""
        if width != 64:
            raise ValueError("EVM384 writes field values as 64-byte words only")
        asm = e.asm
        encode = asm.subroutine("encode_field", _encode_field)
        with asm.temps(Fp) as (plain,):
            for i, value in enumerate(values.fps()):
                self.arith(e, "mul", plain, value, e.raw_one)
                asm.push(lambda i=i: int(dest) + width * i)
                asm.push(plain)
                asm.call(encode)

    def push_parity(self, e: EmitterView, value: Fp) -> None:
        """Push bit 0 of the canonical ``value``: out of Montgomery form into a temporary,
        then its first (least significant) byte."""
        asm = e.asm
        with asm.temps(Fp) as (plain,):
            self.arith(e, "mul", plain, value, e.raw_one)
            asm.push(plain)
            asm.op("MLOAD")
        asm.push(248)
        asm.op("SHR")
        asm.push(1)
        asm.op("AND")

    def memory_image(self, e: EmitterView, slot: Slot, which: int = 0) -> Slot:
        """Memory holding ``slot``'s values for EVM code to read: the slot itself."""
        return slot


class EVMMAX(_TowerSteps):
    """Values in the registers of field context 0 (modulus p), vector ops."""
    name = "evmmax"
    opcodes = "evmmax"
    indexed_operands = False      # register indices are immediates
    # 8 bytes an op: hot code is inlined where EVM384 calls it (runs of squarings and
    # doublings, the line multiplication of the Miller loop, byte swaps of the input)
    dense_code = True
    compact = False               # inlined cold routines fit and save ~3% gas
    register_pairs = 2            # the pairing checks keep up to two pair states in registers
    cheap_products = True         # a product costs 2-3 additions (EIP-6690, up to 7 limbs)
    field_blocks = False          # each operation is its own instruction
    bit_loop_powers = False       # dense code: its powers fit unrolled
    smaller = None

    def for_field(self, curve: Field) -> Target:
        """The target for ``curve``'s field: this one (SETMODX takes any odd modulus)."""
        return self

    def montgomery_constants(self, p: int) -> Optional[MontgomeryConstants]:
        """None: STOREX and LOADX convert to and from Montgomery form themselves."""
        return None

    def new_memory(self) -> Memory:
        return Memory(registers=RegisterSpace())

    def encode(self, e: EmitterView, value: int) -> bytes:
        """A constant as STOREX reads it: canonical, big-endian."""
        return value.to_bytes(self.value_bytes(e), "big")

    def value_bytes(self, e: EmitterView) -> int:
        """Bytes a field value takes in memory (LOADX/STOREX): the modulus' limbs, 8
        bytes each (32 for a 254-bit p, 48 for BLS12-381's)."""
        return e.curve.field_bytes

    def memory_bytes(self, e: EmitterView, rel: int) -> int:
        """The memory size (or offset) of ``rel`` bytes of register slots (48 bytes a
        value in the register space's addresses)."""
        return rel // FP_BYTES * self.value_bytes(e)

    def setup(self, e: EmitterView) -> None:
        """Copy p and the constants into memory, SETMODX (context 0, p, every register
        the program uses plus the one the EIP's bound formula keeps unused), STOREX the
        constants."""
        asm = e.asm
        asm.push(0)                                # LOADX/STOREX never grow memory: make
        asm.push(lambda: asm.memory.end - 1)       # every linked region exist
        asm.op("MSTORE8")
        size = self.value_bytes(e)
        region = asm.memory.region("const_image")
        modulus = region.alloc(raw(size), "p")
        e.const_image = region
        asm.push(lambda: size + len(e.blob))
        asm.push(e.data_label)
        asm.push(modulus)
        asm.op("CODECOPY")
        space = asm.memory.registers
        assert space is not None
        asm.push(lambda: space.count + 1)          # alloc_count
        asm.push(size)
        asm.push(modulus)
        asm.push(0)                                # context id
        asm.evmmax_op("SETMODX")
        asm.push(lambda: len(e.blob) // size)
        asm.push(lambda: int(modulus) + size)
        asm.push(lambda: _index(e.zero))           # the first constant
        asm.evmmax_op("STOREX")

    def release_constants(self, e: EmitterView) -> None:
        """The constants' memory image is read only at the start (STOREX): later regions
        may reuse it (less memory to pay for; memory there is then not zero)."""
        e.asm.memory.release(e.const_image.name)

    def finish(self, e: EmitterView) -> None:
        e.const_image.alloc(raw(len(e.blob)), "values")
        e.asm.data(e.curve.p.to_bytes(self.value_bytes(e), "big") + bytes(e.blob),
                   label=e.data_label)

    def arith(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot) -> None:
        """One vector op over the values of ``out`` (x or y may be one Fp: stride 0)."""
        count = len(out.fps())
        strides = (1, 0 if _single(x, count) else 1, 0 if _single(y, count) else 1)
        e.asm.evmmax(_OPS[op][1], out, x, y, count, strides)

    def strided(self, e: EmitterView, op: str, out: Slot, x: Slot, y: Slot, count: int,
                strides: Tuple[int, int, int]) -> None:
        """``count`` results, the operands' values ``strides`` apart: one vector op."""
        e.asm.evmmax(_OPS[op][1], out, x, y, count, strides)

    def copy(self, e: EmitterView, dst: Slot, src: Slot) -> None:
        """dst = src + 0, one vector op (1 gas a value)."""
        e.asm.evmmax("ADDMODX", dst, src, e.zero, len(dst.fps()), (1, 1, 0))

    def products_mod(self, e: EmitterView, words: Slot, k: int, plan: PowerPlan
                     ) -> None:
        """The words at ``words`` hold n, x, f_1 .. f_k: write f_i x^e mod n after them,
        x^e by ``plan``, in field context 1 (registers: 0 x, 1 .. k the factors, then the
        values the plan keeps, the power); context 0 active after."""
        asm, kept = e.asm, kept_values(plan)
        at = lambda i: (lambda: int(words) + WORD * i)   # noqa: E731
        where = {0: 0, **{value: k + 1 + i for i, value in enumerate(kept)}}
        acc = k + 1 + len(kept)
        asm.push(acc + 2)                              # alloc_count (the EIP's bound: one more)
        asm.push(WORD)
        asm.push(at(0))
        asm.push(1)
        asm.evmmax_op("SETMODX")
        asm.push(k + 1)
        asm.push(at(1))
        asm.push(0)
        asm.evmmax_op("STOREX")
        for value, x, y in plan:
            asm.evmmax("MULMODX", where.get(value, acc), where.get(x, acc), where.get(y, acc))
        asm.evmmax("MULMODX", 1, 1, acc, k, (1, 1, 0))    # f_i x^e, in the factors' registers
        asm.push(k)
        asm.push(1)
        asm.push(at(k + 2))
        asm.evmmax_op("LOADX")
        for _ in range(4):
            asm.push(0)
        asm.evmmax_op("SETMODX")                       # back to context 0 (mod p)

    def copy_in(self, e: EmitterView, slot: Slot, source: Callable[[], None]) -> None:
        asm = e.asm
        asm.push(len(slot.fps()))
        source()
        asm.push(lambda: _index(slot))
        asm.evmmax_op("STOREX")

    def copy_out(self, e: EmitterView, slot: Slot, dest: Callable[[], None],
                 grow: bool = False) -> None:
        asm = e.asm
        asm.push(len(slot.fps()))
        asm.push(lambda: _index(slot))
        dest()
        if grow:                                   # LOADX asserts its range is in memory
            asm.push(0)
            asm.op("DUP2")
            asm.push(self.memory_bytes(e, slot.size) - 1)
            asm.op("ADD")
            asm.op("MSTORE8")
        asm.evmmax_op("LOADX")

    def staging(self, e: EmitterView, slot: Slot) -> Slot:
        """A memory buffer of the slot's size (the registers are not memory)."""
        return scratch_buffer(e, f"staging.{slot.name}", self.memory_bytes(e, slot.size))

    def from_staging(self, e: EmitterView, slot: Slot, staging: Slot,
                     little_endian: bool) -> None:
        """STOREX converts canonical big-endian values; little-endian ones are byte
        reversed first, in place (two overlapping words a value)."""
        if little_endian:
            reverse_values(e.asm, staging)
        self.copy_in(e, slot, lambda: e.asm.push(staging))

    def load_plain(self, e: EmitterView, out: Slot, given: Slot, fail: Label,
                   little_endian: bool = True) -> None:
        """``out`` = the plain 48-byte values at ``given`` (memory; little-endian ones
        are byte reversed in place); jump to ``fail`` unless each is below p (STOREX
        would halt instead)."""
        asm = e.asm
        if little_endian:
            reverse_values(asm, given)
        top, low = e.curve.p >> 128, e.curve.p & ((1 << 128) - 1)
        for i in range(len(out.fps())):         # v < p: top < p's, or equal and low < p's
            at = (lambda i=i: int(given) + FP_BYTES * i)
            asm.push(at)
            asm.op("MLOAD")                      # v >> 128
            asm.op("DUP1")
            asm.push(top)
            asm.op("GT")
            asm.op("SWAP1")
            asm.push(top)
            asm.op("EQ")
            asm.push(lambda at=at: at() + 16)
            asm.op("MLOAD")
            asm.push((1 << 128) - 1)
            asm.op("AND")                        # v mod 2^128
            asm.push(low)
            asm.ops("GT", "AND", "OR", "ISZERO")
            asm.jumpi(fail)
        self.copy_in(e, out, lambda: asm.push(given))

    def store_decoded(self, asm: Assembler) -> None:
        """Stack: dest lo hi -> (consumed): the value big-endian at dest (48 bytes: the
        high word's 16 value bytes, then the low word); nothing spills."""
        asm.push(128)
        asm.op("SHL")
        asm.op("DUP3")
        asm.op("MSTORE")
        asm.op("SWAP1")
        asm.push(16)
        asm.op("ADD")
        asm.op("MSTORE")

    def store_word(self, e: EmitterView) -> None:
        """Stack: word dest -> (consumed): a value below 2^256 staged at dest as STOREX
        reads it (big-endian; a 48-byte value gets 16 leading zeros)."""
        asm = e.asm
        pad = self.value_bytes(e) - 32
        if pad:
            asm.push(0)
            asm.op("DUP2")
            asm.op("MSTORE")
            asm.push(pad)
            asm.op("ADD")
        asm.op("MSTORE")

    def words_out(self, e: EmitterView, values: Slot, dest: Slot) -> None:
        """The values of ``values`` as plain 32-byte big-endian words at ``dest``: one
        LOADX (values of a modulus below 2^256 are 32 bytes)."""
        if self.value_bytes(e) != 32:
            raise ValueError("words_out needs a modulus below 2^256")
        self.copy_out(e, values, lambda: e.asm.push(dest))

    def values_out(self, e: EmitterView, values: Slot, dest: Slot, width: int) -> None:
        """The values of ``values`` as plain big-endian numbers of ``width`` bytes at
        ``dest`` (memory): per value a zero word for the leading bytes, then a LOADX of
        one value into the rest."""
        asm, size = e.asm, self.value_bytes(e)
        if width < size:
            raise ValueError(f"{width}-byte words cannot hold {size}-byte values")
        for i in range(len(values.fps())):
            if width > size:
                asm.push(0)
                asm.push(lambda i=i: int(dest) + width * i)
                asm.op("MSTORE")
            asm.push(1)
            asm.push(lambda i=i: _index(values) + i)
            asm.push(lambda i=i: int(dest) + width * i + width - size)
            asm.evmmax_op("LOADX")

    def push_parity(self, e: EmitterView, value: Fp) -> None:
        """Push bit 0 of the canonical ``value``: its last byte in the memory image (LOADX
        writes canonical big-endian values)."""
        asm = e.asm
        image = self.memory_image(e, value)
        asm.push(lambda: int(image) + self.value_bytes(e) - 32)
        asm.op("MLOAD")
        asm.push(1)
        asm.op("AND")

    def memory_image(self, e: EmitterView, slot: Slot, which: int = 0) -> Slot:
        """LOADX ``slot`` into scratch buffer ``which`` (0 or 1); returns the buffer."""
        if slot.size > IMAGE_BYTES:
            raise ValueError(f"{slot!r} is larger than the scratch buffers")
        buffer = scratch_buffer(e, f"image{which}", self.memory_bytes(e, IMAGE_BYTES))
        image = raw(self.memory_bytes(e, slot.size))(buffer.region, buffer.rel,
                                                     f"{buffer.name}[{slot.name}]")
        self.copy_out(e, slot, lambda: e.asm.push(buffer))
        return image


def _encode_field(asm: Assembler) -> None:
    """Stack: dst src (under the return address): the plain 48-byte little-endian value at
    src as 64 bytes big-endian at dst (16 zero bytes, then the value)."""
    bswap = asm.subroutine("bswap256", bswap256)
    asm.op("SWAP2")                               # ret src dst
    asm.op("DUP2")
    asm.push(32)
    asm.ops("ADD", "MLOAD")                       # value bytes 32..47, then 16 other bytes
    asm.call(bswap)
    asm.push(128)
    asm.op("SHL")
    asm.push(128)
    asm.op("SHR")                                 # 16 zero bytes, bytes 47..32
    asm.op("DUP2")
    asm.op("MSTORE")
    asm.op("SWAP1")
    asm.op("MLOAD")
    asm.call(bswap)                               # bytes 31..0
    asm.op("SWAP1")
    asm.push(32)
    asm.ops("ADD", "MSTORE")


def reverse_values(asm: Assembler, values: Slot) -> None:
    """Reverse each 48-byte value in memory in place: with a and b its first and last 32
    bytes, bswap(b) then bswap(a) 16 bytes further is the reversed value."""
    bswap = asm.subroutine("bswap256", bswap256)
    for i in range(values.size // FP_BYTES):
        at = (lambda i=i: int(values) + FP_BYTES * i)
        for rel in (0, 16):                      # stack: bswap(a) bswap(b)
            asm.push(lambda rel=rel, at=at: at() + rel)
            asm.op("MLOAD")
            asm.call(bswap)
        for rel in (0, 16):
            asm.push(lambda rel=rel, at=at: at() + rel)
            asm.op("MSTORE")


def scratch_buffer(e: EmitterView, name: str, size: int) -> Slot:
    """A memory buffer ``name`` (made once) in the region of scratch buffers."""
    buffers: Dict[str, Slot] = e.buffers
    if name not in buffers:
        memory = e.asm.memory
        region = memory.by_name.get("scratch") or memory.region("scratch")
        buffers[name] = region.alloc(raw(size), name)
    return buffers[name]


def _index(slot: Slot) -> int:
    return slot.offset // FP_BYTES


def _single(operand: Slot, count: int) -> bool:
    return count > 1 and operand.size == FP_BYTES


def strided_values(slots: Sequence[Slot], count: int, strides: Tuple[int, int, int]
                   ) -> List[Tuple[Fp, ...]]:
    """The Fp operands of ``count`` strided operations on ``slots`` (out, x, y): value
    i of each is its i * stride-th."""
    return [tuple(Fp(slot.region, slot.rel + FP_BYTES * stride * i, f"{slot.name}[{stride * i}]")
                  for slot, stride in zip(slots, strides)) for i in range(count)]


def broadcast(slot: Slot, count: int) -> Sequence[Fp]:
    """The values an operand gives ``count`` results: one Fp for all, or its own."""
    return [slot] * count if _single(slot, count) else slot.fps()  # type: ignore[list-item]
