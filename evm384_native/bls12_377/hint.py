"""The prover of ``bls12_377_pairing_check_hinted``: the 288-byte hint t (c^-1 = 1 + t w)
for an EIP-2539 pairing input, computed by an EVM384 program
(:func:`evm384_native.tower.residue.emit_prover` over BLS12-377: c^-1 = f^E with
E = -(lambda^-1 mod N / 2), N = (p^6 + 1) / r, lambda = x - p:
:func:`..tower.families.quotient_exponent`) that runs on an engine. Meaningful only if the
product of the pairings is one; for any other input the check rejects whatever hint is
sent."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..asm import Assembler, Program, Slot
from ..asm.layout import FP_BYTES
from ..curves.bls12_377 import BLS12_377
from ..ec import eip2537_input
from ..ec.bls12_hinted import Hint
from ..tower import fp
from ..tower.contract import fail_here
from ..tower.fp import Emitter
from ..tower.residue import emit_prover, run_prover
from .points import PAIR_BYTES


def _write_out(e: Emitter, t: Slot, out: Slot) -> None:
    """t as 48-byte little-endian plain values (:func:`pairing_hint` reverses them)."""
    for value, source in zip(out.t.fps(), t.fps()):
        fp.from_montgomery(e, value, source)


@lru_cache(maxsize=None)
def build_prover() -> Program:
    """The prover program: calldata as ``bls12_377_pairing_check``'s, output the hint
    (invalid input REVERTs)."""
    asm = Assembler("bls12_377_pairing_hint")
    e = Emitter(asm, BLS12_377, compact=False)
    fail = asm.new_label("invalid_input")
    emit_prover(e, lambda loop: eip2537_input.load(e, loop, fail), Hint,
                lambda t, out: _write_out(e, t, out), g1_may_be_infinity=True)
    fail_here(e, fail)
    e.finish()
    return asm.assemble()


def pairing_hint(data: bytes, **execute_options: Any) -> bytes:
    """The hint for the ``bls12_377_pairing_check`` input ``data`` (k x 384 bytes); runs on
    the fast engine unless ``engine`` says otherwise. Invalid input: ValueError."""
    output = run_prover(build_prover().code, data, PAIR_BYTES, "bls12_377_pairing_check",
                        **execute_options)
    # the program's values are little-endian (EVM384 memory); the hint's big-endian
    return b"".join(output[i:i + FP_BYTES][::-1] for i in range(0, len(output), FP_BYTES))
