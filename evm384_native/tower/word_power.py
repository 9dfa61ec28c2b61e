"""x^e mod m for a constant exponent in plain EVM words, as one run of stack code: the
cheapest form this instruction set allows (the plain-EVM target's inversions,
:meth:`.target_words.Words.power_inline`; MODEXP's written-out chains,
:mod:`..modexp.chains`).

Left-to-right sliding windows (:func:`.power_plans.sliding_window`). The odd powers x, x^3, ..
x^(2^w - 1) stay on the stack under the accumulator, so a multiplication is ``DUPn MULMOD``
as a squaring is ``DUP1 MULMOD``; every MULMOD consumes its modulus, so each run of steps
first pushes one copy of m per step and swaps the accumulator above them: a squaring or a
multiplication costs 14 gas (DUP 3, MULMOD 8, its copy of m 3), a run one SWAP more. DUP16's
reach bounds a run to 15 - (odd powers) steps; the window width is the one with the least
gas (:func:`power_gas`). A power plan's chain (:func:`plan_ops`: :func:`.power_plans.power_plan`'s,
whose long runs of ones are one multiplication each by a^(2^L - 1)) is written the same
way, its values read again kept on the stack; :func:`emit_word_power` takes the cheaper.
"""
from __future__ import annotations

import itertools
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..asm import Assembler
from .power_plans import power_plan, sliding_window

REACH = 16                      # DUP16, SWAP16
SQUARE = 0                      # a step of :func:`window_steps` that squares
STEP_GAS = 3 + 8 + 3            # DUP, MULMOD, the copy of m it consumes
POWER_GAS = 3 + 3 + 3 + 8 + 3   # an odd power: DUP m, DUP x^2, DUP the last, MULMOD, SWAP1


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


OP_GAS = {"MULMOD": 8, "MOD": 5, "POP": 2}      # and 3 for DUPn, SWAPn


def op_gas(ops: Sequence[str]) -> int:
    """The gas of an op list."""
    return sum(OP_GAS.get(op, 3) for op in ops)


def plan_ops(steps: Sequence[Tuple[int, int, int]]) -> Optional[Tuple[List[str], int]]:
    """A power plan (:func:`.power_plans.power_plan`'s steps (out, x, y): value out = x y, value 0
    the base) as ops on [x, m]: the op list, ending where the result is on top, and how
    many values are under it then (m's copy included); None if its values outgrow DUP16.

    The last step's value (the accumulator) is on top; a value a later step reads again
    stays under it (``kept``, the newest on top; a copy taken, DUP1, of an accumulator
    still to be read), m at the bottom. A run of steps that multiply the accumulator by
    itself or a kept value first puts one copy of m per step under it, as
    :func:`emit_word_power`'s windows do (14 gas a step, a SWAP a run); a step that does
    not read the accumulator multiplies copies of its operands (a dead accumulator
    popped first)."""
    last_read: Dict[int, int] = {}
    for index, (_, x, y) in enumerate(steps):
        last_read[x] = last_read[y] = index
    ops: List[str] = []
    kept: List[int] = [0]                          # [x, m]: no accumulator yet
    acc: Optional[int] = None
    left = 0                                       # copies of m under the accumulator

    def later(value: Optional[int], index: int) -> bool:
        """Whether a step after ``index`` reads ``value``."""
        return value is not None and last_read.get(value, -1) > index

    def in_run(index: int, previous: int) -> bool:
        """Whether step ``index`` multiplies the accumulator ``previous`` with nothing
        to keep first."""
        _, x, y = steps[index]
        return previous in (x, y) and not later(previous, index)

    for index, (value, x, y) in enumerate(steps):
        if acc is not None and acc in (x, y):
            if later(acc, index):                  # a run ended before this step
                ops.append("DUP1")
                kept.insert(0, acc)
            if left == 0:
                run = 1
                while (index + run < len(steps)
                       and in_run(index + run, steps[index + run - 1][0])):
                    run += 1
                run = min(run, REACH - 1 - len(kept))
                if run < 1:
                    return None
                ops.append(f"DUP{len(kept) + 2}")
                ops += ["DUP1"] * (run - 1)
                ops.append(f"SWAP{run}")
                left = run
            other = y if x == acc else x
            ops.append("DUP1" if other == acc else f"DUP{1 + left + kept.index(other) + 1}")
            ops.append("MULMOD")
            left -= 1
        else:
            if acc is not None:
                if later(acc, index):
                    kept.insert(0, acc)
                else:
                    ops.append("POP")
            if len(kept) + 1 > REACH - 2:
                return None
            ops.append(f"DUP{len(kept) + 1}")
            ops.append(f"DUP{kept.index(y) + 2}")
            ops.append(f"DUP{kept.index(x) + 3}")
            ops.append("MULMOD")
        acc = value
    assert left == 0                               # a run ends where a step needs more
    return ops, len(kept) + 1


def window_ops(exponent: int) -> Tuple[List[str], int]:
    """The sliding window's ops on [x, m] (:func:`best_width`'s width), as
    :func:`plan_ops` gives a plan's: ending with the result on top, and how many values
    are under it (the odd powers, m)."""
    width = best_width(exponent)
    count = 1 << (width - 1)                        # odd powers x^1 .. x^(2 count - 1)
    first, steps = window_steps(exponent, width)
    ops: List[str] = []
    if exponent == 1:                               # else the result comes out of a MULMOD
        ops += ["DUP2", "SWAP1", "MOD"]             # [x mod m, m]
    if count > 1:
        ops += ["DUP2", "DUP2", "DUP1", "MULMOD"]   # [x^2, x, m]
        for built in range(1, count):               # [x^2, x^(2 built - 1), .., x, m]
            ops += [f"DUP{built + 2}", "DUP2", "DUP4", "MULMOD", "SWAP1"]
        ops.append("POP")                           # [x^(2 count - 1), .., x^3, x, m]

    def depth(odd: int, above: int) -> int:         # of x^odd under ``above`` values
        return above + (2 * count - 1 - odd) // 2 + 1
    ops.append(f"DUP{depth(first, 0)}")             # [acc, powers, m]
    run = _run_length(width)
    for at in range(0, len(steps), run):
        chunk = steps[at:at + run]
        ops.append(f"DUP{count + 2}")
        ops += ["DUP1"] * (len(chunk) - 1)
        ops.append(f"SWAP{len(chunk)}")             # [acc, m x len(chunk), powers, m]
        for left, odd in zip(range(len(chunk), 0, -1), chunk):
            ops += ["DUP1" if odd == SQUARE else f"DUP{depth(odd, 1 + left)}", "MULMOD"]
    return ops, count + 1


def emit_word_power(asm: Assembler, exponent: int,
                    take_result: Optional[Callable[[], None]] = None) -> None:
    """[x, m] -> [x^exponent mod m] (exponent >= 1; any x < 2^256, m > 0); with
    ``take_result``, that consumes the result from the top of [x^e mod m, ..] instead (a
    SWAP less) and the stack ends as it began without x and m. The cheaper of the sliding
    window (:func:`window_ops`) and :func:`.power_plans.power_plan`'s chains (:func:`plan_ops`,
    where long runs of ones are one multiplication each: secp256k1's p - 2 and (p + 1) / 4,
    the top halves of the ECDSA orders), each width 2 to 5, with or without reuse, its
    runs' x_L made greedily or by the fewest steps (the values kept on the stack, and so
    the gas, differ: the fewest steps are not always the least gas)."""
    if exponent < 1:
        raise ValueError("the exponent must be at least 1")
    candidates = [window_ops(exponent)]
    for width, reuse, shortest in itertools.product(range(2, 6) if exponent >= 2 else (),
                                                    (False, True), (False, True)):
        plan = plan_ops(power_plan(exponent, width, reuse, shortest))
        if plan is not None:
            candidates.append(plan)
    ops, under = min(candidates, key=lambda c: op_gas(c[0]) + 3 * c[1])
    with asm.scope("word_power"):
        asm.ops(*ops)
        if take_result is None:
            asm.op(f"SWAP{under}")
        else:
            take_result()
        asm.ops(*["POP"] * under)
