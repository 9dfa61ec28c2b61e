"""EIP-2537's additions, MSMs and maps as contracts on both targets beside the precompiles'
prices: writes bench/results/eip2537_gas.md (gas and sizes; no timing, so any machine
gives the same file).

    python bench/eip2537_gas_table.py                  # k = 1, 2, 4, ..., 128
    python bench/eip2537_gas_table.py --k 1 2 --out /tmp/eip2537_gas.md

Per operation and input (random points [a] G made by blst, random 256-bit scalars, random
field elements; seeded):

- execution gas of the EVMMAX build (EIP-6690's and EIP-7747's cost tables) and of the
  EVM384 build under each EVM384 schedule (``evm.gas.SCHEDULES``), beside the precompile's
  EIP-2537 price (MSM: k x 12,000 or 22,500 x discount(k) / 1000);
- what a transaction pays to call it (``evm.transaction.call_cost``: execution +
  EIP-2028 calldata + EIP-2929 access, EIP-7623's floor; the EVMMAX build under EIP-6690,
  called cold) beside the precompile called with the same input (warm);
- every output checked: additions and MSMs against blst (pyblst and chia_rs), the maps
  against arkworks when it is installed, else py_ecc;
- the hinted additions (EVMMAX only; their calldata is the precompile's input and the
  slope, 48 / 96 bytes more): the call total with the hint's calldata beside the
  precompile called with its own input.
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import random
import sys
from pathlib import Path
from typing import Callable, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import git_revision  # noqa: E402  (bench/machine.py)

from evm384_native import execute  # noqa: E402
from evm384_native.bls12_381 import eip2537_oracle as oracle  # noqa: E402
from evm384_native.bls12_381.add_hint import add_hint  # noqa: E402
from evm384_native.contracts import BUILT_FOR, USAGE, build_contract  # noqa: E402
from evm384_native.curves.bls12_381 import BLS12_381  # noqa: E402
from evm384_native.evm.gas import SCHEDULES  # noqa: E402
from evm384_native.evm.transaction import call_cost  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "eip2537_gas.md"
COST_MODELS = ("eip-6690", "eip-7747")
EIP170_LIMIT = 24_576
GAS_LIMIT = 10 ** 9                      # above EIP-7825's cap: the EVM384 MSMs need more
R, P = BLS12_381.r, BLS12_381.p
OPERATIONS = ("eip2537_g1add", "eip2537_g2add", "eip2537_g1add_hinted", "eip2537_g2add_hinted",
              "eip2537_g1msm", "eip2537_g2msm", "eip2537_map_fp_to_g1", "eip2537_map_fp2_to_g2")
WRONG: List[str] = []


def _kind(name: str) -> int:
    return 2 if "g2" in name else 1


def case(name: str, k: int, rng: random.Random) -> Tuple[bytes, Callable[[], bytes]]:
    """The input of ``name`` (k pairs for an MSM) and a function computing the expected
    output with an independent library."""
    kind = _kind(name)
    if "add" in name:
        p, q = (oracle.blst_point(kind, rng.randrange(1, R)) for _ in range(2))
        data = oracle.encode_point(kind, p) + oracle.encode_point(kind, q)
        if name.endswith("_hinted"):                  # the hinted additions: the slope too
            data += add_hint(kind, data)
        return data, lambda: oracle.blst_msm(kind, [(p, 1), (q, 1)])
    if "msm" in name:
        pairs = [(oracle.blst_point(kind, rng.randrange(1, R)), rng.randrange(1 << 256))
                 for _ in range(k)]
        return oracle.msm_input(kind, pairs), lambda: oracle.blst_msm(kind, pairs)
    u = rng.randrange(P) if kind == 1 else (rng.randrange(P), rng.randrange(P))
    data = b"".join(v.to_bytes(64, "big") for v in ((u,) if kind == 1 else u))
    if importlib.util.find_spec("py_arkworks_bls12381"):
        return data, lambda: oracle.arkworks_map(kind, u)
    return data, lambda: oracle.py_ecc_map(kind, u)


def run(name: str, data: bytes, target: str, expected: bytes, **options) -> int:
    result = execute(build_contract(name, target=target), data, opcodes=target,
                     engine="fast", gas=GAS_LIMIT, **options)
    if not result.success or result.output != expected:
        WRONG.append(f"{name} ({target}, {options}, {len(data)} B input): "
                     f"{result.error or 'wrong output'}")
    return result.gas_used


def row(name: str, k: int) -> List[str]:
    data, expect = case(name, k, random.Random(f"{name} {k}"))
    expected = expect()
    before = len(WRONG)
    evmmax = [run(name, data, "evmmax", expected, costs=model) for model in COST_MODELS]
    evm384 = [None if name not in BUILT_FOR["evm384"] else run(name, data, "evm384", expected, schedule=s)
              for s in SCHEDULES]
    price = USAGE[name].precompile_gas(data)
    call = call_cost(evmmax[0], data).total
    precompile_call = call_cost(price, USAGE[name].precompile_input(data), precompile=True).total
    cells = ([str(k) if "msm" in name else "-", f"{len(data):,}"]
             + ["-" if gas is None else f"{gas:,}" for gas in evmmax + evm384]
             + [f"{price:,}", f"{evmmax[0] / price:.2f}x", f"{call:,}",
                f"{precompile_call:,}", f"{call / precompile_call:.2f}x",
                "**WRONG**" if len(WRONG) > before else "ok"])
    print(f"{name} k={k}: {cells}", file=sys.stderr)
    return cells


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32, 64, 128],
                        help="MSM sizes (default 1 2 4 ... 128)")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    command = "python bench/eip2537_gas_table.py" + ("" if not argv else " " + " ".join(argv))
    names = (["operation", "k", "input B", "EVMMAX EIP-6690", "EVMMAX EIP-7747"]
             + [f"EVM384 {s}" for s in SCHEDULES]
             + ["precompile", "EVMMAX 6690 / precompile", "call total, EVMMAX 6690",
                "precompile call total", "call ratio", "answer"])
    lines = ["# EIP-2537's other precompiles as contracts: gas", "",
             f"Written by `{command}` on {now}, commit {git_revision()}. Gas does not depend "
             "on the machine. Execution gas of each build beside the precompile's EIP-2537 "
             "price; call totals: execution + calldata + access (the contract cold, the "
             "precompile warm) with EIP-7623's floor. Every output checked against blst "
             "(additions, MSMs) or arkworks / py_ecc (maps).", "",
             "| " + " | ".join(names) + " |", "|---|" + "---:|" * (len(names) - 2) + "---|"]
    for name in OPERATIONS:
        for k in (args.k if "msm" in name else [1]):
            lines.append(f"| {name} | " + " | ".join(row(name, k)) + " |")
    lines += ["", "## Bytecode size", "", "| contract | EVMMAX build | EVM384 build |",
              "|---|---:|---:|"]
    for name in OPERATIONS:
        sizes = [None if name not in BUILT_FOR[t]
                 else len(build_contract(name, target=t)) for t in ("evmmax", "evm384")]
        lines.append(f"| {name} | " + " | ".join(
            "-" if size is None else
            f"{size:,} B" + ("" if size <= EIP170_LIMIT else " (over EIP-170's 24,576)")
            for size in sizes) + " |")
    if WRONG:
        lines += ["", "## Wrong answers", "", *[f"- {message}" for message in WRONG]]
    text = "\n".join(lines) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    sys.stdout.write(text)
    return 1 if WRONG else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
