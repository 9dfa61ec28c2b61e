"""Writes the pins of tests/test_contract_pins.py: every BLS12-381 contract's bytecode hash
and its gas and output on a seeded example.

    python tests/vectors/make_pins.py tests/vectors/bls12_381_pins.json
"""
import hashlib
import json
import random
import sys

from evm384_native import execute
from evm384_native.bls12_381.contracts import (CONTRACTS, EVMMAX_CONTRACTS, EVMMAX_ONLY,
                                               build_contract)
from evm384_native.bls12_381.hint import build_prover
from evm384_native.bls12_381.usage import USAGE


def pins() -> dict:
    out: dict = {"code": {}, "gas": {}}
    for name in CONTRACTS:
        targets = ([] if name in EVMMAX_ONLY else ["evm384"]) + \
            (["evmmax"] if name in EVMMAX_CONTRACTS else [])
        for target in targets:
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
