"""Fixed exponents as straight-line code: the calls EIP-8200 found to be nearly all of
MODEXP's (SNARK verifiers' inversions, E = p - 2, and square roots, E = (p + 1) / 4,
modulo BN254's p and r), each as one run of stack code written out at build time
(:func:`..tower.word_power.emit_word_power`), so that no bit of the exponent is read at
run time; EIP-7823 proposes such paths for frequently used moduli. The word path compares
the modulus and the exponent with :data:`KNOWN` and runs the chain where both match (a few
dozen gas for any other call).
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from ..asm import Assembler, Label
from ..curves.bn254 import BN254
from ..tower.word_power import emit_word_power

# (modulus, exponent) pairs with their own chain
KNOWN: Tuple[Tuple[int, int], ...] = (
    (BN254.p, BN254.p - 2), (BN254.p, (BN254.p + 1) // 4),
    (BN254.r, BN254.r - 2),
)


def emit_dispatch(asm: Assembler, chains: Dict[Tuple[int, int], Label], generic: Label) -> None:
    """[b, e, M, Msize]: to the chain of (M, e) where it has one (same stack), else on to
    ``generic``."""
    moduli: Dict[int, List[int]] = {}
    for modulus, exponent in chains:
        moduli.setdefault(modulus, []).append(exponent)
    labels = {m: asm.new_label("modexp_known_modulus") for m in moduli}
    for modulus, label in labels.items():
        asm.push(modulus)
        asm.ops("DUP4", "EQ")
        asm.jumpi(label)
    asm.jump(generic)
    for modulus, label in labels.items():
        asm.place(label)
        for exponent in moduli[modulus]:
            asm.push(exponent)
            asm.ops("DUP3", "EQ")
            asm.jumpi(chains[(modulus, exponent)])
        asm.jump(generic)


def emit_chain(asm: Assembler, exponent: int, entry: Label, out: Label) -> None:
    """[b, e, M, Msize] at ``entry`` -> [b^exponent mod M, Msize] at ``out``."""
    with asm.scope(f"chain_{exponent:x}"[:24]):
        asm.place(entry)
        asm.ops("DUP3", "DUP2")                            # [b, M, b, e, M, Msize]
        emit_word_power(asm, exponent)                     # [r, b, e, M, Msize]
        asm.ops("SWAP3", "POP", "POP", "POP")
        asm.jump(out)
