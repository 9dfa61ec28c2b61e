"""EIP-2537's pairing check (the precompile at 0x0f) as EVM code, for any BLS12 curve whose
precompile takes EIP-2537's encoding (BLS12-381's, and BLS12-377's of EIP-2539, whose p
also fits 48 bytes): decoding and validation of its input, then the shared Miller loop
and one final exponentiation. The curve is the emitter's (``e.curve``).

Input: k >= 1 pairs of 384 bytes, G1 (x, y) then G2 (x.c0, x.c1, y.c0, y.c1), each Fp 64
bytes big-endian whose top 16 bytes are zero (its value below p); an all-zero point is the point at infinity
(its pair contributes 1; the other point of the pair is still validated). Output: a 32-byte
word, 1 if the product of the pairings is one, else 0.

Where the precompile returns an error (length not a positive multiple of 384, non-zero
padding, a coordinate >= p, a point not on its curve or not in the r-order subgroup), the
contract REVERTs with empty output.

Per pair, in this order: each coordinate is range-checked and byte-reversed into the
48-byte little-endian form the field code reads (a run-time loop over the six values, a
shared 256-bit byte swap), converted to Montgomery form, then G1 is checked (curve,
subgroup) and G2 (curve). The G2 subgroup test needs [x] Q, which the Miller loop computes
anyway (its T), so it runs after the loop, on every pair state (:mod:`.bls12_subgroups`).
"""
from __future__ import annotations

from typing import Any

from ..asm import Assembler, Fp12, Label, Slot
from ..tower.control import is_zero
from ..tower.fp import Emitter
from ..tower.pairing import FinalExponentiation, MillerLoop
from .bls12_subgroups import G1_DBL_RUN, require_g1_in_subgroup, require_g2_in_subgroup
from .groups import g1_group, g2_group

FP_BYTES = 64                                     # 16 zero bytes, then 48 bytes big-endian
PAIR_BYTES = 384
WORD_BITS = 256
# Calldata order G1.x, G1.y, G2.x.c0, .. G2.y.c1; the work slot holds q (G2) then px2 (G1),
# so the values are read in the order G2 first, which writes memory upwards (see _decode).
READ_ORDER = (2, 3, 4, 5, 0, 1)


def _read_field(e: Emitter, fail: Label) -> None:
    """Stack: c -> hi lo, the two calldata words of the field element at offset c; jump to
    ``fail`` unless hi < P_HI, or hi = P_HI and lo < P_LO (p's words: padding and range in
    one test, as non-zero padding makes hi >= 2^128 > P_HI)."""
    asm = e.asm
    P_HI, P_LO = e.curve.p >> WORD_BITS, e.curve.p & ((1 << WORD_BITS) - 1)
    asm.ops("DUP1", "CALLDATALOAD", "SWAP1")
    asm.push(32)
    asm.ops("ADD", "CALLDATALOAD")                           # hi lo
    asm.op("DUP2")
    asm.push(P_HI)
    asm.op("GT")                                             # hi < P_HI
    asm.op("DUP3")
    asm.push(P_HI)
    asm.op("EQ")
    asm.op("DUP3")
    asm.push(P_LO)
    asm.ops("GT", "AND", "OR")
    asm.op("ISZERO")
    asm.jumpi(fail)


def decode_field(e: Emitter, fail: Label):
    """A subroutine, stack: dest c -> (consumed): the EIP-2537 field element at calldata
    offset c, range- and padding-checked (else jump to ``fail``), as a plain value staged
    at dest (:meth:`~..tower.target.EVM384.store_decoded`). EVM384's staging writes 16 zero
    bytes past the value: decode values in increasing address order, and leave 16 bytes
    after the last one that are written later (or are free)."""
    def body(asm: Assembler) -> None:                        # stack: dest c ret
        asm.ops("SWAP2", "SWAP1")                            # ret dest c
        _read_field(e, fail)
        asm.op("SWAP1")                                      # ret dest lo hi
        e.target.store_decoded(asm)
    return e.asm.subroutine("decode_field", body)


def _decode(e: Emitter, staged: Slot, fail: Label) -> None:
    """The six coordinates of the pair at calldata offset cd (stack: ptr cd) into
    ``staged`` (the work slot's memory image: q then px2) as plain values stored by the
    target (EVM384: 48-byte LE); fail on bad padding or a value >= p.

    A value's low word goes to its first 32 bytes, its high word's byte swap (16 value
    bytes, then 16 zeros) to the next 32: those zeros spill into the next value's slot,
    which is written later, or into T (set after decoding)."""
    asm = e.asm

    def one() -> None:                                       # stack: ptr cd s i
        asm.ops("DUP1")
        asm.push(6)
        asm.op("SHL")
        asm.op("DUP4")
        asm.op("ADD")                                        # c = cd + 64 i
        _read_field(e, fail)                                 # i hi lo
        asm.op("DUP3")                                       # dest = work + 48 ((i + 4) % 6)
        asm.push(4)
        asm.op("ADD")
        asm.push(6)
        asm.ops("SWAP1", "MOD")
        asm.push(48)
        asm.op("MUL")
        asm.push(staged)
        asm.op("ADD")                                        # i hi lo dest
        asm.op("SWAP2")                                      # i dest lo hi
        e.target.store_decoded(asm)
        asm.op("POP")

    with asm.scope("decode"):
        asm.digit_loop(READ_ORDER, 3, one)


def load(e: Emitter, loop: MillerLoop, fail: Label, g1_run: int = G1_DBL_RUN) -> None:
    """Decode and validate every pair; pairs with Q at infinity are dropped (after P is
    validated), pairs with P at infinity are kept (px2 = 0) for the G2 subgroup test.
    ``g1_run``: the G1 subgroup test's longest run of doublings in one call."""
    work = loop.work
    g1, g2 = g1_group(e.curve), g2_group(e.curve)

    def read(skip: Label) -> None:
        asm = e.asm
        staged = e.target.staging(e, work)
        _decode(e, staged, fail)
        for value, image in ((work.px2, _part(staged, work.px2, work)),
                             (work.q, _part(staged, work.q, work))):
            e.target.from_staging(e, value, image, little_endian=False)
        g1_done = asm.new_label("g1_infinity")
        is_zero(asm, _part(staged, work.px2, work))
        asm.jumpi(g1_done)
        g1.require_on_curve(e, work.px2, fail)
        require_g1_in_subgroup(e, work.px2, fail, run=g1_run)
        asm.place(g1_done)
        is_zero(asm, _part(staged, work.q, work))
        asm.jumpi(skip)
        g2.require_on_curve(e, work.q, fail)
    loop.load(pair_bytes=PAIR_BYTES, read=read)


def _part(staged: Slot, part: Slot, whole: Slot) -> Slot:
    """The part of ``staged`` (an image of ``whole``) where ``part`` of ``whole`` is."""
    return type(part)(staged.region, staged.rel + part.rel - whole.rel, f"{staged.name}.part")


def check_g2_subgroup(e: Emitter, loop: MillerLoop, fail: Label) -> None:
    """After the Miller loop: every pair state's T must be sign(x) psi(Q) (compared in
    the coordinates of the loop's lines)."""
    loop.check_each_pair(lambda: require_g2_in_subgroup(e, loop.work.q, loop.work.t, fail,
                                                        loop.lines.require_is))


def emit(e: Emitter, f: Fp12, shared_inverse: bool = False, g1_run: int = G1_DBL_RUN,
         **loop_options: Any) -> Label:
    """f = the product of the pairings of the validated input; returns the label that
    invalid input jumps to (the caller places it and REVERTs there). ``loop_options``:
    the Miller loop's (:class:`.MillerLoop`), beside ``g1_may_be_infinity``;
    ``shared_inverse`` the final exponentiation's (:class:`.FinalExponentiation`);
    ``g1_run`` as :func:`load` takes it (less code for more gas: room for faster steps
    elsewhere)."""
    fail = e.asm.new_label("invalid_input")
    loop = MillerLoop(e, f, g1_may_be_infinity=True, **loop_options)
    load(e, loop, fail, g1_run)
    loop.emit()
    check_g2_subgroup(e, loop, fail)
    FinalExponentiation(e, shared_inverse=shared_inverse).emit(f)
    return fail
