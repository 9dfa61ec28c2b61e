"""Every way this project can run a program, and the comparison of their outcomes.

An outcome is the :class:`ExecutionResult`, or the exception a variant raised
(``"raised ValueError: ..."``). All variants must give equal outcomes; a result must
also be consistent in itself (gas adds up, counts add up to steps, ...).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Dict, List, Optional, Tuple, Union

from evm384_native.evm import ExecutionResult, Tracer
from evm384_native.evm.api import run
from evm384_native.evm.forks import DEFAULT_FORK
from evm384_native.evm.gas import EVM384_NAMES

Outcome = Union[ExecutionResult, str]

# name -> run() options; the traced run is the Python engine's step loop.
VARIANTS: Dict[str, dict] = {
    "python/native": dict(engine="python", backend="native"),
    "python/native/unfused": dict(engine="python", backend="native", fuse_evm384=False),
    "python/reference": dict(engine="python", backend="reference"),
    "python/reference/unfused": dict(engine="python", backend="reference", fuse_evm384=False),
    "python/native/traced": dict(engine="python", backend="native", tracer=Tracer()),
    "fast": dict(engine="fast", backend="native"),
    "fast/unfused": dict(engine="fast", backend="native", fuse_evm384=False),
}
RESULT_FIELDS = ("success", "output", "gas_used", "gas_left", "error", "steps", "opcode_counts")


def run_variant(name: str, code: bytes, calldata: bytes, gas: int, schedule,
                opcodes: str = "evm384", fork: str = DEFAULT_FORK) -> Outcome:
    try:
        return run(code, calldata, gas=gas, schedule=schedule, opcodes=opcodes, fork=fork,
                   **VARIANTS[name])
    except Exception as exc:  # an outcome to compare, whatever it is
        return f"raised {type(exc).__name__}: {exc}"


def run_variants(code: bytes, calldata: bytes, gas: int, schedule,
                 names: Optional[List[str]] = None, opcodes: str = "evm384") -> Dict[str, Outcome]:
    return {name: run_variant(name, code, calldata, gas, schedule, opcodes)
            for name in names or VARIANTS}


def inconsistencies(result: ExecutionResult, gas: int) -> List[str]:
    """What is wrong with a result on its own."""
    problems = []
    if result.gas_used + result.gas_left != gas or min(result.gas_used, result.gas_left) < 0:
        problems.append(f"gas_used {result.gas_used} + gas_left {result.gas_left} != gas {gas}")
    if result.success != (result.error is None):
        problems.append(f"success {result.success} with error {result.error!r}")
    if result.steps != sum(result.opcode_counts.values()) or \
            any(count <= 0 for count in result.opcode_counts.values()):
        problems.append(f"steps {result.steps} vs opcode_counts {result.opcode_counts}")
    if result.error not in (None, "revert") and (result.gas_left or result.output):
        problems.append(f"exceptional halt {result.error!r} kept gas or output")
    return problems


def describe_differences(outcomes: Dict[str, Outcome], gas: int) -> List[str]:
    """Empty when all outcomes agree, are consistent, and no variant raised anything but
    a ValueError all of them raised (a rejected input)."""
    problems = []
    names = list(outcomes)
    first = outcomes[names[0]]
    for name in names[1:]:
        other = outcomes[name]
        if isinstance(first, str) or isinstance(other, str):
            if first != other:
                problems.append(f"{name}: {other!r} but {names[0]}: {first!r}")
            continue
        for field in RESULT_FIELDS:
            mine, theirs = getattr(other, field), getattr(first, field)
            if mine != theirs:
                problems.append(f"{field}: {name} {mine!r} but {names[0]} {theirs!r}")
    for name, outcome in outcomes.items():
        if isinstance(outcome, str):
            if not outcome.startswith("raised ValueError"):
                problems.append(f"{name} {outcome}")
        else:
            problems += [f"{name}: {problem}" for problem in inconsistencies(outcome, gas)]
    return problems


def signature(problems: List[str]) -> frozenset:
    """What a failure is about (for shrinking: keep failing the same way)."""
    return frozenset(problem.split(":")[0] for problem in problems)



PYEVM_FORK = "prague"        # the fork of _pyevm_vm: py-evm 0.12 has no Osaka (no CLZ)


@lru_cache(maxsize=64)
def _pyevm_vm(schedule: Tuple[int, int, int], opcodes: str):
    from eth.vm.forks import PragueVM
    from evm384_native.integrations.pyevm import with_evm384
    return with_evm384(PragueVM, schedule=dict(zip(EVM384_NAMES, schedule)), opcodes=opcodes)


def pyevm_differences(result: Outcome, code: bytes, calldata: bytes, gas: int,
                      schedule: Tuple[int, int, int], opcodes: str = "evm384") -> List[str]:
    """py-evm (Prague with this project's EVM384 opcodes, or as it is for plain EVM), an
    independent EVM, must agree on success, output and gas used; programs that reach a state
    opcode (unsupported here, run by py-evm) are not compared."""
    from evm384_native.integrations.pyevm import execute_in_pyevm
    if isinstance(result, str) or (result.error or "").startswith("unsupported opcode"):
        return []
    theirs = execute_in_pyevm(code, calldata, gas=gas, vm_class=_pyevm_vm(schedule, opcodes))
    ours = (result.success, result.output, result.gas_used)
    if ours == (theirs.success, theirs.output, theirs.gas_used):
        return []
    return [f"py-evm: (success, output, gas used) {(theirs.success, theirs.output, theirs.gas_used)} "
            f"({theirs.error}) but ours {ours} ({result.error})"]
