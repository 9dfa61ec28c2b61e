"""The BLS12-377 contracts (EIP-2539's curve) for both instruction sets, built from the
generic tower over the curve description (:mod:`..curves.bls12_377`).

``bls12_377_pairing_check`` (EIP-2539's BLS12_377_PAIRING, 0x1b)
    k >= 1 pairs of 384 bytes: G1 (x, y) then G2 (x.c0, x.c1, y.c0, y.c1), each Fp 64
    bytes big-endian whose top 16 bytes are zero and whose value is below p; an all-zero
    point is the point at infinity (its pair contributes 1). Output: a 32-byte word, 1 if
    the product of the pairings is one, else 0.
``bls12_377_pairing_check_hinted``
    the same input, then a 288-byte hint (t, with c^-1 = 1 + t w: :mod:`..ec.bls12_hinted`;
    :func:`.hint.pairing_hint` computes it): the same answer without a final
    exponentiation (0 also for a wrong hint; a hint value >= p REVERTs).

Where the precompile returns an error (length not a positive multiple of 384, non-zero
padding, a coordinate >= p, a point not on its curve or not in the r-order subgroup) the
contract REVERTs with empty output. The input pipeline is EIP-2537's, which EIP-2539
shares (:mod:`..ec.eip2537_input`: decoding, curve checks, Scott's subgroup tests over
this curve's x > 0 and D-type twist). Build with ``build_contract(name, target=...)``
("evm384": p has 377 bits, six limbs; or "evmmax") and run with ``execute(...,
opcodes=target)``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Dict, Optional, Tuple

from ..asm import Fp12, Program
from ..curves.bls12_377 import BLS12_377
from ..ec import bls12_hinted, eip2537_input
from ..tower.compare import push_equal
from ..asm.failure import HALT, REVERT
from ..tower.contract import least_gas_that_fits, return_word_or_fail
from ..tower.fp import Emitter
from ..tower.lines import PROJECTIVE
from ..tower.target import Target


# The Miller loop BN254's checks run (:class:`..tower.pairing.MillerLoop`): homogeneous
# projective lines, two finite pairs in registers with their steps untested, f squared in
# their doubling steps' subroutine. The hinted check also keeps them in registers beside
# the memory loop for more pairs (hybrid); the unhinted check does not (its build that
# fits 24,576 bytes shares the first pair's steps with the memory loop, and with hybrid
# its answers for k = 3 and 4 were wrong).
_G1_RUN = 8          # the G1 subgroup tests' doublings a call: ~1.3 KB less code for
                     # ~300 gas more, room for the faster builds of the rest
_LOOP = dict(lines=PROJECTIVE, infinity_flags=True, resident_all_finite=True,
             square_in_step=True)


def _build_pairing_check(e: Emitter) -> None:
    f = e.asm.memory.region("result").alloc(Fp12, "f")
    fail = eip2537_input.emit(e, f, shared_inverse=True, g1_run=_G1_RUN, **_LOOP)
    return_word_or_fail(e, lambda: push_equal(e, e.const(Fp12, "fp12_one", [1] + [0] * 11), f),
                          fail)


def _build_pairing_check_hinted(e: Emitter) -> None:
    f = e.asm.memory.region("result").alloc(Fp12, "f")
    fail, push_answer = bls12_hinted.emit(e, f, validate=True, g1_run=_G1_RUN, hybrid=True,
                                          **_LOOP)
    return_word_or_fail(e, push_answer, fail)


BUILDERS: Dict[str, Callable[[Emitter], None]] = {
    "bls12_377_pairing_check": _build_pairing_check,
    "bls12_377_pairing_check_hinted": _build_pairing_check_hinted,
}
CONTRACTS = tuple(BUILDERS)
TARGETS_OF: Dict[str, Tuple[str, ...]] = {name: ("evm384", "evmmax", "evm")
                                          for name in CONTRACTS}
# EIP-2539's pairing interface fails as its precompile would (an exceptional halt); the
# hinted check, which no precompile defines, REVERTs.
FAILURE_OF = {name: REVERT if name.endswith("_hinted") else HALT for name in CONTRACTS}


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled contract ``name`` (one of CONTRACTS) for a resolved target;
    ``compact`` as for the BLS12-381 contracts (None: the target's)."""
    isa = isa.for_field(BLS12_377)
    return _build(name, isa.compact if compact is None else compact, isa)


@lru_cache(maxsize=None)
def _build(name: str, compact: bool, isa: Target) -> Program:
    return least_gas_that_fits(name, BLS12_377, isa, BUILDERS[name], compact,
                               failure=FAILURE_OF[name])
