"""The python engine's unhinted two-pairing check against pyblst in batches (issue 25):
each round runs every contender ``--batch`` times in a row, in turn, in one process, so
that a run-to-run state of the engine shows as batch medians apart while the machine's
load shows in pyblst's batches of the same rounds too.

    python bench/python_engine_batches.py                 # 12 rounds of 15 calls each
    python bench/python_engine_batches.py --rounds 20 --batch 15 --control

Printed per round: each contender's batch median and the python engine's ratio to pyblst's
median of the same round; then per contender the spread of its batch medians (largest
over smallest) and the ratio's min and median over the rounds. ``--control`` adds a
pure-Python loop of fixed work (no engine, no native code): its batches move only with
the machine.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import interleaved  # noqa: E402  (bench/interleaved.py)
from peers import PEER_CHECKS  # noqa: E402  (bench/peers.py)

from evm384_native import execute  # noqa: E402
from evm384_native.bls12_381 import build_contract, encode_calldata  # noqa: E402
from evm384_native.bls12_381.oracle import encode_pairs, random_product_case  # noqa: E402

CHECK, BLST, PYTHON = "pairing_product_is_one", "pyblst", "python engine"


def _control() -> bool:
    """Fixed pure-Python work of about a python engine run (dict, list and int ops)."""
    table, stack = {}, []
    for i in range(12_000):
        stack.append(i * 3 + 1)
        table[i & 255] = stack.pop() ^ i
    return len(table) == 256


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--batch", type=int, default=15)
    parser.add_argument("--control", action="store_true", help="add a pure-Python loop")
    args = parser.parse_args()
    # the same instance as bench/test_bench_pairing.py's two-pairing check (seed k = 2)
    pairs = tuple(random_product_case(random.Random(2), 2, True))
    code = build_contract(CHECK)
    calldata = encode_calldata(CHECK, encode_pairs(pairs))
    runs = {PYTHON: lambda: int.from_bytes(execute(code, calldata, engine="python",
                                                   schedule="update5-A").output, "big") == 1,
            BLST: PEER_CHECKS[BLST](pairs)}
    if args.control:
        runs["pure-Python control"] = _control
    one_round, batches = interleaved.in_batches(runs, args.batch)
    for run in runs.values():   # warm-up: decoding, caches
        assert run() is True
    for number in range(args.rounds):
        one_round()
        medians = {label: statistics.median(rounds[-1]) for label, rounds in batches.items()}
        print(f"round {number:2d}: " + ", ".join(f"{label} {median * 1e3:.2f} ms"
                                                 for label, median in medians.items())
              + f"; ratio {medians[PYTHON] / medians[BLST]:.2f}x", flush=True)
    rows = interleaved.batch_summary(batches, BLST)
    for label, row in rows.items():
        low, high = min(row["batch medians"]), max(row["batch medians"])
        print(f"{label}: batch medians {low * 1e3:.2f}-{high * 1e3:.2f} ms (spread "
              f"{row['spread']:.2f}x); ratio to {BLST} min {row['min ratio']:.2f}x, "
              f"median {row['median ratio']:.2f}x")


if __name__ == "__main__":
    main()
