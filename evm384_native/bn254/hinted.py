"""The hint of ``bn254_pairing_check_hinted`` and how the contract reads it: t in Fp6, with
c^-1 = 1 + t w (:mod:`evm384_native.tower.residue` says why that suffices for BN254 too:
the 3-part of f lies in Fp6*, so no 27th root of unity need be sent), appended to the
pairs as 6 words of 32 bytes, big-endian, each < p (else the contract REVERTs), in the
tower order t.c0.c0, t.c0.c1, t.c1.c0, ..., t.c2.c1: 192 bytes.
"""
from __future__ import annotations

from ..asm import Fp6, Label, struct
from ..tower.fp import Emitter
from .io import WORD, Offset, load_values

Hint = struct("Hint", ("t", Fp6))
HINT_BYTES = 6 * WORD


def read_hint(e: Emitter, fail: Label) -> Hint:
    """The hint at the end of calldata into the field (range-checked)."""
    asm = e.asm
    hint = asm.memory.region("hint").alloc(Hint, "hint")

    def offset(i: int) -> Offset:
        def push(depth: int) -> None:
            asm.push(HINT_BYTES - WORD * i)
            asm.op("CALLDATASIZE")
            asm.op("SUB")
        return push
    with asm.scope("read_hint"):
        load_values(e, hint.t, [offset(i) for i in range(6)], fail)
    return hint
