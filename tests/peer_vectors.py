"""Precompile vectors from the peers' suites (tests/vectors/eest, tests/vectors/geth_fail;
SOURCE.md in each) read as one shape, and the answer of the contract that stands for each
precompile, on a target and an engine.

A vector is its input and the precompile's output, or None where the precompile fails.
The contracts answer a failure as the project's tests read it (tests/test_bn254_contracts.py,
tests/test_eip2537_ops.py): the BN254 and EIP-2537 contracts fail as the precompiles do
(INVALID: an exceptional halt that consumes the gas; the hinted checks REVERT);
``p256verify`` never fails (P256VERIFY answers an invalid input with empty output, a success).
"""
from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

import pytest

from evm384_native import execute
from evm384_native.contracts import build_contract, failure_of, family_of, targets_of

VECTORS = Path(__file__).parent / "vectors"
# enough for go-ethereum's largest G2 MSM (1,024 pairs: over 30 million gas under EVM384,
# about 8 billion on plain EVM); a limit above Osaka's transaction cap runs all the same
# (evm384_native.execute)
GAS = 1 << 34
# inputs whose plain-EVM runs take seconds each (G2 MSMs of over 64 pairs: 0.5-8 billion
# gas) run under ``slow``
SLOW_PLAIN_EVM_BYTES = 64 * 288


@dataclass(frozen=True)
class Vector:
    contract: str
    name: str
    data: bytes
    expected: Optional[bytes]           # None: the precompile fails

    @property
    def id(self) -> str:
        return f"{self.contract}:{self.name}"


def read_json(path: Path) -> list:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return json.load(f)


def load(path: Path, contract: str) -> List[Vector]:
    """The vectors of one file: "Expected" (hex, null where the precompile fails) or, in
    go-ethereum's fail- files, "ExpectedError" (the precompile fails)."""
    vectors = []
    for entry in read_json(path):
        expected = entry.get("Expected")
        if "ExpectedError" in entry:
            assert expected is None, entry["Name"]
        vectors.append(Vector(contract, entry["Name"], bytes.fromhex(entry["Input"]),
                              None if expected is None else bytes.fromhex(expected)))
    assert vectors, path
    return vectors


@lru_cache(maxsize=None)
def code(contract: str, target: str) -> bytes:
    return build_contract(contract, target=target)


def answer(contract: str, target: str, data: bytes, engine: str) -> Tuple[Optional[bytes], int]:
    """(output, gas used) of the contract, output None where it failed as its precompile
    does (an exceptional halt consuming the gas; the hinted checks REVERT with empty output);
    any other end fails the test."""
    result = execute(code(contract, target), data, opcodes=target, engine=engine, gas=GAS)
    if result.success:
        return result.output, result.gas_used
    assert failure_of(contract).ended(result), (contract, result.error)
    return None, result.gas_used


def cases(vectors: Sequence[Vector]) -> list:
    """pytest parameters (vector, target): each vector on every target its contract builds
    for."""
    return [pytest.param(v, target, id=f"{v.id}-{target}",
                         marks=[pytest.mark.slow] if target == "evm" and
                         len(v.data) > SLOW_PLAIN_EVM_BYTES else [])
            for v in vectors for target in targets_of(v.contract)]


def python_engine_cases(vectors: Sequence[Vector]) -> list:
    """:func:`cases` but the plain-EVM builds over fields wider than a word (BLS12's): they
    run tens of millions of gas a vector, seconds each on the python engine, so the python
    engine takes them on the tests' samples only (the fast engine on every vector)."""
    def wide(contract: str) -> bool:
        field = family_of(contract).field
        return field is not None and field.p >> 256 != 0
    return [case for case in cases(vectors)
            if not (case.values[1] == "evm" and wide(case.values[0].contract))]


def check_both_engines(vector: Vector, target: str) -> None:
    """The python engine gives the fast engine's output and gas, and the output is the
    vector's."""
    fast = answer(vector.contract, target, vector.data, "fast")
    assert answer(vector.contract, target, vector.data, "python") == fast
    assert fast[0] == vector.expected
