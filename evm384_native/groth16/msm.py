"""vk_x = ic[0] + sum s_i ic[i + 1] as EVM code, the bases fixed (a verifying key's).

Each scalar (a calldata word < r, checked by the caller) is split into ``chunks`` of L
bits, s = sum_j s_j 2^(L j), L a multiple of the window ``width``; the bases
B_ij = [2^(L j)] ic[i + 1] and their multiples [d] B_ij (d = 1 .. 2^width - 1) are computed
here, in Python, and copied from the code into memory. One interleaved windowed
double-and-add (Straus) runs over the L bits: ``width`` doublings per window, shared by
every base, and an addition of [digit] B_ij per non-zero digit.

Fast path: acc starts at [2^-L mod r] ic[0] (after the L doublings: ic[0]) and adds with
madd-2004-hmv, which is wrong only when acc = +-[d] B_ij or acc is infinity; then H = 0
makes Z = 0, and Z stays 0 (every later doubling and addition multiplies Z by something).
So a final Z = 0 means an exceptional case happened somewhere (whoever chose the inputs),
and the slow path recomputes the sum from infinity with additions that handle every case
(:func:`..ec.groups.add`), ic[0] added last. The public inputs are the caller's: this
keeps the sum right for every input, not only for the likely ones.
"""
from __future__ import annotations

from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

from ..asm import G1, G1Jacobian, raw
from ..curves.points import Affine, Group
from ..ec.groups import add, affine_view, g1_group, set_infinity
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..tower.fp import Emitter


class MsmPlan(NamedTuple):
    """How the scalars are cut: ``chunks`` per scalar, windows of ``width`` bits; with
    ``looped`` the bases of a window are a run-time loop over their descriptors (code of
    one size for any number of inputs, ~40 gas a base and window more), else unrolled."""
    chunks: int
    width: int
    looped: bool = False
    fast_path: bool = True                         # without it: the slow path alone

    def chunk_bits(self, r: int) -> int:
        """L: bits per chunk of a scalar below r, a multiple of the width."""
        bits = -(-r.bit_length() // self.chunks)
        return -(-bits // self.width) * self.width


# least gas first; the verifier takes the first whose contract fits EIP-170's limit
# (a looped plan's gas grows with bases x windows, ~100 gas each: one chunk per scalar has
# as many as two with half the windows, and half the table)
PLANS = (MsmPlan(2, 3), MsmPlan(2, 2), MsmPlan(2, 1), MsmPlan(1, 3, True),
         MsmPlan(1, 2, True), MsmPlan(1, 1, True), MsmPlan(1, 1, True, False))
DESCRIPTOR_SHIFT = 32           # descriptor word: offset << 64 | chunk shift << 32 | table rel


class FixedBases(NamedTuple):
    """The tables: for each base (scalar index i, chunk j), its multiples [1..2^w - 1]."""
    plan: MsmPlan
    bases: Tuple[Tuple[int, int], ...]
    multiples: Tuple[Tuple[int, int], ...]          # every table's points, in order
    start: Optional[Tuple[int, int]]               # [2^-L] ic[0] (None: no fast path)
    offset: Affine                                 # ic[0]


def fixed_bases(group: Group, offset: Affine, points: Sequence[Affine], r: int,
                plan: MsmPlan) -> FixedBases:
    """The tables for ``offset`` + sum s_i points[i] (points None: infinity, skipped)."""
    bits = plan.chunk_bits(r)
    bases: List[Tuple[int, int]] = []
    multiples: List[Tuple[int, int]] = []
    for i, point in enumerate(points):
        if point is None:
            continue
        for j in range(plan.chunks):
            base = group.multiply(point, (1 << (bits * j)) % r)
            bases.append((i, j))
            acc = None
            for _ in range((1 << plan.width) - 1):
                acc = group.add(acc, base)
                multiples.append(acc)
    start = None if offset is None else group.multiply(offset, pow(2, -bits, r))
    return FixedBases(plan, tuple(bases), tuple(multiples), start, offset)


def emit_msm(e: Emitter, acc: G1Jacobian, tables: FixedBases,
             scalar_offsets: Sequence[int]) -> None:
    """acc = offset + sum over the bases of [chunk j of the calldata word at
    scalar_offsets[i]] B_ij (every word < r)."""
    asm, target, curve = e.asm, e.target, e.curve
    group = g1_group(curve)
    plan = tables.plan
    bits = plan.chunk_bits(curve.r)
    entries = (1 << plan.width) - 1
    record = target.memory_bytes(e, G1.size)
    blob = b"".join(target.encode(e, v) for point in tables.multiples for v in point)
    multiples_bytes = len(blob)
    if plan.looped:                                # the descriptors after the multiples
        blob += b"".join(
            (scalar_offsets[i] << 2 * DESCRIPTOR_SHIFT | bits * j << DESCRIPTOR_SHIFT
             | k * entries * record).to_bytes(32, "big")
            for k, (i, j) in enumerate(tables.bases))
    table = asm.memory.region("msm_bases").alloc(raw(max(len(blob), 32)), "bases")

    def before_table() -> int:
        """table - record: [digit] B_k is at that + k entries records + digit records."""
        assert int(table) >= record
        return int(table) - record
    q = asm.memory.region("msm").alloc(G1Jacobian, "q")
    data = asm.new_label("msm_bases")

    def double() -> None:
        jacobian.jacobian_dbl(e, fp, acc)
    dbl = asm.subroutine("msm_dbl", lambda a: double())
    complete = asm.subroutine("msm_add", lambda a: add(e, group, acc, q, double))
    madd = asm.subroutine("msm_madd", lambda a: jacobian.jacobian_add_affine_hmv(
        e, fp, acc, affine_view(q, group)))

    def looped_bases(addition: Callable[[], None]) -> None:
        """Every base's addition for the window at ``shift``, a run-time loop over the
        descriptors, last first (stack: shift)."""
        mask = (1 << DESCRIPTOR_SHIFT) - 1
        asm.push(len(tables.bases))                # stack: shift k (k = count .. 1)
        top = asm.label("msm_base")
        asm.op("DUP1")
        asm.push(5)
        asm.op("SHL")
        asm.push(lambda: int(table) + multiples_bytes - 32)
        asm.op("ADD")
        asm.op("MLOAD")                            # stack: shift k d
        asm.op("DUP1")
        asm.push(2 * DESCRIPTOR_SHIFT)
        asm.op("SHR")
        asm.op("CALLDATALOAD")                     # stack: shift k d word
        asm.op("DUP2")
        asm.push(DESCRIPTOR_SHIFT)
        asm.op("SHR")
        asm.push(mask)
        asm.op("AND")
        asm.op("DUP5")
        asm.op("ADD")
        asm.op("SHR")
        asm.push(entries)
        asm.op("AND")                              # stack: shift k d digit
        skip = asm.new_label("msm_digit_zero")
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(skip)
        asm.push(record)
        asm.op("MUL")
        asm.op("DUP2")
        asm.push(mask)
        asm.op("AND")
        asm.op("ADD")
        asm.push(before_table)
        asm.op("ADD")                              # stack: shift k d address
        target.copy_in(e, affine_view(q, group), lambda: asm.op("DUP2"))
        addition()
        asm.place(skip)
        asm.op("POP")
        asm.op("POP")
        asm.push(1)
        asm.op("SWAP1")
        asm.op("SUB")
        asm.op("DUP1")
        asm.jumpi(top)
        asm.op("POP")

    def windows(double_step: Callable[[], None], addition: Callable[[], None]) -> None:
        """The double-and-add over every window (stack: shift of the window's low bit)."""
        asm.push(bits - plan.width)
        top = asm.label("msm_window")
        for _ in range(plan.width):
            double_step()
        if plan.looped:
            looped_bases(addition)
        for k, (i, j) in enumerate(tables.bases if not plan.looped else ()):
            skip = asm.new_label("msm_digit_zero")
            asm.push(scalar_offsets[i])
            asm.op("CALLDATALOAD")
            asm.op("DUP2")
            if j:
                asm.push(bits * j)
                asm.op("ADD")
            asm.op("SHR")
            asm.push(entries)
            asm.op("AND")                          # stack: shift digit
            asm.op("DUP1")
            asm.op("ISZERO")
            asm.jumpi(skip)
            if entries > 1:
                asm.push(record)
                asm.op("MUL")
                asm.push(lambda k=k: int(table) + (k * entries - 1) * record)
                asm.op("ADD")                      # stack: shift address of [digit] B
            else:                                  # the digit is 1
                asm.op("POP")
                asm.push(lambda k=k: int(table) + k * record)
            target.copy_in(e, affine_view(q, group), lambda: asm.op("DUP2"))
            addition()
            asm.place(skip)
            asm.op("POP")
        asm.op("DUP1")
        asm.op("ISZERO")
        done = asm.new_label("msm_windows_done")
        asm.jumpi(done)
        asm.push(plan.width)
        asm.op("SWAP1")
        asm.op("SUB")
        asm.jump(top)
        asm.place(done)
        asm.op("POP")

    with asm.scope("msm"):
        fp.copy(e, q.z, e.one)
        if tables.bases:
            asm.push(len(blob))
            asm.push(data)
            asm.push(table)
            asm.op("CODECOPY")
        finished = asm.new_label("msm_done")
        if plan.fast_path and tables.start is not None and tables.bases:
            fp.copy(e, affine_view(acc, group), e.const(G1, "msm_start", list(tables.start)))
            fp.copy(e, acc.z, e.one)
            # inline under EVMMAX: a call costs ~20 gas, a doubling's field ops ~10
            if target.dense_code:
                windows(double, lambda: jacobian.jacobian_add_affine_hmv(
                    e, fp, acc, affine_view(q, group)))
            else:
                windows(lambda: asm.call(dbl), lambda: asm.call(madd))
            push_field_is_zero(e, acc.z)
            asm.op("ISZERO")
            asm.jumpi(finished)
        set_infinity(e, acc)                       # the slow path
        if tables.bases:
            windows(lambda: asm.call(dbl), lambda: asm.call(complete))
        if tables.offset is not None:
            fp.copy(e, affine_view(q, group), e.const(G1, "msm_offset", list(tables.offset)))
            asm.call(complete)
        asm.place(finished)
    if tables.bases:
        asm.data(blob, label=data)


def fast_path_taken(group: Group, tables: FixedBases, scalars: Sequence[int], r: int
                    ) -> bool:
    """Whether :func:`emit_msm`'s fast path gives the sum for ``scalars`` (no addition
    meets acc = +-T or acc at infinity): a model of its steps, for the tests."""
    if not tables.plan.fast_path or tables.start is None or not tables.bases:
        return False
    plan = tables.plan
    bits = plan.chunk_bits(r)
    acc: Affine = tables.start
    entries = (1 << plan.width) - 1
    for shift in range(bits - plan.width, -1, -plan.width):
        for _ in range(plan.width):
            acc = group.add(acc, acc)
        order = list(enumerate(tables.bases))
        for k, (i, j) in order[::-1] if plan.looped else order:
            digit = scalars[i] >> (bits * j + shift) & entries
            if digit:
                point = tables.multiples[k * entries + digit - 1]
                if acc is None or acc[0] == point[0]:
                    return False
                acc = group.add(acc, point)
    return True

