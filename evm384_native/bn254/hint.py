"""The prover of ``bn254_pairing_check_hinted``: the 192-byte hint t (c^-1 = 1 + t w) for a
pairing input, computed by an EVM384 program (:func:`evm384_native.tower.residue.emit_prover`
over BN254: c^-1 = f^E with E = -(lambda^-1 mod (p^6 + 1) / r), five base-p digits) that
runs on an engine. Meaningful only if the product of the pairings is one; for any other
input the check rejects whatever hint is sent."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..asm import Assembler, Program, raw
from ..curves.bn254 import BN254
from ..tower.contract import fail_here
from ..tower.fp import Emitter
from ..tower.residue import emit_prover, run_prover
from .contracts import load_pairs
from .hinted import HINT_BYTES
from .io import PAIR_BYTES


@lru_cache(maxsize=None)
def build_prover() -> Program:
    """The prover program: calldata as ``bn254_pairing_check``'s, output the hint (invalid
    input REVERTs)."""
    asm = Assembler("bn254_pairing_hint")
    e = Emitter(asm, BN254, compact=False)
    fail = asm.new_label("invalid_input")
    emit_prover(e, lambda loop: load_pairs(e, loop, fail), raw(HINT_BYTES),
                lambda t, out: e.target.words_out(e, t, out), g1_may_be_infinity=True)
    fail_here(e, fail)
    e.finish()
    return asm.assemble()


def pairing_hint(data: bytes, **execute_options: Any) -> bytes:
    """The hint for the ``bn254_pairing_check`` input ``data`` (k x 192 bytes); runs on the
    fast engine unless ``engine`` says otherwise. Invalid input: ValueError."""
    return run_prover(build_prover().code, data, PAIR_BYTES, "bn254_pairing_check",
                      **execute_options)
