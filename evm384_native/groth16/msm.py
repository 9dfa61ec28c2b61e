"""vk_x = ic[0] + sum s_i ic[i + 1] as EVM code, the bases fixed (a verifying key's): each
scalar (a calldata word < r) split into ``chunks`` of L bits, s = sum_j s_j 2^(L j), and
the bases [2^(L j)] ic[i + 1] computed here, in Python, and copied from the code into
memory; then one interleaved double-and-add over L bits (Straus): L doublings shared by
every base, an addition per set bit. The additions handle every case (:func:`..ec.groups.add`):
the public inputs are the caller's, so acc = +-base must give the right sum.
"""
from __future__ import annotations

from typing import List, Sequence, Tuple

from ..asm import G1, G1Jacobian, raw
from ..curves.points import Affine, Group
from ..ec.groups import add, affine_view, g1_group, set_infinity
from ..tower import fp, jacobian
from ..tower.fp import Emitter

CHUNKS = 2                                          # halves: 127 doublings for BN254


def chunk_bits(r: int, chunks: int = CHUNKS) -> int:
    """L: the bits of a chunk of a scalar below r."""
    return -(-r.bit_length() // chunks)


def fixed_bases(group: Group, points: Sequence[Affine], r: int, chunks: int = CHUNKS
                ) -> List[Tuple[int, int, Affine]]:
    """(scalar index i, chunk j, [2^(L j)] points[i]) for every base that is not infinity."""
    bits = chunk_bits(r, chunks)
    out = []
    for i, point in enumerate(points):
        for j in range(chunks):
            base = group.multiply(point, 1 << (bits * j)) if point is not None else None
            if base is not None:
                out.append((i, j, base))
    return out


def emit_msm(e: Emitter, acc: G1Jacobian, offset: Affine, bases: Sequence[Tuple[int, int, Affine]],
             scalar_offsets: Sequence[int], chunks: int = CHUNKS) -> None:
    """acc = offset + sum over bases of [chunk j of the calldata word at
    scalar_offsets[i]] base (``bases`` from :func:`fixed_bases`; every word < r, checked by
    the caller). ``offset`` is a G1 point or None."""
    asm, target, curve = e.asm, e.target, e.curve
    group = g1_group(curve)
    bits = chunk_bits(curve.r, chunks)
    record = target.memory_bytes(e, G1.size)
    blob = b"".join(target.encode(e, v) for _, _, (x, y) in bases for v in (x, y))
    table = asm.memory.region("msm_bases").alloc(raw(max(len(blob), 32)), "bases")
    q = asm.memory.region("msm").alloc(G1Jacobian, "q")
    data = asm.new_label("msm_bases")

    def double() -> None:
        jacobian.jacobian_dbl(e, fp, acc)
    dbl = asm.subroutine("msm_dbl", lambda a: double())
    add_q = asm.subroutine("msm_add", lambda a: add(e, group, acc, q, double))
    with asm.scope("msm"):
        set_infinity(e, acc)
        fp.copy(e, q.z, e.one)
        if bases:
            asm.push(len(blob))
            asm.push(data)
            asm.push(table)
            asm.op("CODECOPY")
            asm.push(bits - 1)                     # stack: b, the bit of every chunk
            top = asm.label("msm_bit")
            asm.call(dbl)
            for k, (i, j, _) in enumerate(bases):
                skip = asm.new_label("msm_bit_clear")
                asm.push(scalar_offsets[i])
                asm.op("CALLDATALOAD")
                asm.op("DUP2")
                if j:
                    asm.push(bits * j)
                    asm.op("ADD")
                asm.op("SHR")
                asm.push(1)
                asm.op("AND")
                asm.op("ISZERO")
                asm.jumpi(skip)
                target.copy_in(e, affine_view(q, group),
                               lambda k=k: asm.push(lambda: int(table) + k * record))
                asm.call(add_q)
                asm.place(skip)
            asm.op("DUP1")
            asm.op("ISZERO")
            done = asm.new_label("msm_done")
            asm.jumpi(done)
            asm.push((1 << 256) - 1)
            asm.op("ADD")                          # b - 1
            asm.jump(top)
            asm.place(done)
            asm.op("POP")
        if offset is not None:
            fp.copy(e, affine_view(q, group), e.const(G1, "msm_offset", list(offset)))
            asm.call(add_q)
    if bases:
        asm.data(blob, label=data)
