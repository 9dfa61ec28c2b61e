"""The optimal ate pairing as EVM code, written once for the BLS12 and BN families: the
Miller loop over the pairs in calldata and the final exponentiation. What differs by curve
(the loop's digits, BN's two closing lines, the hard part of the final exponentiation) is
the family's (:mod:`.families`, chosen by ``e.curve.family``); constants come from the
curve description. For BLS12-381 the code computes exactly what blst computes.

Miller loop: k pairs (k known only at run time) share ONE Fp12 squaring per digit of the
loop parameter (BLS12: |x|; BN: 6x + 2 in signed digits); per digit, every pair doubles
its T and multiplies its tangent line into f, and on a non-zero digit every pair adds
+-Q and multiplies the chord line. The loop over the digits is unrolled at generation time
into subroutine calls (a few bytes per digit), or a run-time loop (``Emitter(loops=True)``);
the loop over the pairs runs at run time over pair states kept after every linked memory
region, each copied into one fixed work slot the line code reads.

Final exponentiation: the easy part (p^6 - 1)(p^2 + 1), then the family's hard part (for
BLS12-381 blst's, so the result is the CUBE of the reduced pairing, byte for byte blst's).
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence

from ..asm import Fp6, Fp12, G1, G2, G2Jacobian, Label, Slot, Subroutine, raw, struct
from ..asm.layout import FP_BYTES
from . import fp, fp12, jacobian
from .compare import push_field_is_zero
from .control import (is_zero, longest_run, require_calldata,
                      square_and_multiply_chained, square_and_multiply_signed)
from .families import family_of, non_adjacent_form
from .lines import JACOBIAN, Lines
from .fp import Emitter

class UnavailableBuild(ValueError):
    """Options a contract asks of the Miller loop that the emitter's build cannot honour
    (:func:`.contract.least_gas_that_fits` goes on to its next build)."""


PAIR_INPUT_BYTES = 6 * FP_BYTES          # per pair in calldata: G1 x‖y, G2 x.c0‖x.c1‖y.c0‖y.c1
# How the Miller loop's steps of pairs kept in registers (Emitter.register_pairs) are
# emitted, least gas first: every pair's inline; the first pair's shared with the loop over
# pairs in memory (a call per step, a copy of the steps less); and also f *= line one
# routine that every pair's steps call (a call per line, ~2.5 KB less per pair).
RESIDENT_CODE = ("inline", "first_pair_shared", "line_product_called")
# longest run of cyclotomic squarings (about 700 bytes of EVMMAX code each) one call
# performs, for targets with dense_code: the first, or the next where a contract does not
# fit the size limit otherwise (:func:`.contract.least_gas_that_fits`)
CYCLOTOMIC_RUNS = (8, 4)
FINAL_EXP_TEMPS = 4                       # the Fp12 temporaries every family's hard part gets


# What the Miller loop keeps per pair: Q, (-2 P.x, 2 P.y) and the running T.
PairState = struct("PairState", ("q", G2), ("px2", G1), ("t", G2Jacobian))


_PX2_REL = G2.size
_T_REL = G2.size + G1.size
_PairTail = struct("PairTail", ("px2", G1), ("t", G2Jacobian))


def _tail(state: Slot) -> Slot:
    """A pair state's px2‖t (what the doubling steps read)."""
    return _PairTail(state.region, state.rel + _PX2_REL, f"{state.name}.tail")


class MillerLoop:
    """Memory and subroutines of the Miller loop over the pairs in calldata."""

    def __init__(self, e: Emitter, f: Fp12, g1_may_be_infinity: bool = False,
                 calldata_tail: int = 0, infinity_flags: bool = False,
                 resident_all_finite: bool = False, square_in_step: bool = False,
                 lines: Lines = JACOBIAN, hybrid: bool = False,
                 registers_only: bool = False) -> None:
        """``g1_may_be_infinity``: pair states may have P at infinity ((-2 P.x, 2 P.y) all
        zero; kept so that their Q can still be checked); their lines are not multiplied
        into f. ``calldata_tail``: bytes after the pairs in calldata (a hint), not pairs.
        ``infinity_flags`` (with ``g1_may_be_infinity``): each pair's record keeps a word
        saying whether P is infinity, which a state's line steps read (one MLOAD) instead
        of testing px2 (under EVMMAX a LOADX and two MLOADs each).
        ``resident_all_finite`` (with ``infinity_flags``): the pairs kept in registers are
        taken only when there are exactly that many and each has P finite (tested once,
        before the loop; otherwise the memory loop runs), so that their steps test neither
        (per step ~40 gas less for a second pair), and their additions are inline in one
        subroutine that digits -1 and closing lines call too. With steps emitted inline
        (``Emitter.resident_code``) the memory loop works in its own slot; otherwise it
        shares the first pair's steps, which keep their test.
        ``square_in_step``: the pairs kept in registers have one subroutine per digit, f's
        squaring inline before their doubling steps (one call a digit less, ~1.2 KB more
        code: a second copy of the squaring, the memory loop's). ``lines``: T's
        coordinates and step formulas (:mod:`.lines`). ``hybrid`` (with
        ``resident_all_finite``): with more pairs than registers hold, the first ones still
        in registers (if their P are finite) and only the others in the memory loop (~100
        gas a step less per pair in registers; ~1 KB more code: the loop over the digits
        twice). ``registers_only`` (with ``resident_all_finite``): the caller guarantees
        exactly ``e.register_pairs`` pairs, each with P finite, so no loop over pairs in
        memory is emitted (less code); any other input halts (INVALID)."""
        self.e, self.f = e, f
        self.family = family_of(e.curve)
        self.digits = self.family.loop_digits(e.curve)
        self.g1_may_be_infinity = g1_may_be_infinity
        self.calldata_tail = calldata_tail
        region = self._region = e.asm.memory.region("miller")
        self.work = region.alloc(PairState, "work")
        self.line = region.alloc(Fp6, "line")
        self.end = region.alloc(raw(32), "pairs_end")
        # the states of the first pairs in registers of their own, when there are few
        self.resident = [region.alloc(PairState, f"pair{i}") for i in range(e.register_pairs)]
        # loops with several kinds of addition (digits -1, closing lines) emit the
        # addition step of a pair state once, a subroutine that adds the state's q: a
        # digit -1 negates q.y around the call, a closing line puts its point (BN: the
        # twisted Frobenius images of Q, each from the last, made in add_q) into q
        self.share_add = -1 in self.digits or bool(self.family.closing_lines)
        self.add_q = region.alloc(G2, "add_q") if self.family.closing_lines else None
        if resident_all_finite and not (g1_may_be_infinity and infinity_flags):
            raise ValueError("resident_all_finite reads the infinity flags: it needs "
                             "g1_may_be_infinity and infinity_flags")
        self.resident_all_finite = resident_all_finite
        self.square_in_step = square_in_step
        self.lines = lines
        if hybrid and not resident_all_finite:
            raise ValueError("hybrid keeps finite pairs in registers: it needs "
                             "resident_all_finite")
        self.hybrid = hybrid
        if registers_only and (hybrid or not resident_all_finite or not self.resident):
            raise ValueError("registers_only runs the pairs in registers alone: it needs "
                             "resident_all_finite, register_pairs and no hybrid")
        self.registers_only = registers_only
        # the states whose steps need no test of P at infinity
        self.own_slot = resident_all_finite and e.resident_code == "inline"
        if hybrid and self.resident and not self.own_slot:
            # the memory loop would work in the first resident pair's registers, which
            # hybrid keeps live across the memory loop's steps
            raise UnavailableBuild(f"hybrid needs the resident pairs' steps inline, not "
                                   f"{e.resident_code!r}")
        self.finite = ({slot.name for slot in self.resident[0 if self.own_slot else 1:]}
                       if resident_all_finite else set())
        self.flags: Dict[str, Slot] = {}
        if g1_may_be_infinity and infinity_flags:
            words = e.asm.memory.region("infinity_flags")
            self.flags = {slot.name: words.alloc(raw(32), slot.name)
                          for slot in [self.work] + self.resident
                          if slot.name not in self.finite}

    def heap(self) -> int:
        """Where the pair states start: after every linked region (known at link time)."""
        memory_end = self.e.asm.memory.end
        assert memory_end is not None
        return memory_end

    def record_bytes(self, rel: int) -> int:
        """Memory bytes of ``rel`` bytes of a pair state (its registers under EVMMAX)."""
        return self.e.target.memory_bytes(self.e, rel)

    def record_size(self) -> int:
        """Memory bytes of one pair's record: its state, then its flag word if any."""
        return self.record_bytes(PairState.size) + (32 if self.flags else 0)

    def _copy_flag(self, record: Callable[[], None], slot: Slot) -> None:
        """The flag word of the record at the address ``record()`` pushes, for ``slot``."""
        asm = self.e.asm
        record()
        asm.push(self.record_bytes(PairState.size))
        asm.op("ADD")
        asm.op("MLOAD")
        asm.push(self.flags[slot.name])
        asm.op("MSTORE")

    # --- loading --------------------------------------------------------------------------

    def load(self, calldata_offset: int = 0, pair_bytes: int = PAIR_INPUT_BYTES,
             read: Optional[Callable[[Label], None]] = None, allow_empty: bool = False
             ) -> None:
        """Read the pairs in calldata (at least one, unless ``allow_empty``) into pair
        states in Montgomery form with T = Q. ``read(skip)`` emits the code that puts the
        pair at calldata offset ``cd`` (stack: ptr cd) into the work slot's q and px2, in
        Montgomery form, and jumps to ``skip`` for a pair that contributes 1; the default
        reads plain LE values and skips a pair with an all-zero G1 or G2 point (infinity,
        as in EIP-2537)."""
        asm = self.e.asm
        with asm.scope("load_pairs"):
            require_calldata(asm, calldata_offset, pair_bytes, multiple=True,
                             tail=self.calldata_tail, allow_empty=allow_empty)
            asm.push(self.heap)                  # stack: ptr
            asm.push(calldata_offset)            # stack: ptr cd
            if allow_empty:
                done = asm.new_label("no_pairs_given")
                self._jump_if_no_more_pairs(done)
            top, skip = asm.label("load_pair"), asm.new_label("skip_pair")
            (read or self._read_plain)(skip)
            self._store_work()
            asm.place(skip)
            asm.push(pair_bytes); asm.op("ADD")
            asm.op("DUP1"); asm.op("CALLDATASIZE")
            if self.calldata_tail:
                asm.push(self.calldata_tail); asm.op("SWAP1"); asm.op("SUB")
            asm.op("GT")
            asm.jumpi(top)                       # while CALLDATASIZE - tail > cd
            if allow_empty:
                asm.place(done)
            asm.op("POP")
            asm.push(self.end)
            asm.op("MSTORE")                     # pairs_end = ptr

    def load_each(self, fills: Sequence[Callable[[Label], None]]) -> None:
        """Pair states from code rather than a loop over calldata: ``fills[i](skip)``
        puts pair i into the work slot's q and px2 (Montgomery form, the stack kept), or
        jumps to ``skip`` for a pair that contributes 1 (Q at infinity)."""
        asm = self.e.asm
        with asm.scope("load_pairs"):
            asm.push(self.heap)                  # stack: ptr cd (no calldata offset: a
            asm.push(0)                          # placeholder where _store_work expects it)
            for fill in fills:
                skip = asm.new_label("skip_pair")
                fill(skip)
                self._store_work()
                asm.place(skip)
            asm.op("POP")
            asm.push(self.end)
            asm.op("MSTORE")                     # pairs_end = ptr

    def _store_work(self) -> None:
        """The work slot's pair (q, px2 read) as the state at ptr (stack: ptr cd), its
        infinity flag, ptr moved to the next record."""
        asm, work = self.e.asm, self.work
        self.lines.prepare(self.e, work.px2, work.px2)
        jacobian.from_affine(self.e, work.t, work.q)
        self.e.target.copy_out(self.e, work, lambda: asm.op("DUP4"), grow=True)
        if self.flags:                           # stack: ptr cd
            push_field_is_zero(self.e, work.px2)
            asm.op("DUP3")
            asm.push(self.record_bytes(PairState.size))
            asm.op("ADD")
            asm.op("MSTORE")
        asm.op("SWAP1"); asm.push(self.record_size()); asm.op("ADD")
        asm.op("SWAP1")

    def _jump_if_no_more_pairs(self, target: Label) -> None:
        """Stack: ptr cd: jump to ``target`` unless CALLDATASIZE - tail > cd."""
        asm = self.e.asm
        asm.op("DUP1"); asm.op("CALLDATASIZE")
        if self.calldata_tail:
            asm.push(self.calldata_tail); asm.op("SWAP1"); asm.op("SUB")
        asm.op("GT")
        asm.op("ISZERO")
        asm.jumpi(target)

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
                      slot: Optional[Slot] = None, start_below_return: bool = False) -> None:
        """Run ``step`` on every pair state: copy it into ``slot`` (default the work slot;
        Q only if needed), step, copy T back. From the first state, or (in a subroutine,
        ``start_below_return``) from the record whose address the caller pushed before
        calling (at least one)."""
        e, asm = self.e, self.e.asm
        slot = self.work if slot is None else slot
        start = 0 if with_q else self.record_bytes(_PX2_REL)
        if start_below_return:
            asm.op("SWAP1")                       # stack: return ptr
        else:
            asm.push(self.heap)                   # stack: ptr
        top = asm.label("pair")

        def record() -> None:
            asm.op("DUP2")
            if start:
                asm.push(start)
                asm.op("ADD")
        live = PairState(slot.region, slot.rel, slot.name) if with_q else _tail(slot)
        e.target.copy_in(e, live, record)
        if self.flags:
            self._copy_flag(lambda: asm.op("DUP1"), slot)
        step()
        e.target.copy_out(e, slot.t, lambda: (asm.op("DUP3"),
                                              asm.push(self.record_bytes(_T_REL)),
                                              asm.op("ADD")))
        asm.push(self.record_size()); asm.op("ADD")
        asm.op("DUP1"); asm.push(self.end); asm.op("MLOAD"); asm.op("GT")
        asm.jumpi(top)
        asm.op("POP")

    def check_each_pair(self, check: Callable[[], None]) -> None:
        """After the loop: ``check()`` on every pair state (copied into the work slot, Q
        included), none without pairs (the G2 subgroup tests read T there)."""
        asm = self.e.asm
        done = asm.new_label("no_g2_to_check")
        with asm.scope("g2_subgroup_checks"):
            asm.push(self.end)
            asm.op("MLOAD")
            asm.push(self.heap)
            asm.op("EQ")
            asm.jumpi(done)
            self.for_each_pair(check, with_q=True)
            asm.place(done)

    def spent(self, kind: type, count: int) -> List[Slot]:
        """Up to ``count`` slots of ``kind`` laid over the loop's own values (the work
        slot, the line, the pair states kept in registers, as far as they lie one after
        another), for code that runs once nothing reads them (after
        :meth:`check_each_pair`): the final exponentiation's odd powers."""
        own = [self.work, self.line, *self.resident] + ([self.add_q] if self.add_q else [])
        end = own[0].rel
        for slot in own:
            if slot.region is not own[0].region or slot.rel != end:
                break
            end += slot.size
        start = own[0].rel
        return [kind(own[0].region, start + i * kind.size, f"{self.work.name}.spent{i}")
                for i in range(min(count, (end - start) // kind.size))]

    def _line_step(self, line_fn, state: Slot) -> None:
        """``line_fn()`` (the line of the pair ``state``), then f *= the line at P."""
        e = self.e
        line_fn()
        skip = (e.asm.new_label("g1_infinity")
                if self.g1_may_be_infinity and state.name not in self.finite else None)
        if skip is not None and self.flags:
            e.asm.push(self.flags[state.name])
            e.asm.op("MLOAD")
            e.asm.jumpi(skip)
        elif skip is not None:                    # px2 = 0 only for P at infinity
            is_zero(e.asm, e.target.memory_image(e, state.px2))
            e.asm.jumpi(skip)
        if e.target.dense_code and not (self.resident
                                        and e.resident_code == "line_product_called"):
            fp12.mul_by_line(e, self.f, self.f, self.line)
        else:
            e.asm.call(fp12.routine(e, "fp12_mul_by_line", "ml_mul_by_line", a=self.f,
                                    line=self.line))
        if skip is not None:
            e.asm.place(skip)

    def _dbl_step(self, state: Slot) -> None:
        self._line_step(lambda: self.lines.dbl(self.e, self.line, state.t, state.px2), state)

    def _add_step(self, state: Slot) -> None:
        """T += Q, f *= the line through them at P."""
        e = self.e

        def step() -> None:
            self._line_step(lambda: self.lines.add(e, self.line, state.t, state.q, state.px2),
                            state)
        if not self.share_add or state.name in self.finite:
            step()
            return
        e.asm.call(e.asm.subroutine(f"ml_add_step_{state.name}", lambda a: step()))

    def _sub_step(self, state: Slot) -> None:
        """T -= Q (a digit -1): the addition step with Q.y negated, then restored."""
        fp.neg_each(self.e, state.q.y, state.q.y)
        self._add_step(state)
        fp.neg_each(self.e, state.q.y, state.q.y)

    def _closing_step(self, state: Slot) -> None:
        """The family's lines after the digits (BN: T += pi(Q), T += -pi(pi(Q))). They
        overwrite q, which the loop does not read again (a pair in memory keeps its Q)."""
        assert self.add_q is not None
        for image in self.family.closing_lines:
            image(self.e, self.add_q, state.q)
            fp.copy(self.e, state.q, self.add_q)
            self._add_step(state)

    # --- pairs kept in registers (Emitter.register_pairs) -----------------------------------

    def _record(self, i: int) -> Callable[[], int]:
        """Where pair i's state is in memory (known at link time)."""
        return lambda: self.heap() + i * self.record_size()

    def _push_has_pair(self, i: int) -> None:
        """Push 1 if there is a pair i (pairs_end > its record), else 0."""
        asm = self.e.asm
        asm.push(self._record(i))
        asm.push(self.end)
        asm.op("MLOAD")
        asm.op("GT")

    def _jump_if_infinity(self, state: Slot, target: Label) -> None:
        """Jump to ``target`` if the flag word of resident ``state``'s record says P is
        infinity."""
        i = self.resident.index(state)
        self.e.asm.push(lambda: self._record(i)() + self.record_bytes(PairState.size))
        self.e.asm.op("MLOAD")
        self.e.asm.jumpi(target)

    def _jump_unless_pair(self, i: int, target: Label) -> None:
        self._push_has_pair(i)
        self.e.asm.op("ISZERO")
        self.e.asm.jumpi(target)

    def _for_resident(self, step: Callable[[int], None]) -> None:
        """``step(i)`` for each pair kept in registers that exists."""
        asm = self.e.asm
        skip = asm.new_label("fewer_pairs")
        for i in range(len(self.resident)):
            if i and not self.resident_all_finite:
                self._jump_unless_pair(i, skip)
            step(i)
        asm.place(skip)

    def _resident_loop(self, bits_loop: Callable[[Dict[str, Callable[[], None]]], None],
                       first: Dict[str, Callable[[], None]],
                       memory_steps: Dict[str, Subroutine]) -> None:
        """With at most len(resident) pairs: their states into registers, the loop on
        them (no copies between memory and registers per step), T back to memory (the G2
        subgroup check reads it there); more pairs jump past to the memory loop, or with
        ``hybrid`` to the loop on the resident pairs and the memory loop on the others
        (``memory_steps``: the memory loop's subroutines, taking their first record). The
        first pair's steps are ``first[kind]`` (as the memory loop's)."""
        asm, count = self.e.asm, len(self.resident)
        in_memory, finished = asm.new_label("pairs_in_memory"), asm.new_label("loop_done")
        more = asm.new_label("more_pairs") if self.hybrid else in_memory
        self._push_has_pair(count)
        asm.jumpi(more)
        if self.resident_all_finite:
            self._jump_unless_pair(count - 1, in_memory)
        calls = self._resident_calls(first)
        self._registers_path(bits_loop, calls, in_memory, finished)
        if self.hybrid:
            asm.place(more)

            def then_memory(resident_call: Callable[[], None], kind: str
                            ) -> Callable[[], None]:
                def both() -> None:
                    resident_call()
                    asm.push(self._record(count))
                    asm.call(memory_steps[kind])
                return both
            self._registers_path(bits_loop, {
                kind: then_memory(call, "dbl" if kind == "sqr_dbl" else kind)
                for kind, call in calls.items()}, in_memory, finished)
        asm.place(in_memory)
        self._finished = finished

    def _registers_path(self, bits_loop: Callable[[Dict[str, Callable[[], None]]], None],
                        calls: Dict[str, Callable[[], None]], in_memory: Label,
                        finished: Label) -> None:
        """(P finite in the resident pairs, else to ``in_memory``) their states into
        registers, the loop with ``calls``, T back to memory, jump to ``finished``."""
        e, asm = self.e, self.e.asm
        for state in self.resident:                   # P at infinity: the memory loop
            if state.name in self.finite:
                self._jump_if_infinity(state, in_memory)

        def copy_in(i: int) -> None:
            e.target.copy_in(e, self.resident[i], lambda: asm.push(self._record(i)))
            if self.resident[i].name in self.flags:
                self._copy_flag(lambda: asm.push(self._record(i)), self.resident[i])
        self._for_resident(copy_in)
        bits_loop(calls)
        self._for_resident(lambda i: e.target.copy_out(
            e, self.resident[i].t,
            lambda: asm.push(lambda: self._record(i)() + self.record_bytes(_T_REL))))
        asm.jump(finished)

    def _square_and_double(self, first: Dict[str, Callable[[], None]]
                           ) -> Dict[str, Callable[[], None]]:
        """``square_in_step``: one body, f squared, then (the entry of a digit without
        squaring, "dbl") every resident pair's doubling step ("sqr_dbl" the whole)."""
        e, asm = self.e, self.e.asm
        doubling = asm.new_label("ml_dbl_resident")

        def square_then_double(a: Subroutine) -> None:
            fp12.sqr(e, self.f, self.f)
            asm.place(doubling)
            self._for_resident(lambda i: self._resident_step(i, "dbl", first))
        both = asm.subroutine("ml_sqr_dbl_resident", square_then_double)
        return {"dbl": lambda: asm.call(both, at=doubling), "sqr_dbl": _caller(asm, both)}

    def _resident_step(self, i: int, kind: str, first: Dict[str, Callable[[], None]]) -> None:
        """Resident pair i's step ``kind``: the first pair's may be the memory loop's."""
        if i == 0 and self.resident[0].name not in self.finite:
            first[kind]()
        else:
            self._steps()[kind](self.resident[i])

    def _resident_calls(self, first: Dict[str, Callable[[], None]]
                        ) -> Dict[str, Callable[[], None]]:
        """A call per kind of step, each a subroutine stepping every resident pair (with
        ``square_in_step`` the doubling is made by the caller). With
        ``resident_all_finite`` the additions are one subroutine that a digit -1 (Q.y
        negated around it) and the closing lines (q replaced first) call."""
        asm, kinds = self.e.asm, list(self._steps())
        if self.square_in_step:
            kinds.remove("dbl")

        def every(kind: str) -> Callable[[Subroutine], None]:
            return lambda a: self._for_resident(lambda i: self._resident_step(i, kind, first))
        calls = self._square_and_double(first) if self.square_in_step else {}
        if not self.resident_all_finite:
            calls.update({kind: _caller(asm, asm.subroutine(f"ml_{kind}_resident",
                                                            every(kind))) for kind in kinds})
            return calls
        add = asm.subroutine("ml_add_resident", every("add"))
        calls["add"] = _caller(asm, add)
        if "dbl" in kinds:
            calls["dbl"] = _caller(asm, asm.subroutine("ml_dbl_resident", every("dbl")))

        def subtract(a: Subroutine) -> None:
            for state in self.resident:
                fp.neg_each(self.e, state.q.y, state.q.y)
            asm.call(add)
            for state in self.resident:
                fp.neg_each(self.e, state.q.y, state.q.y)

        def closing(a: Subroutine) -> None:
            assert self.add_q is not None
            for image in self.family.closing_lines:
                for state in self.resident:
                    image(self.e, self.add_q, state.q)
                    fp.copy(self.e, state.q, self.add_q)
                asm.call(add)
        if "sub" in kinds:
            calls["sub"] = _caller(asm, asm.subroutine("ml_sub_resident", subtract))
        if "closing" in kinds:
            calls["closing"] = _caller(asm, asm.subroutine("ml_closing_resident", closing))
        return calls

    def _steps(self) -> Dict[str, Callable[[Slot], None]]:
        """The kinds of step this curve's loop takes, in the order their code is made."""
        steps: Dict[str, Callable[[Slot], None]] = {"dbl": self._dbl_step,
                                                    "add": self._add_step}
        if -1 in self.digits:
            steps["sub"] = self._sub_step
        if self.family.closing_lines:
            steps["closing"] = self._closing_step
        return steps

    def emit(self, cinv: Optional[Fp6] = None) -> None:
        """f = the Miller loop value of all loaded pairs (conjugated for negative x).

        With ``cinv`` = t (a hinted c^-1 = 1 + t w, :mod:`.hinted`): f = f_loop * cinv^n
        for the loop parameter n, f_loop NOT conjugated: f starts at cinv (the top digit),
        so the first step squares, and every non-zero digit below the top one also
        multiplies by cinv, or for a digit -1 by c' = 1 - t w (c^-1 times an Fp6 value,
        which the hinted check tolerates). Without pairs f = 1 either way."""
        e, asm = self.e, self.e.asm
        # the memory loop's pair in the first resident pair's registers, if there are any
        # and it shares their steps
        slot = self.resident[0] if self.resident and not self.own_slot else self.work
        shared = bool(self.resident) and e.resident_code != "inline"
        steps = self._steps()

        def step_of_slot(kind: str) -> Callable[[], None]:
            """Emits the step on the slot's pair: inline, or a call to one subroutine."""
            step = steps[kind]
            if not shared:
                return lambda: step(slot)
            return _caller(asm, asm.subroutine(f"ml_{kind}_pair0", lambda a: step(slot)))
        first = {kind: step_of_slot(kind) for kind in steps}
        memory_steps = {kind: asm.subroutine(
            f"ml_{kind}_all", lambda a, kind=kind: self.for_each_pair(
                first[kind], with_q=kind != "dbl", slot=slot,
                start_below_return=self.hybrid)) for kind in steps}

        def every_pair_call(kind: str) -> Callable[[], None]:
            if not self.hybrid:
                return _caller(asm, memory_steps[kind])
            return lambda: (asm.push(self.heap), asm.call(memory_steps[kind]))
        every_pair = {kind: every_pair_call(kind) for kind in steps}
        sqr = fp12.routine(e, "fp12_sqr", "ml_sqr", a=self.f)
        digits = self.digits

        def bits_loop(call: Dict[str, Callable[[], None]]) -> None:
            def square_and_double() -> None:
                if "sqr_dbl" in call:
                    call["sqr_dbl"]()
                else:
                    asm.call(sqr)
                    call["dbl"]()

            def add(digit: int) -> None:
                call["add" if digit > 0 else "sub"]()
            if cinv is not None:
                fp.copy(e, self.f.c1, cinv)         # f is one here: now f = 1 + t w
                square_and_multiply_signed(
                    e, digits, square_and_double,
                    lambda digit: (mul_by_one_plus(e, self.f, cinv, digit), add(digit)))
            else:
                call["dbl"]()                       # f = 1 before the first step: no squaring
                if digits[0]:
                    add(digits[0])
                square_and_multiply_signed(e, digits[1:],
                                           square_and_double, add)
            if "closing" in call:
                call["closing"]()
            if cinv is None and e.curve.x < 0:
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
                self._resident_loop(bits_loop, first, memory_steps)
            if self.registers_only:
                asm.op("INVALID")                   # not the pairs the caller promised
            else:
                bits_loop(every_pair)
            if self.resident:
                asm.place(self._finished)
            asm.place(done)


# The signed windows tried for the powers by x (:func:`exponent_digits`): width 2 is the
# NAF; wider ones multiply by odd powers of the base made first (a^3, a^5, ...).
POWER_WINDOWS = (2, 3, 4, 5)
# A cyclotomic squaring's cost in Fp12 products when chains are compared: 9 Fp2
# squarings (2 Fp products each) against 18 Fp2 products (3 each).
SQUARING_COST = 1 / 3


def exponent_digits(exponent: int, largest: int = 1) -> List[int]:
    """The digits of ``exponent`` > 0, most significant first, that square-and-multiply
    takes with the least work: its bits, or its width-w NAF for w in
    :data:`POWER_WINDOWS` with no digit above ``largest`` (odd digits, whose odd powers
    of the base are made first: a squaring and a product each), squarings weighed by
    :data:`SQUARING_COST`; of equal costs the bits, then the narrowest NAF."""
    candidates = [[int(bit) for bit in bin(exponent)[2:]]] + [
        digits for digits in (non_adjacent_form(exponent, width) for width in POWER_WINDOWS)
        if max(map(abs, digits)) <= largest]
    return min(candidates, key=chain_cost)


def chain_cost(digits: Sequence[int]) -> float:
    """Fp12 products (squarings weighed by :data:`SQUARING_COST`) of square-and-multiply
    over ``digits``, starting from the leading digit's power, with the odd powers up to
    the largest digit made first."""
    largest = max(map(abs, digits))
    products = sum(1 for digit in digits[1:] if digit) + (largest - 1) // 2
    squarings = len(digits) - 1 + (largest > 1)
    return products + SQUARING_COST * squarings


def mul_by_one_plus(e: Emitter, f: Fp12, t: Fp6, sign: int = 1) -> None:
    """f *= 1 + t w (one subroutine for f and t), or for ``sign`` -1 by 1 - t w, as
    conj(conj(f) (1 + t w)): conjugation (w -> -w) is a field automorphism."""
    routine = fp12.routine(e, "fp12_mul_by_one_plus", "ml_mul_cinv", a=f, t=t)
    if sign < 0:
        fp12.conj(e, f, f)
    e.asm.call(routine)
    if sign < 0:
        fp12.conj(e, f, f)


def _caller(asm, subroutine: Subroutine) -> Callable[[], None]:
    return lambda: asm.call(subroutine)


class FinalExponentiation:
    """f -> f^((p^12 - 1) / r) up to a power coprime to r (the family's hard part says
    which: BLS12-381's is blst's, f^(3 (p^12 - 1) / r)); subroutines share the
    accumulator."""

    def __init__(self, e: Emitter, shared_inverse: bool = False,
                 powers: Sequence[Fp12] = ()) -> None:
        """``shared_inverse``: the easy part's inverse through the shared Fp6 product
        (:data:`.fp12._ROUTINES`: less code, more gas). ``powers``: slots that nothing
        reads during the final exponentiation (:meth:`MillerLoop.spent`), where the powers
        by x may keep the odd powers a, a^3, ... of their base: with n of them, digits up
        to 2n - 1 (:func:`exponent_digits`)."""
        self.e = e
        self.powers = powers
        self.inverse = "fp12_inv_shared" if shared_inverse else "fp12_inv"
        self.family = family_of(e.curve)
        region = e.asm.memory.region("final_exp")
        self.acc = region.alloc(Fp12, "acc")
        self.base = region.alloc(Fp12, "base")
        self._mul = fp12.routine(e, "fp12_mul", "fe_mul", a=self.acc, b=self.base)
        # an even |x| is raised to in halves (a^(x/2) serves BLS12's hard part as well)
        magnitude = abs(e.curve.x)
        self.halved = magnitude % 2 == 0
        self.digits = exponent_digits(magnitude >> self.halved,
                                       largest=max(1, 2 * len(powers) - 1))
        self._chain = None
        if e.target.dense_code:
            # runs of squarings in one subroutine; a single squaring enters it for one
            self._chain = fp.squaring_chain(
                e, "fe_cyclotomic_chain",
                min(e.cyclotomic_run or CYCLOTOMIC_RUNS[0], longest_run(self.digits)),
                lambda: fp12.cyclotomic_sqr(e, self.acc, self.acc))
        else:
            self._cyc = fp12.routine(e, "fp12_cyclotomic_sqr", "fe_cyclotomic_sqr", a=self.acc)
        self._pow = e.asm.subroutine("fe_pow_x_half" if self.halved else "fe_pow_x",
                                     lambda a: self._pow_body())

    def _pow_body(self) -> None:
        """acc = acc^(+-exponent) (|x|, or |x| / 2), the sign of x: square-and-multiply,
        unrolled into calls, over :func:`exponent_digits`. With digits -1, 0, 1 the base
        is acc's value and a digit -1 multiplies by conj(base) = base^-1, as
        conj(conj(acc) base); with wider digits, :meth:`_windowed`."""
        e, digits = self.e, self.digits
        if max(map(abs, digits)) > 1:
            self._windowed()
        else:
            fp.copy(e, self.base, self.acc)
            self._square_and_multiply(digits[1:], self._times_base)
        if e.curve.x < 0:
            fp12.conj(e, self.acc, self.acc)      # conj = inverse here

    def _windowed(self) -> None:
        """Square-and-multiply over odd digits: the odd powers a, a^3, ... up to the
        largest digit in :attr:`powers` (a^2 made once, each power from the last), acc
        starting at the leading digit's power; a digit d multiplies by a^|d| (put into
        base unless base holds it), conjugated around the product for d < 0 as above."""
        e, digits = self.e, self.digits
        powers = self.powers[:max(map(abs, digits)) // 2 + 1]     # powers[i] = a^(2i + 1)
        fp.copy(e, powers[0], self.acc)
        self._square_acc()
        fp.copy(e, self.base, self.acc)                           # a^2
        fp.copy(e, self.acc, powers[0])
        for power in powers[1:]:
            e.asm.call(self._mul)
            fp.copy(e, power, self.acc)
        if digits[0] != len(powers) * 2 - 1:
            fp.copy(e, self.acc, powers[digits[0] // 2])
        held: List[int] = [0]                                     # the power base holds

        def multiply(digit: int) -> None:
            if held[0] != abs(digit):
                fp.copy(e, self.base, powers[abs(digit) // 2])
                held[0] = abs(digit)
            self._times_base(digit)
        self._square_and_multiply(digits[1:], multiply)

    def _times_base(self, digit: int) -> None:
        """acc *= base, or for a negative digit acc *= conj(base) = base^-1 (in the
        cyclotomic subgroup), as conj(conj(acc) base)."""
        if digit < 0:
            fp12.conj(self.e, self.acc, self.acc)
        self.e.asm.call(self._mul)
        if digit < 0:
            fp12.conj(self.e, self.acc, self.acc)

    def _square_and_multiply(self, digits: Sequence[int],
                             multiply: Callable[[int], None]) -> None:
        """Per digit a cyclotomic squaring of acc, then ``multiply(digit)`` for a non-zero
        one: through the chain of squarings, or unrolled into calls (its 5 x 62 bits would
        cost ~17,000 gas as a loop, for 460 bytes)."""
        e = self.e
        if self._chain is not None:
            square_and_multiply_chained(e, digits, self._chain, multiply)
        else:
            square_and_multiply_signed(e, digits, lambda: e.asm.call(self._cyc), multiply,
                                       loop=False)

    def mul(self, out: Fp12, a: Fp12, b: Fp12) -> None:
        fp.call(self.e, self._mul, {"a": out}, a=a, b=b)

    def cyclotomic_sqr(self, out: Fp12, a: Fp12) -> None:
        if not fp.same(a, self.acc):
            fp.copy(self.e, self.acc, a)
        self._square_acc()
        if not fp.same(out, self.acc):
            fp.copy(self.e, out, self.acc)

    def _square_acc(self) -> None:
        if self._chain is None:
            self.e.asm.call(self._cyc)
        else:
            chain, entries = self._chain
            self.e.asm.call(chain, at=entries[1])

    def pow_x(self, out: Fp12, a: Fp12, half: bool = False) -> None:
        """out = a^x (or a^(x/2), for even x) for a in the cyclotomic subgroup."""
        if half and not self.halved:
            raise ValueError("a^(x/2) needs an even x")
        if not fp.same(a, self.acc):
            fp.copy(self.e, self.acc, a)
        self.e.asm.call(self._pow)
        if self.halved and not half:
            self._square_acc()
        if not fp.same(out, self.acc):
            fp.copy(self.e, out, self.acc)

    def emit(self, f: Fp12) -> None:
        """f = f^((p^12 - 1) / r)^k, in place (k from the family's hard part)."""
        e, asm = self.e, self.e.asm
        with asm.scope("final_exp"), asm.temps(*[Fp12] * FINAL_EXP_TEMPS) as temps:
            _, y1, y2, _ = temps
            # easy part: f^((p^6 - 1)(p^2 + 1))
            fp12.conj(e, y1, f)
            fp12.call(e, self.inverse, y2, a=f)
            self.mul(f, y1, y2)
            fp12.frobenius(e, y2, f, 2)
            self.mul(f, f, y2)
            self.family.hard_part(self, f, temps)
