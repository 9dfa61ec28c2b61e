"""Minimum and median time of the unhinted two-pairing check (k = 2) on one engine, in this
process: for before/after comparisons of two checkouts, run alternately, e.g.

    for i in 1 2 3; do for tree in ../old .; do
        (cd $tree && python bench/check_time.py --engine fast); done; done

(each run imports the package of the checkout it starts in)."""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_bench_pairing import CHECK, _calldata  # noqa: E402

import evm384_native  # noqa: E402
from evm384_native import execute  # noqa: E402
from evm384_native.bls12_381 import build_contract  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=("fast", "python"), default="fast")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--warm-up", type=int, default=20)
    args = parser.parse_args()
    code, calldata = build_contract(CHECK), _calldata(CHECK, 2)

    def once() -> float:
        start = time.perf_counter()
        execute(code, calldata, engine=args.engine, schedule="update5-A")
        return time.perf_counter() - start
    for _ in range(args.warm_up):
        once()
    times = [once() for _ in range(args.calls)]
    print(f"{Path(evm384_native.__file__).parents[1]} {args.engine}: "
          f"min {min(times) * 1e6:.1f} us, median {statistics.median(times) * 1e6:.1f} us")


if __name__ == "__main__":
    main()
