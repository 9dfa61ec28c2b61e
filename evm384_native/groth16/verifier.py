"""A Groth16 verifier contract, built per verifying key from the hinted pairing check.

Groth16 accepts (A, B, C) for public inputs s iff
    e(-A, B) e(vk_x, gamma) e(C, delta) e(alpha, beta) = 1,  vk_x = ic[0] + sum s_i ic[i+1].
The contract computes vk_x (:mod:`.msm`, fixed bases from the key), runs the Miller loop
of the three pairs with the residue witness folded in (:mod:`..tower.residue`), multiplies
by the constant Miller loop value of (alpha, beta), normalised to 1 + m w (a factor in
Fp6* changes nothing: the check asks whether the product times the hint's images lies in
Fp6*), and checks. The hint is the one the curve's prover computes for the four pairs.

Calldata: the proof in the precompile-based verifiers' encoding (:mod:`.calldata`), the
public inputs as 32-byte words, the hint. Output: a 32-byte 1 or 0; 0 for every input of
the right length that is not an accepted proof (a point off its curve or with a
coordinate >= p, B outside G2's order-r subgroup, a public input >= r, a wrong hint);
wrong length REVERTs. Each pair's checks are the BN254 hinted contract's.
"""
from __future__ import annotations

from typing import Callable, List

from ..asm import Fp6, Fp12, G1, G1Jacobian, Label, Program
from ..bn254 import hinted
from ..bn254.contracts import check_g2_subgroup
from ..bn254.io import (G1_GROUP, G2_GROUP, WORD, constant, g1_offsets, g2_offsets,
                        load_values, push_words_zero)
from ..curves.bn254 import BN254
from ..tower import fp, jacobian
from ..tower.contract import CONTRACT_SIZE_LIMIT, assemble, return_word
from ..tower.control import require_calldata
from ..tower.fp import Emitter
from ..tower.lines import PROJECTIVE
from ..tower.pairing import MillerLoop, mul_by_one_plus
from ..tower.residue import push_accepted
from ..tower.target import resolve_target
from .constants import alpha_beta_factor
from .keys import VerifyingKey
from .msm import PLANS, MsmPlan, emit_msm, fixed_bases

# the largest key whose verifier is built: the contract must fit EIP-170's limit
MAX_INPUTS = 16


class ContractTooLarge(ValueError):
    """The verifier for this key does not fit EIP-170's 24,576 bytes."""


def calldata_bytes(vk: VerifyingKey) -> int:
    """The verifier's calldata size: proof, public inputs, hint."""
    spec = vk.spec
    return spec.proof_bytes + spec.scalar_bytes * vk.inputs + spec.hint_bytes


def _return_zero(e: Emitter, zero: Label) -> None:
    """Place ``zero``: RETURN a 32-byte 0 (an input of the right length that fails)."""
    asm = e.asm
    asm.place(zero)
    asm.push(0)
    asm.op("DUP1")
    asm.op("MSTORE")
    asm.push(32)
    asm.push(0)
    asm.op("RETURN")


def _build(vk: VerifyingKey, plan: MsmPlan) -> Callable[[Emitter], None]:
    spec = vk.spec
    g1, g2 = 2 * WORD, 4 * WORD
    a_at, b_at, c_at = 0, g1, g1 + g2
    inputs_at = spec.proof_bytes
    scalar_offsets = [inputs_at + WORD * i for i in range(vk.inputs)]
    tables = fixed_bases(spec.g1, spec.g1_point(vk.ic[0]),
                         [spec.g1_point(p) for p in vk.ic[1:]], BN254.r, plan)
    alpha_beta = alpha_beta_factor(vk)

    def build(e: Emitter) -> None:
        asm = e.asm
        zero = asm.new_label("reject")
        require_calldata(asm, 0, calldata_bytes(vk))
        for offset in scalar_offsets:              # a public input >= r: 0
            asm.push(offset)
            asm.op("CALLDATALOAD")
            asm.push(BN254.r)
            asm.op("GT")
            asm.op("ISZERO")
            asm.jumpi(zero)
        region = asm.memory.region("vk_x")
        vk_x_jacobian = region.alloc(G1Jacobian, "vk_x_jacobian")
        emit_msm(e, vk_x_jacobian, tables, scalar_offsets)
        vk_x = region.alloc(G1, "vk_x")
        jacobian.to_affine(e, fp, vk_x, vk_x_jacobian, fp.inverse_inline
                           if e.target.dense_code else None)

        f = asm.memory.region("result").alloc(Fp12, "f")
        loop = MillerLoop(e, f, g1_may_be_infinity=True, infinity_flags=True,
                          resident_all_finite=True, square_in_step=True, lines=PROJECTIVE,
                          hybrid=True)
        work = loop.work

        def load_g1(at: int, negate: bool) -> None:
            offsets = g1_offsets(e, constant(e, at))
            load_values(e, work.px2, offsets, zero)
            infinity = asm.new_label("g1_infinity")
            push_words_zero(e, offsets)
            asm.jumpi(infinity)
            G1_GROUP.require_on_curve(e, work.px2, zero)
            if negate:
                fp.neg(e, work.px2.y, work.px2.y)
            asm.place(infinity)

        def proof_pair(skip: Label) -> None:       # (-A, B)
            load_g1(a_at, negate=True)
            offsets = g2_offsets(e, constant(e, b_at))
            load_values(e, work.q, offsets, zero)
            push_words_zero(e, offsets)
            asm.jumpi(skip)                        # B at infinity: e(-A, B) = 1
            G2_GROUP.require_on_curve(e, work.q, zero)

        def key_pair(load_p: Callable[[], None], name: str, q) -> Callable[[Label], None]:
            def fill(skip: Label) -> None:
                load_p()
                fp.copy(e, work.q, e.const(type(work.q), name, [*q[0], *q[1]]))
            return fill

        fills: List[Callable[[Label], None]] = [
            proof_pair,
            key_pair(lambda: load_g1(c_at, negate=False), "groth16_delta", vk.delta),
            key_pair(lambda: fp.copy(e, work.px2, vk_x), "groth16_gamma", vk.gamma)]
        loop.load_each(fills)
        hint = hinted.read_hint(e, zero)
        loop.emit(cinv=hint.t)
        check_g2_subgroup(e, loop, zero)
        with asm.temps(Fp6) as (saved,):           # f *= 1 + m w, through the loop's
            fp.copy(e, saved, hint.t)              # routine for f *= 1 + t w
            fp.copy(e, hint.t, e.const(Fp6, "groth16_alpha_beta", alpha_beta))
            mul_by_one_plus(e, f, hint.t)
            fp.copy(e, hint.t, saved)
        return_word(e, lambda: push_accepted(e, f, hint.t))
        _return_zero(e, zero)
    return build


def build_program(vk: VerifyingKey, target: str = "evmmax") -> Program:
    """The assembled verifier for ``vk`` on ``target`` ("evmmax" or "evm384"): the
    build with the least gas that fits EIP-170's limit, over the MSM's plans
    (:data:`.msm.PLANS`) and unrolled or looped Miller loops. The pairs in registers
    take the "inline" steps only (the others' memory loop answers 0 for true relations
    of three pairs or more: see docs/groth16.md)."""
    if vk.inputs > MAX_INPUTS:
        raise ContractTooLarge(f"a key with {vk.inputs} public inputs: verifiers are built "
                               f"for at most {MAX_INPUTS}")
    isa = resolve_target(target)
    sizes = []
    for plan in PLANS:
        for loops in (False, True):
            program = assemble(f"groth16_{vk.curve}", BN254, isa, _build(vk, plan),
                               isa.compact, loops, isa.register_pairs, "inline")
            if len(program.code) <= CONTRACT_SIZE_LIMIT:
                return program
            sizes.append(len(program.code))
    raise ContractTooLarge(f"the verifier for this key is at least {min(sizes):,} bytes on "
                           f"{isa.name}, above EIP-170's {CONTRACT_SIZE_LIMIT:,}")


def build_verifier(vk: VerifyingKey, target: str = "evmmax") -> bytes:
    """The verifier's deployable code (runtime bytecode) for ``vk`` on ``target``."""
    return build_program(vk, target).code
