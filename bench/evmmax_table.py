"""EVMMAX beside EVM384 (issue 14): gas and time of the k-pair check for k = 1..8.

    python bench/evmmax_table.py                   # both checks, k = 1..8, a markdown table
    python bench/evmmax_table.py --k 2 --runs 5 --out bench/results/evmmax.md

Per contract (pairing_product_is_one, eip2537_pairing_check) and k: the EVM384 build's gas
under the three EVM384 schedules and its time on the fast engine; the EVMMAX build's gas
(EIP-6690's tables, and EIP-7747's: ``evm.costs``) and time on ``--engine`` (default fast);
the EIP-2537 precompile's price (32,600 k + 37,700); what a transaction pays to call the
EVMMAX build (EIP-6690) and the precompile with its own input (execution + calldata +
access, ``evm.transaction.call_cost``); pyblst's time for the same check. Times are the minimum of
``--runs`` runs; every run's answer is checked against pyblst. k = 1 uses a false
relation (one finite pair cannot multiply to one), k >= 2 a true one.
"""
from __future__ import annotations

import argparse
import random
import sys
import timeit
from typing import Callable, List

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import (blst_check, blst_points_of, eip2537_input,
                                            encode_pairs, random_product_case)
from evm384_native.bls12_381.usage import USAGE
from evm384_native.evm.gas import SCHEDULES
from evm384_native.evm.transaction import call_cost

CONTRACTS = ("pairing_product_is_one", "eip2537_pairing_check")
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)


def precompile_gas(k: int) -> int:
    return 32_600 * k + 37_700


def best_time(run: Callable[[], object], runs: int) -> float:
    return min(timeit.repeat(run, number=1, repeat=runs))


def measure(name: str, k: int, runs: int, engine: str) -> list:
    pairs = random_product_case(random.Random(6690 + k), k, k >= 2)
    data = eip2537_input(pairs) if name.startswith("eip2537") else encode_pairs(pairs)
    calldata = encode_calldata(name, data)
    points = blst_points_of(pairs)
    expected = ONE if blst_check(points) else ZERO

    def checked(code: bytes, **options) -> Callable[[], object]:
        def run() -> object:
            result = execute(code, calldata, **options)
            if not (result.success and result.output == expected):
                raise SystemExit(f"{name}, k = {k}, {options}: wrong answer ({result.error})")
            return result
        return run

    evm384 = build_contract(name)
    gas384 = [checked(evm384, engine="fast", schedule=s)().gas_used for s in SCHEDULES]
    time384 = best_time(checked(evm384, engine="fast"), runs)
    evmmax = build_contract(name, target="evmmax")
    run_max = checked(evmmax, engine=engine, opcodes="evmmax")
    gasmax = run_max().gas_used
    gas7747 = checked(evmmax, engine=engine, opcodes="evmmax", costs="eip-7747")().gas_used
    timemax = best_time(run_max, runs)
    time_blst = best_time(lambda: blst_check(points), runs)
    usage = USAGE[name]
    ours = call_cost(gasmax, calldata).total
    theirs = call_cost(precompile_gas(k), usage.precompile_input(calldata), precompile=True).total
    return [k, *gas384, gasmax, gas7747, precompile_gas(k), ours, theirs, time384 * 1e3,
            timemax * 1e3, time_blst * 1e3]


def table(name: str, rows: List[list], engine: str) -> str:
    header = (["k"] + [f"EVM384 gas {s}" for s in SCHEDULES] +
              ["EVMMAX gas", "EVMMAX gas eip-7747", "precompile gas", "EVMMAX call total",
               "precompile call total", "EVM384 ms (fast)", f"EVMMAX ms ({engine})",
               "pyblst ms"])
    lines = [f"### {name}", "", "| " + " | ".join(header) + " |",
             "|" + "---:|" * len(header)]
    for row in rows:
        cells = [f"{v:,}" if isinstance(v, int) else f"{v:.2f}" for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=list(range(1, 9)))
    parser.add_argument("--contract", choices=CONTRACTS, nargs="+", default=list(CONTRACTS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engine", choices=("fast", "python"), default="fast",
                        help="the engine EVMMAX runs on (default fast)")
    parser.add_argument("--out", help="write the tables to this file too")
    args = parser.parse_args(argv)
    text = ""
    for name in args.contract:
        rows = [measure(name, k, args.runs, args.engine) for k in args.k]
        text += table(name, rows, args.engine) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as out:
            out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
