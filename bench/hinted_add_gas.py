"""Where the hinted EIP-2537 additions' gas goes: one fast-path run of each
(``eip2537_g1add_hinted``, ``eip2537_g2add_hinted``, EIP-6690's tables) split by what the
instructions do, memory expansion apart; writes bench/results/hinted_add_gas.md (gas does
not depend on the machine).

    python bench/hinted_add_gas.py [--out FILE]

Each executed instruction's gas (the tracer's) goes to a row by the code that emitted it
(the source map's scope) and its opcode; the memory-expansion part of MSTORE,
CALLDATACOPY and SETMODX (their gas minus their own price) is one row of its own, with
the memory and register bytes it pays for. The answers are checked against blst.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from machine import git_revision  # noqa: E402  (bench/machine.py)

from evm384_native import execute  # noqa: E402
from evm384_native.asm.disasm import disassemble  # noqa: E402
from evm384_native.asm.profile import GasByPc  # noqa: E402
from evm384_native.bls12_381 import eip2537_oracle as oracle  # noqa: E402
from evm384_native.bls12_381 import hinted_add  # noqa: E402
from evm384_native.bls12_381.add_hint import add_hint  # noqa: E402
from evm384_native.curves.bls12_381 import BLS12_381  # noqa: E402
from evm384_native.evm.transaction import call_cost  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "bench" / "results" / "hinted_add_gas.md"
SETMODX_384 = 1 + 39                               # COST_SETMODX_BASE + 6 limbs' dynamic cost
PRECOMPILE = {1: 375, 2: 600}
# rows: (scope, opcodes) -> label; the first match wins
ROWS: List[Tuple[str, Tuple[str, ...], str]] = [
    ("range_check", (), "range check: CALLDATALOAD, GT, OR a value; SHL, OR (the copy's source; its size PUSH counts here)"),
    ("load", ("MSTORE",), "p and the constant 4: two MSTOREs"),
    ("load", ("SETMODX",), "SETMODX (1 + 39)"),
    ("load", ("CALLDATACOPY",), "CALLDATACOPY of the inputs (3 + 3 a word)"),
    ("load", ("STOREX",), "STOREX (1 each + 3 a value)"),
    ("field_work", ("MULMODX",), "MULMODX (3 each)"),
    ("field_work", ("ADDMODX", "SUBMODX"), "ADDMODX, SUBMODX (1 each)"),
    ("answer", ("LOADX",), "LOADX (1 each + 3 a value)"),
    ("answer", ("MLOAD", "OR", "CALLDATASIZE", "XOR", "JUMPI"),
     "check: w's two words, the size, one JUMPI"),
    ("answer", ("RETURN",), "RETURN"),
]
MEMORY = "memory expansion"


def _label(path: Tuple[str, ...], name: str) -> str:
    for row_scope, names, label in ROWS:
        if row_scope in path and (not names or name in names):
            return label
    return f"other: {' in '.join(reversed(path))} {name}"


def breakdown(name: str, seed: int = 1) -> Tuple[Dict[str, int], Dict[str, int]]:
    """Gas by row of one fast-path run, and the run's facts."""
    kind = hinted_add.degree_of(name)
    rng = random.Random(seed)
    p, q = (oracle.blst_point(kind, rng.randrange(1, BLS12_381.r)) for _ in range(2))
    data = oracle.encode_point(kind, p) + oracle.encode_point(kind, q)
    calldata = data + add_hint(kind, data)
    program = hinted_add.build_program(name)
    tracer = GasByPc()
    counts: Counter = Counter()
    result = execute(program.code, calldata, opcodes="evmmax", tracer=tracer)
    if not result.success or result.output != oracle.blst_msm(kind, [(p, 1), (q, 1)]):
        raise SystemExit(f"{name}: wrong answer ({result.error})")
    listing = disassemble(program.code, program.code_size, program.opcodes)
    names = {ins.pc: ins for ins in listing}
    consumer = {}                                  # a PUSH counts with the instruction it feeds
    for ins in reversed(listing):
        consumer[ins.pc] = consumer_pc if ins.name.startswith("PUSH") else ins.pc
        consumer_pc = consumer[ins.pc]
    rows: Counter = Counter()
    for pc, gas in tracer.by_pc.items():
        ins = names[pc]
        own = {"MSTORE": 3, "SETMODX": SETMODX_384,
               "CALLDATACOPY": 3 + 3 * -(-(hinted_add.calldata_bytes(kind) - 16) // 32)
               }.get(ins.name)
        user = names[consumer[pc]]
        label = _label(program.source_map[user.pc].path, user.name)
        if own is not None:
            rows[MEMORY] += gas - own
            gas = own
        rows[label] += gas
        counts[label] += 1
    registers = hinted_add.registers(name)
    memory = 32 + hinted_add.calldata_bytes(kind)
    cost = call_cost(result.gas_used, calldata)
    precompile = call_cost(PRECOMPILE[kind], data, precompile=True)
    facts = {"gas": result.gas_used, "registers": registers, "memory bytes": memory,
             "register bytes": 48 * registers,
             "words": -(-(-(-memory // 32) * 32 + 48 * registers) // 32),
             "call total": cost.total, "calldata": cost.calldata,
             "precompile call total": precompile.total, "precompile calldata": precompile.calldata,
             "steps": result.steps}
    assert sum(rows.values()) == result.gas_used
    return dict(rows), facts


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    found = {name: breakdown(name) for name in hinted_add.CONTRACTS}
    labels = [label for _, _, label in ROWS] + [MEMORY]
    labels += sorted({label for rows, _ in found.values() for label in rows} - set(labels))
    lines = ["# The hinted EIP-2537 additions: where the gas goes", "",
             f"Written by `python bench/hinted_add_gas.py` at commit {git_revision()}; gas "
             "does not depend on the machine. One fast-path run each (random points, EIP-6690's "
             "tables), every instruction's gas by what it does, with the PUSHes of its operands; "
             "memory expansion (memory and the registers, which EIP-6690 counts after it) "
             "apart.", "",
             "| gas of | " + " | ".join(f"`{n}`" for n in found) + " |",
             "|---|" + "---:|" * len(found)]
    for label in labels:
        lines.append(f"| {label} | " + " | ".join(str(rows.get(label, 0))
                                                   for rows, _ in found.values()) + " |")
    lines.append("| **execution gas** | " + " | ".join(
        f"**{facts['gas']}**" for _, facts in found.values()) + " |")
    lines.append("| the precompile's price | " + " | ".join(
        str(PRECOMPILE[hinted_add.degree_of(n)]) for n in found) + " |")
    for key in ("registers", "memory bytes", "register bytes", "words", "steps", "calldata",
                "call total", "precompile calldata", "precompile call total"):
        lines.append(f"| {key} | " + " | ".join(f"{facts[key]:,}" for _, facts in found.values())
                     + " |")
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
