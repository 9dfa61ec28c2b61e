"""Turn pytest-benchmark JSON files into the Markdown tables of bench/README.md.

    python bench/report.py bench/results/kernel.json [more.json ...]

Each benchmark may set extra_info["ops_per_round"] (time is then also given
per operation). Within a group, ratios are to the fastest entry, or to the one
whose extra_info["baseline"] is true.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Dict, List


def _format_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _group_table(benchmarks: List[dict]) -> List[str]:
    baseline = next((b for b in benchmarks if b["extra_info"].get("baseline")),
                    min(benchmarks, key=lambda b: b["stats"]["median"]))
    lines = ["| benchmark | median per round | per op | ratio |", "|---|---:|---:|---:|"]
    for bench in sorted(benchmarks, key=lambda b: b["stats"]["median"]):
        median = bench["stats"]["median"]
        ops = bench["extra_info"].get("ops_per_round")
        per_op = _format_time(median / ops) if ops else ""
        ratio = median / baseline["stats"]["median"]
        lines.append(f"| {bench['name']} | {_format_time(median)} | {per_op} | {ratio:.2f}x |")
    return lines


def report(paths: List[str]) -> str:
    groups: Dict[str, List[dict]] = defaultdict(list)
    machine = None
    for path in paths:
        with open(path) as handle:
            data = json.load(handle)
        machine = machine or data.get("machine_info", {})
        for bench in data["benchmarks"]:
            groups[bench["group"] or bench["name"]].append(bench)
    out = []
    if machine:
        out.append(f"Machine: {machine.get('cpu', {}).get('brand_raw', '?')}, "
                   f"Python {machine.get('python_version', '?')}\n")
    for group, benchmarks in groups.items():
        out += [f"#### {group}", "", *_group_table(benchmarks), ""]
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(report(sys.argv[1:]))
