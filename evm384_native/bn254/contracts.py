"""The alt_bn128 precompiles (EIP-196/197; gas EIP-1108) as contracts for both instruction
sets, built from the generic tower over the BN254 description.

``bn254_add`` (ECADD, 0x06)
    128 bytes: two G1 points x‖y (shorter input is zero-padded, longer ignored); output
    their sum, 64 bytes. (0, 0) is the point at infinity.
``bn254_mul`` (ECMUL, 0x07)
    96 bytes: a G1 point and a 256-bit scalar (any value); output the product, 64 bytes.
``bn254_pairing_check`` (ECPAIRING, 0x08)
    k x 192 bytes: G1 x‖y, then G2 x_im‖x_re‖y_im‖y_re; output a 32-byte word, 1 if the
    product of the pairings is one (also for empty input), else 0.
``bn254_pairing_check_hinted``
    the same input, then a hint (:mod:`.hinted`): the same answer without a final
    exponentiation.

Invalid input (a value >= p, a point off its curve, a G2 point outside the order-r
subgroup, a pairing input whose length is not a multiple of 192) is the precompile's error:
the contract REVERTs with empty output. Build with ``build_contract(name, target=...)``
("evm384" or "evmmax") and run with ``execute(..., opcodes=target)``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Dict, Optional, Tuple

from ..asm import Fp12, G1, G1Jacobian, G2, Label, Program
from ..curves.bn254 import BN254
from ..ec.glv_multiply import multiply
from ..ec.groups import add, affine_view, set_infinity
from ..tower import fp, jacobian
from ..tower.compare import push_equal
from ..asm.failure import HALT, REVERT
from ..tower.contract import fail_here, least_gas_that_fits, return_word_or_fail
from ..tower.families import twist_frobenius
from ..tower.fp import Emitter
from ..tower.lines import PROJECTIVE
from ..tower.pairing import FinalExponentiation, MillerLoop
from ..tower.residue import push_accepted
from ..tower.target import Target
from . import hinted
from .io import (G1_BYTES, G1_GROUP, G2_GROUP, PAIR_BYTES, constant, g1_offsets, g2_offsets,
                 load_values, on_stack, plus, push_words_zero, return_words)


def load_g1(e: Emitter, point: G1Jacobian, calldata_offset: int, fail: Label) -> None:
    """The G1 point at ``calldata_offset`` into the Jacobian ``point``: Z = 1, or Z = 0
    for (0, 0); a value >= p or a point off the curve jumps to ``fail``."""
    asm = e.asm
    offsets = g1_offsets(e, constant(e, calldata_offset))
    xy = affine_view(point, G1_GROUP)
    load_values(e, xy, offsets, fail)
    infinity, done = asm.new_label("g1_infinity"), asm.new_label("g1_loaded")
    push_words_zero(e, offsets)
    asm.jumpi(infinity)
    G1_GROUP.require_on_curve(e, xy, fail)
    fp.copy(e, point.z, e.one)
    asm.jump(done)
    asm.place(infinity)
    set_infinity(e, point)
    asm.place(done)


def return_affine(e: Emitter, point: G1Jacobian) -> None:
    """RETURN the Jacobian ``point`` as x‖y (infinity, Z = 0: the inverse 0 gives (0, 0));
    the inversion inline where the target's code is dense."""
    with e.asm.temps(G1) as (affine,):
        jacobian.to_affine(e, fp, affine, point,
                           fp.inverse_inline if e.target.dense_code else None)
        return_words(e, affine)


def _build_add(e: Emitter) -> None:
    fail = e.asm.new_label("invalid_input")
    region = e.asm.memory.region("points")
    a, b = region.alloc(G1Jacobian, "a"), region.alloc(G1Jacobian, "b")
    load_g1(e, a, 0, fail)
    load_g1(e, b, G1_BYTES, fail)
    add(e, G1_GROUP, a, b, lambda: jacobian.jacobian_dbl(e, fp, a), t_may_be_infinity=True)
    return_affine(e, a)
    fail_here(e, fail)


def _build_mul(e: Emitter) -> None:
    fail = e.asm.new_label("invalid_input")
    point = e.asm.memory.region("points").alloc(G1Jacobian, "p")
    load_g1(e, point, 0, fail)
    product = multiply(e, point, G1_BYTES)
    return_affine(e, product)
    fail_here(e, fail)


def load_pairs(e: Emitter, loop: MillerLoop, fail: Label, calldata_tail: int = 0) -> None:
    """Decode and validate every pair: a pair with Q at infinity is dropped (after P is
    validated), one with P at infinity kept (px2 = 0) for the G2 subgroup test."""
    work = loop.work

    def read(skip: Label) -> None:                # stack: ptr cd
        asm = e.asm
        cd = on_stack(e)                           # the pair's calldata offset
        g1, g2 = g1_offsets(e, cd), g2_offsets(e, plus(e, cd, G1_BYTES))
        load_values(e, work.px2, g1, fail)
        load_values(e, work.q, g2, fail)
        g1_done = asm.new_label("g1_infinity")
        push_words_zero(e, g1)
        asm.jumpi(g1_done)
        G1_GROUP.require_on_curve(e, work.px2, fail)
        asm.place(g1_done)
        push_words_zero(e, g2)
        asm.jumpi(skip)
        G2_GROUP.require_on_curve(e, work.q, fail)
    loop.load(pair_bytes=PAIR_BYTES, read=read, allow_empty=True)


def check_g2_subgroup(e: Emitter, loop: MillerLoop, fail: Label) -> None:
    """After the Miller loop and its closing lines every pair state's T is
    [6x + 2] Q + psi(Q) - psi^2(Q), which is -psi^3(Q) exactly for Q in the order-r
    subgroup (El Housni, Guillevic and Piellard's criterion holds on all of E'(Fp2):
    E'(Fp2) is cyclic and the endomorphism 6x + 2 + psi - psi^2 + psi^3 vanishes on no
    point of order dividing the cofactor 2p - r; checked in tests/test_bn254_contracts.py)."""
    def check() -> None:                          # -psi^3 as -psi(psi^2): constants shared
        with e.asm.temps(G2, G2) as (psi2, expect):   # with the closing lines
            twist_frobenius(e, psi2, loop.work.q, 2)
            twist_frobenius(e, expect, psi2, 1, negate=True)
            loop.lines.require_is(e, loop.work.t, expect, fail)
    loop.check_each_pair(check)


def _push_is_one(e: Emitter, f: Fp12) -> None:
    push_equal(e, e.const(Fp12, "fp12_one", [1] + [0] * 11), f)


def _build_pairing_check(e: Emitter) -> None:
    fail = e.asm.new_label("invalid_input")
    f = e.asm.memory.region("result").alloc(Fp12, "f")
    loop = MillerLoop(e, f, g1_may_be_infinity=True, infinity_flags=True,
                      resident_all_finite=True, square_in_step=True, lines=PROJECTIVE,
                      hybrid=True)
    load_pairs(e, loop, fail)
    loop.emit()
    check_g2_subgroup(e, loop, fail)
    # Room for the Miller loop's fastest steps (two pairs in registers, also beside the
    # memory loop for k > 2: ~22,000 gas less at k = 3 and 4): the easy part's inverse
    # through the shared Fp6 product (~1.4 KB less code, ~560 gas more). The powers by x
    # keep a and a^3 where the loop's values were (x's width-3 NAF: 6 products less each).
    FinalExponentiation(e, shared_inverse=True, powers=loop.spent(Fp12, 2)).emit(f)
    return_word_or_fail(e, lambda: _push_is_one(e, f), fail)


def _build_pairing_check_hinted(e: Emitter) -> None:
    fail = e.asm.new_label("invalid_input")
    f = e.asm.memory.region("result").alloc(Fp12, "f")
    loop = MillerLoop(e, f, g1_may_be_infinity=True, calldata_tail=hinted.HINT_BYTES,
                      infinity_flags=True, resident_all_finite=True, square_in_step=True,
                      lines=PROJECTIVE, hybrid=True)
    load_pairs(e, loop, fail)
    hint = hinted.read_hint(e, fail)
    loop.emit(cinv=hint.t)
    check_g2_subgroup(e, loop, fail)
    return_word_or_fail(e, lambda: push_accepted(e, f, hint.t), fail)


BUILDERS: Dict[str, Callable[[Emitter], None]] = {
    "bn254_add": _build_add,
    "bn254_mul": _build_mul,
    "bn254_pairing_check": _build_pairing_check,
    "bn254_pairing_check_hinted": _build_pairing_check_hinted,
}
CONTRACTS = tuple(BUILDERS)
TARGETS_OF: Dict[str, Tuple[str, ...]] = {name: ("evm384", "evmmax", "evm") for name in CONTRACTS}
# The precompiles' interfaces fail as ECADD, ECMUL and ECPAIRING do (an exceptional halt);
# the hinted check, which no precompile defines, REVERTs.
FAILURE_OF = {name: REVERT if name == "bn254_pairing_check_hinted" else HALT
              for name in CONTRACTS}


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled contract ``name`` (one of CONTRACTS) for a resolved target;
    ``compact`` as for the BLS12-381 contracts (None: the target's)."""
    return _build(name, isa.compact if compact is None else compact, isa)


@lru_cache(maxsize=None)
def _build(name: str, compact: bool, isa: Target) -> Program:
    return least_gas_that_fits(name, BN254, isa, BUILDERS[name], compact,
                               failure=FAILURE_OF[name])
