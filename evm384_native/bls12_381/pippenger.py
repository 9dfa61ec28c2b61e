"""Pippenger's bucket method for EIP-2537's MSMs with many pairs (:class:`Buckets`, used
by :class:`.msm.Msm` above a number of pairs; Pippenger, "On the evaluation of powers and
monomials", SIAM J. Comput. 1980; the bucket form of Bernstein, Doumen, Lange and
Oosterwijk, "Faster batch forgery identification", INDOCRYPT 2012).

Every pair (P, s) is split as the Straus mode splits it (:class:`.msm.Split`: G1 two
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
points T_u = [u + 2] G (copied each window from a copy made once) and acc at A = [alpha]
G for a fixed unremarkable alpha, so that no addition meets infinity; the sum then
carries [C] G for the constant C of :func:`offset_scalar`, which a complete addition of
[-C] G removes. An addition of equal or opposite points (only crafted inputs meet one)
leaves Z = 0 (Z3 = Z H or 2 Z1 Z2 H with H = 0), and Z stays 0 through every later
doubling and addition: then everything runs again from buckets and acc at infinity
with complete additions (:func:`~evm384_native.tower.groups.add`).
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from ..asm import Slot
from ..asm.layout import FP_BYTES
from ..curves.bls12_381 import BLS12_381
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..tower.groups import add, add_distinct, affine_view, set_infinity
from .groups import affine_values, generator_multiple

if TYPE_CHECKING:
    from .msm import Msm, Split

R = BLS12_381.r
DIGIT_WORD = 32
# acc's start [ALPHA] G: any scalar far from the small multiples of G the buckets hold
ALPHA = int.from_bytes(hashlib.sha256(b"evm384_native pippenger accumulator").digest(),
                       "big") % R


def windows(bits: int, width: int) -> int:
    """Windows of ``width`` bits covering an unsigned digit of ``bits`` bits."""
    return -(-bits // width)


def offset_scalar(bits: int, width: int) -> int:
    """C with [C] G what the fast loop's offsets add to the sum: acc's start A = [alpha]
    G doubled b' = c W times, and per window the buckets' starts T_u = [u + 2] G weighted
    by u: (sum u (u + 2)) times sum 2^(c w) over the windows."""
    count = windows(bits, width)
    per_window = sum(u * (u + 2) for u in range(1, 1 << width))
    return (ALPHA * (1 << (width * count))
            + per_window * sum(1 << (width * w) for w in range(count))) % R


class Buckets:
    """Pippenger's mode of one MSM contract: the records it loads (:meth:`keep`) and the
    bucket loops for a window width (:meth:`emit`)."""

    def __init__(self, msm: "Msm", split: "Split") -> None:
        self.msm, self.split = msm, split
        e, group = msm.e, msm.group
        self.e, self.group, self.asm = e, group, e.asm
        region = e.asm.memory.region("buckets")
        self.bucket = region.alloc(group.jacobian, "bucket")
        self.run = region.alloc(group.jacobian, "run")
        self.point = affine_view(msm.t, group)    # t.z = 1 for the complete additions
        self.image = e.target.memory_bytes(e, group.affine.size)
        self.entry = DIGIT_WORD + self.image      # the digit's word, then B (affine)
        self.bucket_bytes = e.target.memory_bytes(e, group.jacobian.size)
        self._double_bucket = e.asm.subroutine(
            f"{group.name}_buckets_dbl_bucket",
            lambda a: jacobian.point_dbl(e, group.field, self.bucket, extension=True))
        self.one_z = e.const(group.field.ELEMENT, f"{group.name}_one_z",
                             [1] + [0] * (group.field.ELEMENT.size // FP_BYTES - 1))

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
            fp.copy(e, affine_view(t, self.group), self.msm.p)
            if endomorphism is not None:
                endomorphism(e, t)                # Z is not read: the image stays affine
            e.target.copy_out(e, affine_view(t, self.group), lambda i=i: (
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

    def emit(self, width: int) -> None:
        """acc = the sum over the entries (records from the heap to records_end; infinity
        when there are none), windows of ``width`` bits."""
        e, asm, group, msm = self.e, self.asm, self.group, self.msm
        bits = self.split.digit_bits
        with asm.scope(f"buckets_{width}"):
            done, complete = asm.new_label("msm_done"), asm.new_label("msm_complete")
            asm.push(msm.end)
            asm.op("MLOAD")                       # base: the buckets, after the records
            asm.op("DUP1")
            asm.push(msm.heap)
            asm.op("EQ")
            asm.jumpi(done)
            self._bucket_starts(width)
            jacobian.from_affine(e, msm.acc, self._generator_multiple(ALPHA, "alpha"))
            self._loop(width, fast=True)
            push_field_is_zero(e, msm.acc.z)
            asm.jumpi(complete)
            jacobian.from_affine(e, msm.t, self._generator_multiple(
                -offset_scalar(bits, width), f"-c{width}"))
            self._complete_add(msm.acc, msm.t)
            asm.jump(done)
            asm.place(complete)                   # acc.z = 0: an exceptional addition
            set_infinity(e, msm.acc)
            jacobian.from_affine(e, msm.t, msm.p)     # t.z = 1: t is the added point
            self._loop(width, fast=False)
            asm.place(done)
            asm.op("POP")

    def _generator_multiple(self, scalar: int, name: str):
        """[scalar] G of the group as an affine constant."""
        return self.e.const(self.group.affine, f"{self.group.name}_{name}_g",
                            affine_values(generator_multiple(self.group, scalar)))

    def _region_bytes(self, width: int) -> int:
        return (1 << width) * self.bucket_bytes

    def _bucket_starts(self, width: int) -> None:
        """Stack: base. T_u = [u + 2] G for every bucket u, after the buckets (copied
        into them each window): 2G, then one mixed addition of G per bucket (none meets
        +-G: u + 2 != +-1); the loop's subroutines, for code size."""
        e, asm = self.e, self.asm
        g = self._generator_multiple(1, "1")
        jacobian.from_affine(e, self.bucket, g)
        asm.call(self._double_bucket)
        fp.copy(e, self.point, g)
        asm.push(self._region_bytes(width))
        asm.op("DUP2")
        asm.op("ADD")                             # base q
        top = asm.label("bucket_start")
        e.target.copy_out(e, self.bucket, lambda: asm.op("DUP3"), grow=True)
        self._add_point(fast=True, inline=False)
        asm.push(self.bucket_bytes)
        asm.op("ADD")
        asm.op("DUP2")
        asm.push(2 * self._region_bytes(width))
        asm.op("ADD")
        asm.op("DUP2")
        asm.op("LT")
        asm.jumpi(top)                            # while q < base + 2 region
        asm.op("POP")

    def _loop(self, width: int, fast: bool) -> None:
        """Stack: base. The windows from the top: acc doubled ``width`` times, the buckets
        reset (the starts T_u, or infinity for the complete additions), filled by every
        entry, joined to acc."""
        asm = self.asm
        asm.push(width * windows(self.split.digit_bits, width))  # base shift
        window = asm.label("window")
        asm.push(width)
        asm.ops("SWAP1", "SUB")
        for _ in range(width):                    # b doublings in all: calls
            asm.call(self.msm._dbl_acc)
        self._reset(width, fast)
        self._fill(width, fast)
        self._join(width, fast)
        asm.op("DUP1")
        asm.jumpi(window)                         # while shift > 0
        asm.op("POP")

    def _reset(self, width: int, fast: bool) -> None:
        """Stack: base shift. The buckets = the starts (MCOPY from their copy after the
        buckets), or zero (infinity: CALLDATACOPY from past the calldata's end)."""
        asm = self.asm
        asm.push(self._region_bytes(width))
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

    def _fill(self, width: int, fast: bool) -> None:
        """Stack: base shift. Every entry's base point added to the bucket of its digit's
        window at shift, two entries a pass (there are 2 or 4 a pair)."""
        asm = self.asm
        asm.push(self.msm.heap)                   # base shift ptr
        top = asm.label("fill")
        for at in (0, self.entry):
            self._add_entry(width, at, fast)
        asm.push(2 * self.entry)
        asm.op("ADD")
        asm.op("DUP1")
        asm.op("DUP4")
        asm.op("GT")
        asm.jumpi(top)                            # while base > ptr
        asm.op("POP")

    def _add_entry(self, width: int, at: int, fast: bool) -> None:
        """Stack: base shift ptr. The bucket of the window of the digit at ptr + at +=
        the entry's point."""
        e, asm = self.e, self.asm
        asm.op("DUP1")
        if at:
            asm.push(at)
            asm.op("ADD")
        asm.op("MLOAD")
        asm.op("DUP3")
        asm.op("SHR")
        asm.push((1 << width) - 1)
        asm.op("AND")
        asm.push(self.bucket_bytes)
        asm.op("MUL")
        asm.op("DUP4")
        asm.op("ADD")                             # base shift ptr q
        e.target.copy_in(e, self.bucket, lambda: asm.op("DUP2"))
        e.target.copy_in(e, self.point, lambda: (
            asm.op("DUP3"), asm.push(at + DIGIT_WORD), asm.op("ADD")))
        self._add_point(fast)
        e.target.copy_out(e, self.bucket, lambda: asm.op("DUP3"))
        asm.op("POP")

    def _add_point(self, fast: bool, inline: bool = True) -> None:
        """bucket += point: the mixed addition without tests (in line if ``inline``
        where code is dense and the field is Fp: G2's would not fit in the contract), or
        the complete addition."""
        e, asm, group = self.e, self.asm, self.group
        if not fast:
            fp.copy(e, self.msm.t.z, self.one_z)  # t = the point, Jacobian
            self._complete_add(self.bucket, self.msm.t)
        elif inline and e.target.dense_code and group.field is fp:
            jacobian.jacobian_add_affine_hmv(e, group.field, self.bucket, self.point)
        else:
            asm.call(asm.subroutine(f"{group.name}_buckets_add_mixed", lambda a: (
                jacobian.jacobian_add_affine_hmv(e, group.field, self.bucket, self.point))))

    def _complete_add(self, target: Slot, addend: Slot) -> None:
        """target += addend (Jacobian; either may be infinity) by the one complete
        addition, bucket += t (a call), through copies: code size, not gas, matters on
        this path."""
        e, asm, group, t = self.e, self.asm, self.group, self.msm.t
        if addend is not t:
            fp.copy(e, t, addend)
        if target is not self.bucket:
            fp.copy(e, self.bucket, target)
        asm.call(asm.subroutine(f"{group.name}_buckets_add_complete", lambda a: add(
            e, group, self.bucket, t, lambda: asm.call(self._double_bucket),
            t_may_be_infinity=True)))
        if target is not self.bucket:
            fp.copy(e, target, self.bucket)

    def _join(self, width: int, fast: bool) -> None:
        """Stack: base shift. acc += sum u B_u by running sums, from the top bucket:
        per bucket run += B_u, acc += run, each as bucket += run (one addition routine,
        for code size: copies cost a gas a value)."""
        e, asm, msm = self.e, self.asm, self.msm
        asm.push((1 << width) - 1)
        asm.push(self.bucket_bytes)
        asm.op("MUL")
        asm.op("DUP3")
        asm.op("ADD")                             # base shift q, the top bucket
        e.target.copy_in(e, self.run, lambda: asm.op("DUP2"))
        self._add_run_to(msm.acc, fast)
        top = asm.label("join")
        asm.push(self.bucket_bytes)
        asm.ops("SWAP1", "SUB")
        e.target.copy_in(e, self.bucket, lambda: asm.op("DUP2"))
        self._add_run(fast)
        fp.copy(e, self.run, self.bucket)
        self._add_run_to(msm.acc, fast)
        asm.op("DUP3")
        asm.push(self.bucket_bytes)
        asm.op("ADD")
        asm.op("DUP2")
        asm.op("GT")
        asm.jumpi(top)                            # while q > base + one bucket
        asm.op("POP")

    def _add_run_to(self, target: Slot, fast: bool) -> None:
        """target += run, through bucket."""
        fp.copy(self.e, self.bucket, target)
        self._add_run(fast)
        fp.copy(self.e, target, self.bucket)

    def _add_run(self, fast: bool) -> None:
        """bucket += run (Jacobian): add-2007-bl without tests (a call), or the complete
        addition."""
        e, asm, group = self.e, self.asm, self.group
        if not fast:
            self._complete_add(self.bucket, self.run)
            return
        asm.call(asm.subroutine(f"{group.name}_buckets_add_run", lambda a: add_distinct(
            e, group, self.bucket, self.run)))
