"""The BLS12-381 contracts' builders: each contract's code from the tower's generators, and
the targets each is built for (:data:`TARGETS_OF`). Their calldata is :mod:`.calldata`'s, the
Python API that runs them :mod:`.api`'s, the family record :mod:`.family`'s.

Calldata and returndata (all field values 48 bytes; k >= 1 pairs). A calldata length that
does not fit (not a positive multiple of 288, or not 576) makes the contract REVERT. A pair
whose G1 or G2 point is all zeros (the point at infinity, as in EIP-2537) contributes 1 and
is skipped. Points are otherwise NOT validated (on curve, in the subgroup): callers must.

``miller_loop``, ``pairing``, ``pairing_product_is_one``
    k pairs of 288 bytes: G1 x‖y then G2 x.c0‖x.c1‖y.c0‖y.c1, each value little-endian
    and NOT in Montgomery form (the contract converts). ``pairing`` is the same code with
    one pair.
``final_exponentiation``
    576 bytes: an Fp12 in blst's memory layout (Montgomery form, LE, tower order).
``eip2537_pairing_check``
    the EIP-2537 pairing-check input (k x 384 bytes, 64-byte big-endian field elements),
    fully validated like the precompile: invalid input REVERTs (:mod:`.eip2537`).
``pairing_check_hinted``, ``eip2537_pairing_check_hinted``
    the input of ``pairing_product_is_one`` or ``eip2537_pairing_check``, then a 288-byte
    hint (t, with c^-1 = 1 + t w, :mod:`..ec.bls12_hinted`; :func:`.hint.pairing_hint` computes it): the same
    answer without a final exponentiation. A hint value >= p REVERTs.
``eip2537_g1add``, ``eip2537_g2add``, ``eip2537_g1msm``, ``eip2537_g2msm``,
``eip2537_map_fp_to_g1``, ``eip2537_map_fp2_to_g2``
    the other EIP-2537 precompiles: their input, their output, invalid input REVERTs
    (:mod:`.eip2537_ops`).
``eip2537_g1add_hinted``, ``eip2537_g2add_hinted`` (EVMMAX only)
    the addition precompiles' input, then the slope of the line through the points
    (48 / 96 bytes: :func:`.add_hint.add_hint` computes it); their output; invalid input
    or a wrong hint REVERTs (:mod:`.hinted_add`).

``miller_loop``, ``pairing`` and ``final_exponentiation`` return an Fp12 in blst's memory
layout (576 bytes), directly comparable with blst's (chia_rs ``bytes(GTElement)``).
``pairing_product_is_one``, ``eip2537_pairing_check`` and the hinted checks return a
32-byte word: 1 if the product of the k pairings is one, else 0 (for the hinted checks: 0
also if the hint is wrong).

The pairing checks and the other EIP-2537 precompiles (:data:`TARGETS_OF`) are built for
EVMMAX (EIP-6690) too: ``build_contract(name, target="evmmax")``, run with
``opcodes="evmmax"``; the same calldata, answers and REVERTs (:mod:`.target`), but for raw
values of p or more given to the unvalidated contracts above: outside their interface (the
EVM384 build reduces such a value, the EVMMAX build halts at the STOREX that meets it).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Dict, Optional, Tuple

from ..asm import Fp12, Program
from ..asm.failure import HALT, REVERT
from ..curves.bls12_381 import BLS12_381
from ..tower.compare import push_equal
from ..tower.control import require_calldata
from ..tower.fp import Emitter
from ..tower.contract import least_gas_that_fits, return_slot, return_word, return_word_or_fail
from ..tower.pairing import FinalExponentiation, MillerLoop
from ..tower.target import Target
from ..ec import bls12_hinted as hinted
from ..ec import eip2537_input as eip2537
from . import eip2537_ops, hinted_add
from .calldata import GT_BYTES


def _miller_loop_contract(e: Emitter, f: Fp12) -> None:
    loop = MillerLoop(e, f)
    loop.load()
    loop.emit()


def _build_miller_loop(e: Emitter, f: Fp12) -> None:
    _miller_loop_contract(e, f)
    return_slot(e.asm, f)


def _build_final_exponentiation(e: Emitter, f: Fp12) -> None:
    asm = e.asm
    require_calldata(asm, 0, GT_BYTES)
    asm.push(GT_BYTES); asm.push(0); asm.push(f); asm.op("CALLDATACOPY")
    FinalExponentiation(e).emit(f)
    return_slot(asm, f)


def _build_pairing(e: Emitter, f: Fp12) -> None:
    _miller_loop_contract(e, f)
    FinalExponentiation(e).emit(f)
    return_slot(e.asm, f)


def _build_pairing_product_is_one(e: Emitter, f: Fp12) -> None:
    _miller_loop_contract(e, f)
    FinalExponentiation(e).emit(f)
    _return_is_one(e, f)


def _build_eip2537_pairing_check(e: Emitter, f: Fp12) -> None:
    return_word_or_fail(e, lambda: _push_is_one(e, f), eip2537.emit(e, f))


def _build_pairing_check_hinted(e: Emitter, f: Fp12) -> None:
    fail, push_answer = hinted.emit(e, f)
    return_word_or_fail(e, push_answer, fail)


def _build_eip2537_pairing_check_hinted(e: Emitter, f: Fp12) -> None:
    fail, push_answer = hinted.emit(e, f, validate=True)
    return_word_or_fail(e, push_answer, fail)


def _push_is_one(e: Emitter, f: Fp12) -> None:
    push_equal(e, e.const(Fp12, "fp12_one", [1] + [0] * 11), f)


def _return_is_one(e: Emitter, f: Fp12) -> None:
    """Return a 32-byte word: 1 if f is one, else 0."""
    return_word(e, lambda: _push_is_one(e, f))


_BUILDERS: Dict[str, Callable[[Emitter, Fp12], None]] = {
    "miller_loop": _build_miller_loop,
    "final_exponentiation": _build_final_exponentiation,
    "pairing": _build_pairing,
    "pairing_product_is_one": _build_pairing_product_is_one,
    "eip2537_pairing_check": _build_eip2537_pairing_check,
    "pairing_check_hinted": _build_pairing_check_hinted,
    "eip2537_pairing_check_hinted": _build_eip2537_pairing_check_hinted,
}
# EIP-2537's other precompiles (no Fp12 result slot)
_PRECOMPILE_BUILDERS: Dict[str, Callable[[Emitter], None]] = eip2537_ops.BUILDERS
# Built with run-time loops instead of unrolled call sequences: validation code would not
# fit the 24,576-byte limit otherwise.
_LOOPED = frozenset({"eip2537_pairing_check"})

ALL = ("evm384", "evmmax", "evm")
# Each contract and the targets it is built for: the pairing checks and the other EIP-2537
# precompiles for EVMMAX (EIP-6690) as well; the hinted additions for EVMMAX only.
TARGETS_OF: Dict[str, Tuple[str, ...]] = {
    "miller_loop": ("evm384",), "final_exponentiation": ("evm384",), "pairing": ("evm384",),
    "pairing_product_is_one": ALL, "eip2537_pairing_check": ALL,
    "pairing_check_hinted": ALL, "eip2537_pairing_check_hinted": ALL,
    **{name: ALL for name in _PRECOMPILE_BUILDERS},
    **{name: ("evmmax",) for name in hinted_add.CONTRACTS},
}
assert set(TARGETS_OF) == set(_BUILDERS) | set(_PRECOMPILE_BUILDERS) | set(hinted_add.CONTRACTS)
CONTRACTS = tuple(TARGETS_OF)
# EIP-2537's interfaces fail as its precompiles do (an exceptional halt); the others, which
# no precompile defines, REVERT.
FAILURE_OF = {name: HALT if name == "eip2537_pairing_check" or name in _PRECOMPILE_BUILDERS
              else REVERT for name in CONTRACTS}
EVMMAX_PAIRING_CHECKS = tuple(name for name in _BUILDERS if "evmmax" in TARGETS_OF[name])


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled contract for a target it is built for (:data:`TARGETS_OF`; the
    family, :mod:`.family`, checks that), with its source map and memory layout.

    ``compact`` shares code between cold routines so that every contract fits the
    24,576-byte limit; ``compact=False`` inlines them: about 3% less gas, about 31 KB under
    EVM384. None is the target's choice (EVM384 compact, EVMMAX inlined). Where the
    target keeps pair states in registers, the build is the first of
    :data:`~evm384_native.tower.pairing.RESIDENT_CODE` (least gas first) that fits the limit.
    The hinted additions are laid out by hand: no compact choice.
    """
    if name in hinted_add.CONTRACTS:
        return _hinted_add(name)
    isa = isa.for_field(BLS12_381)
    return _assembled(name, isa.compact if compact is None else compact, isa)


@lru_cache(maxsize=None)
def _hinted_add(name: str) -> Program:
    return hinted_add.build_program(name)


@lru_cache(maxsize=None)
def _assembled(name: str, compact: bool, isa: Target) -> Program:
    return least_gas_that_fits(name, BLS12_381, isa, lambda e: _build(name, e), compact,
                               loops=name in _LOOPED,
                               inline_powers=name in _PRECOMPILE_BUILDERS,
                               failure=FAILURE_OF[name])


def _build(name: str, e: Emitter) -> None:
    if name in _PRECOMPILE_BUILDERS:
        _PRECOMPILE_BUILDERS[name](e)
    else:
        _BUILDERS[name](e, e.asm.memory.region("result").alloc(Fp12, "f"))
