"""The BN254 contracts (alt_bn128, EIP-196/197) beside the precompiles' EIP-1108 prices and
their time beside revm's native precompiles: writes bench/results/bn254.md.

    python bench/bn254_table.py                      # gas, sizes and time: bench/results/bn254.md
    python bench/bn254_table.py --no-time            # gas and sizes only (a few seconds)
    python bench/bn254_table.py --k 2 --rounds 20 --out /tmp/bn254.md

Gas (the same on every engine and machine), per contract and input: bn254_add and bn254_mul
one row each (a random P + Q; a random P times a random 256-bit scalar), the pairing checks
for k = 1..8 pairs (k >= 2 a true relation, answer 1; k = 1 a false one, answer 0):

- execution gas of the EVMMAX build under EIP-6690's and EIP-7747's cost models and of the
  EVM384 build under each EVM384 schedule (``evm.gas.SCHEDULES``), beside the precompile's
  EIP-1108 price (ECADD 150, ECMUL 6,000, ECPAIRING 34,000 k + 45,000);
- for bn254_pairing_check_hinted, the calldata gas of its 192-byte hint (EIP-2028: 16 a
  non-zero byte, 4 a zero one) and execution (EIP-6690) + hint calldata;
- what a transaction pays to call it (``evm.transaction.call_cost``: execution + calldata
  + access, EIP-7623's floor; the EVMMAX build under EIP-6690, called cold) beside the
  precompile called with its own input (warm);
- the bytecode size of each build.

Every execution's answer is checked: py_ecc's for add and mul (``tests/bn254_cases.reference``),
the instance's (built true or false) for the pairing checks.

Time (unless ``--no-time``): interleaved rounds (``bench/bn254_peers.py``: each round runs
every contender once, in turn) of both builds on the fast engine, revm's precompile through
pyrevm, and the trivial calls whose time is each side's per-call overhead; min / median,
ratios to revm's precompile raw and net of those overheads. py_ecc (pure Python) is timed in
the rounds for add and mul and in ``--py-ecc-rounds`` rounds of its own for the k = 2
pairing check (~0.4 s a pair).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bn254_peers as peers  # noqa: E402  (bench/bn254_peers.py)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)

from evm384_native.evm.gas import SCHEDULES  # noqa: E402
from evm384_native.evm.transaction import calldata_gas, call_cost  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "bn254.md"
COST_MODELS = ("eip-6690", "eip-7747")
EIP170_LIMIT = 24_576


def cells(values: list) -> str:
    return "| " + " | ".join(f"{v:,}" if isinstance(v, int) else str(v) for v in values) + " |"


def header(names: List[str]) -> List[str]:
    return ["| " + " | ".join(names) + " |", "|" + "---:|" * len(names)]


# --- gas ------------------------------------------------------------------------------------

WRONG: List[str] = []          # every wrong answer seen, reported at the end


def gas_row(inst: peers.Instance) -> Dict[str, int]:
    """Every gas figure of one input, each run's answer checked (wrong ones in WRONG)."""
    row: Dict[str, int] = {}
    before = len(WRONG)
    for model in COST_MODELS:
        row[f"evmmax {model}"] = peers.run_contract(inst, "evmmax", WRONG, engine="fast",
                                                    costs=model).gas_used
    for schedule in SCHEDULES:
        row[f"evm384 {schedule}"] = peers.run_contract(inst, "evm384", WRONG, engine="fast",
                                                       schedule=schedule).gas_used
    row["wrong"] = len(WRONG) - before
    row["precompile"] = peers.precompile_gas(inst.op, inst.k)
    row["hint calldata"] = calldata_gas(inst.hint)
    row["call"] = call_cost(row["evmmax eip-6690"], inst.calldata).total
    row["precompile call"] = call_cost(row["precompile"], inst.data, precompile=True).total
    return row


def gas_table(op: str, ks: List[int]) -> List[str]:
    hinted = op == "hinted"
    names = (["k" if op in ("pairing", "hinted") else "input", "input B",
              "EVMMAX EIP-6690", "EVMMAX EIP-7747"]
             + [f"EVM384 {s}" for s in SCHEDULES]
             + ["precompile (EIP-1108)", "EVMMAX 6690 / precompile"]
             + (["hint calldata", "EVMMAX 6690 + hint calldata"] if hinted else [])
             + ["call total, EVMMAX 6690", "precompile call total", "call ratio", "answer"])
    lines = [f"### {peers.CONTRACT[op]}", "", *header(names)]
    instances = ([peers.instance(op, k) for k in ks] if op in ("pairing", "hinted")
                 else [peers.instance(op)])
    for inst in instances:
        row = gas_row(inst)
        values = ([inst.k if inst.k else {"add": "P + Q", "mul": "P * s (256-bit)"}[op],
                   len(inst.data), row["evmmax eip-6690"], row["evmmax eip-7747"]]
                  + [row[f"evm384 {s}"] for s in SCHEDULES]
                  + [row["precompile"], f"{row['evmmax eip-6690'] / row['precompile']:.2f}x"]
                  + ([row["hint calldata"], row["evmmax eip-6690"] + row["hint calldata"]]
                     if hinted else [])
                  + [row["call"], row["precompile call"],
                     f"{row['call'] / row['precompile call']:.2f}x",
                     "**WRONG**" if row["wrong"] else "ok"])
        lines.append(cells(values))
        print(f"gas {peers.CONTRACT[op]} k={inst.k}: {row}", file=sys.stderr)
    return lines + [""]


def size_table() -> List[str]:
    lines = ["### bytecode size", "", "| contract | EVMMAX build | EVM384 build |",
             "|---|---:|---:|"]
    for op in peers.OPS:
        sizes = [len(peers.code(op, target)) for target in peers.TARGETS]
        lines.append(f"| {peers.CONTRACT[op]} | " + " | ".join(
            f"{size:,} B" + ("" if size <= EIP170_LIMIT else " (over EIP-170's 24,576)")
            for size in sizes) + " |")
    return lines + [""]


# --- time -----------------------------------------------------------------------------------

def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


def time_tables(cases: List[peers.Instance], rounds: int, py_ecc_rounds: int) -> List[str]:
    revm = peers.Revm() if peers.revm_available() else None
    if revm is None:
        print("pyrevm is not installed: no native peer", file=sys.stderr)
    main = ["| operation | EVMMAX build ms | EVM384 build ms | revm precompile ms "
            "| EVMMAX / revm | EVM384 / revm | EVMMAX / revm, net | EVM384 / revm, net "
            "| py_ecc ms | py_ecc / revm |", "|---|" + "---:|" * 9]
    overhead = ["| operation | " + " | ".join(
        [peers.FAST_STOP, peers.REVM_EMPTY, peers.REVM_STOP]) + " |", "|---|---:|---:|---:|"]
    extra: List[str] = []
    for inst in cases:
        name = peers.CONTRACT[inst.op] + (f", k = {inst.k}" if inst.k else "")
        with_py_ecc = inst.op in ("add", "mul")
        result = peers.timed_rounds(inst, revm, rounds, with_py_ecc=with_py_ecc)
        rows, net = result["interleaved"], result["net"]
        WRONG.extend(result["wrong"].values())
        if inst.op == "pairing" and inst.k == 2 and py_ecc_rounds:
            t = peers.py_ecc_times(inst, py_ecc_rounds)
            rows[peers.PY_ECC] = {"min": min(t), "median": sorted(t)[len(t) // 2],
                                  "own rounds": len(t)}
            if revm is not None:
                for key in ("min", "median"):
                    rows[peers.PY_ECC][f"{key} ratio"] = (rows[peers.PY_ECC][key]
                                                          / rows[peers.REVM][key])

        def pair(label: str, field: str = "", source: dict = rows) -> str:
            if label not in source:
                return "—"
            row = source[label]
            mark = " (**wrong answer**)" if label in result["wrong"] else ""
            if field:
                return f"{row['min ' + field]:.2f}x / {row['median ' + field]:.2f}x{mark}"
            return f"{ms(row['min'])} / {ms(row['median'])}{mark}"

        emax, e384 = peers.contract_label("evmmax"), peers.contract_label("evm384")
        main.append(f"| {name} | {pair(emax)} | {pair(e384)} | {pair(peers.REVM)} "
                    f"| {pair(emax, 'ratio')} | {pair(e384, 'ratio')} "
                    f"| {pair(emax, 'ratio', net)} | {pair(e384, 'ratio', net)} "
                    f"| {pair(peers.PY_ECC)} | {pair(peers.PY_ECC, 'ratio')} |")
        overhead.append(f"| {name} | " + " | ".join(
            pair(label) for label in
            (peers.FAST_STOP, peers.REVM_EMPTY, peers.REVM_STOP)) + " |")
        if peers.PROVER in rows:
            extra.append(f"| {name} | {pair(peers.PROVER)} |")
        print(f"time {name}: {result}", file=sys.stderr)
    lines = ["## Time: fast engine beside revm's precompiles (interleaved rounds)", "",
             f"{rounds} rounds after one warm-up, each running every contender once in turn; "
             "min / median per call in ms. Ratios: raw (the whole call on each side), and "
             "net (the contract less the fast engine's STOP call, the precompile less revm's "
             "ECADD of the empty input: per-call overheads, below). py_ecc: in the rounds "
             "for add and mul; for the k = 2 pairing check in "
             f"{py_ecc_rounds} rounds of its own, right after that operation's rounds.", "",
             *main, "", "Per-call overhead, timed in the same rounds (ms, min / median):", "",
             *overhead, ""]
    if extra:
        lines += ["The caller's hint prover (off chain; in the hinted check's rounds, "
                  "ms min / median):", "", "| operation | pairing_hint |", "|---|---:|",
                  *extra, ""]
    return lines


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=list(range(1, 9)),
                        help="pair counts of the gas tables (default 1..8)")
    parser.add_argument("--time-k", type=int, nargs="+", default=[1, 2, 4, 8],
                        help="pair counts timed (default 1 2 4 8)")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--py-ecc-rounds", type=int, default=3)
    parser.add_argument("--no-time", action="store_true", help="gas and sizes only")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = "%.2f %.2f %.2f" % os.getloadavg()
    command = "python bench/bn254_table.py" + ("" if not argv else " " + " ".join(argv))
    lines = ["# BN254 contracts beside the alt_bn128 precompiles", "",
             f"Written by `{command}` on {now}, commit {git_revision()}; "
             f"CPU {cpu_model()} ({os.cpu_count()} CPUs, shared with other jobs; load "
             f"{load} at the start), Python {platform.python_version()}. Gas does not depend "
             "on the machine; times do (read ratios, measured in the same rounds).", "",
             "## Gas", "",
             "Execution gas of each build; the precompile's EIP-1108 price; the transaction's "
             "cost beyond the 21,000 (`call_cost`: execution + EIP-2028 calldata + EIP-2929 "
             "access, the contract cold, the precompile warm; EIP-7623's floor) for the "
             "EVMMAX build under EIP-6690 and for the precompile with its own input. k = 1: "
             "a false relation (answer 0), k >= 2 true (answer 1); every answer checked.", ""]
    for op in peers.OPS:
        lines += gas_table(op, args.k)
    lines += size_table()
    if not args.no_time:
        cases = [peers.instance("add"), peers.instance("mul")]
        cases += [peers.instance(op, k) for op in ("pairing", "hinted") for k in args.time_k]
        lines += time_tables(cases, args.rounds, args.py_ecc_rounds)
        lines[2] = lines[2].replace(" at the start)", f" at the start, "
                                    "%.2f %.2f %.2f at the end)" % os.getloadavg())
    if WRONG:
        lines += ["## Wrong answers", "",
                  "Rows marked WRONG were measured all the same (a wrong contender is timed "
                  "against its own first output); their figures are those of a wrong "
                  "computation:", "", *[f"- {message}" for message in WRONG], ""]
    text = "\n".join(lines)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    sys.stdout.write(text)
    if WRONG:
        print(f"{len(WRONG)} wrong answers (listed at the end of {args.out})", file=sys.stderr)
    return 1 if WRONG else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
