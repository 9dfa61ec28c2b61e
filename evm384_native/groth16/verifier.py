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

One deliberate difference from the precompile-based verifier: A = (0, 0), the point at
infinity, answers 0. That verifier accepts (O, B, C) when e(alpha, beta) e(vk_x, gamma)
e(C, delta) = 1 and B is valid, which no prover can arrange without the setup's secrets;
handling it exactly would cost a fourth pair (B's subgroup check with P at infinity) on
every proof. C = O, B = O and vk_x = O get the reference's answer.
"""
from __future__ import annotations

from typing import Callable, Optional

from ..asm import Fp6, Fp12, G1, G1Jacobian, G2, Label, Program, raw
from ..bn254 import hinted
from ..bn254.contracts import check_g2_subgroup
from ..bn254.io import (G1_GROUP, G2_GROUP, WORD, constant, g1_offsets, g2_offsets,
                        load_values, push_words_zero)
from ..curves.bn254 import BN254
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..tower.contract import CONTRACT_SIZE_LIMIT, assemble, return_word
from ..tower.control import require_calldata
from ..tower.fp import Emitter
from ..tower.lines import PROJECTIVE
from ..tower.pairing import MillerLoop, mul_by_one_plus
from ..tower.residue import push_accepted
from ..tower.target import Target
from ..tower.targets import resolve_target
from .constants import miller_class
from .keys import VerifyingKey
from .msm import PLANS, MsmPlan, emit_msm, fixed_bases

# the largest key whose verifier is built: the contract must fit EIP-170's limit
MAX_INPUTS = 16
TARGETS = ("evmmax", "evm384", "evm")
PAIRS = 3                     # (-A, B), (C, delta), (vk_x, gamma): all in registers (EVMMAX)


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


def _build(vk: VerifyingKey, plan: MsmPlan, registers_only: bool
           ) -> Callable[[Emitter], None]:
    """The verifier's code. Pairs: (-A, B), (C, delta), (vk_x, gamma). With
    ``registers_only`` (EVMMAX) always three, each with P finite, so that all three stay
    in registers with no loop over pairs in memory: a point at infinity is replaced by
    the generator G, whose Miller loop class is divided out after the loop (a constant per
    key: :func:`.constants.miller_class`); B = O: (G, G2) for (-A, O); C = O: (G, delta);
    vk_x = O: (G, gamma). Otherwise (EVM384, less code) the loop over pairs in memory
    drops (-A, O) and skips the lines of a P at infinity. A = O answers 0 (module doc)."""
    spec = vk.spec
    curve = spec.curve
    g1, g2 = 2 * WORD, 4 * WORD
    a_at, b_at, c_at = 0, g1, g1 + g2
    inputs_at = spec.proof_bytes
    scalar_offsets = [inputs_at + WORD * i for i in range(vk.inputs)]
    tables = fixed_bases(spec.g1, spec.g1_point(vk.ic[0]),
                         [spec.g1_point(p) for p in vk.ic[1:]], curve.r, plan)
    generator = curve.g1
    # (name, Q of the substitute pair (G, Q)): what a pair at infinity is replaced with
    substitutes = (("b", curve.g2), ("c", vk.delta), ("vk_x", vk.gamma))
    divided = {name: miller_class(spec, generator, q) for name, q in substitutes}
    alpha_beta = miller_class(spec, vk.alpha, vk.beta)

    def build(e: Emitter) -> None:
        asm = e.asm
        zero = asm.new_label("reject")
        require_calldata(asm, 0, calldata_bytes(vk))
        asm.push(curve.r)                          # a public input >= r: 0
        for offset in scalar_offsets:
            asm.push(offset)
            asm.op("CALLDATALOAD")
            asm.op("DUP2")
            asm.op("GT")
            asm.op("ISZERO")
            asm.jumpi(zero)
        asm.op("POP")
        region = asm.memory.region("vk_x")
        vk_x_jacobian = region.alloc(G1Jacobian, "vk_x_jacobian")
        emit_msm(e, vk_x_jacobian, tables, scalar_offsets)
        vk_x = region.alloc(G1, "vk_x")
        jacobian.to_affine(e, fp, vk_x, vk_x_jacobian,
                           fp.inverse_inline if e.target.dense_code else None)

        f = asm.memory.region("result").alloc(Fp12, "f")
        loop = MillerLoop(e, f, g1_may_be_infinity=True, infinity_flags=True,
                          resident_all_finite=True, square_in_step=True, lines=PROJECTIVE,
                          registers_only=registers_only)
        work = loop.work
        flags = asm.memory.region("groth16_substituted")
        flag = {name: flags.alloc(raw(32), name) for name, _ in substitutes
                if registers_only}

        def set_flag(name: str, value: int) -> None:
            asm.push(value)
            asm.push(flag[name])
            asm.op("MSTORE")

        def substitute(name: str, q) -> None:
            """P := G (and Q := q unless it is already the key's), flagged."""
            fp.copy(e, work.px2, e.const(G1, "groth16_generator", list(generator)))
            if q is not None:
                fp.copy(e, work.q, e.const(G2, f"groth16_substitute_{name}", [*q[0], *q[1]]))
            set_flag(name, 1)

        def if_infinity(push_is_infinity: Callable[[], None], name: str, q,
                        finite: Callable[[], None], skip: Label) -> None:
            """``finite()`` unless the point is infinity: then substituted (flagged), or
            where the loop runs over pairs in memory, the pair is dropped (Q = O, to
            ``skip``) or kept with P = O (its lines skipped: the loop's infinity flag)."""
            infinity, done = asm.new_label(f"{name}_infinity"), asm.new_label(f"{name}_done")
            push_is_infinity()
            asm.jumpi(skip if not registers_only and q is not None else infinity)
            finite()
            if registers_only:
                set_flag(name, 0)
            asm.jump(done)
            asm.place(infinity)
            if registers_only:
                substitute(name, q)
            asm.place(done)

        def proof_pair(skip: Label) -> None:       # (-A, B)
            a = g1_offsets(e, constant(e, a_at))
            load_values(e, work.px2, a, zero)
            push_words_zero(e, a)
            asm.jumpi(zero)                        # A = O: 0
            G1_GROUP.require_on_curve(e, work.px2, zero)
            fp.neg(e, work.px2.y, work.px2.y)
            b = g2_offsets(e, constant(e, b_at))
            load_values(e, work.q, b, zero)
            if_infinity(lambda: push_words_zero(e, b), "b", curve.g2,
                        lambda: G2_GROUP.require_on_curve(e, work.q, zero), skip)

        def delta_pair(skip: Label) -> None:       # (C, delta)
            c = g1_offsets(e, constant(e, c_at))
            load_values(e, work.px2, c, zero)
            if_infinity(lambda: push_words_zero(e, c), "c", None,
                        lambda: G1_GROUP.require_on_curve(e, work.px2, zero), skip)
            fp.copy(e, work.q, e.const(G2, "groth16_delta", [*vk.delta[0], *vk.delta[1]]))

        def gamma_pair(skip: Label) -> None:       # (vk_x, gamma); vk_x = O is (0, 0)
            fp.copy(e, work.px2, vk_x)
            if_infinity(lambda: push_field_is_zero(e, vk_x), "vk_x", None, lambda: None, skip)
            fp.copy(e, work.q, e.const(G2, "groth16_gamma", [*vk.gamma[0], *vk.gamma[1]]))

        loop.load_each([proof_pair, delta_pair, gamma_pair])
        hint = hinted.read_hint(e, zero)
        loop.emit(cinv=hint.t)
        check_g2_subgroup(e, loop, zero)
        with asm.temps(Fp6) as (saved,):           # f *= 1 + m w, f *= 1 - m' w: through
            fp.copy(e, saved, hint.t)              # the loop's routine for f *= 1 + t w
            fp.copy(e, hint.t, e.const(Fp6, "groth16_alpha_beta", alpha_beta))
            mul_by_one_plus(e, f, hint.t)
            for name, _ in substitutes if registers_only else ():   # the substitutes'
                # classes divided out
                kept = asm.new_label(f"{name}_kept")
                asm.push(flag[name])
                asm.op("MLOAD")
                asm.op("ISZERO")
                asm.jumpi(kept)
                fp.copy(e, hint.t, e.const(Fp6, f"groth16_class_{name}", divided[name]))
                mul_by_one_plus(e, f, hint.t, -1)
                asm.place(kept)
            fp.copy(e, hint.t, saved)
        return_word(e, lambda: push_accepted(e, f, hint.t))
        _return_zero(e, zero)
    return build


def build_program(vk: VerifyingKey, target: str = "evmmax") -> Program:
    """The assembled verifier for ``vk`` on ``target`` ("evmmax", "evm384" or "evm"): the
    build with the least gas that fits EIP-170's limit, over the MSM's plans
    (:data:`.msm.PLANS`) and unrolled or looped Miller loops. The pairs in registers
    take the "inline" steps only (the others' memory loop answers 0 for true relations
    of three pairs or more: see docs/groth16.md)."""
    if vk.inputs > MAX_INPUTS:
        raise ContractTooLarge(f"a key with {vk.inputs} public inputs: verifiers are built "
                               f"for at most {MAX_INPUTS}")
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; choose one of {', '.join(TARGETS)}")
    isa: Optional[Target] = resolve_target(target)
    sizes = []
    while isa is not None:                     # then the target's variant with less code
        for plan in PLANS:
            for loops in (False, True):
                program = assemble(f"groth16_{vk.curve}", BN254, isa,
                                   _build(vk, plan, registers_only=bool(isa.register_pairs)),
                                   isa.compact, loops, PAIRS if isa.register_pairs else 0,
                                   "inline")
                if len(program.code) <= CONTRACT_SIZE_LIMIT:
                    return program
                sizes.append(len(program.code))
        isa = isa.smaller
    raise ContractTooLarge(f"the verifier for this key is at least {min(sizes):,} bytes on "
                           f"{target}, above EIP-170's {CONTRACT_SIZE_LIMIT:,}")


def build_verifier(vk: VerifyingKey, target: str = "evmmax") -> bytes:
    """The verifier's deployable code (runtime bytecode) for ``vk`` on ``target``."""
    return build_program(vk, target).code
