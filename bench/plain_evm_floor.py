"""Issue 48's floor of a plain-EVM build (docs/tower.md, "Plain EVM: the floor under issue
48's ECDSA and ECMUL targets") on the input with the most gas of 20 random valid ones
(``USAGE[name].example(random.Random(7), 1, True)``, Osaka): what its operations cost at
the least (11 gas a MULMOD or ADDMOD with its modulus, 3 an ADD or SUB, 3 for each SUB's
p or k p, an operand DUP a MULMOD or ADDMOD), memory and the rest as run, and the stack
moves beyond that floor, per MULMOD/ADDMOD and, with an operand DUP for each ADD and SUB
too, per operation of all four kinds (BN254's sums are lazy ADDs: the first ratio counts
their operands as moves):

    PYTHONPATH=. python bench/plain_evm_floor.py [bn254_mul] [ecrecover] [p256verify]
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Dict, List

from evm384_native.asm.disasm import disassemble
from evm384_native.asm.profile import GasByPc
from evm384_native.contracts import USAGE, build_program
from evm384_native.evm import execute

NAMES = ("bn254_mul", "ecrecover", "p256verify")
PRICE = {"MULMOD": 8, "ADDMOD": 8, "ADD": 3, "SUB": 3}
MOVES = ("DUP", "SWAP", "POP", "PUSH")


def gas_by_kind(name: str, inputs: int = 20) -> Dict[str, int]:
    """Gas by opcode (DUPn, SWAPn, PUSHn each as one kind) on the input with the most gas,
    and that gas as "total"."""
    program = build_program(name, target="evm")
    names = {ins.pc: ins.name
             for ins in disassemble(program.code, program.code_size, program.opcodes)}
    rng = random.Random(7)
    runs = [USAGE[name].example(rng, 1, True) for _ in range(inputs)]
    worst = max(runs, key=lambda data: execute(program.code, data, opcodes="evm").gas_used)
    tracer = GasByPc()
    total = execute(program.code, worst, opcodes="evm", tracer=tracer).gas_used
    kinds: Counter = Counter(total=total)
    for pc, gas in tracer.by_pc.items():
        kinds[next((kind for kind in MOVES if names[pc].startswith(kind)), names[pc])] += gas
    return dict(kinds)


def floor_row(kinds: Dict[str, int]) -> Dict[str, float]:
    counts = {op: kinds.get(op, 0) // price for op, price in PRICE.items()}
    ops, sums = counts["MULMOD"] + counts["ADDMOD"], counts["ADD"] + counts["SUB"]
    rest = kinds["total"] - sum(kinds.get(kind, 0) for kind in (*PRICE, *MOVES))
    floor = 11 * ops + 3 * sums + 3 * counts["SUB"] + 3 * ops + rest
    beyond = kinds["total"] - floor
    return {"gas": kinds["total"], "MULMOD+ADDMOD": ops, "ADD+SUB": sums, "rest": rest,
            "floor": floor, "beyond": beyond, "per MULMOD/ADDMOD": beyond / ops,
            "per op, ADD/SUB too": (beyond - 3 * sums) / (ops + sums)}


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=", ".join(NAMES) + " (default: all)")
    names = parser.parse_args(argv).names or NAMES
    unknown = sorted(set(names) - set(NAMES))
    if unknown:                                   # argparse's choices refuse an empty list
        parser.error(f"unknown contract {', '.join(unknown)}: one of {', '.join(NAMES)}")
    for name in names:
        row = floor_row(gas_by_kind(name))
        print(name, ", ".join(f"{key} {value:,.1f}" if isinstance(value, float)
                              else f"{key} {value:,}" for key, value in row.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
