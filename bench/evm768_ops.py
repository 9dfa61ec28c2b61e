"""EVM768's ops against EVM384's on the fast engine, per op (with its PUSH16), in one
process: each program runs 20,000 PUSH16/op pairs of one op (evm384_native.pricing's
programs) and its time less the empty program's, divided by 20,000; every contender once
a round, in turn, minimum and median over the rounds. EVM384 runs
fused (its segments: the engines' default) and one instruction at a time, as EVM768 always
runs.

    python bench/evm768_ops.py [--rounds 15]
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable, Dict, List

from evm384_native.evm.api import run
from evm384_native.pricing.programs import evm384_calldata, evm384_program

OPS = 20_000
CONTENDERS = (("ADDMOD384", "evm384", True), ("ADDMOD384", "evm384", False),
              ("MULMODMONT384", "evm384", True), ("MULMODMONT384", "evm384", False),
              ("ADDMOD768", "evm768", False), ("SUBMOD768", "evm768", False),
              ("MULMODMONT768", "evm768", False))


def per_op_ns(name: str, opcodes: str, fuse: bool) -> Callable[[], float]:
    calldata = evm384_calldata(0, opcodes)
    full, empty = (evm384_program(amounts, calldata, opcodes) for amounts in ({name: OPS}, {}))

    def measure() -> float:
        start = time.perf_counter_ns()
        run(full.code, calldata, gas=10**12, engine="fast", opcodes=opcodes, fuse_evm384=fuse)
        middle = time.perf_counter_ns()
        run(empty.code, calldata, gas=10**12, engine="fast", opcodes=opcodes, fuse_evm384=fuse)
        return ((middle - start) - (time.perf_counter_ns() - middle)) / OPS
    return measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    runs = {f"{name} ({'fused' if fuse else 'one by one'})": per_op_ns(name, opcodes, fuse)
            for name, opcodes, fuse in CONTENDERS}
    times: Dict[str, List[float]] = {label: [] for label in runs}
    for _ in range(args.rounds + 1):                  # the first round decodes: not kept
        for label, measure in runs.items():
            times[label].append(measure())
    print("| op | min ns | median ns |\n|---|---:|---:|")
    for label, found in times.items():
        kept = found[1:]
        print(f"| {label} | {min(kept):.1f} | {statistics.median(kept):.1f} |")


if __name__ == "__main__":
    main()
