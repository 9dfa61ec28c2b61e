"""Fixed exponents as straight-line code: the calls EIP-8200 found to be nearly all of
MODEXP's (SNARK verifiers' inversions, E = p - 2, and square roots, E = (p + 1) / 4,
modulo BN254's p and r), each as an addition chain written out once, at build time, so
that no bit of the exponent is read at run time; EIP-7823 proposes such paths for
frequently used moduli. The word path compares the modulus and the exponent with
:data:`KNOWN` and runs the chain where both match (a few dozen gas for any other call).

A chain is left-to-right sliding windows over the constant exponent: the odd powers
B^1, B^3, .. B^(2^w - 1) in memory, then squarings (``DUP1 MULMOD``) and one
multiplication by a power (``PUSH MLOAD MULMOD``) per window, with w chosen for the
least gas. As in :mod:`.small`, each MULMOD consumes a copy of M pushed under the
accumulator beforehand, up to sixteen at a time (SWAP16's reach).
"""
from __future__ import annotations

from typing import Dict, List, Tuple, Union

from ..asm import Assembler, Label
from ..curves.bn254 import BN254
from .layout import TABLE_AT, WORD

# (modulus, exponent) pairs with their own chain
KNOWN: Tuple[Tuple[int, int], ...] = (
    (BN254.p, BN254.p - 2), (BN254.p, (BN254.p + 1) // 4),
    (BN254.r, BN254.r - 2),
)
SQUARE = "square"
Step = Union[str, int]             # a squaring, or a multiplication by B^(odd)
RUN = 16                           # MULMODs per batch of copies of M
# gas of a squaring, a multiplication, an odd power of the table (with its M copy)
SQUARE_GAS, MULTIPLY_GAS, POWER_GAS = 3 + 8 + 3, 3 + 3 + 8 + 3, 3 + 3 + 3 + 8 + 3 + 3 + 3 + 3 + 2 + 3


def sliding_windows(exponent: int, width: int) -> Tuple[int, List[Step]]:
    """The first window's value and the steps after it for ``exponent`` > 0."""
    bits = bin(exponent)[2:]
    steps: List[Step] = []
    first = None
    i = 0
    while i < len(bits):
        if bits[i] == "0":
            steps.append(SQUARE)
            i += 1
            continue
        end = min(i + width, len(bits))
        while bits[end - 1] == "0":
            end -= 1
        value = int(bits[i:end], 2)
        if first is None:
            first = value
        else:
            steps += [SQUARE] * (end - i) + [value]
        i = end
    assert first is not None
    return first, steps


def _gas(exponent: int, width: int) -> int:
    _, steps = sliding_windows(exponent, width)
    return (sum(SQUARE_GAS if s == SQUARE else MULTIPLY_GAS for s in steps)
            + POWER_GAS * (1 << (width - 1)))


def best_width(exponent: int) -> int:
    return min(range(1, 8), key=lambda w: _gas(exponent, w))


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
    width = best_width(exponent)
    first, steps = sliding_windows(exponent, width)
    with asm.scope(f"chain_{exponent:x}"[:24]):
        asm.place(entry)
        _odd_powers(asm, 1 << (width - 1))                 # [e, M, Msize]
        asm.push(_offset(first))
        asm.op("MLOAD")                                    # [acc, e, M, Msize]
        for at in range(0, len(steps), RUN):
            run = steps[at:at + RUN]
            asm.op("DUP3")
            asm.ops(*["DUP1"] * (len(run) - 1))
            asm.op(f"SWAP{len(run)}")                      # [acc, M x len(run), e, ...]
            for step in run:
                if step == SQUARE:
                    asm.op("DUP1")
                else:
                    asm.push(_offset(step))
                    asm.op("MLOAD")
                asm.op("MULMOD")
        asm.ops("SWAP2", "POP", "POP")
        asm.jump(out)


def _offset(odd: int) -> int:
    return TABLE_AT + WORD * (odd >> 1)


def _odd_powers(asm: Assembler, count: int) -> None:
    """[b, e, M, Msize] -> [e, M, Msize] with B^(2i+1) mod M at ``_offset(2i + 1)``."""
    asm.ops("DUP3", "SWAP1", "MOD", "DUP1")               # [b1, b1, e, M, Msize]
    asm.push(_offset(1))
    asm.op("MSTORE")
    if count > 1:
        asm.ops("DUP3", "DUP2", "DUP1", "MULMOD")         # [b2, t = b1, e, M, Msize]
        for i in range(1, count):
            asm.ops("DUP4", "DUP2", "DUP4", "MULMOD", "DUP1")
            asm.push(_offset(2 * i + 1))
            asm.ops("MSTORE", "SWAP2", "POP")             # [b2, t, e, M, Msize]
        asm.op("POP")
    asm.op("POP")
