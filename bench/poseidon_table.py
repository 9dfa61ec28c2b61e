"""The Poseidon contracts (circomlib's, BN254's scalar field; EVMMAX) beside the published
figures: writes bench/results/poseidon.md.

    python bench/poseidon_table.py                 # bench/results/poseidon.md (a few seconds)
    python bench/poseidon_table.py --blocks        # also gas and size for each block size
    python bench/poseidon_table.py --out /tmp/poseidon.md

Per contract (t = inputs + 1), on random inputs (seeded; each hash checked against the
reference, ``evm384_native.poseidon.reference``): the bytecode size, execution gas under
EIP-6690's and EIP-7747's cost tables (the same bytecode, ``execute(..., costs=...)``), and
the EIP-6690 gas by part of the code (the contract's scopes, ``asm.profile.GasByPc``):

- setup: SETMODX, memory expansion for every register and the memory buffer (both count
  in it: EIP-6690), the modulus;
- input: the length and range checks, CALLDATACOPY, STOREX of the inputs;
- constants: the loads, CODECOPY of the code's constants into the buffer and STOREX of
  them into registers (with their PUSHes);
- rounds: the arithmetic of the permutation (ADDMODX, MULMODX), and the loop's control
  where the partial rounds run as a loop;
- output: LOADX of the hash, RETURN.

``--blocks`` rebuilds each width with 2..15 partial rounds a load, unrolled and as a loop,
the measurement that chose ``poseidon.contracts.BLOCKS``.
"""
from __future__ import annotations

import argparse
import datetime
import random
from collections import Counter
from pathlib import Path
from typing import Dict, List

from evm384_native import execute
from evm384_native.asm.profile import GasByPc, by_scope
from evm384_native.poseidon import build_program, contracts
from evm384_native.poseidon.reference import poseidon
from evm384_native.poseidon.params import R
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT, assemble
from evm384_native.tower.targets import resolve_target
from machine import git_revision  # bench/machine.py (bench/ is the script's path)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "poseidon.md"
COST_MODELS = ("eip-6690", "eip-7747")
PARTS = ("setup", "input", "constants", "rounds", "output")
# Figures quoted in issue 24 for Poseidon with two inputs (t = 3)
PUBLISHED = [("evmone's EVMMAX bytecode", "4,683"),
             ("a public EVMMAX experiment", "1,814"),
             ("Solidity implementations", "~20,000-40,000")]


def _run(code: bytes, calldata: bytes, costs: str, tracer=None):
    return execute(code, calldata, opcodes="evmmax", engine="python" if tracer else "fast",
                   costs=costs, tracer=tracer)


def parts(program, calldata: bytes) -> Dict[str, int]:
    """EIP-6690 gas by part (the scope under the contract's own; its top level: setup)."""
    tracer = GasByPc()
    _run(program.code, calldata, "eip-6690", tracer)
    found: Counter = Counter()
    for path, gas in by_scope(program, tracer.by_pc).items():
        found["constants" if "constants" in path else path[1] if len(path) > 1
              else "setup"] += gas
    return dict(found)


def measure(name: str, seed: int) -> Dict[str, object]:
    t = contracts.WIDTH_OF[name]
    rng = random.Random(seed)
    inputs = [rng.randrange(R) for _ in range(t - 1)]
    calldata = contracts.hash_words(inputs)
    program = build_program(name)
    row: Dict[str, object] = {"name": name, "t": t, "bytes": len(program.code),
                              "data": len(program.code) - program.code_size,
                              "block": contracts.BLOCKS[t]}
    for costs in COST_MODELS:
        result = _run(program.code, calldata, costs)
        assert result.success and int.from_bytes(result.output, "big") == poseidon(inputs)
        row[costs] = result.gas_used
    row.update(parts(program, calldata))
    assert sum(row[part] for part in PARTS) == row["eip-6690"]        # type: ignore
    plan = contracts.schedule(t, contracts.BLOCKS[t])
    row["values"] = len(plan.first) + sum(map(len, plan.rounds)) + len(plan.last)
    return row


def block_sweep(seed: int) -> List[str]:
    isa = resolve_target("evmmax")
    lines = ["| t | rounds a load | unrolled: gas / bytes | loop: gas / bytes |",
             "|---:|---:|---:|---:|"]
    for t in contracts.BLOCKS:
        inputs = [random.Random(seed).randrange(R) for _ in range(t - 1)]
        for block in range(2, 16):
            cells = []
            for loops in (False, True):
                program = assemble("poseidon", contracts.FIELD, isa,
                                   contracts._builder(t, block), False, loops)
                result = _run(program.code, contracts.hash_words(inputs), "eip-6690")
                assert int.from_bytes(result.output, "big") == poseidon(inputs)
                fits = "" if len(program.code) <= CONTRACT_SIZE_LIMIT else " (too big)"
                cells.append(f"{result.gas_used:,} / {len(program.code):,}{fits}")
            lines.append(f"| {t} | {block} | {cells[0]} | {cells[1]} |")
    return lines


def report(rows: List[Dict[str, object]], sweep: List[str]) -> str:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = ["# Poseidon (circomlib's, BN254 r) under EVMMAX", "",
             f"`python bench/poseidon_table.py` at commit {git_revision()}, {now}. Gas is "
             "execution only (no calldata, no 21,000); every hash checked against the "
             "reference.", "",
             "| contract | inputs | gas EIP-6690 | gas EIP-7747 | bytes (constants) | "
             "constants loaded | rounds a load |", "|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| `{row['name']}` | {row['t'] - 1} | {row['eip-6690']:,} | "  # type: ignore
                     f"{row['eip-7747']:,} | {row['bytes']:,} ({row['data']:,}) | "
                     f"{row['values']} | {row['block']} |")
    lines += ["", "EIP-6690 gas by part (see the script's docstring):", "",
              "| contract | " + " | ".join(PARTS) + " |",
              "|---|" + "---:|" * len(PARTS)]
    for row in rows:
        lines.append(f"| `{row['name']}` | " + " | ".join(f"{row[p]:,}" for p in PARTS)
                     + " |")
    lines += ["", "Published figures for two inputs (t = 3), as issue 24 quotes them:", "",
              "| implementation | gas |", "|---|---:|"]
    lines += [f"| {who} | {gas} |" for who, gas in PUBLISHED]
    three = next(row for row in rows if row["t"] == 3)
    lines.append(f"| this project, `poseidon_t3`, EIP-6690 / EIP-7747 | "
                 f"{three['eip-6690']:,} / {three['eip-7747']:,} |")
    lines += ["", "t = 6 (five inputs) has no contract: its constants alone are 24,992 "
              "bytes, over EIP-170's 24,576."]
    if sweep:
        lines += ["", "## Partial rounds a load (EIP-6690 gas)", ""] + sweep
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blocks", action="store_true", help="also sweep the block sizes")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = [measure(name, args.seed) for name in contracts.CONTRACTS]
    text = report(rows, block_sweep(args.seed) if args.blocks else [])
    args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
