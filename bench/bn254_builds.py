"""The 2-pair BN254 check (EVMMAX, fast engine) of two checkouts, each built and run by its
own package, beside this tree's 2-pair BLS12-381 check, in the same interleaved rounds.

    python bench/bn254_builds.py --baseline /tmp/base [--rounds 60]

``bench/evmmax_speed.py --baseline`` runs this tree's bytecode on both engines (an engine
change alone); here the baseline also builds its own contract, so a change of the tower
(the bytecode, its gas) is measured too. DIR holds the other checkout's package renamed
``evm384_native_base`` (as for ``evmmax_speed.py``). Prints each contender's median, its
ratio to the BLS12-381 check and to the baseline's BN254 check, and both builds' gas.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]   # this checkout's

from bn254_peers import instance  # noqa: E402  (bench/bn254_peers.py)
from evmmax_speed import run  # noqa: E402  (bench/evmmax_speed.py: the interleaved rounds)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)

from evm384_native import bls12_381, bn254, execute  # noqa: E402
from evm384_native.bls12_381.oracle import encode_pairs, random_product_case  # noqa: E402

ONE = (1).to_bytes(32, "big")
BLS, BASE, TREE = "bls12-381 k=2 (this tree)", "bn254 k=2 (baseline)", "bn254 k=2 (this tree)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="a directory holding evm384_native_base")
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    sys.path.insert(0, args.baseline)
    base = importlib.import_module("evm384_native_base")
    base_bn254 = importlib.import_module("evm384_native_base.bn254")
    data = instance("pairing", 2).data
    builds = {TREE: (execute, bn254.build_contract("bn254_pairing_check", target="evmmax")),
              BASE: (base.execute,
                     base_bn254.build_contract("bn254_pairing_check", target="evmmax"))}
    pairs = random_product_case(random.Random(14), 2, True)
    bls_code = bls12_381.build_contract("pairing_product_is_one", target="evmmax")
    bls_data = bls12_381.encode_calldata("pairing_product_is_one", encode_pairs(pairs))

    def check(runner, code, calldata):
        return lambda: runner(code, calldata, engine="fast", opcodes="evmmax").output == ONE
    contest = {BLS: check(execute, bls_code, bls_data),
               **{label: check(runner, code, data) for label, (runner, code) in builds.items()}}
    times = {label: statistics.median(t) for label, t in run(contest, args.rounds).items()}
    print(f"{git_revision()}, {cpu_model()}, {args.rounds} interleaved rounds; medians")
    for label, median in times.items():
        print(f"{label:26} {median * 1e6:8.1f} us  {median / times[BLS]:.3f}x BLS12-381  "
              f"{median / times[BASE]:.3f}x the baseline's BN254")
    for label, (runner, code) in builds.items():
        gas = runner(code, data, engine="fast", opcodes="evmmax").gas_used
        print(f"{label:26} {gas:,} gas, {len(code):,} bytes")


if __name__ == "__main__":
    main()
