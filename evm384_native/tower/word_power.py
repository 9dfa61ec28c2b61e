"""x^e mod m for a constant exponent in plain EVM words, as one run of stack code: the
cheapest form this instruction set allows (the plain-EVM target's inversions,
:meth:`.target_words.Words.power_inline`; MODEXP's written-out chains,
:mod:`..modexp.chains`).

Left-to-right sliding windows (:func:`sliding_window`). The odd powers x, x^3, ..
x^(2^w - 1) stay on the stack under the accumulator, so a multiplication is ``DUPn MULMOD``
as a squaring is ``DUP1 MULMOD``; every MULMOD consumes its modulus, so each run of steps
first pushes one copy of m per step and swaps the accumulator above them: a squaring or a
multiplication costs 14 gas (DUP 3, MULMOD 8, its copy of m 3), a run one SWAP more. DUP16's
reach bounds a run to 15 - (odd powers) steps; the window width is the one with the least
gas (:func:`power_gas`).
"""
from __future__ import annotations

from typing import Callable, List, Optional, Tuple

from ..asm import Assembler

REACH = 16                      # DUP16, SWAP16
SQUARE = 0                      # a step of :func:`window_steps` that squares
STEP_GAS = 3 + 8 + 3            # DUP, MULMOD, the copy of m it consumes
POWER_GAS = 3 + 3 + 3 + 8 + 3   # an odd power: DUP m, DUP x^2, DUP the last, MULMOD, SWAP1


def sliding_window(exponent: int, width: int) -> List[Tuple[int, int]]:
    """Steps (squarings, odd multiplier) of a left-to-right sliding-window power.

    The first step's multiplier initialises the accumulator; a final multiplier 0 means
    "square only".
    """
    bits = bin(exponent)[2:]
    steps: List[Tuple[int, int]] = []
    i, pending = 0, 0
    while i < len(bits):
        if bits[i] == "0":
            pending += 1
            i += 1
            continue
        j = min(i + width, len(bits))
        while bits[j - 1] == "0":
            j -= 1
        steps.append((pending + (j - i), int(bits[i:j], 2)))
        pending, i = 0, j
    if pending:
        steps.append((pending, 0))
    return steps


def window_steps(exponent: int, width: int) -> Tuple[int, List[int]]:
    """The first window's odd power, then each step: SQUARE, or m for a multiplication by
    x^m (odd)."""
    (_, first), *rest = sliding_window(exponent, width)
    ops: List[int] = []
    for count, odd in rest:
        ops += [SQUARE] * count + ([odd] if odd else [])
    return first, ops


def _run_length(width: int) -> int:
    return REACH - 1 - (1 << (width - 1))


def power_gas(exponent: int, width: int) -> int:
    """The gas of :func:`emit_word_power`'s chain with windows of ``width`` bits (the
    steps, the odd powers and the SWAP of each run; not the few moves around them)."""
    _, ops = window_steps(exponent, width)
    runs = -(-len(ops) // _run_length(width))
    return STEP_GAS * len(ops) + POWER_GAS * ((1 << (width - 1)) - 1) + 3 * runs


def best_width(exponent: int) -> int:
    return min(range(1, 5), key=lambda width: power_gas(exponent, width))


def emit_word_power(asm: Assembler, exponent: int,
                    take_result: Optional[Callable[[], None]] = None) -> None:
    """[x, m] -> [x^exponent mod m] (exponent >= 1; any x < 2^256, m > 0); with
    ``take_result``, that consumes the result from the top of [x^e mod m, ..] instead (a
    SWAP less) and the stack ends as it began without x and m."""
    if exponent < 1:
        raise ValueError("the exponent must be at least 1")
    width = best_width(exponent)
    count = 1 << (width - 1)                        # odd powers x^1 .. x^(2 count - 1)
    first, ops = window_steps(exponent, width)
    with asm.scope("word_power"):
        if exponent == 1:                           # else the result comes out of a MULMOD
            asm.ops("DUP2", "SWAP1", "MOD")         # [x mod m, m]
        if count > 1:
            asm.ops("DUP2", "DUP2", "DUP1", "MULMOD")   # [x^2, x, m]
            for built in range(1, count):           # [x^2, x^(2 built - 1), .., x, m]
                asm.op(f"DUP{built + 2}")
                asm.ops("DUP2", "DUP4", "MULMOD", "SWAP1")
            asm.op("POP")                           # [x^(2 count - 1), .., x^3, x, m]

        def depth(odd: int, above: int) -> int:     # of x^odd under ``above`` values
            return above + (2 * count - 1 - odd) // 2 + 1
        asm.op(f"DUP{depth(first, 0)}")             # [acc, powers, m]
        run = _run_length(width)
        for at in range(0, len(ops), run):
            steps = ops[at:at + run]
            asm.op(f"DUP{count + 2}")
            asm.ops(*["DUP1"] * (len(steps) - 1))
            asm.op(f"SWAP{len(steps)}")             # [acc, m x len(steps), powers, m]
            for left, odd in zip(range(len(steps), 0, -1), steps):
                asm.op("DUP1" if odd == SQUARE else f"DUP{depth(odd, 1 + left)}")
                asm.op("MULMOD")
        if take_result is None:
            asm.op(f"SWAP{count + 1}")
        else:
            take_result()
        asm.ops(*["POP"] * (count + 1))
