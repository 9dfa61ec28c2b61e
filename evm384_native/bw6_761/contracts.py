"""The BW6-761 contract (EIP-3026's curve), built from the k = 6 tower
(:mod:`..tower.fp3`, :mod:`..tower.fp6_over_fp3`, :mod:`..tower.pairing_k6`) over the curve
description (:mod:`..curves.bw6_761`).

``bw6_761_pairing_check`` (EIP-3026's BW6_PAIRING)
    k >= 1 pairs of 384 bytes: G1 (x, y) then G2 (x, y), each coordinate 96 bytes
    big-endian below p; an all-zero point is the point at infinity (its pair contributes
    1). Output: a 32-byte word, 1 if the product of the pairings is one, else 0.

``bw6_761_pairing_check_hinted``
    the same input, then a 288-byte hint (t, with c^-1 = 1 + t v: :mod:`.hinted`;
    :func:`.hint.pairing_hint` computes it): the same answer without a final
    exponentiation (0 also for a wrong hint; a hint value >= p REVERTs).

Where the precompile returns an error (length not a positive multiple of 384, a
coordinate >= p, a point not on its curve or not in the r-order subgroup) the contract
fails as the precompile would (an exceptional halt): :mod:`.pairing_input`. Built for
EVMMAX (twelve 64-bit limbs): ``build_contract(name, target="evmmax")``, run with
``execute(..., opcodes="evmmax")``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Dict, Optional, Tuple

from ..asm import Program
from ..asm.failure import HALT, REVERT
from ..curves.bw6_761 import BW6_761
from ..tower.contract import CONTRACT_SIZE_LIMIT, assemble, return_word_or_fail
from ..tower.fp import Emitter
from ..tower.fp6_over_fp3 import Fp6OverFp3
from ..tower.pairing_k6 import push_is_one
from ..tower.target import Target
from . import hinted, pairing_input


def _build_pairing_check(e: Emitter) -> None:
    f = e.asm.memory.region("result").alloc(Fp6OverFp3, "f")
    fail = pairing_input.emit(e, f)
    return_word_or_fail(e, lambda: push_is_one(e, f), fail)


def _build_pairing_check_hinted(e: Emitter) -> None:
    y = e.asm.memory.region("result").alloc(Fp6OverFp3, "y")
    fail = hinted.emit(e, y)
    return_word_or_fail(e, lambda: hinted.push_in_subfield(e, y), fail)


BUILDERS: Dict[str, Callable[[Emitter], None]] = {
    "bw6_761_pairing_check": _build_pairing_check,
    "bw6_761_pairing_check_hinted": _build_pairing_check_hinted,
}
CONTRACTS = tuple(BUILDERS)
TARGETS_OF: Dict[str, Tuple[str, ...]] = {
    "bw6_761_pairing_check": ("evmmax", "evm768"),
    "bw6_761_pairing_check_hinted": ("evmmax",),
}
# the hinted check, which no precompile defines, REVERTs
FAILURE_OF = {name: REVERT if name.endswith("_hinted") else HALT for name in CONTRACTS}


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled contract ``name`` (one of CONTRACTS) for a resolved target."""
    isa = isa.for_field(BW6_761)
    return _build(name, isa.compact if compact is None else compact, isa)


@lru_cache(maxsize=None)
def _build(name: str, compact: bool, isa: Target) -> Program:
    """The unrolled build if it fits EIP-170's limit (EVMMAX's), else the one with
    run-time loops (EVM768's: 18 bytes an operation)."""
    program = assemble(name, BW6_761, isa, BUILDERS[name], compact, failure=FAILURE_OF[name])
    if len(program.code) <= CONTRACT_SIZE_LIMIT:
        return program
    return assemble(name, BW6_761, isa, BUILDERS[name], compact, loops=True,
                    failure=FAILURE_OF[name])
