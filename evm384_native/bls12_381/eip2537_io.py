"""Input and output of EIP-2537's precompiles in EVM384 code: field elements and points
decoded from the calldata (:func:`.eip2537.decode_field`: 64 bytes big-endian, 16 zero
bytes of padding, value < p), points at infinity (all zero), the result point encoded the
same way, and the precompile's error as a REVERT with empty output.
"""
from __future__ import annotations

from ..asm import Assembler, Label, Slot, raw
from ..tower import fp, jacobian
from ..tower.control import is_zero
from ..tower.fp import Emitter
from ..tower.words import bswap256
from . import eip2537
from ..tower.groups import Group, affine_view

FIELD_BYTES = eip2537.FP_BYTES                    # 64


def point_bytes(group: Group) -> int:
    return FIELD_BYTES * group.fields


def decode_fields(e: Emitter, slot: Slot, fail: Label) -> None:
    """The field elements at calldata offset cd (stack: cd, kept) into ``slot`` (an affine
    point, an Fp or an Fp2), in Montgomery form; jump to ``fail`` on a bad encoding.
    Decoding writes 16 zero bytes past ``slot``: the caller leaves them free or writes
    them afterwards."""
    asm = e.asm
    decode = eip2537.decode_field(e, fail)
    with asm.scope("decode"):
        for i, value in enumerate(slot.fps()):
            asm.push(value)
            asm.op("DUP2")
            if i:
                asm.push(FIELD_BYTES * i)
                asm.op("ADD")
            asm.call(decode)
        for value in slot.fps():
            fp.to_montgomery(e, value, value)


def _encode_field(asm: Assembler) -> None:
    """Stack: dst src (under the return address): the plain 48-byte little-endian value at
    src as 64 bytes big-endian at dst (16 zero bytes, then the value)."""
    bswap = asm.subroutine("bswap256", bswap256)
    asm.op("SWAP2")                               # ret src dst
    asm.op("DUP2")
    asm.push(32)
    asm.ops("ADD", "MLOAD")                       # value bytes 32..47, then 16 other bytes
    asm.call(bswap)
    asm.push(128)
    asm.op("SHL")
    asm.push(128)
    asm.op("SHR")                                 # 16 zero bytes, bytes 47..32
    asm.op("DUP2")
    asm.op("MSTORE")
    asm.op("SWAP1")
    asm.op("MLOAD")
    asm.call(bswap)                               # bytes 31..0
    asm.op("SWAP1")
    asm.push(32)
    asm.ops("ADD", "MSTORE")


def return_point(e: Emitter, group: Group, point: Slot) -> None:
    """RETURN the Jacobian ``point`` in the EIP's encoding (infinity: Z = 0 gives zeros)."""
    asm = e.asm
    encode = asm.subroutine("encode_field", _encode_field)
    out = asm.memory.region("output").alloc(raw(point_bytes(group)), "output")
    with asm.scope("encode"), asm.temps(group.affine) as (affine,):
        jacobian.to_affine(e, group.field, affine, point)
        for i, value in enumerate(affine.fps()):
            fp.from_montgomery(e, value, value)
            asm.push(lambda i=i: int(out) + FIELD_BYTES * i)
            asm.push(value)
            asm.call(encode)
    asm.push(out.size)
    asm.push(out)
    asm.op("RETURN")


def revert_at(asm: Assembler, fail: Label) -> None:
    """Place ``fail``: the precompile's error, REVERT with empty output."""
    asm.place(fail)
    asm.push(0)
    asm.op("DUP1")
    asm.op("REVERT")


def load_jacobian(e: Emitter, group: Group, point: Slot, infinity: Label, fail: Label) -> None:
    """The point at calldata offset cd (stack: cd, kept) into the Jacobian slot ``point``:
    Z = 1, or a jump to ``infinity`` for the all-zero encoding (Z is then 0: decoding
    left zeros in its first bytes and nothing else wrote it); off the curve: ``fail``."""
    xy = affine_view(point, group)
    decode_fields(e, xy, fail)
    is_zero(e.asm, xy)
    e.asm.jumpi(infinity)
    group.require_on_curve(e, xy, fail)
    jacobian.from_affine(e, point, xy)
