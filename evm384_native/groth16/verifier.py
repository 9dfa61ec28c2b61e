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

from ..asm import Assembler, Fp6, Fp12, G1, G1Jacobian, G2, Label, Program, raw
from ..bn254.io import WORD, constant, push_words_zero
from ..ec.groups import g1_group, g2_group
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
TARGETS = ("evmmax", "evm384", "evm")          # each curve's record says which it takes
PAIRS = 3                     # (-A, B), (C, delta), (vk_x, gamma): all in registers (EVMMAX)
G1_RUNS = (16, 8, 4, 2)        # G1 subgroup test's doublings per call, least gas first


class ContractTooLarge(ValueError):
    """The verifier for this key does not fit EIP-170's 24,576 bytes."""


def calldata_bytes(vk: VerifyingKey) -> int:
    """The verifier's calldata size: proof, public inputs, hint."""
    spec = vk.spec
    return spec.proof_bytes + spec.scalar_bytes * vk.inputs + spec.hint_bytes


def return_zero(asm: Assembler, zero: Label) -> None:
    """Place ``zero``: RETURN a 32-byte 0 (an input of the right length that fails)."""
    asm.place(zero)
    asm.push(0)
    asm.op("DUP1")
    asm.op("MSTORE")
    asm.push(32)
    asm.push(0)
    asm.op("RETURN")


def _build(vk: VerifyingKey, plan: MsmPlan, registers_only: bool,
           g1_run: int = G1_RUNS[0], inline_inverse: bool = True
           ) -> Callable[[Emitter], None]:
    """The verifier's code. Pairs: (-A, B), (C, delta), (vk_x, gamma). With
    ``registers_only`` (EVMMAX) always three, each with P finite, so that all three stay
    in registers with no loop over pairs in memory: a pair whose B, C or vk_x is at
    infinity (it contributes 1) is replaced by (G1, G2), the generators, and the class of
    that pair's Miller loop value (a constant: :func:`.constants.miller_class`) is divided
    out after the loop, once per replaced pair. Otherwise (EVM384, less code) the loop
    over pairs in memory drops (-A, O) and skips the lines of a P at infinity. A = O
    answers 0 (module doc). ``g1_run``: the longest run of doublings one call performs
    in G1's subgroup test (where G1 has a cofactor)."""
    spec = vk.spec
    curve = spec.curve
    g1_group_, g2_group_ = g1_group(curve), g2_group(curve)
    a_at, b_at, c_at = 0, spec.g1_bytes, spec.g1_bytes + spec.g2_bytes
    inputs_at = spec.proof_bytes
    scalar_offsets = [inputs_at + spec.scalar_bytes * i for i in range(vk.inputs)]
    tables = fixed_bases(spec.g1, spec.g1_point(vk.ic[0]),
                         [spec.g1_point(p) for p in vk.ic[1:]], curve.r, plan)
    substitute_class = miller_class(spec, curve.g1, curve.g2)
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
                           fp.inverse_inline if e.target.dense_code and inline_inverse
                           else None)

        f = asm.memory.region("result").alloc(Fp12, "f")
        loop = MillerLoop(e, f, g1_may_be_infinity=True, infinity_flags=True,
                          resident_all_finite=True, square_in_step=True, lines=PROJECTIVE,
                          registers_only=registers_only)
        work = loop.work
        replaced = asm.memory.region("groth16_replaced").alloc(raw(32), "count")
        if registers_only:
            asm.push(0)
            asm.push(replaced)
            asm.op("MSTORE")

        def replace() -> None:
            """(P, Q) := (G1, G2), counted."""
            fp.copy(e, work.px2, e.const(G1, "groth16_g1", list(curve.g1)))
            fp.copy(e, work.q, e.const(G2, "groth16_g2", [*curve.g2[0], *curve.g2[1]]))
            asm.push(replaced)
            asm.op("MLOAD")
            asm.push(1)
            asm.op("ADD")
            asm.push(replaced)
            asm.op("MSTORE")

        def if_infinity(push_is_infinity: Callable[[], None], name: str, drop: bool,
                        finite: Callable[[], None], skip: Label) -> None:
            """``finite()`` unless the point is infinity: then the pair is replaced, or
            where the loop runs over pairs in memory, dropped (``drop``: Q = O, to
            ``skip``) or kept with P = O (its lines skipped: the loop's infinity flag)."""
            done = asm.new_label(f"{name}_done")
            infinity = asm.new_label(f"{name}_infinity") if registers_only else \
                skip if drop else done
            push_is_infinity()
            asm.jumpi(infinity)
            finite()
            if registers_only:
                asm.jump(done)
                asm.place(infinity)
                replace()
            asm.place(done)

        def g1_checks() -> None:                   # work.px2 on G1 and in its subgroup
            g1_group_.require_on_curve(e, work.px2, zero)
            if spec.require_g1_subgroup is not None:   # once, called for A and C
                asm.call(subgroup)
        if spec.require_g1_subgroup is not None:
            subgroup = asm.subroutine("groth16_g1_subgroup", lambda a: spec.require_g1_subgroup(
                e, work.px2, zero, run=g1_run))

        def words(at: int, size: int):
            return [constant(e, at + i) for i in range(0, size, WORD)]

        def proof_pair(skip: Label) -> None:       # (-A, B): B loaded first (its
            spec.load_g2(e, work.q, b_at, zero)    # decoding may write past Q, into P)
            spec.load_g1(e, work.px2, a_at, zero)
            push_words_zero(e, words(a_at, spec.g1_bytes))
            asm.jumpi(zero)                        # A = O: 0
            g1_checks()
            fp.neg(e, work.px2.y, work.px2.y)
            if_infinity(lambda: push_words_zero(e, words(b_at, spec.g2_bytes)), "b", True,
                        lambda: g2_group_.require_on_curve(e, work.q, zero), skip)

        def delta_pair(skip: Label) -> None:       # (C, delta)
            spec.load_g1(e, work.px2, c_at, zero)
            fp.copy(e, work.q, e.const(G2, "groth16_delta", [*vk.delta[0], *vk.delta[1]]))
            if_infinity(lambda: push_words_zero(e, words(c_at, spec.g1_bytes)), "c", False,
                        g1_checks, skip)

        def gamma_pair(skip: Label) -> None:       # (vk_x, gamma); vk_x = O is (0, 0)
            fp.copy(e, work.px2, vk_x)
            fp.copy(e, work.q, e.const(G2, "groth16_gamma", [*vk.gamma[0], *vk.gamma[1]]))
            if_infinity(lambda: push_field_is_zero(e, vk_x), "vk_x", False, lambda: None,
                        skip)

        loop.load_each([proof_pair, delta_pair, gamma_pair])
        hint = spec.read_hint(e, zero)
        loop.emit(cinv=hint.t)
        spec.check_g2_subgroup(e, loop, zero)
        with asm.temps(Fp6) as (saved,):           # f *= 1 + m w, f *= 1 - m' w: through
            fp.copy(e, saved, hint.t)              # the loop's routine for f *= 1 + t w
            fp.copy(e, hint.t, e.const(Fp6, "groth16_alpha_beta", alpha_beta))
            mul_by_one_plus(e, f, hint.t)
            if registers_only:                     # each replaced pair's class divided out
                top, done = asm.label("groth16_divide"), asm.new_label("groth16_divided")
                asm.push(replaced)
                asm.op("MLOAD")
                asm.op("DUP1")
                asm.op("ISZERO")
                asm.jumpi(done)                    # stack: count
                asm.push(1)
                asm.op("SWAP1")
                asm.op("SUB")
                asm.push(replaced)
                asm.op("MSTORE")
                fp.copy(e, hint.t, e.const(Fp6, "groth16_replaced_class", substitute_class))
                mul_by_one_plus(e, f, hint.t, -1)
                asm.jump(top)
                asm.place(done)
                asm.op("POP")
            fp.copy(e, hint.t, saved)
        return_word(e, lambda: push_accepted(e, f, hint.t))
        return_zero(asm, zero)
    return build


def build_program(vk: VerifyingKey, target: str = "evmmax") -> Program:
    """The assembled verifier for ``vk`` on ``target`` (one of the curve's targets:
    "evmmax", "evm384", and for BN254 "evm"): the first build that fits EIP-170's limit,
    least gas first, over the MSM's plans (:data:`.msm.PLANS`), unrolled or looped Miller
    loops, vk_x's inverse inline or called (dense code), and the G1 subgroup test's
    runs (:data:`G1_RUNS`, where G1 has a cofactor). The pairs in registers take the
    "inline" steps only (the others' memory loop answers 0 for true relations of three
    pairs or more: see docs/groth16.md)."""
    if vk.inputs > MAX_INPUTS:
        raise ContractTooLarge(f"a key with {vk.inputs} public inputs: verifiers are built "
                               f"for at most {MAX_INPUTS}")
    if target not in vk.spec.targets:
        raise ValueError(f"unknown target {target!r} for {vk.curve}; choose one of "
                         f"{', '.join(vk.spec.targets)}")
    isa: Optional[Target] = resolve_target(target)
    # the G1 subgroup test's runs only where G1 has one (else one build per plan)
    runs = G1_RUNS if vk.spec.require_g1_subgroup is not None else G1_RUNS[:1]
    sizes = []
    while isa is not None:                     # then the target's variant with less code
        builds = [(plan, loops, inline, g1_run) for plan in PLANS for loops in (False, True)
                  for inline in ((True, False) if isa.dense_code else (False,))
                  for g1_run in runs]
        for plan, loops, inline, g1_run in builds:
            program = assemble(f"groth16_{vk.curve}", vk.spec.curve, isa,
                               _build(vk, plan, bool(isa.register_pairs), g1_run, inline),
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
