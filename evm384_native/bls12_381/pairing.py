"""The optimal ate pairing of BLS12-381 as EVM384 code: Miller loop and final exponentiation,
computing exactly what blst computes.

Miller loop: k pairs (k known only at run time) share ONE Fp12 squaring per bit of
|x| = 0xd201000000010000; per bit, every pair doubles its T and multiplies its tangent line
into f, and on a set bit every pair adds Q and multiplies the chord line. The loop over
the bits is unrolled at generation time into subroutine calls (a few bytes per bit), or
a run-time loop over the bits (``Emitter(loops=True)``); the loop over the pairs runs at run time over pair states kept after every linked memory
region, each copied into one fixed work slot the line code reads.

Final exponentiation: blst's (easy part, then the hard part with four powers by x), so
the result is the CUBE of the reduced pairing, byte for byte blst's.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..asm import (Assembler, Fp6, Fp12, G1, G2, G2Jacobian, Label, Slot, Subroutine, raw,
                   struct)
from . import curve, fp, fp12
from .fp import Emitter

X_ABS = 0xD201000000010000               # |x|; x is negative
# longest runs of cyclotomic squarings (about 700 bytes of EVMMAX code each) and of G1
# doublings one call performs, for targets with dense_code
CYCLOTOMIC_RUN = 8
G1_DBL_RUN = 16
PAIR_INPUT_BYTES = 288                   # per pair in calldata: G1 x‖y, G2 x.c0‖x.c1‖y.c0‖y.c1
# How the Miller loop's steps of pairs kept in registers (Emitter.register_pairs) are
# emitted, least gas first: every pair's inline; the first pair's shared with the loop over
# pairs in memory (a call per step, a copy of the steps less); and also f *= line one
# routine that every pair's steps call (a call per line, ~2.5 KB less per pair).
RESIDENT_CODE = ("inline", "first_pair_shared", "line_product_called")


# What the Miller loop keeps per pair: Q, (-2 P.x, 2 P.y) and the running T.
PairState = struct("PairState", ("q", G2), ("px2", G1), ("t", G2Jacobian))


_PX2_REL = G2.size
_T_REL = G2.size + G1.size
_PairTail = struct("PairTail", ("px2", G1), ("t", G2Jacobian))


def _tail(state: Slot) -> Slot:
    """A pair state's px2‖t (what the doubling steps read)."""
    return _PairTail(state.region, state.rel + _PX2_REL, f"{state.name}.tail")


def square_and_multiply(e: Emitter, bits: str, square: Callable[[], None],
                        multiply: Callable[[], None], loop: Optional[bool] = None) -> None:
    """Per bit of ``bits``: ``square()``, then ``multiply()`` if the bit is set. Unrolled at
    generation time, or a run-time loop over the bits if ``loop`` (default ``e.loops``;
    ~55 gas per bit)."""
    if not (e.loops if loop is None else loop):
        for bit in bits:
            square()
            if bit == "1":
                multiply()
        return
    asm = e.asm

    def step() -> None:                           # stack: bit
        square()
        clear = asm.new_label("bit_clear")
        asm.op("ISZERO")
        asm.jumpi(clear)
        multiply()
        asm.place(clear)
    asm.digit_loop([int(bit) for bit in bits], 1, step)


def square_and_multiply_chained(e: Emitter, bits: str, name: str, run: int,
                                square: Callable[[], None], multiply: Callable[[], None]
                                ) -> None:
    """:func:`square_and_multiply` with the squarings inline in a subroutine ``name`` of
    ``run`` of them (:func:`.fp.squaring_chain`): one call per run of up to ``run``
    squarings instead of one per squaring (for targets with ``dense_code``)."""
    chain, entries = fp.squaring_chain(e, name, run, square)
    runs = [len(zeros) + 1 for zeros in bits.split("1")]   # squarings before each
    runs[-1] -= 1                                          # product; none after the last
    for i, count in enumerate(runs):
        while count:
            step = min(count, run)
            e.asm.call(chain, at=entries[step])
            count -= step
        if i + 1 < len(runs):
            multiply()


def is_zero(asm: Assembler, slot: Slot) -> None:
    """Push 1 if every byte of ``slot`` is zero, else 0 (OR of its words)."""
    if slot.size % 32:
        raise ValueError("slot size must be a multiple of 32 bytes")
    for i, rel in enumerate(range(0, slot.size, 32)):
        asm.push(lambda rel=rel: int(slot) + rel)
        asm.op("MLOAD")
        if i:
            asm.op("OR")
    asm.op("ISZERO")


def require_calldata(asm: Assembler, offset: int, size: int, multiple: bool = False,
                     tail: int = 0) -> None:
    """REVERT unless the calldata after ``offset`` is ``size`` bytes (or a positive multiple
    of ``size``), followed by ``tail`` more bytes (only with ``multiple``)."""
    ok = asm.new_label("calldata_ok")
    asm.push(offset + tail)
    asm.op("CALLDATASIZE")
    asm.op("SUB")                                 # n = CALLDATASIZE - offset - tail
    if multiple:
        asm.push(size)
        asm.op("DUP2")
        asm.op("MOD")                             # n % size
        asm.op("SWAP1")
        asm.op("ISZERO")
        asm.op("OR")                              # bad if n % size or n == 0
        if tail:                                  # or n < 0 (it wrapped around)
            asm.push(offset + tail)
            asm.op("CALLDATASIZE")
            asm.op("LT")
            asm.op("OR")
        asm.op("ISZERO")
    else:
        if tail:
            raise ValueError("a calldata tail needs multiple=True")
        asm.push(size)
        asm.op("EQ")
    asm.jumpi(ok)
    asm.push(0)
    asm.op("DUP1")
    asm.op("REVERT")
    asm.place(ok)


class MillerLoop:
    """Memory and subroutines of the Miller loop over the pairs in calldata."""

    def __init__(self, e: Emitter, f: Fp12, g1_may_be_infinity: bool = False,
                 calldata_tail: int = 0) -> None:
        """``g1_may_be_infinity``: pair states may have P at infinity ((-2 P.x, 2 P.y) all
        zero; kept so that their Q can still be checked); their lines are not multiplied
        into f. ``calldata_tail``: bytes after the pairs in calldata (a hint), not pairs."""
        self.e, self.f = e, f
        self.g1_may_be_infinity = g1_may_be_infinity
        self.calldata_tail = calldata_tail
        region = e.asm.memory.region("miller")
        self.work = region.alloc(PairState, "work")
        self.line = region.alloc(Fp6, "line")
        self.end = region.alloc(raw(32), "pairs_end")
        # the states of the first pairs in registers of their own, when there are few
        self.resident = [region.alloc(PairState, f"pair{i}") for i in range(e.register_pairs)]

    def heap(self) -> int:
        """Where the pair states start: after every linked region (known at link time)."""
        memory_end = self.e.asm.memory.end
        assert memory_end is not None
        return memory_end

    # --- loading --------------------------------------------------------------------------

    def load(self, calldata_offset: int = 0, pair_bytes: int = PAIR_INPUT_BYTES,
             read: Optional[Callable[[Label], None]] = None) -> None:
        """Read the pairs in calldata (at least one) into pair states in Montgomery form
        with T = Q. ``read(skip)`` emits the code that puts the pair at calldata offset
        ``cd`` (stack: ptr cd) into the work slot's q and px2, in Montgomery form, and
        jumps to ``skip`` for a pair that contributes 1; the default reads plain LE values
        and skips a pair with an all-zero G1 or G2 point (infinity, as in EIP-2537)."""
        asm, work = self.e.asm, self.work
        with asm.scope("load_pairs"):
            require_calldata(asm, calldata_offset, pair_bytes, multiple=True,
                             tail=self.calldata_tail)
            asm.push(self.heap)                  # stack: ptr
            asm.push(calldata_offset)            # stack: ptr cd
            top, skip = asm.label("load_pair"), asm.new_label("skip_pair")
            (read or self._read_plain)(skip)
            curve.g1_prepare(self.e, work.px2, work.px2)
            curve.from_affine(self.e, work.t, work.q)
            self.e.target.copy_out(asm, work, lambda: asm.op("DUP4"), grow=True)
            asm.op("SWAP1"); asm.push(PairState.size); asm.op("ADD"); asm.op("SWAP1")
            asm.place(skip)
            asm.push(pair_bytes); asm.op("ADD")
            asm.op("DUP1"); asm.op("CALLDATASIZE")
            if self.calldata_tail:
                asm.push(self.calldata_tail); asm.op("SWAP1"); asm.op("SUB")
            asm.op("GT")
            asm.jumpi(top)                       # while CALLDATASIZE - tail > cd
            asm.op("POP")
            asm.push(self.end)
            asm.op("MSTORE")                     # pairs_end = ptr

    def _read_plain(self, skip: Label) -> None:
        e, asm, work = self.e, self.e.asm, self.work
        staged = e.target.staging(e, work)        # q‖px2 as plain values in memory
        px2 = type(work.px2)(staged.region, staged.rel + _PX2_REL, f"{staged.name}.px2")
        q = type(work.q)(staged.region, staged.rel, f"{staged.name}.q")
        asm.push(G1.size); asm.op("DUP2"); asm.push(px2); asm.op("CALLDATACOPY")
        asm.push(G2.size); asm.push(G1.size); asm.op("DUP3"); asm.op("ADD")
        asm.push(q); asm.op("CALLDATACOPY")
        is_zero(asm, px2)
        is_zero(asm, q)
        asm.op("OR")
        asm.jumpi(skip)
        e.target.from_staging(e, work.px2, px2, little_endian=True)
        e.target.from_staging(e, work.q, q, little_endian=True)

    # --- the loop -------------------------------------------------------------------------

    def for_each_pair(self, step: Callable[[], None], with_q: bool,
                      slot: Optional[Slot] = None) -> None:
        """Run ``step`` on every pair state: copy it into ``slot`` (default the work slot;
        Q only if needed), step, copy T back."""
        e, asm = self.e, self.e.asm
        slot = self.work if slot is None else slot
        start = 0 if with_q else _PX2_REL
        asm.push(self.heap)                       # stack: ptr
        top = asm.label("pair")

        def record() -> None:
            asm.op("DUP2")
            if start:
                asm.push(start)
                asm.op("ADD")
        live = PairState(slot.region, slot.rel, slot.name) if with_q else _tail(slot)
        e.target.copy_in(asm, live, record)
        step()
        e.target.copy_out(asm, slot.t, lambda: (asm.op("DUP3"), asm.push(_T_REL),
                                                 asm.op("ADD")))
        asm.push(PairState.size); asm.op("ADD")
        asm.op("DUP1"); asm.push(self.end); asm.op("MLOAD"); asm.op("GT")
        asm.jumpi(top)
        asm.op("POP")

    def _line_step(self, line_fn, state: Slot) -> None:
        """``line_fn()`` (the line of the pair ``state``), then f *= the line at P."""
        e = self.e
        line_fn()
        skip = e.asm.new_label("g1_infinity") if self.g1_may_be_infinity else None
        if skip is not None:                      # px2 = 0 only for P at infinity
            is_zero(e.asm, e.target.memory_image(e, state.px2))
            e.asm.jumpi(skip)
        curve.line_by_px2(e, self.line, state.px2)
        if e.target.dense_code and not (self.resident
                                        and e.resident_code == "line_product_called"):
            fp12.mul_by_line(e, self.f, self.f, self.line)
        else:
            e.asm.call(fp12.routine(e, "fp12_mul_by_line", "ml_mul_by_line", a=self.f,
                                    line=self.line))
        if skip is not None:
            e.asm.place(skip)

    def _dbl_step(self, state: Slot) -> None:
        self._line_step(lambda: curve.line_dbl(self.e, self.line, state.t), state)

    def _add_step(self, state: Slot) -> None:
        self._line_step(lambda: curve.line_add(self.e, self.line, state.t, state.q), state)

    # --- pairs kept in registers (Emitter.register_pairs) -----------------------------------

    def _record(self, i: int) -> Callable[[], int]:
        """Where pair i's state is in memory (known at link time)."""
        return lambda: self.heap() + i * PairState.size

    def _push_has_pair(self, i: int) -> None:
        """Push 1 if there is a pair i (pairs_end > its record), else 0."""
        asm = self.e.asm
        asm.push(self._record(i))
        asm.push(self.end)
        asm.op("MLOAD")
        asm.op("GT")

    def _jump_unless_pair(self, i: int, target: Label) -> None:
        self._push_has_pair(i)
        self.e.asm.op("ISZERO")
        self.e.asm.jumpi(target)

    def _for_resident(self, step: Callable[[int], None]) -> None:
        """``step(i)`` for each pair kept in registers that exists."""
        asm = self.e.asm
        skip = asm.new_label("fewer_pairs")
        for i in range(len(self.resident)):
            if i:
                self._jump_unless_pair(i, skip)
            step(i)
        asm.place(skip)

    def _resident_loop(self, bits_loop: Callable[[Callable[[], None], Callable[[], None]],
                                                  None],
                       dbl_first: Callable[[], None], add_first: Callable[[], None]) -> None:
        """With at most len(resident) pairs: their states into registers, the loop on
        them (no copies between memory and registers per step), T back to memory (the G2
        subgroup check reads it there); more pairs jump past to the memory loop. The
        first pair's steps are ``dbl_first`` and ``add_first`` (as the memory loop's)."""
        e, asm = self.e, self.e.asm
        in_memory, finished = asm.new_label("pairs_in_memory"), asm.new_label("loop_done")
        self._push_has_pair(len(self.resident))
        asm.jumpi(in_memory)
        self._for_resident(lambda i: e.target.copy_in(
            asm, self.resident[i], lambda: asm.push(self._record(i))))

        def each(first: Callable[[], None], step: Callable[[Slot], None]
                 ) -> Callable[[Subroutine], None]:
            return lambda a: self._for_resident(
                lambda i: first() if i == 0 else step(self.resident[i]))
        dbl = asm.subroutine("ml_dbl_resident", each(dbl_first, self._dbl_step))
        add = asm.subroutine("ml_add_resident", each(add_first, self._add_step))
        bits_loop(lambda: asm.call(dbl), lambda: asm.call(add))
        self._for_resident(lambda i: e.target.copy_out(
            asm, self.resident[i].t, lambda: asm.push(lambda: self._record(i)() + _T_REL)))
        asm.jump(finished)
        asm.place(in_memory)
        self._finished = finished

    def emit(self, cinv: Optional[Fp6] = None) -> None:
        """f = the Miller loop value of all loaded pairs (conjugated for negative x).

        With ``cinv`` = t (a hinted c^-1 = 1 + t w, :mod:`.hinted`): f = f_|x| * cinv^|x|,
        f_|x| the loop value NOT conjugated: f starts at cinv (the top bit of |x|), so the
        first step squares, and every set bit below the top one also multiplies by cinv
        (a sparse product). Without pairs f = 1 either way."""
        e, asm = self.e, self.e.asm
        # the memory loop's pair in the first resident pair's registers, if there are any
        slot = self.resident[0] if self.resident else self.work
        shared = bool(self.resident) and e.resident_code != "inline"

        def step_of_slot(name: str, step: Callable[[Slot], None]) -> Callable[[], None]:
            """Emits ``step`` on the slot's pair: inline, or a call to one subroutine."""
            if not shared:
                return lambda: step(slot)
            subroutine = asm.subroutine(name, lambda a: step(slot))
            return lambda: asm.call(subroutine)
        dbl_first = step_of_slot("ml_dbl_pair0", self._dbl_step)
        add_first = step_of_slot("ml_add_pair0", self._add_step)
        dbl_all = asm.subroutine("ml_dbl_all", lambda a: self.for_each_pair(
            dbl_first, with_q=False, slot=slot))
        add_all = asm.subroutine("ml_add_all", lambda a: self.for_each_pair(
            add_first, with_q=True, slot=slot))
        sqr = fp12.routine(e, "fp12_sqr", "ml_sqr", a=self.f)
        bits = bin(X_ABS)[3:]

        def bits_loop(dbl: Callable[[], None], add: Callable[[], None]) -> None:
            if cinv is not None:
                mul_cinv = fp12.routine(e, "fp12_mul_by_one_plus", "ml_mul_cinv", a=self.f,
                                        t=cinv)
                fp.copy(e, self.f.c1, cinv)         # f is one here: now f = 1 + t w
                square_and_multiply(e, bits, lambda: (asm.call(sqr), dbl()),
                                    lambda: (asm.call(mul_cinv), add()))
                return
            dbl()                                   # f = 1 before the first step: no squaring
            if bits[0] == "1":
                add()
            square_and_multiply(e, bits[1:], lambda: (asm.call(sqr), dbl()), add)
            fp12.conj(e, self.f, self.f)

        with asm.scope("miller_loop"):
            fp.copy(e, self.f, e.const(Fp12, "fp12_one", [1] + [0] * 11))
            done = asm.new_label("no_pairs")
            asm.push(self.end)
            asm.op("MLOAD")
            asm.push(self.heap)
            asm.op("EQ")
            asm.jumpi(done)                         # every pair had a point at infinity: f = 1
            if self.resident:
                self._resident_loop(bits_loop, dbl_first, add_first)
            bits_loop(lambda: asm.call(dbl_all), lambda: asm.call(add_all))
            if self.resident:
                asm.place(self._finished)
            asm.place(done)


class FinalExponentiation:
    """f -> f^(3 (p^12 - 1) / r) in blst's sequence; subroutines share the accumulator."""

    def __init__(self, e: Emitter) -> None:
        self.e = e
        region = e.asm.memory.region("final_exp")
        self.acc = region.alloc(Fp12, "acc")
        self.base = region.alloc(Fp12, "base")
        self._mul = fp12.routine(e, "fp12_mul", "fe_mul", a=self.acc, b=self.base)
        self._cyc = fp12.routine(e, "fp12_cyclotomic_sqr", "fe_cyclotomic_sqr", a=self.acc)
        self._pow = e.asm.subroutine("fe_pow_x_half", lambda a: self._pow_body(X_ABS >> 1))

    def _pow_body(self, exponent: int) -> None:
        """acc = conj(acc^exponent): square-and-multiply, unrolled into calls."""
        e = self.e
        fp.copy(e, self.base, self.acc)
        bits = bin(exponent)[3:]
        if e.target.dense_code:
            square_and_multiply_chained(e, bits, "fe_cyclotomic_chain", CYCLOTOMIC_RUN,
                                        lambda: fp12.cyclotomic_sqr(e, self.acc, self.acc),
                                        lambda: e.asm.call(self._mul))
        else:
            # unrolled: its 5 x 62 bits would cost ~17,000 gas as a loop, for 460 bytes
            square_and_multiply(e, bits, lambda: e.asm.call(self._cyc),
                                lambda: e.asm.call(self._mul), loop=False)
        fp12.conj(e, self.acc, self.acc)          # x < 0, and conj = inverse here

    def mul(self, out: Fp12, a: Fp12, b: Fp12) -> None:
        fp.call(self.e, self._mul, {"a": out}, a=a, b=b)

    def cyclotomic_sqr(self, out: Fp12, a: Fp12) -> None:
        fp.call(self.e, self._cyc, {"a": out}, a=a)

    def pow_x(self, out: Fp12, a: Fp12, half: bool = False) -> None:
        """out = a^x (or a^(x/2)) for a in the cyclotomic subgroup."""
        if not fp.same(a, self.acc):
            fp.copy(self.e, self.acc, a)
        self.e.asm.call(self._pow)
        if not half:
            self.e.asm.call(self._cyc)
        if not fp.same(out, self.acc):
            fp.copy(self.e, out, self.acc)

    def emit(self, f: Fp12) -> None:
        """f = f^(3 (p^12 - 1) / r), in place."""
        e, asm = self.e, self.e.asm
        conj, frob = fp12.conj, fp12.frobenius
        with asm.scope("final_exp"), asm.temps(Fp12, Fp12, Fp12, Fp12) as (y0, y1, y2, y3):
            # easy part: f^((p^6 - 1)(p^2 + 1))
            conj(e, y1, f)
            fp12.call(e, "fp12_inv", y2, a=f)
            self.mul(f, y1, y2)
            frob(e, y2, f, 2)
            self.mul(f, f, y2)
            # hard part, 3 (p^4 - p^2 + 1) / r, as blst computes it
            self.cyclotomic_sqr(y0, f)
            self.pow_x(y1, y0)
            self.pow_x(y2, y1, half=True)
            conj(e, y3, f)
            self.mul(y1, y1, y3)
            conj(e, y1, y1)
            self.mul(y1, y1, y2)
            self.pow_x(y2, y1)
            self.pow_x(y3, y2)
            conj(e, y1, y1)
            self.mul(y3, y3, y1)
            conj(e, y1, y1)
            frob(e, y1, y1, 3)
            frob(e, y2, y2, 2)
            self.mul(y1, y1, y2)
            self.pow_x(y2, y3)
            self.mul(y2, y2, y0)
            self.mul(y2, y2, f)
            self.mul(y1, y1, y2)
            frob(e, y2, y3, 1)
            self.mul(f, y1, y2)
