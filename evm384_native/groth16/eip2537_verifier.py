"""The precompile-based Groth16 verifier for a BLS12-381 key: what a verifier calling
EIP-2537's precompiles does (the anchor the hinted verifier is measured against), as
plain EVM code from this project's assembler, for any EVM with EIP-2537 (Prague).

Calldata: a 4-byte selector (``verifyProof(bytes32[4],bytes32[8],bytes32[4],uint256[n])``,
whose static arrays ABI-encode inline), then A, B, C in EIP-2537's encodings and the n
public inputs as 32-byte words (:func:`anchor_calldata`). Output: a 32-byte 1 or 0; 0 for
a public input >= r or points the precompiles reject; a wrong length or selector
REVERTs. The check is

    e(A, B) e(C, -delta) e(vk_x, -gamma) e(alpha, -beta) = 1,

the key's G2 points negated here, once (no negation at run time), vk_x = ic_0 + G1MSM
(ic_1..ic_n; s_1..s_n) by G1MSM (0x0c) and G1ADD (0x0b), the product by one PAIRING_CHECK
(0x0f) of four pairs, which validates A, B, C (their curves and subgroups).

Memory: one CODECOPY lays out ic_0, a slot for the MSM's result, the MSM's input (each
ic_i followed by a zero scalar, which the inputs overwrite) and the pairing input (A, B
and C then overwritten from calldata, vk_x from G1ADD's output).
"""
from __future__ import annotations

from typing import Sequence

from ..asm import Assembler
from ..evm.keccak import keccak256
from ..curves.bls12_381 import BLS12_381
from .keys import Proof, VerifyingKey
from .verifier import return_zero

G1MSM, G1ADD, PAIRING_CHECK = 0x0C, 0x0B, 0x0F
SELECTOR_BYTES = 4
G1, G2, SCALAR = 128, 256, 32
PAIR = G1 + G2


def selector(inputs: int) -> bytes:
    return keccak256(f"verifyProof(bytes32[4],bytes32[8],bytes32[4],uint256[{inputs}])"
                     .encode())[:SELECTOR_BYTES]


def anchor_calldata(vk: VerifyingKey, proof: Proof, public_inputs: Sequence[int]) -> bytes:
    """The anchor's calldata: selector, A, B, C, the inputs (no hint)."""
    spec = vk.spec
    return (selector(vk.inputs) + spec.encode_g1(proof.a) + spec.encode_g2(proof.b)
            + spec.encode_g1(proof.c)
            + b"".join(s.to_bytes(SCALAR, "big") for s in public_inputs))


def _layout(vk: VerifyingKey) -> bytes:
    """Memory's initial image (module doc): ic_0, the MSM's result, the MSM's input, the
    pairing input."""
    spec = vk.spec
    neg2 = spec.g2.negate
    msm = b"".join(spec.encode_g1(spec.g1_point(p)) + bytes(SCALAR) for p in vk.ic[1:])
    pairing = (bytes(PAIR) + bytes(G1) + spec.encode_g2(neg2(vk.delta))
               + spec.encode_g1(spec.g1_point(vk.ic[0]) if not vk.inputs else None)
               + spec.encode_g2(neg2(vk.gamma))
               + spec.encode_g1(vk.alpha) + spec.encode_g2(neg2(vk.beta)))
    return spec.encode_g1(spec.g1_point(vk.ic[0])) + bytes(G1) + msm + pairing


def build_eip2537_verifier(vk: VerifyingKey) -> bytes:
    """The precompile-based verifier's runtime code for a BLS12-381 key (module doc)."""
    if vk.spec.curve is not BLS12_381:
        raise ValueError(f"EIP-2537's precompiles are BLS12-381's, not {vk.curve}'s")
    n = vk.inputs
    image = _layout(vk)
    msm_at, pairing_at = 2 * G1, 2 * G1 + (G1 + SCALAR) * n
    inputs_at = SELECTOR_BYTES + 2 * G1 + G2
    asm = Assembler("groth16_eip2537_anchor", opcodes="evm")
    zero, fail = asm.new_label("answer_zero"), asm.new_label("bad_call")
    data = asm.new_label("layout")

    def static_call(address: int, args_at: int, args_size: int, out_at: int,
                    out_size: int) -> None:
        """STATICCALL a precompile; its failure (invalid input) answers 0."""
        for value in (out_size, out_at, args_size, args_at, address):
            asm.push(value)
        asm.op("GAS")
        asm.op("STATICCALL")
        asm.op("ISZERO")
        asm.jumpi(zero)

    asm.push(inputs_at + SCALAR * n)              # the length and the selector
    asm.op("CALLDATASIZE")
    asm.op("EQ")
    asm.push(0)
    asm.op("CALLDATALOAD")
    asm.push(256 - 8 * SELECTOR_BYTES)
    asm.op("SHR")
    asm.push(int.from_bytes(selector(n), "big"))
    asm.op("EQ")
    asm.op("AND")
    asm.op("ISZERO")
    asm.jumpi(fail)
    for i in range(n):                            # s_i < r, into the MSM's input
        asm.push(inputs_at + SCALAR * i)
        asm.op("CALLDATALOAD")
        asm.op("DUP1")
        asm.push(BLS12_381.r)
        asm.op("GT")
        asm.op("ISZERO")
        asm.jumpi(zero)
    asm.push(len(image))
    asm.push(data)
    asm.push(0)
    asm.op("CODECOPY")
    for i in reversed(range(n)):                  # the scalars, last pushed first
        asm.push(msm_at + (G1 + SCALAR) * i + G1)
        asm.op("MSTORE")
    if n:                                         # vk_x = ic_0 + MSM, into pair 3's G1
        static_call(G1MSM, msm_at, (G1 + SCALAR) * n, G1, G1)
        static_call(G1ADD, 0, 2 * G1, pairing_at + 2 * PAIR, G1)
    asm.push(PAIR)                                # A, B; C
    asm.push(SELECTOR_BYTES)
    asm.push(pairing_at)
    asm.op("CALLDATACOPY")
    asm.push(G1)
    asm.push(SELECTOR_BYTES + PAIR)
    asm.push(pairing_at + PAIR)
    asm.op("CALLDATACOPY")
    static_call(PAIRING_CHECK, pairing_at, 4 * PAIR, 0, 32)
    asm.push(32)
    asm.push(0)
    asm.op("RETURN")
    return_zero(asm, zero)
    asm.place(fail)
    asm.push(0)
    asm.op("DUP1")
    asm.op("REVERT")
    asm.data(image, label=data)
    return asm.assemble().code
