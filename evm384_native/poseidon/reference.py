"""Poseidon (circomlib's) in plain Python, straight from the definition: every round adds
its t round constants, applies x^5 to the whole state (full rounds: the first and last
four) or to state[0] (partial rounds), then multiplies by the MDS matrix; the hash of
inputs x_1..x_n is state[0] after the permutation of [0, x_1, .., x_n]. Written from the
original constants, not the optimised ones the contract uses: it is the tests' oracle."""
from __future__ import annotations

from typing import List, Sequence

from .params import R, ROUNDS_F, ROUNDS_P, original


def permutation(state: Sequence[int]) -> List[int]:
    """The Poseidon permutation of width len(state)."""
    t = len(state)
    constants = original(t)
    rounds_p = ROUNDS_P[t]
    state = [v % R for v in state]
    for r in range(ROUNDS_F + rounds_p):
        state = [(v + constants.c[r * t + i]) % R for i, v in enumerate(state)]
        full = r < ROUNDS_F // 2 or r >= ROUNDS_F // 2 + rounds_p
        state = [pow(v, 5, R) if full or i == 0 else v for i, v in enumerate(state)]
        state = [sum(m * v for m, v in zip(row, state)) % R for row in constants.m]
    return state


def poseidon(inputs: Sequence[int]) -> int:
    """circomlib's ``Poseidon(n)`` of ``inputs`` (1 to 5 field elements, each < r)."""
    if any(not 0 <= x < R for x in inputs):
        raise ValueError("Poseidon's inputs are field elements: 0 <= x < r")
    return permutation([0, *inputs])[0]
