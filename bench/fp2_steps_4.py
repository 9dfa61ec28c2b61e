"""The 4-limb fused Fp2 steps (the product and the squaring of csrc/evmmax_kernels.h) of this
tree beside a baseline's, BN254's p, in the same interleaved rounds.

    python bench/fp2_steps_4.py --baseline /tmp/base [--rounds 400]

Each contender runs one EVMMAX vector program of 200 flagged groups (each group's three
temporaries overwritten after it, so the host marks it: three additions more a group) on a
register file of its own package, through ``RegisterFile.run`` (the bounded run the fast
engine uses). DIR holds the other checkout's package renamed ``evm384_native_base`` (as for
``evmmax_speed.py``). Prints each program's median per group and the ratio of medians.
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import sys
from pathlib import Path
from typing import Callable, Dict, List

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]   # this checkout's

from evmmax_speed import run  # noqa: E402  (bench/evmmax_speed.py: the interleaved rounds)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)

from evm384_native.curves.bn254 import BN254  # noqa: E402

A0, A1, B0, B1, T0, T1, T2, C1, C0 = range(9)
REGISTERS = 12
GROUPS = 200


def one(operation: str, out: int, x: int, y: int) -> tuple:
    return operation, (out, 1, x, 1, y, 1, 1)


KILL = [one("add", t, A0, A1) for t in (T0, T1, T2)]


def square(a0: int, a1: int, c1: int, c0: int) -> list:
    return [one("add", T0, a0, a1), one("sub", T1, a0, a1), one("mul", c1, a0, a1),
            one("add", c1, c1, c1), one("mul", c0, T0, T1)] + KILL


def product(a0: int, a1: int, c1: int, c0: int) -> list:
    return [one("mul", T0, a0, B0), one("mul", T1, a1, B1), one("mul", T2, a0, B1),
            one("mul", c1, a1, B0), one("add", c1, c1, T2), one("sub", c0, T0, T1)] + KILL


# each group's result feeds the next (a0, a1 -> c0, c1 -> a0, a1 ...)
PROGRAMS = {name: (shape(A0, A1, C1, C0) + shape(C0, C1, A1, A0)) * (GROUPS // 2)
            for name, shape in (("product", product), ("square", square))}


def contenders(package: str, program: str) -> Callable[[], bool]:
    modx = importlib.import_module(package + ".evm.kernels.modx")
    common = importlib.import_module(package + ".evm.kernels.modx_common")
    registers = modx.RegisterFile(modx.FieldContext(BN254.p), REGISTERS)
    registers.storex(0, b"".join((12345 * v % BN254.p).to_bytes(32, "big")
                                 for v in range(1, REGISTERS + 1)))
    encoded = common.VectorProgram(PROGRAMS[program])
    group = len(PROGRAMS[program]) // GROUPS
    assert all(encoded.encoded[8 * group * g] & common.FP2_PRODUCT_FLAG
               for g in range(GROUPS)), "every group runs as one step"

    def job() -> bool:
        registers.run(encoded)
        return True
    return job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="a directory holding evm384_native_base")
    parser.add_argument("--rounds", type=int, default=400)
    args = parser.parse_args()
    sys.path.insert(0, args.baseline)
    print(f"{git_revision()}, {cpu_model()}, {args.rounds} interleaved rounds; medians")
    for program in PROGRAMS:
        contest: Dict[str, Callable[[], bool]] = {
            "this tree": contenders("evm384_native", program),
            "baseline": contenders("evm384_native_base", program)}
        times: Dict[str, List[float]] = run(contest, args.rounds)
        tree, base = (statistics.median(times[label]) for label in ("this tree", "baseline"))
        print(f"{program:8} this tree {tree / GROUPS * 1e9:6.1f} ns a group, baseline "
              f"{base / GROUPS * 1e9:6.1f} ns: {tree / base:.3f}x")


if __name__ == "__main__":
    main()
