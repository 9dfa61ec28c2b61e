"""What a Montgomery square and product of 2048-bit numbers cost on plain EVM with
deferred carries (:mod:`evm384_native.modexp.deferred`, RSA-2048's squaring in the modexp
contract), each measured alone: the routine's gas over a harness that only moves data.

    python bench/modexp_deferred_carry.py          # gas and bytes of a square and a product

The harness copies the limbs of A, B and M and the word n' from call data to fixed
addresses, runs the columns, and returns (A B + Q M) / R as nine words (below 2 M for A,
B below M); tests/test_modexp_deferred_carry.py checks it against Python's integers.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import modexp_deferred_harness as dc  # noqa: E402  (tests/modexp_deferred_harness.py)


def main() -> None:
    rng = random.Random(1)
    m = rng.getrandbits(2048) | 1 << 2047 | 1
    a, b = rng.randrange(m), rng.randrange(m)
    for square in (True, False):
        value, gas = dc.run(a, b, m, square)
        assert value % m == a * (a if square else b) * pow(2, -dc.R_BITS, m) % m and value < 2 * m
        size = len(dc.harness(square)) - len(dc.harness(square, routine=False))
        print(f"{'square' if square else 'product'}: {gas:,} gas, {size:,} bytes")


if __name__ == "__main__":
    main()
