"""The verifier's constant factors: the class modulo Fp6* of a pair's Miller loop value
(as the hinted check's loop computes it, not conjugated: c0 + c1 w = c0 (1 + m w), m =
c1 / c0; the check ignores factors in Fp6*), computed once per key by an EVM program (the
tower's own Miller loop) on the fast engine: (alpha, beta)'s, multiplied in, and those of
the pairs that replace a point at infinity, divided out (1 - m w is 1 + m w's inverse
modulo Fp6*: their product 1 - m^2 v lies in Fp6)."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Tuple

from ..asm import Assembler, Fp12, Program, raw
from ..bn254.contracts import load_pairs
from ..curves.bn254 import BN254
from ..curves.points import Affine
from ..tower import fp6
from ..tower.contract import fail_here
from ..tower.fp import Emitter
from ..tower.pairing import MillerLoop

if TYPE_CHECKING:                                   # pragma: no cover
    from .curves import Groth16Curve

MILLER_GAS = 10_000_000


@lru_cache(maxsize=None)
def _miller_program() -> Program:
    """Calldata: one pair as ECPAIRING reads it; output m (6 words) for f = c0 + c1 w."""
    asm = Assembler("groth16_miller_constant")
    e = Emitter(asm, BN254, compact=False)
    fail = asm.new_label("invalid_input")
    region = asm.memory.region("miller_constant")
    f = region.alloc(Fp12, "f")
    loop = MillerLoop(e, f)
    load_pairs(e, loop, fail)
    loop.emit()
    out = region.alloc(raw(6 * 32), "out")
    fp6.inverse(e, f.c0, f.c0)
    fp6.mul(e, f.c1, f.c1, f.c0)
    e.target.words_out(e, f.c1, out)
    asm.push(out.size)
    asm.push(out)
    asm.op("RETURN")
    fail_here(e, fail)
    e.finish()
    return asm.assemble()


@lru_cache(maxsize=None)
def _class(encoded: bytes) -> Tuple[int, ...]:
    from .. import execute
    result = execute(_miller_program().code, encoded, engine="fast", gas=MILLER_GAS)
    if not result.success:
        raise ValueError(f"not a valid pair ({result.error})")
    return tuple(int.from_bytes(result.output[i:i + 32], "big") for i in range(0, 192, 32))


def miller_class(spec: "Groth16Curve", p: Affine, q: Affine) -> Tuple[int, ...]:
    """m (Fp6, the slot's value order) with the Miller loop value of (p, q) (affine G1,
    G2 points) equal to c0 (1 + m w), c0 in Fp6*: its class modulo Fp6*."""
    return _class(spec.encode_g1(p) + spec.encode_g2(q))
