"""The hinted pairing-product check: the Miller loop, then a check against a residue witness
the caller supplies, instead of the final exponentiation (Novakovic and Eagen, "On Proving
Pairings", eprint 2024/640; ``shared/docs/hinted-pairing.md``).

With lambda = p + |x| (a multiple of r), the product of the pairings is one iff the Miller
loop value f (NOT conjugated) satisfies f * w = c^lambda for some c != 0 and some w in Fp6:
then f * w is an r-th power and w^((p^12 - 1) / r) = 1, because p^6 - 1 divides it. The
contract reads c^-1 and w and checks

    f * cinv^|x| * w * Frob_p(cinv) == 1

with cinv^|x| folded into the Miller loop (:meth:`.MillerLoop.emit` with ``cinv``): five
Fp12 products by cinv, then one Frobenius, one Fp12 x Fp6 and one Fp12 product.
A w outside Fp6 would let any relation pass (pick c, set w = c^lambda / f): calldata carries
only w's six Fp6 coordinates, so w is in Fp6 by construction. cinv = 0 gives 0, never one.

Hint layout (appended to the pairs): cinv as 12 Fp values in blst's tower order, then w as
6 (the c0 half of an Fp12), each 48 bytes little-endian, NOT in Montgomery form, and each
< p (else the contract REVERTs): 864 bytes. :mod:`.hint` computes it.
"""
from __future__ import annotations

from ..asm import Fp6, Fp12, Label, raw, struct
from . import eip2537, fp, fp6, fp12
from .fp import Emitter
from .pairing import MillerLoop

Hint = struct("Hint", ("cinv", Fp12), ("w", Fp6))
HINT_BYTES = Hint.size                            # 864


def read_hint(e: Emitter, fail: Label) -> Hint:
    """The hint at the end of calldata (plain 48-byte LE values) into the field, in the
    target's form; jump to ``fail`` unless every value is below p."""
    asm = e.asm
    region = e.asm.memory.region("hint")
    given, hint = region.alloc(raw(HINT_BYTES), "given"), region.alloc(Hint, "hint")
    with asm.scope("read_hint"):
        asm.push(HINT_BYTES)
        asm.push(HINT_BYTES)
        asm.op("CALLDATASIZE")
        asm.op("SUB")
        asm.push(given)
        asm.op("CALLDATACOPY")
        e.target.load_plain(e, hint, given, fail)
    return hint


def final_check(e: Emitter, f: Fp12, hint: Hint) -> None:
    """f = f * w * Frob_p(cinv), for f = f_|x| * cinv^|x| from the hinted Miller loop (one
    iff the relation holds). Overwrites hint.cinv."""
    with e.asm.scope("hint_check"):
        fp12.frobenius(e, hint.cinv, hint.cinv, 1)
        for half in (f.c0, f.c1):                 # w = (w, 0): two Fp6 products
            fp6.mul_by_subroutine(e, half, half, hint.w)
        e.asm.call(fp12.routine(e, "fp12_mul", "ml_mul_cinv", a=f, b=hint.cinv))


def emit(e: Emitter, f: Fp12, validate: bool = False) -> Label:
    """f = one iff the product of the pairings in calldata is one, given a correct hint
    after them. ``validate``: EIP-2537 input, decoded and validated exactly as
    ``eip2537_pairing_check`` does (:mod:`.eip2537`); else the raw pairs of
    ``pairing_product_is_one``. Returns the label that invalid input (a bad point, a hint
    value >= p) jumps to; the caller places it and REVERTs there."""
    fail = e.asm.new_label("invalid_input")
    loop = MillerLoop(e, f, g1_may_be_infinity=validate, calldata_tail=HINT_BYTES)
    if validate:
        eip2537.load(e, loop, fail)
    else:
        loop.load()
    hint = read_hint(e, fail)
    loop.emit(cinv=hint.cinv)
    if validate:
        eip2537.check_g2_subgroup(e, loop, fail)
    final_check(e, f, hint)
    return fail
