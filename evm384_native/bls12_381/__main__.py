"""The main job: the EVM384 two-pairing check on fresh random points, beside blst.

    python -m evm384_native.bls12_381 [--pairs K] [--seed S] [--runs N] [--profile]
                                      [--contract eip2537_pairing_check]

Runs ``pairing_product_is_one`` (or ``--contract eip2537_pairing_check``, the same check
with EIP-2537's input encoding and full validation) on a random instance whose product is
one and on one whose product is not, prints the contract's answers, blst's answers, EVM384
op counts, gas under the three schedules and time. Needs the test extras (pyblst, chia_rs, py_ecc).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from .. import execute
from ..evm.api import ENGINES
from ..evm.gas import SCHEDULES
from .contracts import build_program, encode_calldata
from .oracle import (blst_check, blst_points_of, blst_product_is_one, eip2537_input,
                     encode_pairs, random_product_case)

EVM384_OPS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")
CONTRACT_SIZE_LIMIT = 24_576                       # EIP-170
# The original EVM384 two-pairing check (shared/docs/evm384-spec.md §5)
REFERENCE = {"evm384_ops": 108_381, "steps": 249_528, "bytes": 60_230,
             "gas": {"evmone-v7": 1_647_745, "update5-A": 733_651}}


def _best_time(run, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2, help="pairs per check (default 2)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--contract", default="pairing_product_is_one",
                        choices=("pairing_product_is_one", "eip2537_pairing_check"),
                        help="the check to run (default pairing_product_is_one)")
    parser.add_argument("--profile", action="store_true",
                        help="also print EVM384 ops per routine (traced run, slower)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)

    name = args.contract
    program = build_program(name)
    print(f"EVM384 pairing product check: {args.pairs} fresh random pairs (seed {seed})")
    print(f"contract {name}: {len(program.code):,} bytes "
          f"(limit {CONTRACT_SIZE_LIMIT:,}; original {REFERENCE['bytes']:,})")

    ok = True
    results = {}
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    # One finite pair never pairs to one, so k = 1 has only the "not one" instance.
    for true in (True, False) if args.pairs > 1 else (False,):
        pairs = random_product_case(rng, args.pairs, true)
        calldata = (eip2537_input(pairs) if name == "eip2537_pairing_check"
                    else encode_calldata(name, encode_pairs(pairs)))
        results = {schedule: execute(program.code, calldata, schedule=schedule)
                   for schedule in SCHEDULES}
        answer = int.from_bytes(results["update5-A"].output, "big") == 1
        blst = blst_product_is_one(*zip(*pairs))
        ok &= answer == blst == true
        print(f"  instance built to be {'one' if true else 'not one'}: "
              f"EVM384 says {answer}, blst says {blst}")

    result = results["update5-A"]
    counts = {op: result.opcode_counts.get(op, 0) for op in EVM384_OPS}

    def original(value: object) -> str:      # the original's numbers are for two pairs
        return f" (original {value:,})" if value and args.pairs == 2 else ""
    print("EVM384 ops: " + ", ".join(f"{op} {n:,}" for op, n in counts.items())
          + f"; total {sum(counts.values()):,}" + original(REFERENCE["evm384_ops"]))
    print(f"instructions: {result.steps:,}" + original(REFERENCE["steps"]))
    for schedule, res in results.items():
        print(f"gas {schedule:<10} {res.gas_used:>10,}" + original(REFERENCE["gas"].get(schedule)))

    blst_points = blst_points_of(pairs)
    blst_time = _best_time(lambda: blst_check(blst_points), args.runs)
    print(f"blst (pyblst, points decoded beforehand): {1e3 * blst_time:.2f} ms per check")
    for engine in ENGINES:
        took = _best_time(lambda: execute(program.code, calldata, schedule="update5-A",
                                          engine=engine), args.runs)
        print(f"EVM384 contract, {engine:>6} engine: {1e3 * took:6.2f} ms per check "
              f"({took / blst_time:.1f}x blst; best of {args.runs})")

    if args.profile:
        from ..asm.profile import by_scope, report
        from ..evm.tracing import Profiler
        profiler = Profiler()
        execute(program.code, calldata, schedule="update5-A", tracer=profiler)
        print("EVM384 ops by routine:")
        print(report(by_scope(program, profiler.by_pc, depth=1, only=EVM384_OPS)))
        print("EVM384 ops by innermost code:")
        print(report(by_scope(program, profiler.by_pc, only=EVM384_OPS), limit=15))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
