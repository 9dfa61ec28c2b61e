"""Pippenger's bucket method for EIP-2537's MSMs with many pairs (:class:`Buckets`, used
by :class:`.msm.Msm` above a number of pairs; Pippenger, "On the evaluation of powers and
monomials", SIAM J. Comput. 1980; the bucket form of Bernstein, Doumen, Lange and
Oosterwijk, "Faster batch forgery identification", INDOCRYPT 2012).

Every pair (P, s) is split as the Straus mode splits it (:class:`.msm_split.Split`: G1 two
digits of s mod r in base x^2 along -phi, G2 four in base |x| along the psi maps), so the
MSM is sum [a] B over n digit entries, each an unsigned digit a < 2^b (b = 128 or 64)
with its base point B, affine (an endomorphism's image of the affine input point).

Loading writes one entry per digit: the digit's word, then B (affine). Then, with
windows of c bits, W = ceil(b / c) of them, from the top: acc is doubled c times, every
entry adds its B to the bucket of its window's value u (a mixed addition, madd-2004-hmv,
on a Jacobian bucket in memory; u = 0 goes to a bucket never read, so no branch), and
the buckets join acc by running sums: R = B_(2^c - 1), acc += R, then for u from
2^c - 2 down to 1, R += B_u, acc += R (sum over u of R_u = sum u B_u; add-2007-bl).
Cost: n W mixed additions, W (2^(c+1) - 3) additions, b doublings; no tables.

Exceptional additions: the fast loop has no tests. Its buckets start at the distinct
points T_u = [u + 2] G (copied each window from a copy made once) and acc at [alpha] G
(:func:`alpha`), chosen so that the starts cancel: the loop ends at the sum itself, and
no addition meets infinity before its end but for crafted inputs (or a sum that is
infinity). An addition of equal or opposite points leaves Z = 0 (Z3 = Z H or 2 Z1 Z2 H
with H = 0), and Z stays 0 through every later doubling and addition: then everything
runs again from buckets and acc at infinity with complete additions
(:func:`~evm384_native.ec.groups.add`).
"""
from __future__ import annotations

from typing import Protocol

from ..asm import Slot
from ..curves.bls12_381 import BLS12_381
from ..ec.groups import add_distinct, affine_view, set_infinity
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..ec.groups import Group
from ..tower.fp import Emitter
from .groups import affine_values, generator_multiple
from .msm_split import Split

R = BLS12_381.r
DIGIT_WORD = 32


class MsmContract(Protocol):
    """What the bucket mode uses of the MSM contract it runs in (:class:`.msm.Msm`): its
    emitter and group; the slots p (the pair's point), t, acc and records_end; where the
    records start (:meth:`heap`, known at link time); acc doubled and acc += t."""
    e: Emitter
    group: Group
    p: Slot
    t: Slot
    acc: Slot
    end: Slot

    def heap(self) -> int: ...

    def double_acc(self, inline: bool) -> None: ...

    def add_t(self, fast: bool, inline: bool = True) -> None: ...


def windows(bits: int, width: int) -> int:
    """Windows of ``width`` bits covering an unsigned digit of ``bits`` bits."""
    return -(-bits // width)


def offset_scalar(bits: int, width: int) -> int:
    """K with [K] G what the buckets' starts T_u = [u + 2] G add to the sum: per window
    sum u (u + 2), times 2^(c w) summed over the windows."""
    per_window = sum(u * (u + 2) for u in range(1, 1 << width))
    return per_window * sum(1 << (width * w) for w in range(windows(bits, width))) % R


def alpha(bits: int, width: int) -> int:
    """The start [alpha] G of the sum that cancels the buckets' starts: doubled c W
    times, it is [-K] G."""
    return -offset_scalar(bits, width) * pow(2, -width * windows(bits, width), R) % R


class Buckets:
    """Pippenger's mode of one MSM contract, windows of ``width`` bits: the records it
    loads (:meth:`keep`) and the bucket loops (:meth:`emit`). Every addition is acc += t
    by one of the MSM's routines (mixed, add-2007-bl without tests, complete), buckets and
    sums going through acc and t in turn: one routine each, for code size (a copy costs a
    gas a value)."""

    def __init__(self, msm: MsmContract, split: Split, width: int) -> None:
        self.msm, self.split, self.width = msm, split, width
        e, group = msm.e, msm.group
        self.e, self.group, self.asm = e, group, e.asm
        self.point = affine_view(msm.t, group)    # t's X, Y: an added affine point
        self.entry = DIGIT_WORD + e.target.memory_bytes(e, group.affine.size)
        self.bucket_bytes = e.target.memory_bytes(e, group.jacobian.size)
        self.region_bytes = (1 << width) * self.bucket_bytes
        name = f"{group.name}_msm"
        self._add_distinct = e.asm.subroutine(f"{name}_add_distinct", lambda a: add_distinct(
            e, group, msm.acc, msm.t))

    # --- loading ---------------------------------------------------------------------------

    def keep(self) -> None:
        """Stack: ptr cd s -> ptr' cd. The pair's entries: its digits in the split's radix
        (the last is what remains: s < radix^digits), each with its base point, the
        split's map of p."""
        e, asm, split = self.e, self.asm, self.split
        digits = len(split.maps)
        for i in range(digits - 1):               # stack: ptr cd s
            asm.push(split.radix)
            asm.op("DUP2")
            asm.op("MOD")
            self._store_digit(i, "DUP4")
            asm.push(split.radix)
            asm.ops("SWAP1", "DIV")
        self._store_digit(digits - 1, "DUP3")     # the last digit: s itself
        t = self.msm.t
        for i, endomorphism in enumerate(split.maps):
            fp.copy(e, self.point, self.msm.p)
            if endomorphism is not None:
                endomorphism(e, t)                # Z is not read: the image stays affine
            e.target.copy_out(e, self.point, lambda i=i: (
                asm.op("DUP4"), asm.push(i * self.entry + DIGIT_WORD), asm.op("ADD")),
                grow=True)
        asm.op("SWAP1")
        asm.push(digits * self.entry)
        asm.op("ADD")
        asm.op("SWAP1")

    def _store_digit(self, i: int, ptr: str) -> None:
        """Stack: ptr cd .. a -> ptr cd ..: a as entry i's digit word (``ptr``: the DUP
        that reaches ptr)."""
        asm = self.asm
        asm.op(ptr)
        if i:
            asm.push(i * self.entry)
            asm.op("ADD")
        asm.op("MSTORE")

    # --- the sum -----------------------------------------------------------------------------

    def emit(self) -> None:
        """acc = the sum over the entries (records from the heap to records_end; infinity
        when there are none)."""
        e, asm, msm = self.e, self.asm, self.msm
        # the sum and the running sum as the main frame's temporaries: registers of their
        # own would cost every call (~60 gas a pair, Straus' too)
        with asm.scope(f"buckets_{self.width}"), \
                asm.temps(self.group.jacobian, self.group.jacobian) as (self.total, self.run):
            done = asm.new_label("msm_done")
            asm.push(msm.end)
            asm.op("MLOAD")                       # base: the buckets, after the records
            asm.op("DUP1")
            asm.push(msm.heap)
            asm.op("EQ")
            asm.jumpi(done)
            self._bucket_starts()
            jacobian.from_affine(e, msm.acc, e.const(
                self.group.affine, f"{self.group.name}_alpha_g",
                affine_values(generator_multiple(self.group, alpha(
                    self.split.digit_bits, self.width)))))
            self._loop(fast=True)
            push_field_is_zero(e, msm.acc.z)
            asm.op("ISZERO")
            asm.jumpi(done)
            asm.label("msm_complete")             # acc.z = 0: an exceptional addition
            set_infinity(e, msm.acc)
            self._loop(fast=False)
            asm.place(done)
            asm.op("POP")

    def _bucket_starts(self) -> None:
        """Stack: base. T_u = [u + 2] G for every bucket u, after the buckets (copied
        into them each window): 2G, then one mixed addition of G per bucket (none meets
        +-G: u + 2 != +-1)."""
        e, asm, msm = self.e, self.asm, self.msm
        g = e.const(self.group.affine, f"{self.group.name}_g",
                    affine_values(generator_multiple(self.group, 1)))
        jacobian.from_affine(e, msm.acc, g)
        msm.double_acc(inline=False)
        fp.copy(e, self.point, g)
        asm.push(self.region_bytes)
        asm.op("DUP2")
        asm.op("ADD")                             # base q
        top = asm.label("bucket_start")
        e.target.copy_out(e, msm.acc, lambda: asm.op("DUP3"), grow=True)
        self._add(fast=True, mixed=True)
        asm.push(self.bucket_bytes)
        asm.op("ADD")
        asm.op("DUP2")
        asm.push(2 * self.region_bytes)
        asm.op("ADD")
        asm.op("DUP2")
        asm.op("LT")
        asm.jumpi(top)                            # while q < base + 2 region
        asm.op("POP")

    def _loop(self, fast: bool) -> None:
        """Stack: base. The windows from the top: acc doubled ``width`` times, the buckets
        reset (the starts T_u, or infinity for the complete additions), filled by every
        entry, joined to the sum (kept in total meanwhile; back in acc after)."""
        asm, width = self.asm, self.width
        asm.push(width * windows(self.split.digit_bits, width))  # base shift
        window = asm.label("window")
        asm.push(width)
        asm.ops("SWAP1", "SUB")
        for _ in range(width):                    # b doublings in all: calls
            self.msm.double_acc(inline=False)
        fp.copy(self.e, self.total, self.msm.acc)
        self._reset(fast)
        self._fill(fast)
        self._join(fast)
        asm.op("DUP1")
        asm.jumpi(window)                         # while shift > 0
        asm.op("POP")

    def _reset(self, fast: bool) -> None:
        """Stack: base shift. The buckets = the starts (MCOPY from their copy after the
        buckets), or zero (infinity: CALLDATACOPY from past the calldata's end)."""
        asm = self.asm
        asm.push(self.region_bytes)
        if fast:
            asm.op("DUP1")
            asm.op("DUP4")
            asm.op("ADD")                         # size source
            asm.op("DUP4")
            asm.op("MCOPY")
        else:
            asm.op("CALLDATASIZE")
            asm.op("DUP4")
            asm.op("CALLDATACOPY")

    def _fill(self, fast: bool) -> None:
        """Stack: base shift. Every entry's base point added to the bucket of its digit's
        window at shift: the fast loop two entries a pass (there are 2 or 4 a pair), the
        complete one one (code size)."""
        asm = self.asm
        per_pass = 2 if fast else 1
        asm.push(self.msm.heap)                   # base shift ptr
        top = asm.label("fill")
        for at in range(0, per_pass * self.entry, self.entry):
            self._add_entry(at, fast)
        asm.push(per_pass * self.entry)
        asm.op("ADD")
        asm.op("DUP1")
        asm.op("DUP4")
        asm.op("GT")
        asm.jumpi(top)                            # while base > ptr
        asm.op("POP")

    def _add_entry(self, at: int, fast: bool) -> None:
        """Stack: base shift ptr. The bucket of the window of the digit at ptr + at +=
        the entry's point (in acc)."""
        e, asm, msm = self.e, self.asm, self.msm
        asm.op("DUP1")
        if at:
            asm.push(at)
            asm.op("ADD")
        asm.op("MLOAD")
        asm.op("DUP3")
        asm.op("SHR")
        asm.push((1 << self.width) - 1)
        asm.op("AND")
        asm.push(self.bucket_bytes)
        asm.op("MUL")
        asm.op("DUP4")
        asm.op("ADD")                             # base shift ptr q
        e.target.copy_in(e, msm.acc, lambda: asm.op("DUP2"))
        e.target.copy_in(e, self.point, lambda: (
            asm.op("DUP3"), asm.push(at + DIGIT_WORD), asm.op("ADD")))
        if not fast:
            jacobian.from_affine(e, msm.t, self.point)    # t.z = 1
        self._add(fast, mixed=True)
        e.target.copy_out(e, msm.acc, lambda: asm.op("DUP3"))
        asm.op("POP")

    def _join(self, fast: bool) -> None:
        """Stack: base shift. total += sum u B_u by running sums from the top bucket: run
        = B_top, total += run, then per bucket below run += B_u, total += run (entering
        the loop at total += run: its code once), run in acc when added; acc = total
        after."""
        e, asm, msm = self.e, self.asm, self.msm
        joined = asm.new_label("joined")
        asm.push(self.region_bytes - self.bucket_bytes)
        asm.op("DUP3")
        asm.op("ADD")                             # base shift q, the top bucket
        e.target.copy_in(e, msm.acc, lambda: asm.op("DUP2"))
        fp.copy(e, self.run, msm.acc)
        asm.jump(joined)
        top = asm.label("join")
        asm.push(self.bucket_bytes)
        asm.ops("SWAP1", "SUB")
        e.target.copy_in(e, msm.t, lambda: asm.op("DUP2"))
        fp.copy(e, msm.acc, self.run)
        self._add(fast)                           # run += B_u
        fp.copy(e, self.run, msm.acc)
        asm.place(joined)
        fp.copy(e, msm.t, self.total)
        self._add(fast)                           # total += run, in acc
        fp.copy(e, self.total, msm.acc)
        asm.op("DUP3")
        asm.push(self.bucket_bytes)
        asm.op("ADD")
        asm.op("DUP2")
        asm.op("GT")
        asm.jumpi(top)                            # while q > base + one bucket
        asm.op("POP")

    def _add(self, fast: bool, mixed: bool = False) -> None:
        """acc += t (a call): the mixed addition of t's X, Y if ``mixed``, else
        add-2007-bl, neither with tests; or the complete addition."""
        if not fast:                              # acc and t may be infinity (Msm.build)
            self.msm.add_t(fast=False)
        elif mixed:
            self.msm.add_t(fast=True, inline=False)
        else:
            self.asm.call(self._add_distinct)
