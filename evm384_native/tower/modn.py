"""Arithmetic mod a second modulus (a curve's group order n, ECDSA's scalars) in EVMMAX
field context 1 beside the base field's context 0: SETMODX switches contexts by id (4
pushes and 1 gas), so one inversion mod n and its products cost what they would in a
contract of their own."""
from __future__ import annotations

from typing import Callable, Sequence

from ..asm import Slot
from .fp import Emitter, sliding_window

WORD = 32
INV_WINDOW = 5                                      # x^(n-2): odd powers x .. x^31


def inverse_products(e: Emitter, n: int, words: Slot, push_x: Callable[[], None],
                     factors: Sequence[Callable[[], None]]) -> None:
    """Stack: -> f_1 w, .., f_k w mod n (the last on top) for w = x^-1 = x^(n-2) (Fermat,
    n prime; a left-to-right sliding window): ``push_x`` pushes x in [1, n), each of
    ``factors`` pushes an f_i < n. ``words``: memory of 2k + 2 words (n, x, the factors,
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
    # context 1 registers: 0 x, 1 .. k the factors, k + 1 x^2, then x^3, x^5, .., the power
    odd = 1 << (INV_WINDOW - 1)
    square, acc = k + 1, k + 1 + odd
    asm.push(acc + 2)                              # alloc_count (the EIP's bound: one more)
    asm.push(WORD)
    asm.push(at(0))
    asm.push(1)
    asm.evmmax_op("SETMODX")
    asm.push(k + 1)
    asm.push(at(1))
    asm.push(0)
    asm.evmmax_op("STOREX")
    power = {1: 0, **{2 * m + 1: square + m for m in range(1, odd)}}
    mul = lambda out, a, b: asm.evmmax("MULMODX", out, a, b)   # noqa: E731
    mul(square, 0, 0)
    for m in range(3, 2 * odd, 2):
        mul(power[m], power[m - 2], square)
    (_, first), *rest = sliding_window(n - 2, INV_WINDOW)
    asm.evmmax("ADDMODX", acc, power[first], acc, 1, (1, 1, 1))  # acc = 0 + x^first
    for count, m in rest:
        for _ in range(count):
            mul(acc, acc, acc)
        if m:
            mul(acc, acc, power[m])
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
