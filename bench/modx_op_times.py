"""The fast engine's time per element of MULMODX, ADDMODX and SUBMODX at chosen limb counts,
beside EIP-6690's prices at 10 ns a gas (100 Mgas/s): vector programs of
``pricing.programs.evmmax_program`` with N elements of one operation, less the same program
without them, the fewest ns over the rounds.

    python bench/modx_op_times.py [LIMBS ...] [--elements N] [--rounds R]
"""
from __future__ import annotations

import argparse
import gc
import random
import time
from typing import Dict

from evm384_native.evm.api import execute
from evm384_native.evm.costs import COST_MODELS
from evm384_native.pricing.measure import RUN_GAS
from evm384_native.pricing.programs import evmmax_calldata, evmmax_program

OPERATIONS = ("MULMODX", "ADDMODX", "SUBMODX")


def program_ns(limbs: int, amounts: Dict[str, int], rounds: int) -> int:
    program = evmmax_program(limbs, amounts, random.Random(2), evmmax_calldata(limbs))
    best = None
    for _ in range(rounds):
        start = time.perf_counter_ns()
        result = execute(program.code, program.calldata, engine="fast", opcodes="evmmax",
                         gas=RUN_GAS)
        elapsed = time.perf_counter_ns() - start
        best = elapsed if best is None else min(best, elapsed)
    if not result.success:
        raise RuntimeError(f"{limbs} limbs {amounts}: {result.error}")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("limbs", nargs="*", type=int, default=[4, 6, 12])
    parser.add_argument("--elements", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    costs = COST_MODELS["eip-6690"]
    gc.disable()
    for limbs in args.limbs:
        empty = program_ns(limbs, {}, args.rounds)
        for name in OPERATIONS:
            ns = (program_ns(limbs, {name: args.elements}, args.rounds) - empty) / args.elements
            gas = (costs.mul if name == "MULMODX" else costs.add_sub)[limbs - 1]
            print(f"{limbs:2} limbs {name}: {ns:7.1f} ns   EIP-6690 {gas} gas = {10 * gas} ns")


if __name__ == "__main__":
    main()
