"""Arithmetic mod a second modulus (a curve's group order n, ECDSA's scalars) in EVMMAX
field context 1 beside the base field's context 0: SETMODX switches contexts by id (4
pushes and 1 gas), so one inversion mod n and its products cost what they would in a
contract of their own."""
from __future__ import annotations

from typing import Callable, Sequence

from ..asm import Slot
from .fp import Emitter, kept_values, power_plan, window_plan

WORD = 32
INV_WINDOW = 5                                      # a window's odd powers x .. x^31


def inverse_products(e: Emitter, n: int, words: Slot, push_x: Callable[[], None],
                     factors: Sequence[Callable[[], None]]) -> None:
    """Stack: -> f_1 w, .., f_k w mod n (the last on top) for w = x^-1 = x^(n-2) (Fermat,
    n prime; the shorter of :func:`.fp.power_plan`'s chain and a sliding window):
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
    # context 1 registers: 0 x, 1 .. k the factors, then the plan's kept values, the power
    plan = min(power_plan(n - 2), window_plan(n - 2, INV_WINDOW), key=len)
    kept = kept_values(plan)
    where = {0: 0, **{value: k + 1 + i for i, value in enumerate(kept)}}
    acc = k + 1 + len(kept)
    asm.push(acc + 2)                              # alloc_count (the EIP's bound: one more)
    asm.push(WORD)
    asm.push(at(0))
    asm.push(1)
    asm.evmmax_op("SETMODX")
    asm.push(k + 1)
    asm.push(at(1))
    asm.push(0)
    asm.evmmax_op("STOREX")
    for value, x, y in plan:
        asm.evmmax("MULMODX", where.get(value, acc), where.get(x, acc), where.get(y, acc))
    asm.evmmax("MULMODX", 1, 1, acc, k, (1, 1, 0))    # f_i w, in the factors' registers
    asm.push(k)
    asm.push(1)
    asm.push(at(k + 2))
    asm.evmmax_op("LOADX")
    for _ in range(4):
        asm.push(0)
    asm.evmmax_op("SETMODX")                       # back to context 0 (mod p)
    for i in range(k):
        asm.push(at(k + 2 + i))
        asm.op("MLOAD")
