"""Multi-scalar multiplication sum [s_i] P_i over G1 or G2 in the target's code, for
EIP-2537's MSM precompiles: each scalar split into short digits along an endomorphism
that the subgroup test has just proved, then interleaved fixed windows (Straus), 4-bit
digits, over the digits of every point.

The split (a decomposition in the radix of the endomorphism's eigenvalue, as GLV and GLS
do it; Gallant, Lambert and Vanstone, CRYPTO 2001; Galbraith, Lin and Scott, EUROCRYPT
2009). With x BLS12-381's seed (negative) and r = x^4 - x^2 + 1:

- G1: phi(P) = [-x^2] P for P in the r-order subgroup (the subgroup test checks exactly
  this), so [x^2] P = -phi(P) = (beta x, -y). For at most two pairs in calldata,
  s mod r = a0 + a1 |x| + a2 |x|^2 + a3 |x|^3 with a_i < |x| < 2^64, of P, Q1 = [|x|] P
  (the test computes [x^2] P as [|x|] Q1 and keeps Q1), -phi(P) and -phi(Q1): 64
  doublings, two tables a point. Beyond, s mod r = a0 + a1 x^2 with a0, a1 < x^2 < 2^128,
  of P and -phi(P): 128 doublings, one table a point (a table costs more than 64
  doublings from k = 3 on).
- G2: psi(Q) = [x] Q (again the subgroup test's relation), so [|x|^i] Q = (-psi)^i (Q).
  s mod r = a0 + a1 |x| + a2 |x|^2 + a3 |x|^3 with each a_i < |x| < 2^64: four 64-bit
  digits, of Q, -psi(Q), psi^2(Q) and -psi^3(Q) (psi^2 multiplies by constants of Fp).

The digits are the scalar's base-x^2 (base-|x|) expansion: EVM MOD and DIV, exact, so
[s] P = sum [a_i] B_i whatever the scalar (any 256-bit value; s = 0 mod r adds nothing).
Each a_i is made odd (above a_0 by borrowing from the digit below, a_0 as a_0 | 1) and
written in regular signed 4-bit windows (Joye and Tunstall): digits 2u - 15, never zero,
so no window branches; [-1] P is added after the loop when a_0 was even.

Loading (per (point, scalar) pair in calldata): decode, reject a point off the curve or
outside the r-order subgroup, drop the pair if the point is infinity or s = 0 mod r, else
keep a record after every linked memory region: per table the 16 entries [2u - 15] S
(u = 0 .. 15; S = P or Q1), affine on the curve y^2 = x^3 + b Z^6 of one Z (co-Z
additions, :meth:`Msm._table`), then the digit word U, the parity word F, Z (in Fp) and
the product of the earlier records' Z. Before the loop every record is brought to the
product w of all their Z (:meth:`Msm._common_z`; nothing for one record), so the loop runs
on the curve of w where every entry is an affine point.

Main loop: per 4-bit window of the digits, from the top: four doublings of the
accumulator (shared by all points), then per record and digit i the entry of its window
mapped to B_i by the endomorphism and added by a mixed addition (madd-2004-hmv) without
tests, on an accumulator offset by G (:meth:`Msm.emit`: an exceptional case leaves Z = 0
and sends the input to the same loop with complete additions). Cost: 64 (G2; G1 with at
most two pairs) or 128 doublings, 64 mixed additions a point, 7 co-Z additions a table.

With many pairs (:data:`BUCKETS`: G2 under EVMMAX from 72) the same digits go to
Pippenger's bucket method instead (:mod:`.pippenger`): no tables and no common Z. It
shares the Straus mode's load, whose records are then those of the mode the number of
pairs selects.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from ..asm import Fp, Label, Slot, array, raw
from ..curves.bls12_381 import BLS12_381
from ..ec.groups import Group, add, affine_view
from ..tower import fp, fp2, jacobian
from ..tower.control import Doubler, is_zero, require_calldata
from ..tower.compare import require_jacobian_is
from ..tower.fp import Emitter
from .eip2537_io import decode_fields, point_bytes
from ..tower.compare import push_field_is_zero
from .groups import (BETA, DBL_RUN, G1_GROUP, G2_GROUP, PSI_X, PSI_Y, affine_values,
                     generator_multiple, require_in_subgroup)
from .msm_split import Map, Split
from .pippenger import Buckets

WINDOW = 4
ENTRIES = 1 << (WINDOW - 1)                       # the odd multiples [1] P .. [15] P
RECORDS = 2 * ENTRIES                             # entry u: [2u - 15] P, u = 0 .. 15
MINUS_ONE = ENTRIES - 1                           # the entry of [-1] P
DIGIT_MASK = RECORDS - 1
HEADER = 64                                       # the digit word U, the parity word F
SCALAR_BYTES = 32
X = abs(BLS12_381.x)
P = BLS12_381.p
R = BLS12_381.r


def _neg_phi(e: Emitter, t: Slot) -> None:
    """t = -phi(t) = [x^2] t on G1 (Jacobian): (beta X, -Y, Z)."""
    fp.mul(e, t.x, t.x, e.fp_const("beta", BETA))
    fp.neg(e, t.y, t.y)


def _neg_psi(e: Emitter, t: Slot) -> None:
    """t = -psi(t) = [|x|] t on G2 (Jacobian): (conj(X) c_x, -conj(Y) c_y, conj(Z))."""
    fp2.mul_const(e, t.x, t.x, PSI_X, "psi_x", conjugate=True)
    fp2.mul_const(e, t.y, t.y, (-PSI_Y[0], -PSI_Y[1]), "-psi_y",
                  conjugate=True)
    fp2.conj(e, t.z, t.z)


def _norm(c) -> int:
    return (c[0] * c[0] + c[1] * c[1]) % P


def _psi2(e: Emitter, t: Slot) -> None:
    """t = psi^2(t) = [x^2] t on G2: psi(psi(v)) = v conj(c) c, so X and Y are multiplied
    by the norms of psi's constants (in Fp), Z is kept."""
    fp2.mul_by_fp(e, t.x, t.x, e.fp_const("psi2_x", _norm(PSI_X)))
    fp2.mul_by_fp(e, t.y, t.y, e.fp_const("psi2_y", _norm(PSI_Y)))


def _neg_psi3(e: Emitter, t: Slot) -> None:
    """t = -psi^3(t) = [|x|^3] t on G2."""
    _psi2(e, t)
    _neg_psi(e, t)


# G1 with four digits: [|x|] P = Q1, [|x|^2] P = [x^2] P = -phi(P), [|x|^3] P = -phi(Q1):
# 64 doublings, a second table a point; with two: 128 doublings, one table
G1_SPLIT4 = Split(X, 64, (None, None, _neg_phi, _neg_phi), (0, 1, 0, 1))
G1_SPLIT = Split(X * X, 128, (None, _neg_phi), (0, 0))
G2_SPLIT = Split(X, 64, (None, _neg_psi, _psi2, _neg_psi3), (0, 0, 0, 0))
# per group, the splits in the order tried: each up to a number of calldata pairs (None:
# any); G1's four digits save 64 doublings against ~1,600 gas a point (measured: less
# gas for k <= 2)
SPLITS = {G1_GROUP.name: ((G1_SPLIT4, 2), (G1_SPLIT, None)), G2_GROUP.name: ((G2_SPLIT, None),)}
assert all(split.radix ** len(split.maps) > R and split.radix < 1 << split.digit_bits
           and len(split.maps) * split.digit_bits <= 256 and split.digit_bits % WINDOW == 0
           for modes in SPLITS.values() for split, _ in modes)


# Pippenger's bucket method (:mod:`.pippenger`) per group and target: (the least number of
# pairs, window width), from where it costs less gas than Straus, on the split Straus
# uses for many pairs. Measured under EIP-6690: G2 k = 64 1,932,446 against Straus'
# 1,904,608, k = 72 2,115,023 against 2,151,753, k = 80 2,297,796 against 2,396,259,
# k = 128 3,398,547 against 3.95M (c = 5 and 7 cost more at k = 128). Not G1 (k = 128:
# -0.4%, not worth its code) nor EVM384 (its build with buckets passes 24,576 bytes).
BUCKETS: Dict[Tuple[str, str], Tuple[int, int]] = {(G2_GROUP.name, "evmmax"): (72, 6)}


@dataclass(frozen=True)
class Layout:
    """A record's layout for a split: the tables' entries (at its start, so a digit's
    entry is at ptr + u entry), U, F, the table's Z and the product of the earlier
    records' Z."""
    split: Split
    entry: int
    tag: str

    @property
    def table_bytes(self) -> int:
        return RECORDS * self.entry

    entries_at = 0

    @property
    def u_at(self) -> int:
        return self.split.table_count * self.table_bytes

    @property
    def f_at(self) -> int:
        return self.u_at + 32

    @property
    def z_at(self) -> int:
        return self.u_at + HEADER

    def prefix_at(self, value: int) -> int:
        return self.z_at + value


class Msm:
    """Memory and code of one MSM contract."""

    def __init__(self, e: Emitter, group: Group, fail: Label) -> None:
        self.e, self.group, self.fail = e, group, fail
        asm, field = e.asm, group.field
        entry = e.target.memory_bytes(e, group.affine.size)
        self.layouts = [(Layout(split, entry, f"_{split.table_count}x{len(split.maps)}"), most)
                        for split, most in SPLITS[group.name]]
        two_tables = any(lay.split.table_count > 1 for lay, _ in self.layouts)
        region = asm.memory.region("msm")
        self.p = region.alloc(group.affine, "p")
        region.alloc(raw(16), "decode_spill")     # EVM384 decoding writes 16 bytes past p
        self.t = region.alloc(group.jacobian, "t")
        self.acc = region.alloc(group.jacobian, "acc")
        # the tables and their common Z in line where code is dense, and the loop of the
        # Straus windows fits besides: G1's (G2's Fp2 code in line would push the
        # contract past 24,576 bytes, where its inversion goes through a shared chain)
        self._dense_setup = e.target.dense_code and field is fp
        self.w = region.alloc(Fp, "w")           # the records' common Z (module doc)
        self.q1 = region.alloc(group.jacobian, "q1") if two_tables else None
        self.h = region.alloc(field.ELEMENT, "h")
        self.factor = region.alloc(field.ELEMENT, "factor")
        self.end = region.alloc(raw(32), "records_end")
        self.value = e.target.memory_bytes(e, Fp.size)
        self._x_doubler: Optional[Doubler] = None
        self.pair = point_bytes(group) + SCALAR_BYTES
        name = f"{group.name}_msm"
        self._add_p = asm.subroutine(f"{name}_add_p",
                                     lambda a: jacobian.jacobian_add_affine(e, field, self.t, self.p))
        self._dbl_acc = asm.subroutine(f"{name}_dbl_acc",
                                       lambda a: jacobian.point_dbl(e, field, self.acc,
                                                                           extension=True))
        xy = affine_view(self.t, group)
        self._coz_step = asm.subroutine(f"{name}_coz_step", lambda a: jacobian.coz_add_update(
            e, field, affine_view(self.acc, group), xy, xy, self.h))
        self._scale_t = asm.subroutine(f"{name}_scale_t", lambda a: self._scale_by(
            xy, self.factor))
        self._parities = {lay.tag: asm.subroutine(
            f"{name}_parities{lay.tag}", lambda a, lay=lay: self._in_mode(
                lay, lambda: self._records(self._add_parity))) for lay, _ in self.layouts}
        least, width = BUCKETS.get((group.name, e.target.name), (None, None))
        self.buckets = None if least is None else (
            least, Buckets(self, self.layouts[-1][0].split, width))

    def _use(self, lay: Layout) -> None:
        """Emit for the split of ``lay`` from now on."""
        self.lay, self.split, self.entry = lay, lay.split, lay.entry
        self.table_bytes, self.entries_at, self.u_at = lay.table_bytes, lay.entries_at, lay.u_at
        self.f_at, self.z_at = lay.f_at, lay.z_at
        self.prefix_at = lay.prefix_at(self.value)
        self.record = self.prefix_at + self.value

    def _in_mode(self, lay: Layout, emit: Callable[[], None]) -> None:
        """emit() for the split of ``lay`` (a subroutine body, emitted whenever)."""
        before = getattr(self, "lay", None)
        self._use(lay)
        emit()
        if before is not None:
            self._use(before)

    def build(self) -> None:
        """Validate the pairs and leave their sum in acc, with the first split whose bound
        on the number of pairs the calldata meets: each with a load of its own (no choice
        per pair), but the bucket mode, which shares the last split's load (for code
        size) and chooses each pair's record."""
        asm = self.e.asm
        end = asm.new_label("msm_end")
        for lay, most in self.layouts:
            self._use(lay)
            if most is None:
                break
            other = asm.new_label("msm_more_pairs")
            self._unless_more_pairs(most, other)
            self.load(self._keep_tables)
            self.emit()
            asm.jump(end)
            asm.place(other)
        if self.buckets is None:
            self.load(self._keep_tables)
            self.emit()
        else:
            least, buckets = self.buckets
            assert all(most is None or most < least for _, most in self.layouts)
            self.load(lambda: self._by_pairs(least - 1, self._keep_tables, buckets.keep))
            self._by_pairs(least - 1, self.emit, buckets.emit)
        asm.place(end)

    def _unless_more_pairs(self, most: int, other: Label) -> None:
        """Jump to ``other`` if the calldata holds more than ``most`` pairs."""
        asm = self.e.asm
        asm.push(most * self.pair)
        asm.ops("CALLDATASIZE", "GT")
        asm.jumpi(other)

    def _by_pairs(self, most: int, few: Callable[[], None], many: Callable[[], None]
                  ) -> None:
        """few() for at most ``most`` pairs in calldata, else many()."""
        asm = self.e.asm
        done, other = asm.new_label("msm_chosen"), asm.new_label("msm_more_pairs")
        self._unless_more_pairs(most, other)
        few()
        asm.jump(done)
        asm.place(other)
        many()
        asm.place(done)

    def heap(self) -> int:
        """Where the records start: after every linked region (known at link time)."""
        memory_end = self.e.asm.memory.end
        assert memory_end is not None
        return memory_end

    def load(self, keep: Callable[[], None]) -> None:
        """Validate every pair in calldata; ``keep()`` writes the record of a pair that adds
        something (stack: ptr cd s -> ptr' cd, s the scalar mod r, not 0, ptr' the next
        record); records_end = their end."""
        e, asm, group = self.e, self.e.asm, self.group
        with asm.scope("load_pairs"):
            require_calldata(asm, 0, self.pair, multiple=True)
            fp.copy(e, self.w, e.one)
            asm.push(self.heap)                   # stack: ptr
            asm.push(0)                           # stack: ptr cd
            top, skip = asm.label("load_pair"), asm.new_label("skip_pair")
            staged = decode_fields(e, self.p, self.fail)
            is_zero(asm, staged)
            asm.jumpi(skip)                       # infinity: adds nothing
            group.require_on_curve(e, self.p, self.fail)
            if self.q1 is None:
                require_in_subgroup(e, group, self.p, self.t, f"{group.name}_msm_dbl_t",
                                    lambda: asm.call(self._add_p), self.fail)
            else:
                self._subgroup_keeping_q1()
            self._push_scalar()
            asm.push(R)
            asm.op("SWAP1")
            asm.op("MOD")                         # ptr cd (s mod r)
            zero_scalar = asm.new_label("zero_scalar")
            asm.op("DUP1")
            asm.op("ISZERO")
            asm.jumpi(zero_scalar)
            keep()
            asm.jump(skip)
            asm.place(zero_scalar)
            asm.op("POP")
            asm.place(skip)
            asm.push(self.pair)
            asm.op("ADD")
            asm.ops("DUP1", "CALLDATASIZE", "GT")
            asm.jumpi(top)                        # while CALLDATASIZE > cd
            asm.op("POP")
            asm.push(self.end)
            asm.op("MSTORE")

    def _keep_tables(self) -> None:
        """Stack: ptr cd s -> ptr' cd. The Straus record of the pair: U, F and the
        tables (:meth:`_odd_multiples`)."""
        e, asm = self.e, self.e.asm
        self._digits()                            # ptr cd F U
        asm.op("DUP4")
        asm.push(self.u_at)
        asm.op("ADD")
        asm.op("MSTORE")                          # record: U
        asm.op("DUP3")
        asm.push(self.f_at)
        asm.op("ADD")
        asm.op("MSTORE")                          # record: F
        if e.target.name != "evm384":             # LOADX needs the record's memory: grow
            asm.push(0)                           # it once, at its last byte
            asm.op("DUP3")
            asm.push(self.record - 1)
            asm.op("ADD")
            asm.op("MSTORE8")
        self._odd_multiples()
        asm.op("SWAP1")
        asm.push(self.record)
        asm.op("ADD")
        asm.op("SWAP1")

    def _subgroup_keeping_q1(self) -> None:
        """Jump to fail unless p is in G1 (Scott's phi(P) = [-x^2] P, as
        :func:`..ec.bls12_subgroups.require_g1_in_subgroup` tests it) with [x^2] P computed as
        [|x|] Q1, Q1 = [|x|] P: two chains of 63 doublings, Q1 kept. The second runs on
        the curve of Q1's Z, where Q1 is the affine (X1, Y1) (a = 0: the formulas do not
        read b), so both add mixed; its result (X, Y, Z) is (X, Y, Z Z1) on the curve. An
        exceptional case (only outside the subgroup) leaves Z or Z1 = 0, which the test
        rejects."""
        e, asm, group = self.e, self.e.asm, self.group
        q1, t = self.q1, self.t
        assert q1 is not None
        bits = bin(X)[3:]
        double = lambda: jacobian.point_dbl(e, fp, t)
        with asm.scope("g1_subgroup"):
            jacobian.from_affine(e, t, self.p)
            if self._x_doubler is None:           # one chain for every use
                self._x_doubler = Doubler(e, "g1_msm_dbl_t", [bits], double, DBL_RUN)
            chain = self._x_doubler
            chain.bits(bits, lambda: asm.call(self._add_p))
            fp.copy(e, q1, t)                     # Q1 = [|x|] P
            fp.copy(e, t.z, e.one)
            q1_xy = affine_view(q1, group)
            add_q1 = asm.subroutine("g1_msm_add_q1", lambda a: jacobian.jacobian_add_affine(
                e, fp, t, q1_xy))
            chain.bits(bits, lambda: asm.call(add_q1))
            fp.mul(e, t.z, t.z, q1.z)             # [x^2] P
            with asm.temps(group.affine) as (expect,):
                fp.mul(e, expect.x, self.p.x, e.fp_const("beta", BETA))
                fp.neg(e, expect.y, self.p.y)
                require_jacobian_is(e, fp, t, expect, self.fail)

    def _odd_multiples(self) -> None:
        """Stack: ptr cd. The record's tables, affine on one isomorphic curve
        y^2 = x^3 + b Z^6 (:meth:`_table`): the point's, and for a split with two tables
        Q1's (Q1 = [|x|] P, affine (X1, Y1) on the curve of its Z1; its table is built
        first, then p is put on that table's curve, (W^2 x, W^3 y), and its table built
        from there; Q1's entries then take that table's last factor). The record gets
        every table with its negations, Z (in Fp) and the product w of the earlier
        records' Z, and w becomes w Z."""
        e, asm, group = self.e, self.e.asm, self.group
        kind = group.field.ELEMENT
        tables = self.split.table_count
        with asm.scope("odd_multiples"), \
                asm.temps(*[array(group.affine, ENTRIES)] * tables) as positives, \
                asm.temps(kind, kind) as (z, f2):
            if tables == 1:
                self._table(self.p, positives[0], z)
            else:
                assert self.q1 is not None
                self._table(affine_view(self.q1, group), positives[1], z)
                fp.mul(e, z, z, self.q1.z)            # W = Z1 Z_q1: Q1's table's curve
                with asm.temps(group.affine, kind) as (p_w, z_p):
                    fp.copy(e, p_w, self.p)
                    self._scale_by(p_w, z, f2)
                    self._table(p_w, positives[0], z_p)
                    for j in range(ENTRIES):
                        self._scale_by(getattr(positives[1], f"e{j}"), z_p, f2)
                    fp.mul(e, z, z, z_p)
            z_fp = z if group.field is fp else z.c0
            for table, pos in enumerate(positives):
                first = self.entries_at + table * self.table_bytes
                for j in range(ENTRIES):
                    entry = getattr(pos, f"e{j}")
                    self._store(entry, first + (ENTRIES + j) * self.entry)
                    fp.neg_each(e, entry.y, entry.y)
                    self._store(entry, first + (ENTRIES - 1 - j) * self.entry)
            self._store(z_fp, self.z_at)
            self._store(self.w, self.prefix_at)
            fp.mul(e, self.w, self.w, z_fp)

    def _table(self, source: Slot, pos: Slot, z: Slot) -> None:
        """pos = [1] S, [3] S, .. [15] S for the affine point ``source`` (x, y each), on
        one Z, which goes to ``z`` (its norm on G2, in z.c0): 2S by a doubling, S brought
        to its Z, then [2j + 1] S = [2j - 1] S + 2S by co-Z additions with update
        (Meloni's: 6 products each; none meets an exceptional case for a point of prime
        order r, 2j - 1 = +-2 mod r never), each earlier entry then brought to the last Z
        (Longa and Miri's co-Z precomputation, as :mod:`..ec.odd_multiples` builds its table).
        On G2 every entry is also multiplied by conj(Z) (squared, cubed), so that the
        common Z is the norm, in Fp: psi (which conjugates Z) then maps the table to
        itself."""
        e, asm, field, group = self.e, self.e.asm, self.group.field, self.group
        kind = field.ELEMENT
        with asm.temps(array(kind, ENTRIES - 1), kind, kind) as (hs, factor, f2):
            entry = lambda j: getattr(pos, f"e{j}")
            h = lambda j: getattr(hs, f"e{j}")
            d = self.acc
            jacobian.from_affine(e, d, source)
            asm.call(self._dbl_acc)               # d = 2S, Z = Z2
            field.sqr(e, f2, d.z)
            field.mul(e, entry(0).x, source.x, f2)
            field.mul(e, f2, f2, d.z)
            field.mul(e, entry(0).y, source.y, f2)    # S on Z2
            dxy, xy, dense = affine_view(d, group), affine_view(self.t, group), \
                self._dense_setup
            if not dense:                         # calls on fixed slots, for code size
                fp.copy(e, xy, entry(0))
            for j in range(1, ENTRIES):
                if dense:
                    jacobian.coz_add_update(e, field, dxy, entry(j - 1), entry(j), h(j - 1))
                    continue
                asm.call(self._coz_step)
                fp.copy(e, entry(j), xy)
                fp.copy(e, h(j - 1), self.h)

            def scale(point: Slot, f: Slot) -> None:
                if dense:
                    self._scale_by(point, f, f2)
                    return
                fp.copy(e, xy, point)
                fp.copy(e, self.factor, f)
                asm.call(self._scale_t)
                fp.copy(e, point, xy)
            last: Optional[Slot] = None           # entry j lacks h_j .. h_(ENTRIES-2)
            if field is not fp:                   # Z_T = Z2 h_0 .. h_6; then conj(Z_T)
                field.mul(e, z, d.z, h(0))
                for j in range(1, ENTRIES - 1):
                    field.mul(e, z, z, h(j))
                fp2.conj(e, factor, z)
                field.mul(e, z, z, factor)        # N(Z_T), in Fp
                scale(entry(ENTRIES - 1), factor)
                last = factor
            for j in range(ENTRIES - 2, -1, -1):
                if last is None:
                    last = h(j)
                else:
                    field.mul(e, factor, last, h(j))
                    last = factor
                scale(entry(j), last)
            if field is fp:
                assert last is not None
                field.mul(e, z, d.z, last)

    def _store(self, slot: Slot, at: int) -> None:
        """Stack: ptr cd. The record at ptr, ``at`` bytes in = slot."""
        asm = self.e.asm
        self.e.target.copy_out(self.e, slot, lambda: (
            asm.op("DUP4"), asm.push(at), asm.op("ADD")))

    def _push_scalar(self) -> None:
        """Stack: ptr cd -> ptr cd s, the scalar of the pair at cd."""
        asm = self.e.asm
        asm.op("DUP1")
        asm.push(point_bytes(self.group))
        asm.ops("ADD", "CALLDATALOAD")

    def _digits(self) -> None:
        """Stack: s -> F U. With a_i the digits of s in the split's radix R (the last is
        what remains: s < R^digits), every a_i above a_0 is made odd by borrowing: an even
        a_i becomes a_i + 1 and a_(i-1) becomes a_(i-1) - R (R is even: a_(i-1) keeps its
        parity; the sum is unchanged; |a_i| < R < 2^b, b = digit_bits, signed). a_0 is
        made odd as a_0 | 1. Each odd a_i is written in Joye and Tunstall's regular
        recoding ("Exponent recoding and regular exponentiation algorithms", AFRICACRYPT
        2009): a_i = sum_j (2 u_j - 15) 16^j with u_j the 4-bit digits of
        U_i = (a_i + 2^b - 1) / 2 (in [0, 2^b) for |a_i| < 2^b), so no window is zero.
        U holds U_i at bits b i; F is 1 where a_0 was even (the sum then has [-1] P to
        add at the end)."""
        asm, split = self.e.asm, self.split
        bits, digits, radix = split.digit_bits, len(split.maps), split.radix
        assert radix % 2 == 0
        for _ in range(digits - 1):               # stack: a_0 .. a_(i-1) s
            asm.push(radix)
            asm.op("DUP2")
            asm.op("MOD")
            asm.op("SWAP1")
            asm.push(radix)
            asm.ops("SWAP1", "DIV")               # .. a_i s / R
        asm.push(0)                               # a_0 .. a_(n-1) U
        for i in range(digits - 1, 0, -1):       # stack: .. a_(i-1) a_i U
            asm.op("SWAP1")
            asm.op("DUP1")
            asm.push(1)
            asm.ops("AND", "ISZERO")              # .. a_(i-1) U a_i e
            asm.op("DUP1")
            asm.push(radix)
            asm.op("MUL")
            asm.op("DUP5")
            asm.op("SUB")                         # .. a_(i-1) U a_i e a_(i-1)-eR
            asm.ops("SWAP4", "POP", "ADD")        # .. a_(i-1)' U a_i'
            self._to_u(i)
            asm.op("OR")                          # .. a_(i-1)' U
        asm.op("SWAP1")
        asm.op("DUP1")
        asm.push(1)
        asm.ops("AND", "ISZERO")                  # U a_0 F
        asm.ops("SWAP2", "SWAP1")                 # F U a_0
        asm.push(1)
        asm.op("OR")
        self._to_u(0)
        asm.op("OR")                              # F U

    def _to_u(self, i: int) -> None:
        """Stack: a -> U_i at bits b i, for an odd a, |a| < 2^b (a word: two's
        complement)."""
        asm, bits = self.e.asm, self.split.digit_bits
        asm.push((1 << bits) - 1)
        asm.op("ADD")
        asm.push(1)
        asm.op("SHR")
        if i:
            asm.push(bits * i)
            asm.op("SHL")

    def emit(self) -> None:
        """acc = the sum of [s] P over the records (infinity, Z = 0 in fresh memory and
        registers, when there are none).

        The loop first runs with the accumulator offset by the generator G and mixed
        additions without any test: acc = [2^b] G + S' at the end (b = the digits' bits,
        S' the sum with each a_0 made odd); the parity corrections (complete
        additions) make it [2^b] G + S, and S = acc + C for the constant C = -[2^b] G.
        An addition meeting acc = +-t (only inputs crafted for it do) or an accumulator
        at infinity leaves Z = 0 (Z3 = Z H, H = 0), and Z stays 0 through every later
        doubling and addition: then the loop runs again from infinity with complete
        additions (:func:`~evm384_native.ec.groups.add`), which handle every case.

        All of it runs on the curve y^2 = x^3 + b w^6 of the records' common Z, w, where
        every table entry is an affine point, so the fast loop's additions are mixed
        (madd-2004-hmv: 11 products where a Jacobian addition takes 16); the result
        (X, Y, Z) there is (X, Y, Z w) on the curve."""
        e, asm, group = self.e, self.e.asm, self.group
        with asm.scope("msm"):
            done, complete = asm.new_label("msm_done"), asm.new_label("msm_complete")
            asm.push(self.end)
            asm.op("MLOAD")
            asm.push(self.heap)
            asm.op("EQ")
            asm.jumpi(done)
            self._common_z()
            jacobian.from_affine(e, self.acc, e.const(group.affine, f"{group.name}_g",
                                                      affine_values(generator_multiple(group, 1))))
            self._scale(self.acc, self.w)         # G on the records' curve
            fp.copy(e, self.t, self.acc)          # t.z = 1 for the complete additions
            if self._dense_setup:                 # one record: no loop over the records
                several, joined = asm.new_label("msm_records"), asm.new_label("msm_fast_done")
                asm.push(self.end)
                asm.op("MLOAD")
                record = self.record              # this split's, not the link time's
                asm.push(lambda: self.heap() + record)
                asm.ops("EQ", "ISZERO")
                asm.jumpi(several)
                self._loop(fast=True, single=True)
                asm.jump(joined)
                asm.place(several)
                self._loop(fast=True)
                asm.place(joined)
            else:
                self._loop(fast=True)
            push_field_is_zero(e, self.acc.z)
            asm.jumpi(complete)
            asm.call(self._parities[self.lay.tag])
            self._leave_common_z()
            bits = self.split.digit_bits
            jacobian.from_affine(e, self.t, e.const(
                group.affine, f"{group.name}_-2^{bits}g",
                affine_values(generator_multiple(group, -(1 << bits)))))
            add(e, group, self.acc, self.t, lambda: asm.call(self._dbl_acc))
            asm.jump(done)
            asm.place(complete)                   # acc.z = 0: acc is infinity
            self._loop(fast=False)
            asm.call(self._parities[self.lay.tag])
            self._leave_common_z()
            asm.place(done)

    def _scale(self, point: Slot, f: Fp) -> None:
        """point = (f^2 x, f^3 y) for an Fp value f (the point mapped to the curve of
        Z f, for points on that of Z)."""
        with self.e.asm.temps(Fp) as (f2,):
            self._scale_by(point, f, f2)

    def _scale_by(self, point: Slot, f: Slot, f2: Optional[Slot] = None) -> None:
        """point = (f^2 x, f^3 y), f in Fp or the group's field; ``f2`` a scratch slot
        of f's kind (else a temporary)."""
        e = self.e
        with e.asm.temps(*([] if f2 is not None else [type(f)])) as spare:
            f2 = f2 if f2 is not None else spare[0]
            field = fp if type(f) is Fp else self.group.field   # an Fp f scales each value
            field.sqr(e, f2, f)
            mul = field.mul
            mul(e, point.x, point.x, f2)
            mul(e, f2, f2, f)
            mul(e, point.y, point.y, f2)

    def _scale_entry(self, xy: Slot, f: Fp, offset: int) -> None:
        """Stack: .. q. The affine entry at q + offset times (f^2, f^3), through
        ``xy``."""
        e, asm = self.e, self.e.asm
        e.target.copy_in(e, xy, lambda: (asm.op("DUP2"), asm.push(offset),
                                         asm.op("ADD")) if offset else
                         asm.op("DUP2"))
        self._scale(xy, f)
        e.target.copy_out(e, xy, lambda: (asm.op("DUP3"), asm.push(offset),
                                          asm.op("ADD")) if offset else
                          asm.op("DUP3"))

    def _leave_common_z(self) -> None:
        """acc from the curve of Z w back to the curve: Z = Z w."""
        fp.mul(self.e, self.acc.z, self.acc.z, self.w)

    def _common_z(self) -> None:
        """Bring every record's entries to the common Z: w = Z_1 .. Z_k, so record i's
        entries are scaled by w / Z_i = (Z_1 .. Z_(i-1)) (Z_(i+1) .. Z_k), its prefix
        (stored by :meth:`_odd_multiples`) times the suffix, from the last record down.
        Nothing to do for one record."""
        e, asm = self.e, self.e.asm
        xy = affine_view(self.t, self.group)
        with asm.scope("common_z"), asm.temps(Fp, Fp, Fp) as (suffix, f, z):
            single = asm.new_label("one_record")
            asm.push(self.record)
            asm.push(self.end)
            asm.op("MLOAD")
            asm.op("SUB")                         # stack: ptr (the last record)
            asm.op("DUP1")
            asm.push(self.heap)
            asm.op("EQ")
            asm.jumpi(single)
            fp.copy(e, suffix, e.one)
            top = asm.label("common_z_record")
            at = lambda offset: lambda: (asm.op("DUP2"), asm.push(offset), asm.op("ADD"))
            e.target.copy_in(e, f, at(self.prefix_at))
            e.target.copy_in(e, z, at(self.z_at))
            fp.mul(e, f, f, suffix)
            fp.mul(e, suffix, suffix, z)
            if self._dense_setup:
                for u in range(RECORDS * self.split.table_count):
                    self._scale_entry(xy, f, self.entries_at + u * self.entry)
            else:                                 # a loop over the entries: stack ptr q
                asm.op("DUP1")
                asm.push(self.entries_at)
                asm.op("ADD")
                entries = asm.label("common_z_entry")
                self._scale_entry(xy, f, 0)
                asm.push(self.entry)
                asm.op("ADD")
                asm.op("DUP2")
                asm.push(self.entries_at + self.split.table_count * self.table_bytes)
                asm.op("ADD")
                asm.op("DUP2")
                asm.op("LT")
                asm.jumpi(entries)                # while q is below the entries' end
                asm.op("POP")
            asm.push(self.heap)
            asm.ops("DUP2", "GT", "ISZERO")
            asm.jumpi(single)                     # until ptr = heap
            asm.push(self.record)
            asm.ops("SWAP1", "SUB")
            asm.jump(top)
            asm.place(single)
            asm.op("POP")

    def _loop(self, fast: bool, single: bool = False) -> None:
        """The windows, from the top: four doublings of acc, then every record's digits
        (the fast loop's additions in line where code is dense, the complete loop's
        calls); ``single``: for one record, at the heap's start (no loop over records)."""
        asm, split = self.e.asm, self.split
        asm.push(split.digit_bits)                # stack: shift
        window = asm.label("window")
        asm.push(WINDOW)
        asm.ops("SWAP1", "SUB")
        for _ in range(WINDOW):
            self.double_acc(inline=fast)
        if single:
            u_at = self.u_at                      # this split's, not the link time's
            asm.push(lambda: self.heap() + u_at)
            asm.ops("MLOAD", "DUP2", "SHR")       # shift V
            for i, endomorphism in enumerate(split.maps):
                self._add_digit(i, endomorphism, fast, single=True)
            asm.op("POP")
        else:
            self._records(lambda i, endomorphism: self._add_digit(i, endomorphism, fast),
                          shifted=True)
        asm.op("DUP1")
        asm.jumpi(window)                         # while shift > 0
        asm.op("POP")

    def _records(self, per_digit: Callable[[int, Map], None], shifted: bool = False
                 ) -> None:
        """Stack: x -> x. ``per_digit(i, map)`` for every record and digit, the stack
        then x ptr U (U the digit word of the record at ``ptr``; ``shifted``: U >> x)."""
        asm = self.e.asm
        asm.push(self.heap)                       # stack: x ptr
        point = asm.label("record")
        asm.op("DUP1")
        asm.push(self.u_at)
        asm.ops("ADD", "MLOAD")                   # x ptr U
        if shifted:
            asm.ops("DUP3", "SHR")
        for i, endomorphism in enumerate(self.split.maps):
            per_digit(i, endomorphism)
        asm.op("POP")
        asm.push(self.record)
        asm.op("ADD")
        asm.op("DUP1")
        asm.push(self.end)
        asm.ops("MLOAD", "GT")
        asm.jumpi(point)                          # while records_end > ptr
        asm.op("POP")

    def double_acc(self, inline: bool) -> None:
        """acc = 2 acc: inline in the fast loop where code is dense (a call costs as much
        as a third of the doubling), else a call."""
        if inline and self.e.target.dense_code:
            jacobian.point_dbl(self.e, self.group.field, self.acc, extension=True)
        else:
            self.e.asm.call(self._dbl_acc)

    def add_t(self, fast: bool, inline: bool = True) -> None:
        """acc += t: in the fast loop without tests (inline where code is dense and
        ``inline``), else the complete addition (a call; t may be infinity too where the
        bucket mode uses it)."""
        e, asm, group = self.e, self.e.asm, self.group
        name = f"{group.name}_msm_add_{'mixed' if fast else 'complete'}"
        xy = affine_view(self.t, group)
        if fast and e.target.dense_code and inline:
            jacobian.jacobian_add_affine_hmv(e, group.field, self.acc, xy)
        elif fast:
            asm.call(asm.subroutine(name, lambda a: jacobian.jacobian_add_affine_hmv(
                e, group.field, self.acc, xy)))
        else:
            asm.call(asm.subroutine(name, lambda a: add(
                e, group, self.acc, self.t, lambda: asm.call(self._dbl_acc),
                t_may_be_infinity=self.buckets is not None)))   # buckets, running sums

    def _add_entry(self, i: int, endomorphism: Map, fast: bool,
                   offset: Callable[[], None], inline: bool = True, single: bool = False
                   ) -> None:
        """Stack: shift ptr U. acc += the endomorphism's image of the record's entry at
        ptr + the offset ``offset()`` pushes (its stack: shift ptr U n); ``inline``: the
        fast addition in line (else a call); ``single``: stack shift U, the record at the
        heap's start."""
        e, asm = self.e, self.e.asm
        base = (lambda: asm.push(self.heap)) if single else (lambda: asm.op("DUP4"))
        e.target.copy_in(e, affine_view(self.t, self.group), lambda: (
            offset(), base(), asm.op("ADD")))
        if inline:
            self._map_and_add(endomorphism, fast, inline)
            return
        label = endomorphism.__name__.strip("_") if endomorphism is not None else "id"
        name = f"{self.group.name}_msm_{label}_add_{'mixed' if fast else 'complete'}"
        asm.call(asm.subroutine(name, lambda a: self._map_and_add(endomorphism, fast, False)))

    def _map_and_add(self, endomorphism: Map, fast: bool, inline: bool) -> None:
        """acc += the endomorphism's image of t."""
        if endomorphism is not None:
            endomorphism(self.e, self.t)          # t = [d] B_i
        self.add_t(fast, inline)

    def _add_digit(self, i: int, endomorphism: Map, fast: bool, single: bool = False
                   ) -> None:
        """Stack: shift ptr V. acc += [2u - 15] B_i, u the window of U_i at shift (the
        low bits of V's digit i)."""
        asm = self.e.asm

        def offset() -> None:                     # stack: shift ptr V n, V = U >> shift
            asm.op("DUP2")
            if i:
                asm.push(self.split.digit_bits * i)
                asm.op("SHR")
            asm.push(DIGIT_MASK)
            asm.op("AND")
            asm.push(self.entry)
            asm.op("MUL")
            first = self.entries_at + self.split.tables[i] * self.table_bytes
            if first:
                asm.push(first)
                asm.op("ADD")
        self._add_entry(i, endomorphism, fast, offset, inline=fast, single=single)

    def _add_parity(self, i: int, endomorphism: Map) -> None:
        """Stack: x ptr U. acc += [-1] P if the record's a_0 was even (a complete
        addition, after the windows: rare enough for a call); the other digits are odd
        (:meth:`_digits`)."""
        if i:
            return
        asm = self.e.asm
        odd = asm.new_label("odd_digit")
        asm.op("DUP2")
        asm.push(self.f_at)
        asm.op("ADD")
        asm.op("MLOAD")
        asm.op("ISZERO")
        asm.jumpi(odd)
        self._add_entry(i, endomorphism, False,
                        lambda: asm.push(self.entries_at + self.split.tables[i] * self.table_bytes
                                          + MINUS_ONE * self.entry),
                        inline=False)
        asm.place(odd)

