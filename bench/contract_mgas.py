"""Every contract's build on every target at its cost model (EIP-6690 for EVMMAX, update5-A
for EVM384 and EVM768, mainnet's for plain EVM), Mgas/s on the fast engine net of an empty
call's time: the rows of ``evm384 price`` without its fits (issue 44's 100 Mgas/s line).

    python bench/contract_mgas.py [--repeat N] [--json FILE]
"""
from __future__ import annotations

import argparse
import json

from evm384_native.evm.costs import COST_MODELS
from evm384_native.evm.gas import SCHEDULES
from evm384_native.pricing.anchor import Anchor
from evm384_native.pricing.report import MAINNET, contract_rows

MODELS = {"evmmax": {"eip-6690": COST_MODELS["eip-6690"]},
          "evm384": {"update5-A": SCHEDULES["update5-A"]},
          "evm": {MAINNET: None}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="rounds (minimum kept)")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    anchor = Anchor(10.0)
    rows = contract_rows(["fast"], MODELS, anchor, args.repeat)
    for row in sorted(rows, key=lambda r: next(iter(r["mgas_per_s"].values()))["fast"]):
        (label, gas), = row["gas"].items()
        rate = row["mgas_per_s"][label]["fast"]
        net = row["ns"]["fast"] - row["call_ns"]["fast"]
        mark = "*" if rate < anchor.mgas_per_s else " "
        print(f"{mark} {row['contract']:32} {row['target']:7} {gas:>12,} gas {net / 1e3:>11.1f} us"
              f" {rate:>8.1f} Mgas/s")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
