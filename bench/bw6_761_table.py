"""BW6-761's pairing check (EIP-3026) on EVMMAX: gas for k = 1..4 pairs under both EVMMAX
cost models beside the EIP's price (120,000 k + 320,000), the hinted check's under
EIP-6690 (execution, and with EIP-2028's price of its whole calldata, pairs and hint), the
contracts' sizes, and the fast
engine's time for two pairs beside BLS12-377's check (EIP-2539) in one process, the two
run in turn each round, medians over the rounds after a warm-up.

    python bench/bw6_761_table.py [--rounds 9]
"""
from __future__ import annotations

import argparse
import random

from interleaved import in_turn, summary
from machine import cpu_model, git_revision

from evm384_native import execute
from evm384_native.bls12_377 import build_contract as build_377
from evm384_native.bls12_377.usage import random_pairs as pairs_377
from evm384_native.bw6_761 import build_contract
from evm384_native.bw6_761.hint import pairing_hint
from evm384_native.bw6_761.usage import random_pairs
from evm384_native.evm.transaction import calldata_gas

NAME = "bw6_761_pairing_check"
HINTED = "bw6_761_pairing_check_hinted"
ONE = (1).to_bytes(32, "big")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    rounds = parser.parse_args().rounds
    code, hinted = (build_contract(name, target="evmmax") for name in (NAME, HINTED))
    print(f"{NAME}: {len(code):,} bytes, {HINTED}: {len(hinted):,} bytes; {cpu_model()}, "
          f"commit {git_revision()}")
    print("| k | EVMMAX (EIP-6690) | EVMMAX (EIP-7747) | hinted (EIP-6690) | hinted + "
          "calldata | EIP-3026's price |")
    print("|---:|---:|---:|---:|---:|---:|")
    for k in (1, 2, 3, 4):
        data = random_pairs(random.Random(1), k, k > 1)
        gas = [execute(code, data, opcodes="evmmax", gas=10**8, costs=costs).gas_used
               for costs in ("eip-6690", "eip-7747")]
        calldata = data + pairing_hint(data)
        run = execute(hinted, calldata, opcodes="evmmax", gas=10**8, costs="eip-6690")
        assert run.output == (ONE if k > 1 else bytes(32))
        print(f"| {k} | {gas[0]:,} | {gas[1]:,} | {run.gas_used:,} | "
              f"{run.gas_used + calldata_gas(calldata):,} | {120_000 * k + 320_000:,} |")
    code_377 = build_377("bls12_377_pairing_check", target="evmmax")
    data, data_377 = random_pairs(random.Random(1), 2, True), pairs_377(random.Random(1), 2, True)
    one_round, times = in_turn({
        "bls12_377_pairing_check": lambda: execute(code_377, data_377, opcodes="evmmax",
                                                   engine="fast").output == ONE,
        NAME: lambda: execute(code, data, opcodes="evmmax", engine="fast").output == ONE})
    for _ in range(rounds + 1):
        one_round()
    for label, row in summary(times, "bls12_377_pairing_check", rounds).items():
        print(f"{label}, k = 2: min {row['min'] * 1000:.2f} ms, median "
              f"{row['median'] * 1000:.2f} ms ({row['median ratio']:.2f}x BLS12-377's)")


if __name__ == "__main__":
    main()
