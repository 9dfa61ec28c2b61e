"""The verifier's constant factors: the class modulo Fp6* of a pair's Miller loop value
(as the hinted check's loop computes it, not conjugated: c0 + c1 w = c0 (1 + m w), m =
c1 / c0; the check ignores factors in Fp6*), computed once per key by an EVM program (the
tower's own Miller loop, over the key's curve) on the fast engine: (alpha, beta)'s,
multiplied in, and those of the pairs that replace a point at infinity, divided out
(1 - m w is 1 + m w's inverse modulo Fp6*: their product 1 - m^2 v lies in Fp6)."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Tuple

from ..asm import Assembler, Fp6, Fp12, Program, raw
from ..curves.points import Affine
from ..tower import fp6
from ..tower.contract import fail_here
from ..tower.fp import Emitter
from ..tower.pairing import MillerLoop

if TYPE_CHECKING:                                   # pragma: no cover
    from .curves import Groth16Curve

MILLER_GAS = 10_000_000
VALUE_BYTES = 64                                    # m's values in the program's output


@lru_cache(maxsize=None)
def _miller_program(spec: "Groth16Curve") -> Program:
    """Calldata: one pair as the curve's prover reads it; output m (6 values of 64
    bytes, big-endian) for the loop value f = c0 + c1 w. The loop runs as the hinted
    check's (a hint t = 0: c^-1 = 1), so that f is not conjugated for negative x."""
    asm = Assembler(f"groth16_miller_constant_{spec.name}")
    e = Emitter(asm, spec.curve, compact=False)
    fail = asm.new_label("invalid_input")
    region = asm.memory.region("miller_constant")
    f = region.alloc(Fp12, "f")
    loop = MillerLoop(e, f)
    spec.load_pairs(e, loop, fail)
    loop.emit(cinv=e.const(Fp6, "fp6_zero", [0] * 6))
    out = region.alloc(raw(6 * VALUE_BYTES), "out")
    fp6.inverse(e, f.c0, f.c0)
    fp6.mul(e, f.c1, f.c1, f.c0)
    e.target.values_out(e, f.c1, out, VALUE_BYTES)
    asm.push(out.size)
    asm.push(out)
    asm.op("RETURN")
    fail_here(e, fail)
    e.finish()
    return asm.assemble()


@lru_cache(maxsize=None)
def _class(spec: "Groth16Curve", encoded: bytes) -> Tuple[int, ...]:
    from .. import execute
    result = execute(_miller_program(spec).code, encoded, engine="fast", gas=MILLER_GAS)
    if not result.success:
        raise ValueError(f"not a valid pair ({result.error})")
    return tuple(int.from_bytes(result.output[i:i + VALUE_BYTES], "big")
                 for i in range(0, 6 * VALUE_BYTES, VALUE_BYTES))


def miller_class(spec: "Groth16Curve", p: Affine, q: Affine) -> Tuple[int, ...]:
    """m (Fp6, the slot's value order) with the Miller loop value of (p, q) (affine G1,
    G2 points) equal to c0 (1 + m w), c0 in Fp6*: its class modulo Fp6*."""
    return _class(spec, spec.encode_g1(p) + spec.encode_g2(q))
