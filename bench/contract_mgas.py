"""Every contract's build on every target at its cost model (EIP-6690 for EVMMAX, update5-A
for EVM384 and EVM768, mainnet's for plain EVM), Mgas/s on the fast engine net of an empty
call's time: the rows of ``evm384 price`` without its fits (issue 44's 100 Mgas/s line). Each
time is a call's in a block of calls of the build (EIP-7904's slope over the count,
``pricing.measure.block_slopes``), and beside it the block's first call, cold after another
build's (net of an empty call timed after the same job).

    python bench/contract_mgas.py [--repeat N] [--json FILE]
"""
from __future__ import annotations

import argparse
import json

from evm384_native.evm.costs import COST_MODELS
from evm384_native.evm.gas import SCHEDULES
from evm384_native.pricing.anchor import Anchor, throughput
from evm384_native.pricing.report import MAINNET, contract_rows, net_ns

MODELS = {"evmmax": {"eip-6690": COST_MODELS["eip-6690"]},
          "evm384": {"update5-A": SCHEDULES["update5-A"]},
          "evm": {MAINNET: None}}
ANCHOR = Anchor(10.0)


def _line(row: dict) -> str:
    (gas,) = row["gas"].values()
    rates = [throughput(gas, net_ns(row[ns]["fast"], row[call]["fast"]))
             for ns, call in (("ns", "call_ns"), ("cold_ns", "cold_call_ns"))]
    marks = ["*" if rate < ANCHOR.mgas_per_s else " " for rate in rates]
    return (f"{row['contract']:32} {row['target']:7} {gas:>12,} gas "
            f"{row['ns']['fast'] / 1e3:>11.2f} us {rates[0]:>8.1f}{marks[0]} Mgas/s   "
            f"first call {row['cold_ns']['fast'] / 1e3:>11.2f} us {rates[1]:>8.1f}{marks[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="rounds (minimum kept)")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    rows = contract_rows(["fast"], MODELS, ANCHOR, args.repeat)
    for row in sorted(rows, key=lambda r: next(iter(r["mgas_per_s"].values()))["fast"]):
        print(_line(row))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
