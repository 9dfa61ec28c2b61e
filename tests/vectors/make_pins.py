"""Writes the pins of tests/test_contract_pins.py: every contract's bytecode hash on every
target it builds for (and each ``compact`` choice its family takes), its gas and output on a
seeded example, and the BLS12-381 hint prover's hash.

    python tests/vectors/make_pins.py tests/vectors/contract_pins.json
"""
import hashlib
import json
import random
import sys

from evm384_native import execute
from evm384_native.bls12_381.hint import build_prover
from evm384_native.contracts import CONTRACTS, USAGE, build_contract, targets_of


def pins() -> dict:
    out: dict = {"code": {}, "gas": {}}
    for name in CONTRACTS:
        for target in targets_of(name):
            for compact in (None, True, False):
                options = {} if compact is None else {"compact": compact}
                try:
                    code = build_contract(name, target=target, **options)
                except ValueError as exc:       # a variant that cannot be built
                    print(f"not built: {name} {target} compact={compact}: {exc}")
                    continue
                out["code"][f"{name}/{target}/{compact}"] = hashlib.sha256(code).hexdigest()
            if name in USAGE:
                usage = USAGE[name]
                data = usage.example(random.Random(7), usage.example_k, True)
                result = execute(build_contract(name, target=target), data, opcodes=target,
                                 engine="fast", gas=30_000_000)
                out["gas"][f"{name}/{target}"] = [result.success, result.gas_used,
                                                  hashlib.sha256(result.output).hexdigest()]
    out["code"]["prover"] = hashlib.sha256(build_prover().code).hexdigest()
    return out


if __name__ == "__main__":
    with open(sys.argv[1], "w") as file:
        json.dump(pins(), file, indent=1, sort_keys=True)
