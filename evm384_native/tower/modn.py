"""Arithmetic mod a second modulus (a curve's group order n, ECDSA's scalars) beside the
base field's: an inversion mod n and its products, written by the target
(:meth:`~.target.Target.products_mod`: under EVMMAX in field context 1, SETMODX switching
contexts by id for 4 pushes and 1 gas; in plain EVM as stack code mod n)."""
from __future__ import annotations

from typing import Callable, Sequence

from ..asm import Slot
from .fp import Emitter
from .power_plans import power_plan, window_plan

WORD = 32
INV_WINDOW = 5                                      # a window's odd powers x .. x^31


def inverse_products(e: Emitter, n: int, words: Slot, push_x: Callable[[], None],
                     factors: Sequence[Callable[[], None]]) -> None:
    """Stack: -> f_1 w, .., f_k w mod n (the last on top) for w = x^-1 = x^(n-2) (Fermat,
    n prime; the shorter of :func:`.power_plans.power_plan`'s chain and a sliding window):
    ``push_x`` pushes x in [1, n), each of ``factors`` pushes an f_i < n. ``words``: memory of 2k + 2 words (n, x, the factors,
    then the products). Context 0 is active again after."""
    asm, k = e.asm, len(factors)
    at = lambda i: (lambda: int(words) + WORD * i)   # noqa: E731
    if words.size < WORD * (2 * k + 2):
        raise ValueError(f"{k} factors need {2 * k + 2} words of memory")
    asm.push(n)
    asm.push(at(0))
    asm.op("MSTORE")
    for i, push in enumerate([push_x, *factors]):
        push()
        asm.push(at(1 + i))
        asm.op("MSTORE")
    plan = min(power_plan(n - 2), window_plan(n - 2, INV_WINDOW), key=len)
    e.target.products_mod(e, words, k, plan)
    for i in range(k):
        asm.push(at(k + 2 + i))
        asm.op("MLOAD")
