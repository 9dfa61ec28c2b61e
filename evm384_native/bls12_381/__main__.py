"""The main job: the EVM384 two-pairing check on fresh random points, beside blst.

    python -m evm384_native.bls12_381 [--pairs K] [--seed S] [--runs N] [--profile]
                                      [--contract eip2537_pairing_check] [--gas N]

Runs ``pairing_product_is_one`` (or ``--contract eip2537_pairing_check``, the same check
with EIP-2537's input encoding and full validation) on a random instance whose product is
one and on one whose product is not, prints the contract's answers, blst's answers, EVM384
op counts, gas under the three schedules and time (the best of ``--runs`` after an untimed
warm-up run: :func:`best_time`); then the same for its hinted variant
(``pairing_check_hinted``, ``eip2537_pairing_check_hinted``: no final exponentiation, a hint
computed by the caller with ``pairing_hint``, whose time is printed too). Every run has the
gas limit it prints (``--gas``, by default enough for the pairs: :func:`job_gas`); a run
that fails is shown as failed, not with a gas cost, and the job exits 1. Needs only the
package (blst is pyblst, a dependency).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Callable, Tuple

from .. import execute
from ..cli.gas_limit import add_gas_argument, failure_text
from ..evm.api import ENGINES
from ..evm.gas import SCHEDULES
from ..evm.transaction import CallCost, call_cost
from ..tower.contract import CONTRACT_SIZE_LIMIT
from . import build_contract, build_program, encode_calldata
from .hint import pairing_hint
from ..ec.bls12_hinted import HINT_BYTES
from .oracle import (blst_check, blst_points_of, blst_product_is_one, eip2537_input,
                     encode_pairs, random_product_case)
from .usage import USAGE

EVM384_OPS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")
# The original EVM384 two-pairing check, EVM384 Update 4's bytecode from the EVMcurves
# repository (the project's seed; shared/docs/evm384-spec.md §5), for two pairs
REFERENCE = {"evm384_ops": 108_381, "steps": 249_528, "bytes": 60_230,
             "gas": {"evmone-v7": 1_647_745, "update5-A": 733_651}}
REFERENCE_NAME = "EVMcurves"      # how the job's lines name it, said once (REFERENCE_LEGEND)
REFERENCE_LEGEND = (f"{REFERENCE_NAME}: the original EVM384 two-pairing check (EVM384 Update "
                    "4's bytecode from the EVMcurves repository; inputs hard-coded, no "
                    "validation), whose figures follow its name in parentheses")
HINTED = {"pairing_product_is_one": "pairing_check_hinted",
          "eip2537_pairing_check": "eip2537_pairing_check_hinted"}


def job_gas(pairs: int) -> int:
    """The default gas limit of every run of the job: enough for each check on ``pairs``
    pairs under every schedule; evmone-v7 (the most expensive) charges the validated
    check ~0.8M plus ~0.36M a pair (the product check ~0.29M a pair)."""
    return 2_000_000 + 500_000 * pairs


def best_time(run: Callable[[], object], runs: int) -> float:
    """The best time of ``runs`` calls of ``run``, after one untimed call: a contract's
    first run pays for the analysis of its code (the fast engine's takes several times
    the check itself), which later runs find cached."""
    run()
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def _report(name: str, instances: list, args: argparse.Namespace, blst_time: float,
            original_is: str = REFERENCE_NAME) -> Tuple[bool, bytes]:
    """Run contract ``name`` on every (true, pairs, calldata) instance, print its answers
    beside blst's, then its costs and times (of the last instance), each beside the
    original EVM384 check's (named ``original_is``). A run that fails (out of gas at
    ``args.gas``, a revert, a halt) is shown as failed, never with its gas used (the
    limit) as a cost. Returns whether every run succeeded with the right answer, and the
    last calldata."""
    program = build_program(name)
    print(f"contract {name}: {len(program.code):,} bytes "
          f"(limit {CONTRACT_SIZE_LIMIT:,}; {original_is} {REFERENCE['bytes']:,})")
    ok = True
    for true, pairs, calldata in instances:
        results = {schedule: execute(program.code, calldata, gas=args.gas, schedule=schedule)
                   for schedule in SCHEDULES}
        failed = [schedule for schedule, res in results.items() if not res.success]
        answered = results["update5-A"]
        answer = int.from_bytes(answered.output, "big") == 1 if answered.success else None
        blst = blst_product_is_one(*zip(*pairs))
        ok &= not failed and answer == blst == true
        print(f"  instance built to be {'one' if true else 'not one'}: "
              f"EVM384 says {'nothing' if answer is None else answer}, blst says {blst}"
              + (f"; runs that failed: {', '.join(failed)}" if failed else ""))

    result = results["update5-A"]

    def original(value: object) -> str:      # the original's numbers are for two pairs
        return f" ({original_is} {value:,})" if value and args.pairs == 2 else ""
    if result.success:
        counts = {op: result.opcode_counts.get(op, 0) for op in EVM384_OPS}
        print("EVM384 ops: " + ", ".join(f"{op} {n:,}" for op, n in counts.items())
              + f"; total {sum(counts.values()):,}" + original(REFERENCE["evm384_ops"]))
        print(f"instructions: {result.steps:,}" + original(REFERENCE["steps"]))
    for schedule, res in results.items():
        shown = (f"{res.gas_used:>10,}" + original(REFERENCE["gas"].get(schedule)) if res.success
                 else f"failed: {failure_text(res.error, args.gas)}")
        print(f"gas {schedule:<10} {shown}")
    ok &= _print_transaction_gas(name, calldata, args.gas)
    print(f"blst (pyblst, points decoded beforehand): {1e3 * blst_time:.2f} ms per check")
    if not result.success:          # a failed run's time is not the check's
        print("EVM384 contract: not timed, its update5-A run failed")
        return ok, calldata
    for engine in ENGINES:
        took = best_time(lambda: execute(program.code, calldata, gas=args.gas,
                                          schedule="update5-A", engine=engine), args.runs)
        print(f"EVM384 contract, {engine:>6} engine: {1e3 * took:6.2f} ms per check "
              f"({took / blst_time:.2f}x blst; best of {args.runs} after a warm-up run)")
    return ok, calldata


def _print_transaction_gas(name: str, calldata: bytes, gas: int) -> bool:
    """What a transaction pays to call the EVMMAX build (execution, calldata by EIP-2028,
    the cold account access of EIP-2929; :mod:`..evm.transaction`), beside the precompile
    called with its own input for the same job under the same rules. Returns whether the
    EVMMAX build's run (gas limit ``gas``) succeeded."""
    result = execute(build_contract(name, target="evmmax"), calldata, gas=gas,
                     opcodes="evmmax", engine="fast")
    if not result.success:
        print(f"as a transaction pays it (EVMMAX build, EIP-6690 tables): nothing shown, its "
              f"run failed: {failure_text(result.error, gas)}")
        return False
    usage = USAGE[name]
    its_input = usage.precompile_input(calldata)
    ours = call_cost(result.gas_used, calldata)
    theirs = call_cost(usage.precompile_gas(calldata), its_input, precompile=True)

    def parts(cost: CallCost, size: int) -> str:
        return (f"{cost.execution:,} + calldata {cost.calldata:,} ({size:,} B) + access "
                f"{cost.access:,} = {cost.total:,}")
    print(f"as a transaction pays it (EVMMAX build, EIP-6690 tables): {parts(ours, len(calldata))};"
          f" the precompile with its own input: {parts(theirs, len(its_input))}")
    return True


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def main(argv: list | None = None, prog: str = "python -m evm384_native.bls12_381",
         parser_class: type = argparse.ArgumentParser) -> int:
    """The job; ``prog`` and ``parser_class`` let a command line that wraps it name itself
    and report errors its way."""
    parser = parser_class(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=_at_least_one, default=2,
                        help="pairs per check (default 2)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: fresh)")
    parser.add_argument("--runs", type=_at_least_one, default=5,
                        help="timed runs, after one untimed warm-up run (default 5)")
    parser.add_argument("--contract", default="pairing_product_is_one",
                        choices=("pairing_product_is_one", "eip2537_pairing_check"),
                        help="the check to run (default pairing_product_is_one)")
    parser.add_argument("--profile", action="store_true",
                        help="also print EVM384 ops per routine (traced run, slower)")
    add_gas_argument(parser, None, "2,000,000 + 500,000 a pair: enough for every check")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    limit_is = "--gas"
    if args.gas is None:
        args.gas, limit_is = job_gas(args.pairs), "the default for the pairs, --gas sets one"

    name = args.contract
    fresh = "fresh " if args.seed is None else ""
    print(f"EVM384 pairing product check: {args.pairs} {fresh}random pairs (seed {seed}); "
          f"gas limit {args.gas:,} a run ({limit_is})")
    print(REFERENCE_LEGEND + ("" if args.pairs == 2 else " (its counts and gas: for two pairs, "
                                                          "so only its size here)"))
    # One finite pair never pairs to one, so k = 1 has only the "not one" instance.
    instances = [(true, random_product_case(rng, args.pairs, true))
                 for true in ((True, False) if args.pairs > 1 else (False,))]
    blst_points = blst_points_of(instances[-1][1])
    blst_time = best_time(lambda: blst_check(blst_points), args.runs)

    def calldata_of(pairs) -> bytes:
        return (eip2537_input(pairs) if name == "eip2537_pairing_check"
                else encode_calldata(name, encode_pairs(pairs)))

    ok, calldata = _report(name, [(true, pairs, calldata_of(pairs)) for true, pairs in instances],
                           args, blst_time)
    hinted = HINTED[name]
    hints = [pairing_hint(encode_pairs(pairs)) for _, pairs in instances]
    print(f"hinted variant: the caller computes the hint (t with c^-1 = 1 + t w, "
          f"{HINT_BYTES} bytes) with "
          f"pairing_hint on the fast engine, "
          f"{1e3 * best_time(lambda: pairing_hint(encode_pairs(instances[-1][1])), args.runs):.1f}"
          f" ms per hint; not included below")
    hinted_ok, _ = _report(hinted, [(true, pairs, calldata_of(pairs) + hint)
                                    for (true, pairs), hint in zip(instances, hints)],
                           args, blst_time, original_is=f"unhinted {REFERENCE_NAME}")
    ok &= hinted_ok

    if args.profile:
        from ..asm.profile import by_scope, report
        from ..evm.tracing import Profiler
        profiler = Profiler()
        program = build_program(name)
        traced = execute(program.code, calldata, gas=args.gas, schedule="update5-A",
                         tracer=profiler)
        if not traced.success:
            print(f"the traced run failed: {failure_text(traced.error, args.gas)}; what "
                  "follows counts the instructions it ran")
            ok = False
        print("EVM384 ops by routine:")
        print(report(by_scope(program, profiler.by_pc, depth=1, only=EVM384_OPS)))
        print("EVM384 ops by innermost code:")
        print(report(by_scope(program, profiler.by_pc, only=EVM384_OPS), limit=15))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
