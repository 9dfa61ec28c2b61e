"""The prover of the hinted pairing check: t with c^-1 = c0 (1 + t w) for :mod:`..ec.bls12_hinted`,
computed by an EVM384 program (:func:`evm384_native.tower.residue.emit_prover`) that runs
on an engine.

For f = the Miller loop value NOT conjugated (the hinted contract's), h = (p^12 - 1) / r,
PF = (1 - x) / 3 and h = 27 PF h3 (gcd(h3, 27 PF) = 1):

    w = f^(h3 s),  s = -h3^-1 mod 27 PF     (the inverse of f's 27 PF-part: in Fp3, so in Fp6)
    c = (f w)^e,   e = lambda^-1 mod h3     (f w has order dividing h3, coprime to lambda)

so f w = c^lambda whenever f^h = 1 (the product of the pairings is one). c^-1 is a power
of f, and its exponent may be taken mod h: the program computes c^-1 = f^E (E = -(1 + h3 s)
(lambda^-1 mod h3) mod h, :meth:`.Bls12.hint_exponent`) as a product of Frobenius images
f^(p^i) raised to the 12 base-p
digits of the exponent (381 squarings instead of 4,300), with sliding windows over a
shared table of odd powers; then t = c1 / c0 for c^-1 = c0 + c1 w (w itself is not sent:
:mod:`..ec.bls12_hinted` says why). For a false relation the hint is meaningless and the check
rejects it, as it rejects any hint.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Dict, Sequence, Tuple

from ..asm import Assembler, Fp6, Program, Slot
from ..asm.layout import FP_BYTES
from ..curves.bls12_381 import BLS12_381
from ..tower import fp
from ..tower.families import family_of
from ..tower.fp import Emitter
from ..tower.residue import emit_prover, prover_gas
from ..ec.bls12_hinted import Hint
from .raw_pairs import pairs_calldata

P = BLS12_381.p
LAMBDA = family_of(BLS12_381).residue_lambda(BLS12_381)     # p + |x| = 3 PF^2 r


def _write_out(t: Fp6, out: Slot, e: Emitter) -> None:
    """t as 48-byte little-endian plain values (:func:`pairing_hint` reverses them)."""
    for value, source in zip(out.t.fps(), t.fps()):
        fp.from_montgomery(e, value, source)


@lru_cache(maxsize=None)
def build_prover() -> Program:
    """The prover program: calldata as ``pairing_product_is_one``'s, output the hint."""
    asm = Assembler("pairing_hint")
    e = Emitter(asm, BLS12_381, compact=False)
    emit_prover(e, lambda loop: loop.load(), Hint, lambda t, out: _write_out(t, out, e))
    e.finish()
    return asm.assemble()


def pairing_hint(pairs: Sequence[Tuple[bytes, bytes]], **execute_options: Any) -> bytes:
    """The 288-byte hint (t, c^-1 = c0 (1 + t w)) of ``pairing_check_hinted`` for ``pairs`` (as for
    ``pairing_product_is_one``; pairs with a point at infinity are skipped, as the contracts
    skip them). Runs on the fast engine unless ``engine`` says otherwise; takes ``execute``'s
    options. Meaningful only if the product of the pairings is one."""
    from .. import execute
    pairs = list(pairs)
    if not pairs:
        raise ValueError("at least one pair is needed")
    options: Dict[str, Any] = {"engine": "fast", "gas": prover_gas(len(pairs)),
                               **execute_options}
    result = execute(build_prover().code, pairs_calldata(pairs), **options)
    if not result.success:
        raise RuntimeError(f"pairing hint program failed: {result.error}")
    # the program's values are little-endian (EVM384 memory); the hint's big-endian
    return b"".join(result.output[i:i + FP_BYTES][::-1]
                    for i in range(0, len(result.output), FP_BYTES))
