"""Every contract's bytecode on every target (and ``compact`` choice) and its gas on a seeded
example, pinned: a change to shared code (the tower, the registry, the assembler) must leave
every contract byte for byte as it was. BLS12-381's pins date from before the tower was made
generic (commit a0f09bd); the other families' from issue 43's start. A change that means to
alter a contract updates the pins with tests/vectors/make_pins.py and says why."""
import hashlib
import json
import random
from pathlib import Path

import pytest

from evm384_native import execute
from evm384_native.bls12_381.hint import build_prover
from evm384_native.contracts import CONTRACTS, USAGE, build_contract, targets_of

PINS = json.loads((Path(__file__).parent / "vectors" / "contract_pins.json").read_text())


def _code(key: str) -> bytes:
    if key == "prover":
        return build_prover().code
    name, target, compact = key.split("/")
    options = {} if compact == "None" else {"compact": compact == "True"}
    return build_contract(name, target=target, **options)


@pytest.mark.parametrize("key", sorted(PINS["code"]))
def test_bytecode_is_pinned(key):
    assert hashlib.sha256(_code(key)).hexdigest() == PINS["code"][key]


@pytest.mark.parametrize("key", sorted(PINS["gas"]))
def test_gas_and_output_are_pinned(key):
    name, target = key.split("/")
    usage = USAGE[name]
    data = usage.example(random.Random(7), usage.example_k, True)
    result = execute(build_contract(name, target=target), data, opcodes=target,
                     engine="fast", gas=30_000_000)
    assert [result.success, result.gas_used,
            hashlib.sha256(result.output).hexdigest()] == PINS["gas"][key]


def test_every_contract_on_every_target_is_pinned():
    pinned = {tuple(key.split("/")[:2]) for key in PINS["gas"]}
    assert pinned == {(name, target) for name in CONTRACTS for target in targets_of(name)}
