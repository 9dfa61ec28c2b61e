"""[s] P on BN254's G1 for a 256-bit scalar s from calldata (ECMUL's): every G1 point has
prime order r (the cofactor is 1), so s is reduced mod r first; then left-to-right 4-bit
windows over a table [1] P .. [15] P kept in memory (a window's value picks its entry at
run time; the target copies it in). With s mod r < r no addition meets acc = +-[d] P, and
the additions start at the top non-zero window, so acc is never infinity: the complete
addition's checks only guard.
"""
from __future__ import annotations

from ..asm import Assembler, G1Jacobian, raw
from ..curves.bn254 import BN254
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..tower.fp import Emitter
from ..tower.groups import add, affine_view, set_infinity
from .io import G1_GROUP

WINDOW = 4
ENTRIES = (1 << WINDOW) - 1                       # [1] P .. [15] P


def multiply(e: Emitter, point: G1Jacobian, scalar_offset: int) -> G1Jacobian:
    """acc = [s] P for the Jacobian ``point`` (Z = 1, or Z = 0 for infinity) and the
    calldata word s at ``scalar_offset``; returns acc."""
    asm, target = e.asm, e.target
    region = asm.memory.region("scalar_mul")
    acc, t = region.alloc(G1Jacobian, "acc"), region.alloc(G1Jacobian, "t")
    record = target.memory_bytes(e, G1Jacobian.size)
    table = region.alloc(raw(ENTRIES * record), "table")

    def entry() -> None:
        """Stack: d -> (consumed): t = [d] P from the table (its address computed first,
        then brought above the count the copy pushes)."""
        asm.push(record)
        asm.op("MUL")
        asm.push(lambda: int(table) - record)
        asm.op("ADD")
        target.copy_in(e, t, lambda: asm.op("SWAP1"))

    infinity, done = asm.new_label("product_infinity"), asm.new_label("product_done")
    with asm.scope("scalar_mul"):
        asm.push(BN254.r)
        asm.push(scalar_offset)
        asm.op("CALLDATALOAD")
        asm.op("MOD")                              # stack: s mod r
        asm.op("DUP1")
        asm.op("ISZERO")
        push_field_is_zero(e, point.z)
        asm.op("OR")
        asm.jumpi(infinity)
        # the table: [1] P = P, [2] P = 2 P, [k] P = [k - 1] P + P (mixed: P affine)
        fp.copy(e, t, point)
        for k in range(1, ENTRIES + 1):
            if k == 2:
                jacobian.jacobian_dbl(e, fp, t)
            elif k > 2:
                jacobian.jacobian_add_affine(e, fp, t, affine_view(point, G1_GROUP))
            target.copy_out(e, t, lambda k=k: asm.push(lambda: int(table) + record * (k - 1)))
        # the top non-zero window: shift = 4 (63 - i) down from 252
        asm.push(256 - WINDOW)                     # stack: s shift
        top = asm.label("find_top_window")
        asm.op("DUP2")
        asm.op("DUP2")
        asm.op("SHR")                              # s >> shift
        found = asm.new_label("top_window")
        asm.jumpi(found)
        asm.push(WINDOW)
        asm.op("SWAP1")
        asm.op("SUB")
        asm.jump(top)
        asm.place(found)
        _push_window(asm)                          # stack: s shift d
        entry()
        fp.copy(e, acc, t)
        step = asm.label("window")                 # stack: s shift
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(done)
        asm.push(WINDOW)
        asm.op("SWAP1")
        asm.op("SUB")
        for _ in range(WINDOW):
            jacobian.jacobian_dbl(e, fp, acc)
        _push_window(asm)
        skip = asm.new_label("zero_window")
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(skip)
        entry()
        add(e, G1_GROUP, acc, t, lambda: jacobian.jacobian_dbl(e, fp, acc))
        asm.jump(step)
        asm.place(skip)
        asm.op("POP")
        asm.jump(step)
        asm.place(infinity)                        # stack: s
        set_infinity(e, acc)
        asm.push(0)                                # the stack as at done: s shift
        asm.place(done)
        asm.op("POP")
        asm.op("POP")
    return acc


def _push_window(asm: Assembler) -> None:
    """Stack: s shift -> s shift d, d = (s >> shift) & 15."""
    asm.op("DUP2")
    asm.op("DUP2")
    asm.op("SHR")
    asm.push(ENTRIES)
    asm.op("AND")
