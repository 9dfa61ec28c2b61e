"""Input and output of EIP-2537's precompiles in the target's code: field elements and
points decoded from the calldata (:func:`..ec.eip2537_input.decode_field`: 64 bytes big-endian, 16
zero bytes of padding, value < p) into the target's staging memory and from there into
the field slots, points at infinity (all zero), the result point encoded the same way,
and the precompile's error as a REVERT with empty output.
"""
from __future__ import annotations

from ..asm import Assembler, Label, Slot, raw
from ..ec.groups import Group, affine_view
from ..tower import jacobian
from ..tower.control import is_zero
from ..tower.fp import Emitter
from ..ec import eip2537_input as eip2537

FIELD_BYTES = eip2537.FP_BYTES                    # 64


def point_bytes(group: Group) -> int:
    return FIELD_BYTES * group.fields


def decode_fields(e: Emitter, slot: Slot, fail: Label) -> Slot:
    """The field elements at calldata offset cd (stack: cd, kept) into ``slot`` (an affine
    point, an Fp or an Fp2), in the target's form; jump to ``fail`` on a bad encoding.
    Returns the memory the plain values were staged in (EVM384: ``slot`` itself), which
    is all zero exactly when the input was. Under EVM384 decoding writes 16 zero bytes
    past ``slot``: the caller leaves them free or writes them afterwards."""
    asm = e.asm
    decode = eip2537.decode_field(e, fail)
    staged = e.target.staging(e, slot)
    unit = e.target.value_bytes(e)
    with asm.scope("decode"):
        for i in range(len(slot.fps())):
            asm.push(lambda i=i: int(staged) + unit * i)
            asm.op("DUP2")
            if i:
                asm.push(FIELD_BYTES * i)
                asm.op("ADD")
            asm.call(decode)
        e.target.from_staging(e, slot, staged, little_endian=False)
    return staged


def return_point(e: Emitter, group: Group, point: Slot) -> None:
    """RETURN the Jacobian ``point`` in the EIP's encoding (infinity: Z = 0 gives zeros)."""
    asm = e.asm
    out = asm.memory.region("output").alloc(raw(point_bytes(group)), "output")
    with asm.scope("encode"), asm.temps(group.affine) as (affine,):
        jacobian.to_affine(e, group.field, affine, point)
        e.target.values_out(e, affine, out, FIELD_BYTES)
    asm.push(out.size)
    asm.push(out)
    asm.op("RETURN")


def fail_at(asm: Assembler, fail: Label) -> None:
    """Place ``fail``: the contract's failure (the precompile's: an exceptional halt)."""
    asm.place(fail)
    asm.fail()


def load_jacobian(e: Emitter, group: Group, point: Slot, infinity: Label, fail: Label) -> None:
    """The point at calldata offset cd (stack: cd, kept) into the Jacobian slot ``point``:
    Z = 1, or a jump to ``infinity`` for the all-zero encoding (Z is then 0: decoding
    left zeros in its first bytes and nothing else wrote it); off the curve: ``fail``."""
    xy = affine_view(point, group)
    staged = decode_fields(e, xy, fail)
    is_zero(e.asm, staged)
    e.asm.jumpi(infinity)
    group.require_on_curve(e, xy, fail)
    jacobian.from_affine(e, point, xy)
