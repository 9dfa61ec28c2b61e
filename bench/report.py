"""Turn pytest-benchmark JSON files into the Markdown tables of bench/README.md.

    python bench/report.py bench/results/kernel.json [more.json ...]

Each benchmark may set extra_info["ops_per_round"] (time is then also given per
operation) and extra_info["label"] (its name in the tables). Within a group, ratios are
to the fastest entry, or to the one whose extra_info["baseline"] is true.

Groups whose benchmarks carry extra_info["k"] (the k-pair checks of
test_bench_pairing.py) make one scaling table instead; a group whose benchmarks carry
extra_info["threads"] gets a throughput table (with extra_info["checks"],
"checks_per_second" and "cores_busy"); benchmarks with extra_info["contract"]
give a table of the contracts' sizes, op counts and gas (one row per contract, or per
contract and extra_info["pairs"] where given). A benchmark with extra_info["interleaved"]
(contenders timed in turn inside each round) gets a table of their minimum and median
times and ratios.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from typing import Dict, List, Tuple

from evm384_native.evm.gas import EVM384_NAMES, SCHEDULES


def format_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def label(bench: dict) -> str:
    return bench["extra_info"].get("label", bench["name"])


def median(bench: dict) -> float:
    return bench["stats"]["median"]


def baseline(benchmarks: List[dict]) -> dict:
    """The group's entry marked as baseline, else its fastest."""
    return next((b for b in benchmarks if b["extra_info"].get("baseline")),
                min(benchmarks, key=median))


def load(paths: List[str]) -> Tuple[dict, Dict[str, List[dict]]]:
    """The first file's machine_info (plus its datetime) and the benchmarks by group."""
    groups: Dict[str, List[dict]] = defaultdict(list)
    machine: dict = {}
    for path in paths:
        with open(path) as handle:
            data = json.load(handle)
        machine = machine or {**data.get("machine_info", {}), "datetime": data.get("datetime")}
        for bench in data["benchmarks"]:
            groups[bench["group"] or bench["name"]].append(bench)
    return machine, groups


def _group_table(benchmarks: List[dict]) -> List[str]:
    base = median(baseline(benchmarks))
    per_op = any("ops_per_round" in b["extra_info"] for b in benchmarks)
    lines = ["| benchmark | median per round |" + (" per op |" if per_op else "") + " ratio |",
             "|---|---:|" + ("---:|" if per_op else "") + "---:|"]
    for bench in sorted(benchmarks, key=median):
        ops = bench["extra_info"].get("ops_per_round")
        op_cell = (f" {format_time(median(bench) / ops) if ops else ''} |" if per_op else "")
        lines.append(f"| {label(bench)} | {format_time(median(bench))} |{op_cell} "
                     f"{median(bench) / base:.2f}x |")
    return lines


def _threads_table(benchmarks: List[dict]) -> List[str]:
    base = baseline(benchmarks)["extra_info"]["checks_per_second"]
    lines = ["| threads | checks | median per batch | checks per second | speed-up "
             "| cores busy |", "|---:|---:|---:|---:|---:|---:|"]
    for bench in sorted(benchmarks, key=lambda b: b["extra_info"]["threads"]):
        info = bench["extra_info"]
        lines.append(f"| {info['threads']} | {info['checks']} | {format_time(median(bench))} "
                     f"| {info['checks_per_second']:,.0f} "
                     f"| {info['checks_per_second'] / base:.2f}x | {info['cores_busy']:.2f} |")
    return lines


def _scaling_table(benchmarks: List[dict]) -> List[str]:
    """One row per k: the EVM384 entry (the one with gas) against the baseline."""
    by_k: Dict[int, List[dict]] = defaultdict(list)
    for bench in benchmarks:
        by_k[bench["extra_info"]["k"]].append(bench)
    rows = [(k, next(b for b in group if "gas update5-A" in b["extra_info"]), baseline(group))
            for k, group in sorted(by_k.items())]
    lines = [f"| k | {label(rows[0][1])} | {label(rows[0][2])} | ratio | gas (update5-A) "
             "| EVM384 ops |", "|---:|---:|---:|---:|---:|---:|"]
    for k, ours, base in rows:
        lines.append(f"| {k} | {format_time(median(ours))} | {format_time(median(base))} "
                     f"| {median(ours) / median(base):.2f}x "
                     f"| {ours['extra_info']['gas update5-A']:,} "
                     f"| {ours['extra_info']['evm384_ops']:,} |")
    return lines


def _interleaved_table(benchmarks: List[dict]) -> List[str]:
    lines = ["| contender | min | median | ratio (min) | ratio (median) | rounds |",
             "|---|---:|---:|---:|---:|---:|"]
    for bench in benchmarks:
        if len(benchmarks) > 1:                       # which run the rows below belong to
            lines.append(f"| **{bench['extra_info'].get('label', bench['name'])}** | | | | | |")
        for name, row in sorted(bench["extra_info"]["interleaved"].items(),
                                key=lambda item: item[1]["min"]):
            lines.append(f"| {name} | {format_time(row['min'])} | {format_time(row['median'])} "
                         f"| {row['min ratio']:.2f}x | {row['median ratio']:.2f}x "
                         f"| {row['rounds']} |")
    return lines


def _contracts_table(benchmarks: List[dict]) -> List[str]:
    """The facts of each contract run outside the scaling groups, once per contract."""
    facts = {b["extra_info"]["contract"] + (f", k = {b['extra_info']['pairs']}"
                                            if "pairs" in b["extra_info"] else ""):
             b["extra_info"] for b in benchmarks}
    lines = ["| contract | bytecode | instructions | EVM384 ops (ADD / SUB / MUL) | "
             + " | ".join(f"gas {s}" for s in SCHEDULES) + " |",
             "|---|---:|---:|---:|" + "---:|" * len(SCHEDULES)]
    for name, info in facts.items():
        ops = " / ".join(f"{info[op]:,}" for op in EVM384_NAMES)
        lines.append(f"| {name} | {info['bytecode_bytes']:,} B | {info['instructions']:,} "
                     f"| {info['evm384_ops']:,} ({ops}) | "
                     + " | ".join(f"{info[f'gas {s}']:,}" for s in SCHEDULES) + " |")
    return lines


def report(paths: List[str]) -> str:
    machine, groups = load(paths)
    out = []
    if machine:
        out.append(f"Machine: {machine.get('cpu', {}).get('brand_raw', '?')}, "
                   f"{machine.get('cpu', {}).get('count', '?')} cores, "
                   f"Python {machine.get('python_version', '?')}; run {machine['datetime']}\n")
    scaling, contracts = [], []
    for group, benchmarks in groups.items():
        if all("k" in b["extra_info"] for b in benchmarks):
            scaling += benchmarks
            continue
        contracts += [b for b in benchmarks if "contract" in b["extra_info"]]
        if all("threads" in b["extra_info"] for b in benchmarks):
            table = _threads_table
        elif all("interleaved" in b["extra_info"] for b in benchmarks):
            table = _interleaved_table
        else:
            table = _group_table
        out += [f"#### {group}", "", *table(benchmarks), ""]
    if scaling:
        ks = [b["extra_info"]["k"] for b in scaling]
        out += [f"#### k-pair check, k = {min(ks)} .. {max(ks)}", "", *_scaling_table(scaling), ""]
    if contracts:
        out += ["#### contracts", "", *_contracts_table(contracts), ""]
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    print(report(sys.argv[1:]))
