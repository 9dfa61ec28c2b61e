"""Fp, the base field of a curve, as EVM code; and the emitter every layer shares.

Written for any odd modulus below 2^382 (the curve is data: :mod:`evm384_native.curves`).
Under EVM384 values live in memory in Montgomery form (value * 2**384 mod p), 48 bytes LE,
like blst; under EVMMAX in registers (:mod:`.target`).
All routines keep values canonical (< p): ADDMOD384/SUBMOD384 reduce once and
MULMODMONT384 ends with a conditional subtraction, which suffices for inputs < p.
Negation is ``0 - a`` (not ``p - a``) so that -0 stays 0.

Each emitter writes ``out`` last, so ``out`` may alias an input unless a routine says
otherwise.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..asm import Assembler, Fp, Label, Modulus, Region, Slot, Subroutine, array
from ..curves.model import Field
from .target import Target
from .power_plans import INV_WINDOW, kept_values, power_plan, sliding_window
from .targets import TARGETS

ELEMENT = Fp      # the slot type of this field (curve code is written for Fp and Fp2 alike)


class Emitter:
    """An assembler, the instruction-set target (:mod:`.target`), the curve (its
    description, :class:`~evm384_native.curves.model.PairingCurve`, or for field code with
    no curve a :class:`~evm384_native.curves.model.PrimeField`) and the constants the
    field code reads.

    Creating it emits the code that loads the constants (and, under EVMMAX, sets the
    modulus), so create it first; call :meth:`finish` before assembling (it appends the
    constant bytes as data). The assembler's memory must come from the target
    (``target.new_memory()``).
    ``compact`` makes cold routines share code (smaller bytecode, a little more gas).
    ``loops`` turns long unrolled sequences (the Fp inversion, the Miller loop's bits of
    x) into run-time loops: for the two-pairing check 2,964 bytes less, 1.7% more gas.
    ``register_pairs`` (EVMMAX): with at most that many pairs, the Miller loop keeps their
    states in registers of their own instead of copying each in and out at every step;
    ``resident_code``, how the steps of those pairs are emitted (one of
    :data:`.pairing.RESIDENT_CODE`, least gas and most code first).
    ``inline_powers`` writes every squaring of an exponentiation (:func:`power`) in line
    instead of calling into a squaring chain: under EVMMAX a call costs about as much as
    eight squarings, and an exponentiation of a 381-bit exponent takes ~3,600 bytes.
    ``push_constants`` (plain EVM's blocks of field code): constants and multiples of p
    pushed where read (PUSH32, 3 gas) rather than loaded from memory (6 gas, 29 bytes
    less).
    """
    const_image: Region           # EVMMAX's memory image of the constants (its setup's)

    def __init__(self, asm: Assembler, curve: Field, compact: bool = True,
                 loops: bool = False, target: Target = TARGETS["evm384"], register_pairs: int = 0,
                 resident_code: str = "inline", inline_powers: bool = False,
                 cyclotomic_run: Optional[int] = None, push_constants: bool = False) -> None:
        self.asm = asm
        self.inline_powers = inline_powers
        self.push_constants = push_constants
        # the longest run of cyclotomic squarings one call performs (dense code; None: the
        # pairing's default, :data:`.pairing.CYCLOTOMIC_RUNS`' first)
        self.cyclotomic_run = cyclotomic_run
        self.curve = curve
        self.compact = compact
        self.loops = loops
        self.register_pairs = register_pairs
        self.resident_code = resident_code
        self.target = target
        self.buffers: Dict[str, Slot] = {}
        self._region = asm.memory.region("const")
        self.blob = bytearray()
        self._by_value: Dict[tuple, Slot] = {}
        self.data_label = asm.new_label("constants")
        montgomery = self.target.montgomery_constants(curve.p)
        if montgomery is not None and montgomery.modulus is not None:
            self.p: Slot = self._alloc(Modulus, "p", montgomery.modulus)
        self.zero: Fp = self.fp_const("zero", 0)
        self.one: Fp = self.fp_const("one", 1)
        if montgomery is not None:              # EVMMAX's STOREX/LOADX convert themselves
            self.r2: Fp = self._alloc(Fp, "r2", montgomery.r2)
            self.raw_one: Fp = self._alloc(Fp, "raw_one", montgomery.raw_one)
        self.target.setup(self)

    def _alloc(self, kind: type, name: str, blob: bytes) -> Slot:
        slot = self._region.alloc(kind, name)
        memory_bytes = self.target.memory_bytes
        assert len(blob) == memory_bytes(self, kind.size)
        assert len(self.blob) == memory_bytes(self, slot.rel)
        self.blob += blob
        return slot

    def const(self, kind: type, name: str, values: Sequence[int]) -> Slot:
        """A constant slot of ``kind`` holding Fp ``values`` (plain ints, stored as the
        target keeps values). Equal constants share one slot whatever their names."""
        blob = b"".join(self.target.encode(self, v % self.curve.p) for v in values)
        key = (kind, blob)
        if key not in self._by_value:
            self._by_value[key] = self._alloc(kind, name, blob)
        return self._by_value[key]

    def fp_const(self, name: str, value: int) -> Fp:
        return self.const(Fp, name, [value])  # type: ignore[return-value]

    def finish(self) -> None:
        """Append the constant bytes after the code: first the bodies of the subroutines
        called so far are emitted, since they may make constants too."""
        self.asm.emit_pending()
        self.target.finish(self)


# --- Fp arithmetic --------------------------------------------------------------------------

def add(e: Emitter, out: Slot, a: Slot, b: Slot) -> None:
    """out = a + b, value by value (for Fp or any field slot; a or b may be one Fp)."""
    e.target.arith(e, "add", out, a, b)


def sub(e: Emitter, out: Slot, a: Slot, b: Slot) -> None:
    e.target.arith(e, "sub", out, a, b)


def mul(e: Emitter, out: Slot, a: Slot, b: Slot) -> None:
    e.target.arith(e, "mul", out, a, b)


def sqr(e: Emitter, out: Fp, a: Fp) -> None:
    mul(e, out, a, a)


def dbl(e: Emitter, out: Fp, a: Fp) -> None:
    add(e, out, a, a)


def neg(e: Emitter, out: Fp, a: Fp) -> None:
    sub(e, out, e.zero, a)


def to_montgomery(e: Emitter, out: Fp, a: Fp) -> None:
    """out = a * R mod p, for a plain value a < p."""
    mul(e, out, a, e.r2)


def from_montgomery(e: Emitter, out: Fp, a: Fp) -> None:
    mul(e, out, a, e.raw_one)


def copy(e: Emitter, dst: Slot, src: Slot) -> None:
    """dst = src (the target's copy: MCOPY, or an EVMMAX vector addition of zero)."""
    if dst.size != src.size:
        raise ValueError(f"copy between slots of different sizes: {dst!r} <- {src!r}")
    e.target.copy(e, dst, src)


# --- inversion: a**(p-2) with a sliding window ------------------------------------------------

SQR_RUN = 16          # longest run of squarings one call into the squaring chain performs


def _squaring_chain(e: Emitter, acc: Fp, name: str) -> Tuple[Subroutine, List[Label]]:
    """A subroutine of SQR_RUN squarings of ``acc`` (see :func:`squaring_chain`)."""
    return squaring_chain(e, name, SQR_RUN, lambda: sqr(e, acc, acc))


def squaring_chain(e: Emitter, name: str, length: int, square: Callable[[], None]
                   ) -> Tuple[Subroutine, List[Label]]:
    """A subroutine of ``length`` squarings (``square()`` emits one); entering at
    ``entries[k]`` performs the last k of them, so a run of k squarings costs one call,
    not k copies of code."""
    entries = [e.asm.new_label(f"sqr_x{k}") for k in range(length + 1)]

    def body(asm: Assembler) -> None:
        for k in range(length, 0, -1):
            if k < length:
                asm.place(entries[k])
            square()
    chain = e.asm.subroutine(name, body)
    entries[length] = chain.entry
    return chain, entries


def _power_body(e: Emitter, a: Fp, out: Fp, exponent: int, name: str) -> None:
    chain, entries = _squaring_chain(e, out, "fp_sqr_chain" if name == "fp_inv" else
                                     f"{name}_sqr_chain")

    def squarings(count: int) -> None:
        while count:
            run = min(count, SQR_RUN)
            e.asm.call(chain, at=entries[run])
            count -= run
    _power_steps(e, a, out, exponent, squarings)


def _power_body_inline(e: Emitter, a: Fp, out: Fp, exponent: int, name: str) -> None:
    _power_steps(e, a, out, exponent, _squarings_in_line(e, out))


def _squarings_in_line(e: Emitter, acc: Fp) -> Callable[[int], None]:
    """``squarings(n)``: n squarings of ``acc``, each written out."""
    def squarings(count: int) -> None:
        for _ in range(count):
            sqr(e, acc, acc)
    return squarings


def _power_steps(e: Emitter, a: Fp, out: Fp, exponent: int,
                 squarings: Callable[[int], None]) -> None:
    """out = a**exponent by a sliding window; ``squarings(n)`` squares ``out`` n times."""
    (_, first), *rest = sliding_window(exponent, INV_WINDOW)
    top = max(m for _, m in rest + [(0, first)])
    with e.asm.temps(Fp, *[Fp] * (top // 2)) as (a2, *table):
        power = {1: a}                      # odd powers a, a^3, a^5, ... each from the last
        sqr(e, a2, a)
        for m, slot in zip(range(3, top + 1, 2), table):
            mul(e, slot, power[m - 2], a2)
            power[m] = slot
        copy(e, out, power[first])
        for count, m in rest:
            squarings(count)
            if m:
                mul(e, out, out, power[m])


BITS_A_LOOP = 255      # a run-time loop's digits fit one word with its sentinel


def _power_body_bits(e: Emitter, a: Fp, out: Fp, exponent: int, name: str) -> None:
    """a^exponent by square-and-multiply with the bits read at run time (loops of up to
    BITS_A_LOOP bits: ~100 bytes whatever the exponent, for ~exponent.bit_length() / 2
    products more than the sliding window's)."""
    asm = e.asm
    bits = [int(bit) for bit in bin(exponent)[3:]]

    def step() -> None:                           # stack: bit
        sqr(e, out, out)
        clear = asm.new_label("bit_clear")
        asm.op("ISZERO")
        asm.jumpi(clear)
        mul(e, out, out, a)
        asm.place(clear)
    copy(e, out, a)
    for start in range(0, len(bits), BITS_A_LOOP):
        asm.digit_loop(bits[start:start + BITS_A_LOOP], 1, step)


NIBBLE = 4


def _power_body_loops(e: Emitter, a: Fp, out: Fp, exponent: int, name: str) -> None:
    """a^exponent (< 2^384) with 4-bit windows read at run time: a table of a^0..a^15,
    then per nibble four squarings and one product by the table entry (~490 products,
    ~300 bytes)."""
    asm = e.asm
    table = asm.frame.alloc(array(Fp, 1 << NIBBLE), "powers")
    copy(e, table.e0, e.one)
    copy(e, table.e1, a)
    asm.digit_loop(list(range(1, (1 << NIBBLE) - 1)), NIBBLE,   # e[i+1] = e[i] a
                   lambda: e.target.indexed_op(e, "mul", table.e1, table.e0, a, (48, 48, 0)))

    def step(asm: Assembler) -> None:           # stack: digit, return address
        asm.op("SWAP1")
        for _ in range(NIBBLE):
            sqr(e, out, out)
        e.target.indexed_op(e, "mul", out, out, table.e0, (0, 0, 48))
    window = asm.subroutine(f"{name}_window", step)
    nibbles = [int(d, 16) for d in f"{exponent:096x}"]
    copy(e, out, e.one)
    for half in (nibbles[:48], nibbles[48:]):
        asm.digit_loop(half, NIBBLE, lambda: asm.call(window))


def power(e: Emitter, out: Fp, a: Fp, exponent: int, name: str) -> None:
    """out = a**exponent by a subroutine ``name`` (one per exponent): a sliding window
    with its squarings run through a shared squaring chain (with ``e.inline_powers``
    written out); with ``e.loops``, a loop over 4-bit windows where the target's operands
    can be computed at run time, or one over the bits where it asks for them
    (``bit_loop_powers``: EVM768). Exponents up to 768 bits (BW6-761's p - 2), the
    loop's up to 384."""
    tables = e.loops and e.target.indexed_operands
    bits = 384 if tables else 768
    if not 0 < exponent < 1 << bits:
        raise ValueError(f"the exponent must be in 1 .. 2^{bits} - 1")
    body = (_power_body_loops if tables else
            _power_body_bits if e.loops and e.target.bit_loop_powers else
            _power_body_inline if e.inline_powers else _power_body)
    routine = e.asm.subroutine(name, lambda asm, a, out: body(e, a, out, exponent, name),
                               {"a": Fp, "out": Fp})
    call(e, routine, {"out": out}, a=a)


def inverse(e: Emitter, out: Fp, a: Fp) -> None:
    """out = a**-1 (0 for a = 0): a**(p-2) (for BLS12-381 ~380 squarings and ~80
    multiplications)."""
    power(e, out, a, e.curve.p - 2, "fp_inv")


def inverse_inline(e: Emitter, out: Fp, a: Fp) -> None:
    """out = a**-1 as :func:`inverse`, emitted inline, every squaring in line (no calls:
    under EVMMAX a call into the squaring chain costs about as much as 10 squarings; for
    BN254 ~2,500 bytes of code), in the target's own form where it has one (plain EVM: one
    run of stack code, :mod:`.word_power`). ``out`` must not be ``a``."""
    exponent = e.curve.p - 2
    e.target.power_inline(e, out, a, exponent, lambda: _power_steps(
        e, a, out, exponent, _squarings_in_line(e, out)))


def power_chain(e: Emitter, out: Fp, a: Fp, exponent: int) -> None:
    """out = a**exponent by :func:`.power_plans.power_plan`'s chain, emitted inline (``out`` must not
    be ``a``): a value read only by the step after it lives in ``out``, one read later
    gets a register of its own; in the target's own form where it has one (plain EVM: one
    run of stack code, :mod:`.word_power`, 14 gas a step where a block's took ~16)."""
    e.target.power_inline(e, out, a, exponent, lambda: _plan_steps(e, out, a, exponent))


def _plan_steps(e: Emitter, out: Fp, a: Fp, exponent: int) -> None:
    """:func:`power_chain`'s steps as the tower's operations."""
    steps = power_plan(exponent)
    kept = kept_values(steps)
    with e.asm.temps(*[Fp] * len(kept)) as slots:
        where: Dict[int, Slot] = {0: a, **dict(zip(kept, slots))}
        for value, x, y in steps:
            mul(e, where.get(value, out), where.get(x, out), where.get(y, out))


# --- element-wise helpers the extension fields share ------------------------------------------

def overlap(a: Slot, b: Slot) -> bool:
    """True if two slots share bytes (decidable before linking: same region, ranges meet)."""
    return a.region is b.region and a.rel < b.rel + b.size and b.rel < a.rel + a.size


add_each = add           # element-wise on any field slot (one EVMMAX vector op)
sub_each = sub


def dbl_each(e: Emitter, out: Slot, a: Slot) -> None:
    add(e, out, a, a)


def neg_each(e: Emitter, out: Slot, a: Slot) -> None:
    sub(e, out, e.zero, a)


def same(a: Slot, b: Slot) -> bool:
    return a.region is b.region and a.rel == b.rel and a.size == b.size


def call(e: Emitter, sub: Subroutine, results: Dict[str, Slot], **args: Slot) -> None:
    """Copy ``args`` into ``sub``'s argument slots (unless already there), call it, and copy
    the argument slots named in ``results`` out."""
    copies = [(sub.args[name], slot) for name, slot in args.items()
              if not same(slot, sub.args[name])]
    for i, (dst, _) in enumerate(copies):
        if any(overlap(dst, src) for _, src in copies[i + 1:]):
            raise ValueError(f"{sub.name}: argument {dst!r} would be overwritten before "
                             "it is passed on; use a temporary")
        copy(e, dst, copies[i][1])
    e.asm.call(sub)
    for name, slot in results.items():
        if not same(slot, sub.args[name]):
            copy(e, slot, sub.args[name])
