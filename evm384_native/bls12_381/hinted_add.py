"""Hinted EIP-2537 additions as EVMMAX contracts: ``eip2537_g1add_hinted`` and
``eip2537_g2add_hinted``, the G1ADD / G2ADD precompiles (0x0b, 0x0d) given the slope of
the line through the two points, so that the contract checks the sum instead of
computing an inversion.

Calldata: the precompile's input (G1: 256 bytes, x1 y1 x2 y2; G2: 512 bytes, x1.c0
x1.c1 y1.c0 y1.c1 x2.c0 ..; each value 64 bytes: 16 zero bytes, then 48 bytes
big-endian), then the hint lambda: G1 one value, G2 lambda.c0 then lambda.c1, each 48
bytes big-endian without padding (304 / 608 bytes in all). Output: the precompile's (the
sum, 128 / 256 bytes, infinity as zeros). The hint (:func:`.add_hint.add_hint` computes it):
(y2 - y1) / (x2 - x1), or 3 x1^2 / (2 y1) for P1 = P2, and zero where the sum needs
none (either point at infinity, or P2 = -P1). Every input the precompile rejects
(length, padding, a value >= p, a point off its curve) and every wrong hint make the
contract REVERT with empty output, like the other EIP-2537 contracts of this package
(the precompile burns the call's gas instead).

Why the checks suffice (b = 4, or 4 (1 + i) for G2; e1, e3, f and the sum as in
:mod:`.add_program`):

- e1 = 0: P1 = (x1, y1) is on the curve.
- e2 - e1 = (y2 - y1)(y2 + y1) - (x2 - x1)(x1^2 + x1 x2 + x2^2), with e2 P2's curve
  equation. If e3 = 0 then y2 - y1 = l (x2 - x1), so e2 - e1 = (x2 - x1) f, and f = 0
  puts P2 on the curve.
- x1 != x2: e3 = 0 makes l the chord's slope (y2 - y1) / (x2 - x1).
- x1 = x2: e3 = 0 forces y1 = y2, so P2 = P1 (on the curve by e1), and f = 0 reads
  2 l y1 = 3 x1^2: l is the tangent's slope, as y1 != 0 (E(Fp) and E'(Fp2) have odd
  order, no point of order 2). Doubling needs no branch.
- With those slopes the affine sum is x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1.
- P2 = -P1 (x1 = x2, y2 = -y1 != y1) gives e3 = 2 y1 != 0 for every l, and the point at
  infinity (all zeros) is no affine point of the curve (e1 = -b): both fail the check and
  take the slow path below, as every wrong hint does.
- e1, e3, f (G2: their six Fp components) fold into one value w that is zero iff all
  are (N(a, b) = a^2 + b^2 = 0 only at a = b = 0, -1 being no square mod p; over Fp2 the
  sum of squares would not do, i^2 = -1, so G2 folds the Fp components).

The fast path, straight-line, one JUMPI:

1. Range in EVM integers, conservatively: each value's first word below ``p >> 256``
   (for the 64-byte values: their padding and top 16 bytes, so the padding too) or, for
   the hint's 48-byte values, their first 32 bytes below ``p >> 128``. STOREX would halt
   on a value >= p, so a miss makes the copy below read from 2^200 + 16, far past the
   calldata: all zeros, which no STOREX rejects and the check rejects (the zero point is
   not on the curve), so the run ends at step 4's JUMPI into the exact checks
   (``slow_range``), which REVERT or run the same code again with the copy from 16 (a
   value whose top bytes are p's).
2. p (with the constant 4 in front of it) by two MSTOREs, SETMODX, one CALLDATACOPY of
   calldata [16, end) to memory 48, and STOREXes: 4 and x1(.c0) in one (the 48-byte
   window before x1 holds 4: the first MSTORE's word is ``4 << 128 | p_hi`` at memory
   32), then one a value, the last coordinate value and the hint in one (they are
   adjacent, the hint has no padding) into the top registers.
3. The field work of :func:`.add_program.addition` in the registers
   :mod:`.add_registers` gives it (EIP-6690 counts registers as memory: 7 for G1, 15
   for G2).
4. LOADX of w and x3(.c0) together to memory 0 (w's last 16 bytes are the output's first
   padding, zero when w is), then one LOADX per other output value (its padding is a
   calldata padding in the copy, checked zero); w != 0 or CALLDATASIZE != 304 / 608
   jumps to ``slow_range``; RETURN memory [32, 32 + 128 / 256).

``slow_cases`` (after ``slow_range``'s exact checks passed and its run of the same code
failed the check again): reloads the inputs into a context of its own,
computes each point's curve equation, x2 - x1 and y1 + y2 (:func:`.add_program.special_cases`)
and answers P2 if P1 is infinity (P2 on the curve or infinity), P1 if P2 is, infinity if
P2 = -P1 (P1 on the curve), each only with a zero hint; anything else REVERTs.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Sequence, Tuple

from ..asm import Assembler, Program
from ..curves.bls12_381 import BLS12_381
from .add_program import COORDINATES, Program as FieldProgram, addition, special_cases
from .add_registers import AllocationError, fewest_registers
from .eip2537_io import fail_at

P = BLS12_381.p
FIELD, VALUE, PAD = 64, 48, 16                     # EIP-2537's field encoding
P_HI, P_LO = P >> 256, P % (1 << 256)              # p's first 16 bytes, its last 32
P_TOP, P_LOW = P >> 128, P % (1 << 128)            # p's first 32 bytes, its last 16
B_WINDOW = 0                                       # [0, 48): the constant 4
MODULUS_AT = 48                                    # p, read by SETMODX, then the copy
FAR_SHIFT = 200                                    # a failed range check copies from 2^200
COPY_AT = 48                                       # calldata [16, end) from here
OUTPUT_AT = 32                                     # the answer: memory [32, 32 + out)
FAST_CONTEXT, SLOW_CONTEXT = 0, 1
NAMES = {"eip2537_g1add_hinted": 1, "eip2537_g2add_hinted": 2}
CONTRACTS = tuple(NAMES)
_MNEMONIC = {"add": "ADDMODX", "sub": "SUBMODX", "mul": "MULMODX"}


def calldata_bytes(degree: int) -> int:
    """304 (G1) or 608 (G2): the two points, then the hint."""
    return (4 * FIELD + VALUE) * degree


def hint_bytes(degree: int) -> int:
    return VALUE * degree


class _Layout:
    """Where the contract of one group (``degree`` 1: G1, 2: G2) keeps what."""

    def __init__(self, degree: int) -> None:
        self.degree = degree
        self.fields = 4 * degree                   # coordinate values in the calldata
        self.points = FIELD * self.fields          # 256 / 512
        self.size = calldata_bytes(degree)
        # coordinate value names in calldata order: x1_0 (x1_1) y1_0 ..
        self.values = [f"{c}_{i}" for c in COORDINATES for i in range(degree)]
        self.hint = [f"l_{i}" for i in range(degree)]
        self.output = 2 * FIELD * degree           # 128 / 256

    def field_at(self, k: int) -> int:
        """Memory address of coordinate value k in the copy."""
        return COPY_AT + FIELD * k

    def hint_at(self, j: int) -> int:
        """Calldata offset of hint value j."""
        return self.points + VALUE * j

    def fixed(self, registers: int) -> Dict[str, int]:
        """The inputs' registers: 4 and x1(.c0) from 0, the other values but the last in
        calldata order, then the last value and the hint in the top registers."""
        low = ["b"] + self.values[:-1]
        top = self.values[-1:] + self.hint
        if len(low) + len(top) > registers:
            raise AllocationError("the inputs alone need more registers")
        places = {name: i for i, name in enumerate(low)}
        places.update({name: registers - len(top) + i for i, name in enumerate(top)})
        return places

    def stores(self) -> List[Tuple[str, int, int]]:
        """(first value name, memory address, count) of each STOREX."""
        last = self.fields - 1
        return ([("b", B_WINDOW, 2)] + [(self.values[k], self.field_at(k), 1)
                                         for k in range(1, last)]
                + [(self.values[last], self.field_at(last), 1 + self.degree)])


class _Plan:
    """Each program's register count and assignment: the fast path's in context 0, the
    slow path's in a context 1 of its own (its registers cost gas only when it runs)."""

    def __init__(self, layout: _Layout) -> None:
        fast, slow = addition(layout.degree), special_cases(layout.degree)
        w, x3 = fast.outputs["w"][0], fast.outputs["x3"][0]
        self.registers, self.fast_regs, self.fast = fewest_registers(fast, layout.fixed, (w, x3))
        self.slow_registers, self.slow_regs, self.slow = fewest_registers(slow, layout.fixed)


def _push(asm: Assembler, value: int) -> None:
    """PUSH0 (2 gas) for zero, else the smallest PUSHn."""
    if value == 0:
        asm.op("PUSH0")
    else:
        asm.push(value)


class _Contract:
    def __init__(self, name: str, degree: int) -> None:
        self.asm = Assembler(name, opcodes="evmmax")
        self.layout = _Layout(degree)
        self.plan = _Plan(self.layout)
        self.fail = self.asm.new_label("invalid")
        self.slow_range = self.asm.new_label("slow_range")
        self.slow_cases = self.asm.new_label("slow_cases")

    # --- checks in EVM integers ---------------------------------------------------------------

    def push_copy_source(self) -> None:
        """Push the calldata offset to copy the inputs from: 16 if every value's first
        word is below p's (sufficient, not necessary: module doc, 1), else an offset far
        past the calldata, so that the copy is all zeros (no STOREX halts on them, and
        the zero point fails the check: the exact checks run then)."""
        asm, layout = self.asm, self.layout
        words = [(P_HI, FIELD * k) for k in range(layout.fields)] + \
                [(P_TOP, layout.hint_at(j)) for j in range(layout.degree)]
        with asm.scope("range_check"):
            for i, (bound, offset) in enumerate(words):
                asm.push(bound - 1)
                _push(asm, offset)
                asm.op("CALLDATALOAD")
                asm.op("GT")                      # word > bound - 1: maybe out of range
                if i:
                    asm.op("OR")
            asm.push(FAR_SHIFT)
            asm.op("SHL")                         # 0, or 2^200 past the calldata
            asm.push(PAD)
            asm.op("OR")

    def _push_size_differs(self) -> None:
        self.asm.op("CALLDATASIZE")
        self.asm.push(self.layout.size)
        self.asm.op("XOR")

    def exact_range_check(self) -> None:
        """REVERT unless the size is right, every padding zero and every value < p."""
        asm, layout = self.asm, self.layout
        with asm.scope("exact_range_check"):
            self._push_size_differs()
            asm.jumpi(self.fail)
            for k in range(layout.fields):
                _push(asm, FIELD * k)
                asm.op("CALLDATALOAD")
                asm.push(128)
                asm.op("SHR")                     # the 16 bytes of padding
                asm.jumpi(self.fail)
                self._require_below_p(FIELD * k + PAD)
            for j in range(layout.degree):
                self._require_below_p(layout.hint_at(j))

    def _require_below_p(self, offset: int) -> None:
        """REVERT unless the 48-byte value at calldata ``offset`` is below p: its first 32
        bytes below p's, or equal and its last 16 below p's."""
        asm = self.asm
        asm.push(offset)
        asm.op("CALLDATALOAD")                    # top
        asm.op("DUP1")
        asm.push(P_TOP)
        asm.op("GT")                              # top < P_TOP
        asm.op("SWAP1")
        asm.push(P_TOP)
        asm.op("EQ")
        asm.push(offset + 32)
        asm.op("CALLDATALOAD")
        asm.push(128)
        asm.op("SHR")                             # the last 16 bytes
        asm.push(P_LOW)
        asm.ops("GT", "AND", "OR", "ISZERO")
        asm.jumpi(self.fail)

    # --- loading the inputs -------------------------------------------------------------------

    def write_constants(self, clear: bool) -> None:
        """Memory [32, 96): 4 as the last byte of [0, 48), then p at [48, 96); ``clear``:
        [0, 32) zero again first (a slow path, after the fast one's LOADX there)."""
        asm = self.asm
        if clear:
            _push(asm, 0)
            _push(asm, 0)
            asm.op("MSTORE")
        asm.push((4 << 128) | P_HI)
        asm.push(32)
        asm.op("MSTORE")
        asm.push(P_LO)
        asm.push(64)
        asm.op("MSTORE")

    def set_field(self, context: int, registers: int) -> None:
        """SETMODX: context ``context`` over p (memory 48), ``registers`` registers."""
        asm = self.asm
        asm.push(registers)
        asm.push(VALUE)
        asm.push(MODULUS_AT)
        _push(asm, context)
        asm.evmmax_op("SETMODX")

    def copy_and_store(self, registers: Dict[str, int]) -> None:
        """Stack: size source -> (consumed): CALLDATACOPY to memory 48, the STOREXes."""
        asm, layout = self.asm, self.layout
        asm.push(COPY_AT)
        asm.op("CALLDATACOPY")
        for first, address, count in layout.stores():
            asm.push(count)
            _push(asm, address)
            _push(asm, registers[first])
            asm.evmmax_op("STOREX")

    def field_work(self, program: FieldProgram, registers: Dict[str, int]) -> None:
        for op in program.ops:                    # one value each: x and y read with stride 0
            self.asm.evmmax(_MNEMONIC[op.op], registers[op.out], registers[op.x],
                            registers[op.y], 1, (1, 0, 0))

    def loadx(self, register: int, address: int, count: int = 1) -> None:
        asm = self.asm
        asm.push(count)
        _push(asm, register)
        _push(asm, address)
        asm.evmmax_op("LOADX")

    # --- the paths ------------------------------------------------------------------------------

    def body(self, fast: bool) -> None:
        """Steps 1-4 of the module doc; ``fast``: with the conservative range check and the
        size check into the jump to ``slow_range``, else (after the exact checks) with
        the copy from 16 and a jump to ``slow_cases``."""
        asm, layout, plan = self.asm, self.layout, self.plan
        regs = plan.fast_regs
        with asm.scope("load"):
            asm.push(layout.size - PAD)           # the copy's size, under its source
            if fast:
                self.push_copy_source()
            else:
                asm.push(PAD)
            self.write_constants(clear=not fast)
            self.set_field(FAST_CONTEXT, plan.registers)
            self.copy_and_store(regs)
        with asm.scope("field_work"):
            self.field_work(plan.fast, regs)
        with asm.scope("answer"):
            outputs = plan.fast.outputs["x3"] + plan.fast.outputs["y3"]
            self.loadx(regs[plan.fast.outputs["w"][0]], 0, 2)   # w, then x3(.c0) at 48
            for j, name in enumerate(outputs[1:], 1):
                self.loadx(regs[name], OUTPUT_AT + FIELD * j + PAD)
            _push(asm, 0)
            asm.op("MLOAD")
            asm.push(16)
            asm.op("MLOAD")
            asm.op("OR")                          # w's 48 bytes
            if fast:
                self._push_size_differs()
                asm.op("OR")
            asm.jumpi(self.slow_range if fast else self.slow_cases)
            asm.push(layout.output)
            asm.push(OUTPUT_AT)
            asm.op("RETURN")

    def special_cases(self) -> None:
        """The slow path after a failed check (module doc)."""
        asm, layout, plan = self.asm, self.layout, self.plan
        regs = plan.slow_regs
        asm.place(self.slow_cases)
        with asm.scope("slow_cases"):
            asm.push(layout.size - PAD)
            asm.push(PAD)
            self.write_constants(clear=True)
            self.set_field(SLOW_CONTEXT, plan.slow_registers)
            self.copy_and_store(regs)
            self.field_work(plan.slow, regs)
            images: Dict[str, int] = {}
            for name in ("on1", "on2", "dx", "sy"):
                images[name] = VALUE * sum(len(plan.slow.outputs[n]) for n in images)
                for i, component in enumerate(plan.slow.outputs[name]):
                    self.loadx(regs[component], images[name] + VALUE * i)
            size = VALUE * layout.degree          # bytes of one output's image
            answer = asm.new_label("return_calldata")
            p1_infinity, p2_infinity = asm.new_label("p1_infinity"), asm.new_label("p2_infinity")
            _push_zero(asm, "CALLDATALOAD", layout.points, VALUE * layout.degree)
            asm.op("ISZERO")
            asm.jumpi(self.fail)                  # the hint must be zero here
            half = layout.points // 2
            _push_zero(asm, "CALLDATALOAD", 0, half)
            asm.jumpi(p1_infinity)
            _push_zero(asm, "CALLDATALOAD", half, half)
            asm.jumpi(p2_infinity)
            for name in ("on1", "dx", "sy"):      # P2 = -P1, P1 on the curve
                _push_zero(asm, "MLOAD", images[name], size)
            asm.ops("AND", "AND", "ISZERO")
            asm.jumpi(self.fail)
            asm.op("CALLDATASIZE")                # zeros: copied from past the calldata
            asm.jump(answer)
            asm.place(p1_infinity)                # P2 (infinity or on the curve)
            _push_zero(asm, "CALLDATALOAD", half, half)
            _push_zero(asm, "MLOAD", images["on2"], size)
            asm.ops("OR", "ISZERO")
            asm.jumpi(self.fail)
            asm.push(half)
            asm.jump(answer)
            asm.place(p2_infinity)                # P1 (on the curve)
            _push_zero(asm, "MLOAD", images["on1"], size)
            asm.op("ISZERO")
            asm.jumpi(self.fail)
            _push(asm, 0)
            asm.place(answer)                     # stack: calldata offset of the answer
            asm.push(layout.output)
            asm.op("SWAP1")
            _push(asm, 0)
            asm.op("CALLDATACOPY")
            asm.push(layout.output)
            _push(asm, 0)
            asm.op("RETURN")

    def build(self) -> Program:
        asm = self.asm
        self.body(fast=True)
        asm.place(self.slow_range)
        self.exact_range_check()
        self.body(fast=False)
        self.special_cases()
        fail_at(asm, self.fail)
        return asm.assemble()


def _push_zero(asm: Assembler, load: str, start: int, size: int) -> None:
    """Push 1 if the ``size`` bytes (a multiple of 16, at least 32) at ``start`` of
    calldata (``load`` CALLDATALOAD) or memory (MLOAD) are zero, else 0."""
    offsets = list(range(start, start + size - 31, 32))
    if offsets[-1] + 32 < start + size:
        offsets.append(start + size - 32)
    for i, offset in enumerate(offsets):
        _push(asm, offset)
        asm.op(load)
        if i:
            asm.op("OR")
    asm.op("ISZERO")


@lru_cache(maxsize=None)
def build_program(name: str) -> Program:
    """The assembled contract ``name`` (one of :data:`CONTRACTS`), EVMMAX only."""
    if name not in NAMES:
        raise ValueError(f"unknown contract {name!r}; choose {', '.join(CONTRACTS)}")
    return _Contract(name, NAMES[name]).build()


def registers(name: str) -> int:
    """The contract's register count (its SETMODX alloc_count)."""
    return _Plan(_Layout(NAMES[name])).registers


def degree_of(name: str) -> int:
    """1 for the G1 contract, 2 for G2's."""
    return NAMES[name]


def split_calldata(name: str, calldata: bytes) -> Tuple[bytes, bytes]:
    """(the precompile's input, the hint) of the contract's calldata (any length: the
    hint is what follows the points)."""
    points = _Layout(NAMES[name]).points
    return bytes(calldata[:points]), bytes(calldata[points:])


def join_calldata(name: str, data: bytes, hint: bytes) -> bytes:
    """The contract's calldata: the precompile's input, then the hint (checked to be
    :func:`hint_bytes` long; the input is passed as it is, the contract judges it)."""
    degree = NAMES[name]
    if not isinstance(hint, (bytes, bytearray)) or len(hint) != hint_bytes(degree):
        raise ValueError(f"{name}'s hint is {hint_bytes(degree)} bytes (add_hint computes it)")
    return bytes(data) + bytes(hint)


__all__: Sequence[str] = ("CONTRACTS", "build_program", "calldata_bytes", "hint_bytes",
                          "join_calldata", "registers", "split_calldata")
