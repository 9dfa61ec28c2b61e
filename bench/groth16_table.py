"""Groth16 verifiers (evm384_native.groth16) beside the precompile-based verifier for the
same key, proof and inputs: gas as a transaction pays it, and time.

    python bench/groth16_table.py               # n = 1, 2, 4, 8 public inputs; writes bench/results/groth16.md
    python bench/groth16_table.py --no-time     # gas only

BLS12-381: the anchor is the EIP-2537 verifier (evm384_native.groth16.eip2537_verifier:
G1MSM, G1ADD, one PAIRING_CHECK of four pairs) run in py-evm at Prague, its calldata the
selector, the proof and the inputs; keys with a known trapdoor (tests/groth16_cases.py)
and snarkjs's published key (tests/vectors/groth16/bls12381). These rows run first: the
BN254 anchor imports titanoboa, which patches py-evm's shared tables.

The anchor: groth16py (arkworks, PyPI) makes the key and a proof (random witness: the
public inputs are full-size field elements), exports its Vyper verifier (the snarkjs
verifier's port: ECMUL and ECADD per input, one ECPAIRING of four pairs), which vyper
compiles and titanoboa runs on py-evm; its execution gas (precompiles at EIP-1108's
prices) plus the calldata of ``verifyProof(a, b, c, input)`` (EIP-2028, selector
included) plus a cold call (EIP-2929): ``evm384_native.evm.transaction.call_cost``.
Ours: the EVMMAX verifier's execution on the fast engine under EIP-6690's costs (and
EIP-7747's), its calldata (proof, inputs, hint), a cold call. The 21,000 every
transaction pays is in neither. Every answer is checked (1 for the proof, 0 for a wrong
input) on both sides. A last BN254 row: RISC Zero's production key (five public inputs)
and the receipt of its tests (tests/risc0_receipt.py), beside groth16py's Vyper verifier
for the same key.

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
from typing import Dict, List, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]   # this checkout's

import groth16_cases as cases  # noqa: E402  (tests/groth16_cases.py)
import risc0_receipt  # noqa: E402  (tests/risc0_receipt.py)
from interleaved import in_turn, summary  # noqa: E402  (bench/interleaved.py)
from machine import cpu_model, git_revision  # noqa: E402  (bench/machine.py)

from evm384_native import execute, groth16  # noqa: E402
from evm384_native.curves.bls12_381 import BLS12_381  # noqa: E402
from evm384_native.evm.transaction import call_cost  # noqa: E402
from evm384_native.groth16.eip2537_verifier import (anchor_calldata,  # noqa: E402
                                                    build_eip2537_verifier)

OUT = Path(__file__).resolve().parent / "results" / "groth16.md"
GAS = 30_000_000
BLS_FIXTURE = ROOT / "tests" / "vectors" / "groth16" / "bls12381"


class Verifiers:
    """A key, a proof, its inputs (and a wrong set), our verifiers for both targets."""

    def __init__(self, label: str, key: groth16.VerifyingKey, proof: groth16.Proof,
                 public: List[int]) -> None:
        self.label, self.key, self.proof, self.public = label, key, proof, public
        self.wrong = [(public[0] + 1) % key.spec.curve.r, *public[1:]]
        self.code = {target: groth16.build_verifier(key, target=target)
                     for target in ("evmmax", "evm384")}
        self.data = groth16.encode_calldata(key, proof, public)     # hint computed once

    def run(self, data: bytes, target: str = "evmmax", **options):
        result = execute(self.code[target], data, opcodes=target, engine="fast", gas=GAS,
                         **options)
        assert result.success, result.error
        return int.from_bytes(result.output, "big"), result.gas_used

    def ours(self, inputs: List[int], target: str = "evmmax", **options):
        """Our answer and what a transaction pays for it."""
        data = self.data if inputs == self.public else \
            groth16.encode_calldata(self.key, self.proof, inputs)
        answer, gas = self.run(data, target, **options)
        return answer, call_cost(gas, data)


class Case(Verifiers):
    """A BN254 key, a proof and its inputs, both verifiers: a groth16py key with n inputs
    and a proof for random full-size inputs (:meth:`made`), or RISC Zero's production key
    and receipt (:meth:`risc0`)."""

    def __init__(self, label: str, g16_vk, key: groth16.VerifyingKey, proof: groth16.Proof,
                 public: List[int]) -> None:
        import boa
        import groth16py
        from eth_abi import encode
        from eth_utils import keccak
        super().__init__(label, key, proof, public)
        self.g16_vk = g16_vk
        n = key.inputs
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

    @classmethod
    def made(cls, n: int, seed: int) -> "Case":
        rng = random.Random(seed)
        _, g16_vk, key = cases.setup(n)
        proof, public = cases.prove(
            n, rng.randrange(1, cases.R), tuple(rng.randrange(1, cases.R) for _ in range(n - 1)))
        return cls(str(n), g16_vk, key, proof, public)

    @classmethod
    def risc0(cls) -> "Case":
        import json
        import groth16py
        key = risc0_receipt.key()
        g16_vk = groth16py.VerifyingKey.from_snarkjs(json.dumps(key.to_snarkjs()))
        return cls("5 (RISC Zero's key and receipt)", g16_vk, key, risc0_receipt.seal()[1],
                   risc0_receipt.public_inputs())



class BlsCase(Verifiers):
    """A BLS12-381 key with n inputs (a trapdoor's, or snarkjs's published one with
    ``n`` None), a proof, both verifiers."""

    def __init__(self, n: Optional[int], seed: int) -> None:
        if n is None:
            super().__init__("1 (snarkjs's published key)", groth16.VerifyingKey.from_snarkjs(
                BLS_FIXTURE / "verification_key.json"), groth16.Proof.from_snarkjs(
                BLS_FIXTURE / "proof.json"), groth16.public_inputs_from_snarkjs(
                BLS_FIXTURE / "public.json"))
        else:
            rng = random.Random(seed)
            r = BLS12_381.r
            trap = cases.Trapdoor("bls12_381", [rng.randrange(1, r) for _ in range(n + 1)], seed)
            public = [rng.randrange(r) for _ in range(n)]
            super().__init__(str(n), trap.key, trap.proof(rng.randrange(1, r),
                                                          rng.randrange(1, r), public)[0],
                             public)
        self.anchor_code = build_eip2537_verifier(self.key)

    def anchor(self, inputs: List[int]):
        from eth.vm.forks import PragueVM
        from evm384_native.integrations.pyevm import execute_in_pyevm
        data = anchor_calldata(self.key, self.proof, inputs)
        result = execute_in_pyevm(self.anchor_code, data, gas=GAS, vm_class=PragueVM)
        assert result.success, result.error
        return int.from_bytes(result.output, "big"), call_cost(result.gas_used, data)



def gas_table(rows: List[Verifiers]) -> List[str]:
    lines = ["| n | anchor: execution | + calldata | + access | anchor total | ours: EVMMAX "
             "EIP-6690 execution | calldata (hint incl.) | access | **total** | **ratio** | "
             "EIP-7747 execution | EVM384 update5-A execution | bytes EVMMAX / EVM384 | "
             "answers |",
             "|---" + "|---:" * 12 + "|---|"]
    for case in rows:
        answer, anchor = case.anchor(case.public)
        bad_answer, _ = case.anchor(case.wrong)
        mine, cost = case.ours(case.public)
        bad_mine, _ = case.ours(case.wrong)
        assert (answer, bad_answer, mine, bad_mine) == (1, 0, 1, 0)
        _, cost_7747 = case.ours(case.public, costs="eip-7747")
        _, cost_384 = case.ours(case.public, "evm384", schedule="update5-A")
        lines.append(
            f"| {case.label} | {anchor.execution:,} | {anchor.calldata:,} | "
            f"{anchor.access:,} | {anchor.total:,} | {cost.execution:,} | {cost.calldata:,} | "
            f"{cost.access:,} | **{cost.total:,}** | **{cost.total / anchor.total:.3f}x** | "
            f"{cost_7747.execution:,} | {cost_384.execution:,} | "
            f"{len(case.code['evmmax']):,} / {len(case.code['evm384']):,} | 1/0 both |")
    return lines


def time_table(rows: List[Case], rounds: int) -> List[str]:
    lines = ["| n | groth16py verify: min / median | fast engine, EVMMAX: min / median | "
             "ratio min / median |", "|---|---:|---:|---:|"]
    for case in rows:
        runs: Dict[str, object] = {
            "groth16py": lambda: case.verifier.verify(case.proof_bytes, case.public),
            "evmmax": lambda: case.run(case.data)[0] == 1}
        one_round, times = in_turn(runs)
        for _ in range(rounds + 1):
            one_round()
        stats = summary(times, "groth16py", rounds)
        g, m = stats["groth16py"], stats["evmmax"]
        lines.append(f"| {case.label} | {g['min'] * 1e3:.3f} / {g['median'] * 1e3:.3f} ms | "
                     f"{m['min'] * 1e3:.3f} / {m['median'] * 1e3:.3f} ms | "
                     f"{m['min ratio']:.2f}x / {m['median ratio']:.2f}x |")
    return lines


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, nargs="*", default=[1, 2, 4, 8])
    parser.add_argument("--bls-inputs", type=int, nargs="*", default=[1, 2, 4, 8],
                        help="BLS12-381 trapdoor keys (snarkjs's published key too)")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--no-time", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    start_load = os.getloadavg()
    bls_rows = gas_table([BlsCase(None, 0)] + [BlsCase(n, seed=n) for n in args.bls_inputs])
    rows = [Case.made(n, seed=n) for n in args.inputs] + [Case.risc0()]
    lines = ["# Groth16 verifiers beside the precompile-based verifier", "",
             f"Written by `python bench/groth16_table.py{' --no-time' if args.no_time else ''}` "
             f"on {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC, commit {git_revision()}; "
             f"CPU {cpu_model()} ({os.cpu_count()} CPUs, load "
             f"{' '.join(f'{x:.2f}' for x in start_load)} at the start), Python "
             f"{platform.python_version()}.", "",
             "## Gas as a transaction pays it (beyond the 21,000)", "",
             *gas_table(rows), "",
             "## BLS12-381: beside the EIP-2537-precompile verifier (py-evm, Prague)", "",
             *bls_rows, ""]
    if not args.no_time:
        lines += [f"## Time ({args.rounds} interleaved rounds, one warm-up)", "",
                  *time_table(rows, args.rounds), "",
                  f"Load at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}."]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
