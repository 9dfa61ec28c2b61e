"""The MSM contracts on the fast engine beside blst's own Pippenger and arkworks' in
interleaved rounds: writes bench/results/eip2537_msm_time.md.

    bench/blst_msm.sh /path/to/blst /tmp/libblst.so          # blst's shared library
    BLST_MSM_LIB=/tmp/libblst.so python bench/eip2537_msm_time.py
    BLST_MSM_LIB=/tmp/libblst.so python bench/eip2537_msm_time.py --k 128 --rounds 10

Per group (G1, G2) and k: one input (random points [a] G, random 256-bit scalars; seeded),
then rounds in which every contender runs once, in turn, each answer checked against the
first blst result:

- the EVMMAX and the EVM384 builds of ``eip2537_g1msm`` / ``eip2537_g2msm`` on the fast
  engine (a whole call: decoding, curve and subgroup checks, the MSM, the affine output);
- blst's ``blst_p1s_mult_pippenger`` / ``blst_p2s_mult_pippenger`` over points decoded
  beforehand (the MSM alone: what a library call costs), and the same with decoding,
  blst's curve and subgroup checks and the output per call (what a precompile does);
- arkworks' ``multiexp_unchecked`` (Pippenger; py_arkworks_bls12381, points decoded
  beforehand).

Ratios are each contender's min and median over the MSM alone's (blst's Pippenger).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
from pathlib import Path
from typing import Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from blst_msm import BlstMsm  # noqa: E402  (bench/blst_msm.py)
from interleaved import in_turn, summary  # noqa: E402  (bench/interleaved.py)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)

from evm384_native import execute  # noqa: E402
from evm384_native.bls12_381 import eip2537_oracle as oracle  # noqa: E402
from evm384_native.contracts import build_contract  # noqa: E402
from evm384_native.curves.bls12_381 import BLS12_381  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "eip2537_msm_time.md"
GAS_LIMIT = 10 ** 9
BLST_MSM, BLST_PRECOMPILE = "blst Pippenger (decoded input)", "blst, decode + checks + Pippenger"
ARKWORKS = "arkworks multiexp_unchecked"


def contract(kind: int, target: str, data: bytes) -> Callable[[], bytes]:
    code = build_contract(f"eip2537_g{kind}msm", target=target)
    return lambda: execute(code, data, opcodes=target, engine="fast", gas=GAS_LIMIT).output


def arkworks(kind: int, pairs: list) -> Callable[[], bytes]:
    import py_arkworks_bls12381 as ark
    group = ark.G1Point if kind == 1 else ark.G2Point
    points = [group.from_xy_bytes_be(_xy(kind, p)) for p, _ in pairs]
    scalars = [ark.Scalar.from_be_bytes_mod_order(s.to_bytes(32, "big")) for _, s in pairs]
    return lambda: oracle.arkworks_encode(group.multiexp_unchecked(points, scalars))


def _xy(kind: int, point) -> bytes:
    """A point as arkworks' big-endian x || y (48-byte values, c0 before c1)."""
    encoded = oracle.encode_point(kind, point)
    return b"".join(encoded[i + 16:i + 64] for i in range(0, len(encoded), 64))


def contenders(kind: int, k: int, blst: BlstMsm) -> Dict[str, Callable[[], bytes]]:
    rng = random.Random(f"msm {kind} {k}")
    pairs = [(oracle.blst_point(kind, rng.randrange(1, BLS12_381.r)), rng.randrange(1 << 256))
             for _ in range(k)]
    data = oracle.msm_input(kind, pairs)
    runs = {BLST_MSM: blst.prepared(kind, data)}
    precompile = blst.precompile(kind)
    runs[BLST_PRECOMPILE] = lambda: precompile(data)
    try:
        runs[ARKWORKS] = arkworks(kind, pairs)
    except ImportError:
        print("py_arkworks_bls12381 is not installed: no arkworks column", file=sys.stderr)
    for target in ("evmmax", "evm384"):
        runs[f"{target.upper()} build, fast engine"] = contract(kind, target, data)
    return runs


def measure(kind: int, k: int, rounds: int, blst: BlstMsm) -> Dict[str, dict]:
    runs = contenders(kind, k, blst)
    expected = runs[BLST_MSM]()
    wrong = [label for label, run in runs.items() if run() != expected]
    if wrong:
        raise AssertionError(f"G{kind} k={k}: wrong answers from {', '.join(wrong)}")
    one_round, times = in_turn({label: (lambda run=run: run() == expected)
                                for label, run in runs.items()})
    for _ in range(rounds + 1):                # the first round is a warm-up
        one_round()
    return summary(times, BLST_MSM, rounds)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[1, 8, 32, 128])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args(argv)
    blst = BlstMsm()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    load = "%.2f %.2f %.2f" % os.getloadavg()
    command = "python bench/eip2537_msm_time.py" + ("" if not argv else " " + " ".join(argv))
    lines = ["# EIP-2537 MSM contracts beside blst's own Pippenger", "",
             f"Written by `{command}` on {now}, commit {git_revision()}; CPU {cpu_model()} "
             f"({os.cpu_count()} CPUs, shared with other jobs; load {load} at the start), "
             f"Python {platform.python_version()}. {args.rounds} interleaved rounds after a "
             "warm-up; min / median per call in ms, and over blst's Pippenger on the "
             "decoded input (min / median ratios).", ""]
    header = False
    for kind in (1, 2):
        for k in args.k:
            rows = measure(kind, k, args.rounds, blst)
            if not header:
                header = True
                lines += ["| group | k | " + " | ".join(rows) + " |",
                          "|---|---:|" + "---:|" * len(rows)]
            lines.append(f"| G{kind} | {k} | " + " | ".join(
                f"{ms(r['min'])} / {ms(r['median'])} ({r['min ratio']:.1f}x / "
                f"{r['median ratio']:.1f}x)" for r in rows.values()) + " |")
            print(lines[-1], file=sys.stderr)
    lines[2] = lines[2].replace(" at the start)", " at the start, %.2f %.2f %.2f at the end)"
                                % os.getloadavg())
    text = "\n".join(lines) + "\n"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
