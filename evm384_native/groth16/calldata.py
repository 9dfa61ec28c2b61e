"""The verifier's calldata: the proof as the precompile-based verifiers take it (BN254: A.x,
A.y, B.x.c1, B.x.c0, B.y.c1, B.y.c0, C.x, C.y, 32-byte big-endian words, snarkjs's
``verifyProof(a, b, c, input)`` without a selector), the public inputs as 32-byte words,
then the hinted check's hint for the four pairs (-A, B), (C, delta), (vk_x, gamma),
(alpha, beta), computed here by the curve's prover."""
from __future__ import annotations

from typing import Optional, Sequence

from ..curves.points import Affine
from .keys import Proof, VerifyingKey


def vk_x(vk: VerifyingKey, public_inputs: Sequence[int]) -> Affine:
    """ic[0] + sum s_i ic[i + 1] (None: infinity), for inputs below r."""
    spec = vk.spec
    total = spec.g1_point(vk.ic[0])
    for s, point in zip(public_inputs, vk.ic[1:]):
        total = spec.g1.add(total, spec.g1.multiply(spec.g1_point(point), s))
    return total


def pairs_bytes(vk: VerifyingKey, proof: Proof, public_inputs: Sequence[int]) -> bytes:
    """The four pairs the verifier's check multiplies, as the curve's prover reads them."""
    spec = vk.spec
    a = spec.g1_point(proof.a)
    pairs = [(spec.g1.negate(a) if a is not None else None, proof.b),
             (spec.g1_point(proof.c), vk.delta), (vk_x(vk, public_inputs), vk.gamma),
             (spec.g1_point(vk.alpha), vk.beta)]
    return b"".join(spec.encode_g1(p) + spec.encode_g2(q if q != ((0, 0), (0, 0)) else None)
                    for p, q in pairs)


def hint(vk: VerifyingKey, proof: Proof, public_inputs: Sequence[int]) -> bytes:
    """The hint for this proof and these inputs (meaningful only for an accepted proof:
    for any other the verifier answers 0 whatever hint it gets). ValueError for points the
    prover cannot read (off their curve, a coordinate >= p) or an input >= r."""
    _check_inputs(vk, public_inputs, below_r=True)
    return vk.spec.pairing_hint(pairs_bytes(vk, proof, public_inputs))


def encode_calldata(vk: VerifyingKey, proof: Proof, public_inputs: Sequence[int],
                    hint_bytes: Optional[bytes] = None) -> bytes:
    """The verifier's calldata; the hint computed unless ``hint_bytes`` is given (any
    bytes of the hint's size: to send a proof the prover cannot read, or a forged hint)."""
    spec = vk.spec
    _check_inputs(vk, public_inputs, below_r=hint_bytes is None)
    if hint_bytes is None:
        hint_bytes = hint(vk, proof, public_inputs)
    if len(hint_bytes) != spec.hint_bytes:
        raise ValueError(f"a hint is {spec.hint_bytes} bytes, not {len(hint_bytes)}")
    return (spec.encode_g1(proof.a) + spec.encode_g2(proof.b) + spec.encode_g1(proof.c)
            + b"".join(s.to_bytes(spec.scalar_bytes, "big") for s in public_inputs)
            + bytes(hint_bytes))


def _check_inputs(vk: VerifyingKey, public_inputs: Sequence[int], below_r: bool) -> None:
    if len(public_inputs) != vk.inputs:
        raise ValueError(f"the key takes {vk.inputs} public inputs, got {len(public_inputs)}")
    bound = vk.spec.curve.r if below_r else 1 << (8 * vk.spec.scalar_bytes)
    for i, s in enumerate(public_inputs):
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < bound:
            raise ValueError(f"public input {i} ({s!r}) is not an integer in "
                             f"[0, {'r' if below_r else '2^256'})")
