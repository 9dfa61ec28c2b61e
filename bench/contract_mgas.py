"""Every contract's build on every target at its cost model (EIP-6690 for EVMMAX, update5-A
for EVM384 and EVM768, mainnet's for plain EVM), Mgas/s on the fast engine net of an empty
call's time: the rows of ``evm384 price`` without its fits (issue 44's 100 Mgas/s line).
``--warm NAME:TARGET ...`` times those builds warm instead: each alternating with an empty
call of its target, the fewest ns of each over the calls (what a loop over one contract sees).

    python bench/contract_mgas.py [--repeat N] [--json FILE]
    python bench/contract_mgas.py --warm bn254_add:evmmax modexp:evm [--calls N]
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import time
from typing import List

from evm384_native.contracts import USAGE, build_contract
from evm384_native.evm.api import execute
from evm384_native.evm.costs import COST_MODELS
from evm384_native.evm.gas import SCHEDULES
from evm384_native.pricing.anchor import Anchor, throughput
from evm384_native.pricing.measure import RUN_GAS
from evm384_native.pricing.report import (EMPTY_CALL, MAINNET, _model_options, contract_rows,
                                          net_ns)

MODELS = {"evmmax": {"eip-6690": COST_MODELS["eip-6690"]},
          "evm384": {"update5-A": SCHEDULES["update5-A"]},
          "evm": {MAINNET: None}}
ANCHOR = Anchor(10.0)


def _line(name: str, target: str, gas: int, net_ns: float) -> str:
    rate = throughput(gas, net_ns)
    mark = "*" if rate < ANCHOR.mgas_per_s else " "
    return f"{mark} {name:32} {target:7} {gas:>12,} gas {net_ns / 1e3:>11.2f} us {rate:>8.1f} Mgas/s"


def warm(builds: List[str], calls: int) -> None:
    gc.disable()
    for build in builds:
        name, target = build.split(":")
        code, usage = build_contract(name, target=target), USAGE[name]
        data = usage.example(random.Random(1), usage.example_k, True)
        model = MODELS.get(target, MODELS["evm384"])   # EVM768: EVM384's schedules
        (priced,) = model.values()
        options = _model_options(target, priced)
        gas = execute(code, data, engine="fast", opcodes=target, gas=RUN_GAS, **options).gas_used
        best = {"contract": float("inf"), "empty": float("inf")}
        for _ in range(calls):
            for label, (c, d) in (("contract", (code, data)), ("empty", (EMPTY_CALL, b""))):
                start = time.perf_counter_ns()
                execute(c, d, engine="fast", opcodes=target, gas=RUN_GAS)
                best[label] = min(best[label], time.perf_counter_ns() - start)
        print(_line(name, target, gas, max(best["contract"] - best["empty"], 1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="rounds (minimum kept)")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--warm", nargs="+", metavar="NAME:TARGET", help="these builds, warm")
    parser.add_argument("--calls", type=int, default=400, help="--warm: calls of each")
    args = parser.parse_args()
    if args.warm:
        warm(args.warm, args.calls)
        return
    rows = contract_rows(["fast"], MODELS, ANCHOR, args.repeat)
    for row in sorted(rows, key=lambda r: next(iter(r["mgas_per_s"].values()))["fast"]):
        (gas,) = row["gas"].values()
        print(_line(row["contract"], row["target"], gas,
                    net_ns(row["ns"]["fast"], row["call_ns"]["fast"])))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
