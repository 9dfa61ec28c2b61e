"""The hinted pairing-product check on a BLS12 curve (the emitter's): the Miller loop, then a
check against a residue witness the caller supplies, instead of the final exponentiation
(Novakovic and Eagen, "On Proving Pairings", eprint 2024/640;
``shared/docs/hinted-pairing.md``). What follows is BLS12-381's case (x < 0); for x > 0
(BLS12-377) lambda = x - p, the Frobenius factor is c'^p (c' = 1 - t w) and Y may also lie
in w Fp6* (:func:`..tower.residue.push_accepted` and :mod:`..tower.families` say why).

With lambda = p + |x| = m r (a multiple of r) and h = (p^12 - 1) / r, the product of the
pairings is one iff f^h = 1 for the Miller loop value f (NOT conjugated). The caller sends
one Fp6 value t, read as c^-1 = 1 + t w (w the generator of Fp12 over Fp6), and the
contract computes

    F = f * cinv^|x|     (folded into the Miller loop: f starts at cinv, five sparse
                          products by cinv, :meth:`.MillerLoop.emit`)
    Y = F * Frob_p(cinv) = f * cinv^lambda,     Frob_p(1 + t w) = 1 + t' w,

and answers one iff Y lies in Fp6* (Y.c1 = F.c1 + F.c0 t' = 0 and F.c0 != 0).

Sound: cinv has c0 half 1, so it is not zero. If Y is in Fp6*, then
f = Y cinv^-lambda and f^h = Y^h (cinv^-m)^(r h) = 1, since Y^(p^6 - 1) = 1 and p^6 - 1
divides h (r divides p^6 + 1), and r h = p^12 - 1. So no t passes a false relation. The
test Y.c1 = 0 with F.c0 != 0 is the same as Y in Fp6*: Y.c0 = F.c0 + F.c1 t' v
= F.c0 (1 - t'^2 v) when Y.c1 = 0, and t'^2 v = 1 is impossible because v is not a
square in Fp6 (else Fp6[w]/(w^2 - v) would not be a field). (F = 0, e.g. a line through
a point off the curve, is caught by F.c0 != 0.)

Complete: for a true relation the residue witness c, w of the paper (f w = c^lambda, w in
Fp3, :mod:`.hint`) gives f c^-lambda = w^-1 in Fp6*, and any s in Fp6* keeps it there
((s c^-1)^lambda = s^lambda c^-lambda, s^lambda in Fp6*). The prover takes s = 1 / c0 for
c^-1 = c0 + c1 w, so t = c1 / c0: the paper's w need not be sent, nor checked to lie in a
subfield (the check is that Y does). c0 = 0 happens with probability about p^-6; the
prover then emits t = 0, which the check rejects.

Hint layout (appended to the pairs): t as 6 Fp values in blst's tower order (the c1 half
of an Fp12), each 48 bytes big-endian (what EVMMAX's STOREX reads; the EVM384 build
reverses them), NOT in Montgomery form, and each < p (else the contract REVERTs): 288
bytes. Each curve's ``hint`` module computes it.
"""
from __future__ import annotations

from typing import Any, Callable, Tuple

from ..asm import Fp6, Fp12, Label, raw, struct
from ..tower.control import copy_calldata_tail
from ..tower.fp import Emitter
from ..tower.pairing import MillerLoop
from ..tower.residue import push_accepted
from . import eip2537_input as eip2537
from .bls12_subgroups import G1_DBL_RUN

Hint = struct("Hint", ("t", Fp6))                 # c^-1 = 1 + t w
HINT_BYTES = Hint.size                            # 288


def read_hint(e: Emitter, fail: Label) -> Hint:
    """The hint at the end of calldata (plain 48-byte big-endian values) into the field,
    in the target's form; jump to ``fail`` unless every value is below p."""
    asm = e.asm
    region = e.asm.memory.region("hint")
    given, hint = region.alloc(raw(HINT_BYTES), "given"), region.alloc(Hint, "hint")
    with asm.scope("read_hint"):
        copy_calldata_tail(asm, HINT_BYTES, given)
        e.target.load_plain(e, hint, given, fail, little_endian=False)
    return hint


def emit(e: Emitter, f: Fp12, validate: bool = False, g1_run: int = G1_DBL_RUN,
         **loop_options: Any) -> Tuple[Label, Callable[[], None]]:
    """The hinted check of the pairs in calldata, given a hint after them. ``validate``:
    EIP-2537 input, decoded and validated exactly as ``eip2537_pairing_check`` does
    (:mod:`.eip2537_input`); else the raw pairs of ``pairing_product_is_one``. Returns the label
    that invalid input (a bad point, a hint value >= p) jumps to (the caller places it and
    REVERTs there) and what pushes the answer (1 iff the relation holds). ``g1_run``:
    as :func:`.eip2537_input.load` takes it; ``loop_options``: the Miller loop's
    (:class:`.MillerLoop`)."""
    fail = e.asm.new_label("invalid_input")
    loop = MillerLoop(e, f, g1_may_be_infinity=validate, calldata_tail=HINT_BYTES,
                      **loop_options)
    if validate:
        eip2537.load(e, loop, fail, g1_run)
    else:
        loop.load()
    hint = read_hint(e, fail)
    loop.emit(cinv=hint.t)
    if validate:
        eip2537.check_g2_subgroup(e, loop, fail)
    return fail, lambda: push_accepted(e, f, hint.t)
