"""Issue 48's plain-EVM ECDSA builds with their tests of Z once a segment
(evm384_native/ec/deferred.py): each contract's figure (the most gas over 20 random valid
inputs) and every degenerate input of tests/test_degenerate.py and
tests/test_deferred_tests.py (first exception in the lead, a turn, the last addition) with
its ratio to the figure:

    PYTHONPATH=. python bench/deferred_tests.py [ecrecover] [p256verify]
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_degenerate  # noqa: E402
import test_deferred_tests  # noqa: E402
from signature_runs import run  # noqa: E402

from evm384_native.contracts import build_contract  # noqa: E402

DEGENERATE = {"ecrecover": test_degenerate._k1_degenerate,
              "p256verify": test_degenerate._p256_degenerate}


def main(argv: list) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # No ``choices``: argparse checks an empty positional list against them and rejects it.
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="ecrecover, p256verify (default: both)")
    names = parser.parse_args(argv).names or list(DEGENERATE)
    unknown = sorted(set(names) - set(DEGENERATE))
    if unknown:
        parser.error(f"unknown contract {unknown[0]!r}: choose from {', '.join(sorted(DEGENERATE))}")
    for name in names:
        code = build_contract(name, target="evm")
        rng = random.Random(48)
        figure = max(run(code, test_deferred_tests.CASES[name](rng), target="evm").gas_used
                     for _ in range(20))
        inputs = [("degenerate: " + label, data)
                  for label, data in DEGENERATE[name](random.Random(7), "evm")]
        inputs += [("made: " + label, data)
                   for label, data in test_deferred_tests._made_inputs(name, random.Random(48))]
        print(f"{name}: {len(code):,} bytes, figure {figure:,} gas (most of 20 random inputs)")
        for label, data in inputs:
            gas = run(code, data, target="evm").gas_used
            print(f"  {gas:>9,} {gas / figure:6.3f}  {label[:70]}")


if __name__ == "__main__":
    main(sys.argv[1:])
