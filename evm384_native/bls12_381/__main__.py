"""The main job: the EVM384 two-pairing check on fresh random points, beside blst.

    python -m evm384_native.bls12_381 [--pairs K] [--seed S] [--runs N] [--profile]

Runs ``pairing_product_is_one`` on a random instance whose product is one and on one whose
product is not, prints the contract's answers, blst's answers, EVM384 op counts, gas under
the three schedules and time. Needs the test extras (pyblst, chia_rs, py_ecc).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

from .. import execute
from ..evm.gas import SCHEDULES
from .contracts import build_program, encode_calldata
from .oracle import blst_product_is_one, encode_pairs, random_product_case

EVM384_OPS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")
CONTRACT_SIZE_LIMIT = 24_576                       # EIP-170
# The original EVM384 two-pairing check (shared/docs/evm384-spec.md §5)
REFERENCE = {"evm384_ops": 108_381, "steps": 249_528, "bytes": 60_230,
             "gas": {"evmone-v7": 1_647_745, "update5-A": 733_651}}


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=2, help="pairs per check (default 2)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--profile", action="store_true",
                        help="also print EVM384 ops per routine (traced run, slower)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)

    name = "pairing_product_is_one"
    program = build_program(name)
    print(f"EVM384 pairing product check: {args.pairs} fresh random pairs (seed {seed})")
    print(f"contract {name}: {len(program.code):,} bytes "
          f"(limit {CONTRACT_SIZE_LIMIT:,}; original {REFERENCE['bytes']:,})")

    ok = True
    results = {}
    for true in (True, False):
        pairs = random_product_case(rng, args.pairs, true)
        calldata = encode_calldata(name, encode_pairs(pairs))
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

    timings = []
    for _ in range(args.runs):
        start = time.perf_counter()
        execute(program.code, calldata, schedule="update5-A")
        timings.append(time.perf_counter() - start)
    blst_timings = []
    for _ in range(args.runs):
        start = time.perf_counter()
        blst_product_is_one(*zip(*pairs))
        blst_timings.append(time.perf_counter() - start)
    print(f"time per check: {1e3 * min(timings):.1f} ms (python engine, native backend; "
          f"best of {args.runs}); blst via pyblst incl. decoding: "
          f"{1e3 * min(blst_timings):.2f} ms")

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
