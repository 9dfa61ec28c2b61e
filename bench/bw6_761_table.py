"""BW6-761's pairing check (EIP-3026) on EVMMAX and EVM768: gas for k = 1..4 pairs under
both EVMMAX cost models and EVM768's schedules (docs/evm768.md) beside the EIP's price
(120,000 k + 320,000), the hinted check's under EIP-6690 (execution, and with EIP-2028's
price of its whole calldata, pairs and hint), the contracts' sizes, and the fast engine's
time for two pairs beside BLS12-377's check (EIP-2539) in one process, the checks run in
turn each round, medians over the rounds after a warm-up.

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
COLUMNS = [("EVMMAX (EIP-6690)", {"opcodes": "evmmax", "costs": "eip-6690"}),
           ("EVMMAX (EIP-7747)", {"opcodes": "evmmax", "costs": "eip-7747"}),
           ("EVM768 update5-A", {"opcodes": "evm768", "schedule": "update5-A"}),
           ("EVM768 update5-B", {"opcodes": "evm768", "schedule": "update5-B"}),
           ("EVM768 evmone-v7", {"opcodes": "evm768", "schedule": "evmone-v7"})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    rounds = parser.parse_args().rounds
    code = build_contract(NAME, target="evmmax")
    code_768 = build_contract(NAME, target="evm768")
    hinted = build_contract(HINTED, target="evmmax")
    print(f"{NAME}: {len(code):,} bytes (EVMMAX), {len(code_768):,} bytes (EVM768); "
          f"{HINTED}: {len(hinted):,} bytes (EVMMAX); {cpu_model()}, commit {git_revision()}")
    print("| k | " + " | ".join(label for label, _ in COLUMNS)
          + " | hinted (EIP-6690) | hinted + calldata | EIP-3026's price |")
    print("|---:|" + "---:|" * (len(COLUMNS) + 3))
    for k in (1, 2, 3, 4):
        data = random_pairs(random.Random(1), k, k > 1)
        gas = [execute(code_768 if options["opcodes"] == "evm768" else code, data,
                       gas=10**9, **options).gas_used for _, options in COLUMNS]
        calldata = data + pairing_hint(data)
        run = execute(hinted, calldata, opcodes="evmmax", gas=10**8, costs="eip-6690")
        assert run.output == (ONE if k > 1 else bytes(32))
        print(f"| {k} | " + " | ".join(f"{g:,}" for g in gas)
              + f" | {run.gas_used:,} | {run.gas_used + calldata_gas(calldata):,}"
              + f" | {120_000 * k + 320_000:,} |")
    code_377 = build_377("bls12_377_pairing_check", target="evmmax")
    data, data_377 = random_pairs(random.Random(1), 2, True), pairs_377(random.Random(1), 2, True)
    one_round, times = in_turn({
        "bls12_377_pairing_check": lambda: execute(code_377, data_377, opcodes="evmmax",
                                                   engine="fast").output == ONE,
        NAME: lambda: execute(code, data, opcodes="evmmax", engine="fast").output == ONE,
        f"{NAME} (EVM768)": lambda: execute(code_768, data, opcodes="evm768",
                                            engine="fast").output == ONE})
    for _ in range(rounds + 1):
        one_round()
    for label, row in summary(times, "bls12_377_pairing_check", rounds).items():
        print(f"{label}, k = 2: min {row['min'] * 1000:.2f} ms, median "
              f"{row['median'] * 1000:.2f} ms ({row['median ratio']:.2f}x BLS12-377's)")


if __name__ == "__main__":
    main()
