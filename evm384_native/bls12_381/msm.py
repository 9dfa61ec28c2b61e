"""Multi-scalar multiplication sum [s_i] P_i over G1 or G2 as EVM384 code, for EIP-2537's
MSM precompiles: interleaved fixed windows (Straus), 4-bit digits.

Loading (per (point, scalar) pair in calldata): decode, reject a point off the curve or
outside the r-order subgroup, drop the pair if the point is infinity or the scalar 0,
else keep a record after every linked memory region: the scalar word, then the Jacobian
multiples [1] P .. [15] P (one doubling and 13 mixed additions; P has prime order r, so
none of them meets an exceptional case).

Main loop: per 4-bit window of the 256-bit scalars, from the top: four doublings of the
accumulator (shared by all points), then for each record with a non-zero digit d, add
its [d] P (:func:`evm384_native.tower.groups.add`, which handles acc = infinity, acc = +-[d] P).
Cost: 256 doublings + at most 64 k additions + 14 k for the tables; the tables take
32 + 15 x 144 (G1) or 32 + 15 x 288 (G2) bytes of memory per point.
"""
from __future__ import annotations

from ..asm import Label, raw
from ..tower import jacobian
from ..tower.control import is_zero, require_calldata
from ..tower.fp import Emitter
from .eip2537_io import decode_fields, point_bytes
from ..tower.groups import Group, add
from .groups import require_in_subgroup

WINDOW = 4
MULTIPLES = (1 << WINDOW) - 1                     # [1] P .. [15] P
SCALAR_BITS = 256
SCALAR_BYTES = 32


class Msm:
    """Memory and code of one MSM contract."""

    def __init__(self, e: Emitter, group: Group, fail: Label) -> None:
        self.e, self.group, self.fail = e, group, fail
        asm, field = e.asm, group.field
        region = asm.memory.region("msm")
        self.p = region.alloc(group.affine, "p")
        region.alloc(raw(16), "decode_spill")     # decoding writes 16 bytes past p
        self.t = region.alloc(group.jacobian, "t")
        self.acc = region.alloc(group.jacobian, "acc")
        self.end = region.alloc(raw(32), "records_end")
        self.entry = e.target.memory_bytes(e, group.jacobian.size)
        self.record = SCALAR_BYTES + MULTIPLES * self.entry
        self.pair = point_bytes(group) + SCALAR_BYTES
        name = f"{group.name}_msm"
        self._dbl_t = asm.subroutine(f"{name}_dbl_t",
                                     lambda a: jacobian.jacobian_dbl(e, field, self.t))
        self._add_p = asm.subroutine(f"{name}_add_p",
                                     lambda a: jacobian.jacobian_add_affine(e, field, self.t, self.p))
        self._dbl_acc = asm.subroutine(f"{name}_dbl_acc",
                                       lambda a: jacobian.jacobian_dbl(e, field, self.acc))

    def heap(self) -> int:
        """Where the records start: after every linked region (known at link time)."""
        memory_end = self.e.asm.memory.end
        assert memory_end is not None
        return memory_end

    def load(self) -> None:
        """Validate every pair in calldata and write the records; records_end = their end."""
        e, asm, group = self.e, self.e.asm, self.group
        with asm.scope("load_pairs"):
            require_calldata(asm, 0, self.pair, multiple=True)
            asm.push(self.heap)                   # stack: ptr
            asm.push(0)                           # stack: ptr cd
            top, skip = asm.label("load_pair"), asm.new_label("skip_pair")
            staged = decode_fields(e, self.p, self.fail)
            is_zero(asm, staged)
            asm.jumpi(skip)                       # infinity: adds nothing
            group.require_on_curve(e, self.p, self.fail)
            require_in_subgroup(e, group, self.p, self.t, lambda: asm.call(self._dbl_t),
                                lambda: asm.call(self._add_p), self.fail)
            self._push_scalar()
            asm.op("ISZERO")
            asm.jumpi(skip)
            self._push_scalar()
            asm.op("DUP3")
            asm.op("MSTORE")                      # record: the scalar word
            jacobian.from_affine(e, self.t, self.p)
            for m in range(1, MULTIPLES + 1):
                if m == 2:
                    asm.call(self._dbl_t)
                elif m > 2:
                    asm.call(self._add_p)
                e.target.copy_out(e, self.t, lambda m=m: (   # record: [m] P
                    asm.op("DUP4"), asm.push(SCALAR_BYTES + (m - 1) * self.entry),
                    asm.op("ADD")), grow=True)
            asm.op("SWAP1")
            asm.push(self.record)
            asm.op("ADD")
            asm.op("SWAP1")
            asm.place(skip)
            asm.push(self.pair)
            asm.op("ADD")
            asm.ops("DUP1", "CALLDATASIZE", "GT")
            asm.jumpi(top)                        # while CALLDATASIZE > cd
            asm.op("POP")
            asm.push(self.end)
            asm.op("MSTORE")

    def _push_scalar(self) -> None:
        """Stack: ptr cd -> ptr cd s, the scalar of the pair at cd."""
        asm = self.e.asm
        asm.op("DUP1")
        asm.push(point_bytes(self.group))
        asm.ops("ADD", "CALLDATALOAD")

    def emit(self) -> None:
        """acc = the sum of [s] P over the records (acc starts as infinity: Z = 0 in fresh
        memory)."""
        e, asm = self.e, self.e.asm
        with asm.scope("msm"):
            done = asm.new_label("no_records")
            asm.push(self.end)
            asm.op("MLOAD")
            asm.push(self.heap)
            asm.op("EQ")
            asm.jumpi(done)
            asm.push(SCALAR_BITS)                 # stack: shift
            window = asm.label("window")
            asm.push(WINDOW)
            asm.ops("SWAP1", "SUB")
            for _ in range(WINDOW):
                asm.call(self._dbl_acc)
            asm.push(self.heap)                   # stack: shift ptr
            point = asm.label("record")
            asm.ops("DUP1", "MLOAD", "DUP3", "SHR")
            asm.push(MULTIPLES)
            asm.op("AND")                         # shift ptr d
            zero_digit = asm.new_label("zero_digit")
            asm.ops("DUP1", "ISZERO")
            asm.jumpi(zero_digit)
            e.target.copy_in(e, self.t, lambda: (     # t = [d] P; stack: shift ptr d n
                asm.op("DUP2"), asm.push(1), asm.ops("SWAP1", "SUB"), asm.push(self.entry),
                asm.op("MUL"), asm.op("DUP4"), asm.op("ADD"), asm.push(SCALAR_BYTES),
                asm.op("ADD")))
            add(e, self.group, self.acc, self.t, lambda: asm.call(self._dbl_acc))
            asm.place(zero_digit)
            asm.op("POP")
            asm.push(self.record)
            asm.op("ADD")
            asm.op("DUP1")
            asm.push(self.end)
            asm.ops("MLOAD", "GT")
            asm.jumpi(point)                      # while records_end > ptr
            asm.op("POP")
            asm.op("DUP1")
            asm.jumpi(window)                     # while shift > 0
            asm.op("POP")
            asm.place(done)
