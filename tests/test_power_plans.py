"""The power plans of tower/fp.py (addition chains the contracts emit) against Python's pow:
each plan computes a^exponent, and so does it with only the kept values in registers of
their own (every other value in the one output register, as power_chain and
modn.inverse_products lay them out)."""
from __future__ import annotations

import random

import pytest

from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.tower.power_plans import kept_values, power_plan, window_plan

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
        for plan in (power_plan(exponent), window_plan(exponent, 5), window_plan(exponent, 3)):
            assert _evaluate(plan, base, modulus) == pow(base, exponent, modulus)


def test_the_inversion_mod_n_takes_the_shorter_plan():
    """modn.inverse_products' choice, in products (2 gas each under EIP-6690)."""
    lengths = {name: (len(power_plan(n - 2)), len(window_plan(n - 2, 5)))
               for name, n in (("secp256k1", SECP256K1.r), ("P-256", P256.r))}
    assert lengths == {"secp256k1": (297, 315), "P-256": (329, 309)}
