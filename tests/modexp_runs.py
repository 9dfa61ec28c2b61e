"""The modexp contract (issue 50) as its tests, the fuzzer and the benchmark run it: built
with ``build_contract("modexp", target=...)`` and executed on an engine with the
precompile's input as calldata; the outcome is what a caller sees (success, output, gas
used and left, the halt). :func:`reference_outcome` is the reference's answer in the same
shape, a stand-in for the contract where the fuzz loop itself is tested.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple, Optional

from evm384_native import execute
from evm384_native.asm.failure import HALT

TARGETS = ("evm", "evmmax")
ENGINES = ("fast", "python")
# More than any input of the tests needs (RSA-4096 with a full exponent included), small
# enough that a contract stuck in a loop halts within a minute on the fast engine.
GAS = 2 ** 32


class Outcome(NamedTuple):
    """An ExecutionResult's fields that a caller sees."""
    success: bool
    output: bytes
    gas_used: int
    gas_left: int
    error: Optional[str]


Run = Callable[[bytes], Outcome]


@lru_cache(maxsize=None)
def contract(target: str) -> bytes:
    """The contract's bytecode for ``target``."""
    from evm384_native.contracts import build_contract
    return build_contract("modexp", target=target)


def run_code(code: bytes, target: str, engine: str, data: bytes, gas: int = GAS) -> Outcome:
    result = execute(code, data, opcodes=target, engine=engine, gas=gas)
    return Outcome(result.success, result.output, result.gas_used, result.gas_left, result.error)


def contract_runner(target: str, engine: str) -> Run:
    """Runs the contract for ``target`` on ``engine``."""
    code = contract(target)
    return lambda data: run_code(code, target, engine, data)


def reference_outcome(data: bytes) -> Outcome:
    """The reference's answer as the contract's outcome would be (a failure halts consuming
    all GAS): a stand-in for the contract in the tests of the fuzz loop."""
    from evm384_native.modexp.reference import modexp, price_eip7883
    answer = modexp(data)
    if answer is None:
        return Outcome(False, b"", GAS, 0, HALT.error)
    price = price_eip7883(data)
    return Outcome(True, answer, price, GAS - price, None)
