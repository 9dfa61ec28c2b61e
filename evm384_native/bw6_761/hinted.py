"""The hinted BW6-761 pairing check (``bw6_761_pairing_check_hinted``): EIP-3026's pairs,
then a residue witness, checked without a final exponentiation (Novakovic and Eagen, "On
Proving Pairings", eprint 2024/640; ``shared/docs/hinted-pairing.md``), as the k = 12
hinted checks (:mod:`..ec.bls12_hinted`) but over Fp6 = Fp3[v]/(v^2 - u).

With lambda = (x + 1) + p (x^3 - x^2 - x), a multiple m r of r (the loops' lattice
relation), the Miller loops (:meth:`..tower.pairing_k6.MillerLoops.emit`) fold in
cinv = 1 + t v (t in Fp3, the hint) and end at Y = F cinv^lambda, F the unhinted check's
loop value (times factors in Fp3). The contract answers one iff Y lies in Fp3*:
Y.c1 = 0 and Y.c0 != 0.

Sound: cinv is not zero (its c0 is one). If Y is in Fp3*, F = Y cinv^-lambda, and
F^h = Y^h cinv^(-m r h) = 1 for h = (p^6 - 1) / r: Y^(p^3 - 1) = 1 and p^3 - 1 divides h
(r divides p^3 + 1), and r h = p^6 - 1. F^h = 1 is what the unhinted check tests (its
exponent is h times a multiple prime to r), so no t passes a false relation.

Complete: Fp6*/Fp3* is cyclic of order p^3 + 1, and for a true relation F's image there
has order dividing N = (p^3 + 1) / r; gcd(lambda, N) = 1 (tests/test_bw6_761_hinted.py),
so c = F^(-(lambda^-1 mod N)) gives F c^lambda = F^(-k N) in Fp3*, and so does c s for
any s in Fp3*. The prover (:mod:`.hint`) sends t = c1 / c0 for c = c0 + c1 v.

Hint layout (appended to the pairs): t.c0, t.c1, t.c2, 96 bytes big-endian each, below p
(else the contract REVERTs): 288 bytes.
"""
from __future__ import annotations

from ..asm import Label, Slot, raw
from ..tower import fp
from ..tower.compare import push_equal
from ..tower.control import copy_calldata_tail
from ..tower.fp import Emitter
from ..tower.fp3 import Fp3
from ..tower.fp6_over_fp3 import Fp6OverFp3
from ..tower.pairing_k6 import MillerLoops
from . import pairing_input
from .pairing_input import VALUE_BYTES, require_below_p

HINT_VALUES = 3
HINT_BYTES = HINT_VALUES * VALUE_BYTES             # 288


def _read_hint(e: Emitter, cinv: Fp6OverFp3, given: Slot, fail: Label) -> None:
    """cinv = 1 + t v, t the hint at the end of calldata (staged at ``given``); jump to
    ``fail`` unless each of its values is below p."""
    asm = e.asm
    with asm.scope("read_hint6"):
        copy_calldata_tail(asm, HINT_BYTES, given)
        for i in range(HINT_VALUES):
            require_below_p(e, lambda i=i: int(given) + VALUE_BYTES * i, fail)
        fp.copy(e, cinv, e.const(Fp6OverFp3, "fp6_one", [1, 0, 0, 0, 0, 0]))
        e.target.copy_in(e, cinv.c1, lambda: asm.push(given))


def emit(e: Emitter, f: Fp6OverFp3) -> Label:
    """f = Y of the pairs in calldata and the hint after them, validated as
    ``bw6_761_pairing_check``'s input; returns the label invalid input (a bad point, a
    hint value >= p) jumps to."""
    loops = MillerLoops(e, f)
    fail = pairing_input.load(e, loops, tail=HINT_BYTES)
    region = e.asm.memory.region("hint6")
    cinv, given = region.alloc(Fp6OverFp3, "cinv"), region.alloc(raw(HINT_BYTES), "given")
    _read_hint(e, cinv, given, fail)
    loops.emit(cinv)
    return fail


def push_in_subfield(e: Emitter, y: Fp6OverFp3) -> None:
    """Push 1 iff y lies in Fp3*: y.c1 = 0 and y.c0 != 0."""
    zero = e.const(Fp3, "fp3_zero", [0, 0, 0])
    push_equal(e, zero, y.c1)
    push_equal(e, zero, y.c0)
    e.asm.ops("ISZERO", "AND")
