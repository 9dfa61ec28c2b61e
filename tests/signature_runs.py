"""Runs of the signature contracts (``p256verify``, ``ecrecover``) for their tests. They never
revert (every rejection ends in STOP) and answer nothing or one word; both engines must agree
on output and gas, and every target a contract builds for on output."""
from __future__ import annotations

from evm384_native import ExecutionResult, execute
from evm384_native.contracts import build_contract, targets_of

ENGINES = ("fast", "python")
ONE = (1).to_bytes(32, "big")           # P256VERIFY's answer to a valid signature


def run(code: bytes, data: bytes, engine: str = "fast", target: str = "evmmax",
        **options: object) -> ExecutionResult:
    """One run of ``code`` on ``data``: it must succeed with no output or one word."""
    result = execute(code, data, opcodes=target, engine=engine, **options)
    assert result.success, result.error            # never a revert, whatever the input
    assert len(result.output) in (0, 32)
    return result


def answers(code: bytes, data: bytes, target: str = "evmmax", both: bool = True) -> bytes:
    """The output on both engines, which must agree on output and gas (``both`` False: the
    fast engine's alone, for long runs of vectors whose sample checks the python engine)."""
    fast = run(code, data, "fast", target)
    if both:
        python = run(code, data, "python", target)
        assert (fast.output, fast.gas_used) == (python.output, python.gas_used)
    return fast.output


def sampled(index: int) -> bool:
    """Whether vector ``index`` of a long file also runs on the python engine (1 in 4)."""
    return index % 4 == 0


def answers_everywhere(name: str, data: bytes) -> bytes:
    """The output of the contract ``name`` on every target it builds for (each on both
    engines, as :func:`answers`), which must all agree."""
    found = {answers(build_contract(name, target=target), data, target)
             for target in targets_of(name)}
    assert len(found) == 1, found
    return found.pop()
