"""The table of bench/README.md's EIP-2537 section from test_bench_eip2537.py's JSON: per
operation, the contract's facts (bytecode, EVM384 ops, gas under the three schedules), the
precompile's gas, and median times (fast engine, pyblst, arkworks) from the same run. For
the MSMs pyblst's column is k separate scalar multiplications (pyblst has no MSM), not blst's
Pippenger: bench/eip2537_msm_time.py times that.

    python bench/eip2537_table.py bench/results/eip2537.json
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Dict, List

from report import format_time, label, median          # bench/report.py

from evm384_native.evm.gas import SCHEDULES

FAST, BLST, ARKWORKS = "EVM384, fast engine", "pyblst", "py_arkworks_bls12381"


def table(benchmarks: List[dict]) -> str:
    groups: Dict[str, Dict[str, dict]] = defaultdict(dict)
    for bench in benchmarks:
        groups[bench["group"]][label(bench)] = bench
    gas_columns = " / ".join(SCHEDULES)
    lines = [f"| operation | bytecode | EVM384 ops | gas {gas_columns} | precompile gas | "
             "update5-A / precompile | fast engine | pyblst (MSM: k scalar_mul) | "
             "fast / pyblst | arkworks |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for group, entries in groups.items():
        fast, blst, ark = entries[FAST], entries[BLST], entries[ARKWORKS]
        info = fast["extra_info"]
        gas = " / ".join(f"{info[f'gas {s}']:,}" for s in SCHEDULES)
        lines.append(
            f"| {group} | {info['bytecode_bytes']:,} B | {info['evm384_ops']:,} | {gas} | "
            f"{info['precompile_gas']:,} | {info['gas update5-A'] / info['precompile_gas']:.1f}x | "
            f"{format_time(median(fast))} | {format_time(median(blst))} | "
            f"{median(fast) / median(blst):.1f}x | {format_time(median(ark))} |")
    return "\n".join(lines)


def main(argv: List[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        print(table(json.load(f)["benchmarks"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
