"""The power plans of tower/fp.py (addition chains the contracts emit) against Python's pow:
each plan computes a^exponent, and so does it with only the kept values in registers of
their own (every other value in the one output register, as power_chain and
modn.inverse_products lay them out)."""
from __future__ import annotations

import random

import pytest

from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.tower.power_plans import (greedy_ones_chain, kept_values, ones_chain,
                                              power_plan, window_plan)

MODULI = (SECP256K1.p, SECP256K1.r, P256.p, P256.r)


def _evaluate(steps, base, modulus):
    """The plan's last value with kept values in their own cells, the rest in one."""
    kept = set(kept_values(steps))
    cells = {0: base}
    out = None

    def read(v):
        if v in cells:
            return cells[v]
        return out[1] if out and out[0] == v else None
    for value, x, y in steps:
        a, b = read(x), read(y)
        assert a is not None and b is not None, "a value read after its register was reused"
        result = a * b % modulus
        if value in kept:
            cells[value] = result
        else:
            out = (value, result)
    return out[1]


@pytest.mark.parametrize("modulus", MODULI)
def test_plans_compute_the_power(modulus):
    rng = random.Random(modulus % 1000)
    exponents = [modulus - 2, (modulus + 1) // 4, 2, 3, 31, 1 << 40, (1 << 64) - 1,
                 *(rng.randrange(2, modulus) for _ in range(4))]
    for exponent in exponents:
        base = rng.randrange(2, modulus)
        for plan in (power_plan(exponent), power_plan(exponent, 2, shortest_runs=True),
                     power_plan(exponent, 4, True, True), window_plan(exponent, 5),
                     window_plan(exponent, 3)):
            assert _evaluate(plan, base, modulus) == pow(base, exponent, modulus)


def test_the_inversion_mod_n_takes_the_shorter_plan():
    """modn.inverse_products' choice, in products (2 gas each under EIP-6690)."""
    lengths = {name: (len(power_plan(n - 2)), len(window_plan(n - 2, 5)))
               for name, n in (("secp256k1", SECP256K1.r), ("P-256", P256.r))}
    assert lengths == {"secp256k1": (297, 315), "P-256": (329, 309)}


def _star_chain_length(targets, have):
    """The fewest steps of a star chain (each new length the last one plus a length made)
    from ``have`` through every target, by breadth-first search over the sets made."""
    start = frozenset(have)
    level, steps = {start}, 0
    while not any(targets <= made for made in level):
        level = {made | {max(made) + b} for made in level for b in made
                 if max(made) + b <= max(targets)}
        steps += 1
    return steps


def _made_by(steps, have):
    made = set(have)
    for a, b in steps:
        assert a in made and b in made, "a step reads a length not made yet"
        made.add(a + b)
    return made


@pytest.mark.parametrize("targets, have", [
    ({22, 223}, {1, 2}), ({127}, {1, 2}), ({127}, {1, 2, 3, 4, 5}), ({32}, {1, 2}),
    ({9, 13}, {1}), ({8, 11, 19}, {1, 2, 3}), ({10, 40}, {1, 2})])
def test_ones_chain_is_a_shortest_star_chain(targets, have):
    steps = ones_chain(targets, have)
    assert targets <= _made_by(steps, have)
    assert all(a == max(_made_by(steps[:i], have)) for i, (a, _) in enumerate(steps))
    greedy = greedy_ones_chain(targets, have)
    assert targets <= _made_by(greedy, have)
    if max(targets) <= 64:
        assert len(steps) == _star_chain_length(targets, have)
    assert len(steps) <= len(greedy)


def test_ones_chain_of_secp256k1s_p_runs_as_libsecp256k1s():
    """x2 .. x223 for p - 2 and (p + 1) / 4 (runs of 22 and 223 ones): libsecp256k1's
    field chain makes them in 10 products (3, 6, 9, 11, 22, 44, 88, 176, 220, 223)."""
    assert len(ones_chain({22, 223}, {1, 2})) == 10
    assert len(greedy_ones_chain({22, 223}, {1, 2})) == 11


def test_ones_chain_gives_up_to_the_greedy_chain_on_many_runs():
    targets = set(range(8, 400, 7))
    steps = ones_chain(targets, {1, 2})
    assert targets <= _made_by(steps, {1, 2})
    assert steps == greedy_ones_chain(targets, {1, 2})
