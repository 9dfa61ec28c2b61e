"""Groth16 verifiers (evm384_native.groth16) beside the precompile-based verifier for the
same key, proof and inputs: gas as a transaction pays it, and time.

    python bench/groth16_table.py               # n = 1, 2, 4, 8 public inputs; writes bench/results/groth16.md
    python bench/groth16_table.py --no-time     # gas only

The anchor: groth16py (arkworks, PyPI) makes the key and a proof (random witness: the
public inputs are full-size field elements), exports its Vyper verifier (the snarkjs
verifier's port: ECMUL and ECADD per input, one ECPAIRING of four pairs), which vyper
compiles and titanoboa runs on py-evm; its execution gas (precompiles at EIP-1108's
prices) plus the calldata of ``verifyProof(a, b, c, input)`` (EIP-2028, selector
included) plus a cold call (EIP-2929): ``evm384_native.evm.transaction.call_cost``.
Ours: the EVMMAX verifier's execution on the fast engine under EIP-6690's costs (and
EIP-7747's), its calldata (proof, inputs, hint), a cold call. The 21,000 every
transaction pays is in neither. Every answer is checked (1 for the proof, 0 for a wrong
input) on both sides.

Time: interleaved rounds of groth16py's ``Verifier.verify`` (native arkworks) and the fast
engine running the verifier (the hint computed beforehand, as a prover would send it).
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]   # this checkout's

import groth16_cases as cases  # noqa: E402  (tests/groth16_cases.py)
from interleaved import in_turn, summary  # noqa: E402  (bench/interleaved.py)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)

from evm384_native import execute, groth16  # noqa: E402
from evm384_native.evm.transaction import call_cost  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "groth16.md"
GAS = 30_000_000


class Case:
    """A key with n inputs, a proof with random full-size inputs, both verifiers."""

    def __init__(self, n: int, seed: int) -> None:
        import boa
        import groth16py
        from eth_abi import encode
        from eth_utils import keccak
        rng = random.Random(seed)
        self.n = n
        _, self.g16_vk, self.key = cases.setup(n)
        self.proof, self.public = cases.prove(
            n, rng.randrange(1, cases.R), tuple(rng.randrange(1, cases.R) for _ in range(n - 1)))
        self.wrong = [(self.public[0] + 1) % cases.R, *self.public[1:]]
        self.verifier = groth16py.Verifier(self.g16_vk)
        self.proof_bytes = cases.proof_to_bytes(self.proof)
        assert self.verifier.verify(self.proof_bytes, self.public)
        # the precompile-based verifier (Vyper, through titanoboa)
        contract = boa.loads(self.g16_vk.to_vyper())
        words = [int.from_bytes(self.proof_bytes[i:i + 32], "big") for i in range(0, 256, 32)]
        types = ["uint256[2]", "uint256[2][2]", "uint256[2]", f"uint256[{n}]"]
        selector = keccak(text=f"verifyProof({','.join(types)})")[:4]

        def anchor(inputs: List[int]):
            data = selector + encode(types, [words[0:2], [words[2:4], words[4:6]],
                                             words[6:8], inputs])
            computation = boa.env.execute_code(to_address=contract.address, data=data, gas=GAS)
            assert not computation.is_error
            return int.from_bytes(computation.output, "big"), call_cost(
                computation.get_gas_used(), data)
        self.anchor = anchor
        self.code = {target: groth16.build_verifier(self.key, target=target)
                     for target in ("evmmax", "evm384")}
        self.data = groth16.encode_calldata(self.key, self.proof, self.public)
        self.bad_data = groth16.encode_calldata(self.key, self.proof, self.wrong)

    def ours(self, data: bytes, target: str = "evmmax", **options):
        result = execute(self.code[target], data, opcodes=target, engine="fast", gas=GAS,
                         **options)
        assert result.success, result.error
        return int.from_bytes(result.output, "big"), result.gas_used


def gas_table(rows: List[Case]) -> List[str]:
    lines = ["| n | anchor: execution | + calldata | + access | anchor total | ours: EVMMAX "
             "EIP-6690 execution | calldata (hint incl.) | access | **total** | **ratio** | "
             "EIP-7747 execution | EVM384 update5-A execution | bytes EVMMAX / EVM384 | "
             "answers |",
             "|---:" * 13 + "|---|"]
    for case in rows:
        answer, anchor = case.anchor(case.public)
        bad_answer, _ = case.anchor(case.wrong)
        mine, gas = case.ours(case.data)
        bad_mine, _ = case.ours(case.bad_data)
        assert (answer, bad_answer, mine, bad_mine) == (1, 0, 1, 0)
        _, gas_7747 = case.ours(case.data, costs="eip-7747")
        _, gas_384 = case.ours(case.data, "evm384", schedule="update5-A")
        cost = call_cost(gas, case.data)
        lines.append(
            f"| {case.n} | {anchor.execution:,} | {anchor.calldata:,} | {anchor.access:,} | "
            f"{anchor.total:,} | {gas:,} | {cost.calldata:,} | {cost.access:,} | "
            f"**{cost.total:,}** | **{cost.total / anchor.total:.3f}x** | {gas_7747:,} | "
            f"{gas_384:,} | {len(case.code['evmmax']):,} / {len(case.code['evm384']):,} | "
            f"1/0 both |")
    return lines


def time_table(rows: List[Case], rounds: int) -> List[str]:
    lines = ["| n | groth16py verify: min / median | fast engine, EVMMAX: min / median | "
             "ratio min / median |", "|---:|---:|---:|---:|"]
    for case in rows:
        runs: Dict[str, object] = {
            "groth16py": lambda: case.verifier.verify(case.proof_bytes, case.public),
            "evmmax": lambda: case.ours(case.data)[0] == 1}
        one_round, times = in_turn(runs)
        for _ in range(rounds + 1):
            one_round()
        stats = summary(times, "groth16py", rounds)
        g, m = stats["groth16py"], stats["evmmax"]
        lines.append(f"| {case.n} | {g['min'] * 1e3:.3f} / {g['median'] * 1e3:.3f} ms | "
                     f"{m['min'] * 1e3:.3f} / {m['median'] * 1e3:.3f} ms | "
                     f"{m['min ratio']:.2f}x / {m['median ratio']:.2f}x |")
    return lines


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, nargs="*", default=[1, 2, 4, 8])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--no-time", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    start_load = os.getloadavg()
    rows = [Case(n, seed=n) for n in args.inputs]
    lines = ["# Groth16 verifiers beside the precompile-based verifier", "",
             f"Written by `python bench/groth16_table.py{' --no-time' if args.no_time else ''}` "
             f"on {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, commit {git_revision()}; "
             f"CPU {cpu_model()} ({os.cpu_count()} CPUs, load "
             f"{' '.join(f'{x:.2f}' for x in start_load)} at the start), Python "
             f"{platform.python_version()}.", "",
             "## Gas as a transaction pays it (beyond the 21,000)", "",
             *gas_table(rows), ""]
    if not args.no_time:
        lines += [f"## Time ({args.rounds} interleaved rounds, one warm-up)", "",
                  *time_table(rows, args.rounds), "",
                  f"Load at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}."]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
