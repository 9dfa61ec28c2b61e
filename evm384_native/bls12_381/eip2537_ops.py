"""EIP-2537's G1/G2 addition, multi-scalar multiplication and map-to-curve precompiles
(0x0b..0x0e, 0x10, 0x11) as contracts for either target: the calldata is the precompile's input, the output its output, and
every input the precompile rejects makes the contract REVERT with empty output.

Input field elements are 64 bytes big-endian (16 zero bytes of padding, value < p),
decoded by :func:`..ec.eip2537_input.decode_field`; a point is x‖y (G2: x.c0‖x.c1‖y.c0‖y.c1), all
zero for the point at infinity; an MSM scalar is a 32-byte big-endian word, not reduced.
Output points are encoded the same way (infinity as zeros).

- ``eip2537_g1add`` / ``eip2537_g2add``: exactly two points (256 / 512 bytes), each on
  its curve or infinity; no subgroup check (the EIP has none for addition).
- ``eip2537_g1msm`` / ``eip2537_g2msm``: k >= 1 (point, scalar) pairs (160 / 288 bytes
  each); every point on its curve and in the r-order subgroup, or infinity
  (:mod:`.msm`).
- ``eip2537_map_fp_to_g1`` / ``eip2537_map_fp2_to_g2``: one Fp (64 bytes) / Fp2 (128
  bytes) element u; no other condition (:mod:`.map_to_curve`).
"""
from __future__ import annotations

from typing import Callable, Dict

from ..asm import raw
from ..ec.groups import Group, add
from ..tower import jacobian
from ..tower.control import require_calldata
from ..tower.fp import Emitter
from . import map_to_curve
from .eip2537_io import (FIELD_BYTES, decode_fields, load_jacobian, point_bytes, return_point,
                          fail_at)
from .msm import Msm
from .groups import G1_GROUP, G2_GROUP


def _build_add(e: Emitter, group: Group) -> None:
    asm = e.asm
    fail = asm.new_label("invalid_input")
    region = asm.memory.region("add")
    acc = region.alloc(group.jacobian, "p")
    t = region.alloc(group.jacobian, "q")
    size = point_bytes(group)
    require_calldata(asm, 0, 2 * size)
    acc_done, output = asm.new_label("p_loaded"), asm.new_label("output")
    asm.push(0)
    load_jacobian(e, group, acc, acc_done, fail)
    asm.place(acc_done)
    asm.push(size)
    asm.op("ADD")
    load_jacobian(e, group, t, output, fail)
    add(e, group, acc, t, lambda: jacobian.point_dbl(e, group.field, acc))
    asm.place(output)
    asm.op("POP")
    return_point(e, group, acc)
    fail_at(asm, fail)


def _build_msm(e: Emitter, group: Group) -> None:
    fail = e.asm.new_label("invalid_input")
    msm = Msm(e, group, fail)
    msm.build()
    return_point(e, group, msm.acc)
    fail_at(e.asm, fail)


def _build_map(e: Emitter, group: Group) -> None:
    """The map precompile of ``group``: one field element (Fp or Fp2) in, a point out."""
    asm = e.asm
    e.target.release_constants(e)                  # no code here reads zeroed memory
    fail = asm.new_label("invalid_input")
    region = asm.memory.region("input")
    u = region.alloc(group.field.ELEMENT, "u")
    region.alloc(raw(16), "decode_spill")          # decoding writes 16 bytes past u
    out = region.alloc(group.jacobian, "out")
    require_calldata(asm, 0, FIELD_BYTES * len(u.fps()))
    asm.push(0)
    decode_fields(e, u, fail)
    asm.op("POP")
    map_to_curve.map_to_curve(e, group, out, u)
    return_point(e, group, out)
    fail_at(asm, fail)


BUILDERS: Dict[str, Callable[[Emitter], None]] = {
    "eip2537_g1add": lambda e: _build_add(e, G1_GROUP),
    "eip2537_g2add": lambda e: _build_add(e, G2_GROUP),
    "eip2537_g1msm": lambda e: _build_msm(e, G1_GROUP),
    "eip2537_g2msm": lambda e: _build_msm(e, G2_GROUP),
    "eip2537_map_fp_to_g1": lambda e: _build_map(e, G1_GROUP),
    "eip2537_map_fp2_to_g2": lambda e: _build_map(e, G2_GROUP),
}
