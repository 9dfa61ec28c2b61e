"""The modexp contract (issue 50) against the MODEXP precompile (0x05) it replaces, on
random and mutated inputs: revm's precompile called from bytecode (pyrevm, where installed)
and py-evm's must agree with each other and with the contract, which must return their
output, or halt exceptionally consuming all its gas where the precompile fails.

The peers predate EIP-7823 (tests/modexp_oracles.py says what they do instead): past its
1,024-byte bound the expected answer is the EIP's, a failure; and py-evm abstains on 0^0
with an empty base, where it answers 0 instead of 1. So each oracle answers, or abstains
(None); the answers given must all be equal.

Like the bn254 mode, :func:`fuzz` takes the runner as an argument, so that the loop itself
can be tested with a stand-in and with wrong runners (tests/test_fuzz_modexp.py). The inputs
and oracles come from tests/modexp_cases.py and tests/modexp_oracles.py; run from the
repository root (as ``python -m fuzz`` is), where ``tests`` imports.
"""
from __future__ import annotations

import random
from typing import Callable, Dict, List, NamedTuple, Optional, TextIO

from evm384_native.modexp.reference import price_eip7883
from tests import modexp_cases as cases
from tests import modexp_oracles as oracles
from tests import modexp_runs as runs

from . import agreement
from .eip2537 import _bit_flip as _flip_in

RunResult = agreement.RunResult
Runner = Callable[[bytes], RunResult]
Oracle = Callable[[bytes], Optional[RunResult]]   # None: no answer for this input
WORD = cases.WORD
# Mutations may declare lengths that cost hours (a 1,024-byte exponent and modulus): a
# mutant priced above this (EIP-7883) is left unmutated.
MAX_PRICE = 400_000
LENGTH_EDGES = (0, 1, 2, 31, 32, 33, 64, 255, 256, 1023, 1024, 1025, 2 ** 32, 2 ** 64,
                cases.HUGE)


# --- the contract and the oracles -------------------------------------------------------------

def contract_runner(target: str = "evm", engine: str = "fast") -> Runner:
    """Runs ``build_contract("modexp", target=target)`` on ``engine``."""
    code = runs.contract(target)
    return lambda data: agreement.contract_answer(runs.run_code(code, target, engine, data))


def _as_result(output: Optional[bytes]) -> RunResult:
    return (False, b"") if output is None else (True, output)


def revm_oracle(data: bytes) -> Optional[RunResult]:
    """revm's precompile; past EIP-7823's bound, the EIP's failure (revm has no bound)."""
    if not cases.within_bounds(data):
        return (False, b"")
    return _as_result(oracles.revm_answer(data).output)


def pyevm_oracle(data: bytes) -> Optional[RunResult]:
    """py-evm's precompile where it is expected to agree (else it abstains), and past
    EIP-7823's bound the EIP's failure."""
    if not cases.within_bounds(data):
        return (False, b"")
    if not oracles.pyevm_agrees(data):
        return None
    return _as_result(oracles.pyevm_answer(data).output)


def default_oracles() -> Dict[str, Oracle]:
    """py-evm's precompile, and revm's where pyrevm is installed."""
    found: Dict[str, Oracle] = {"py-evm": pyevm_oracle}
    if oracles.revm_available():
        found["revm"] = revm_oracle
    return found


# --- mutations: (rng, data) -> data ------------------------------------------------------------

def _with_length(data: bytes, which: int, value: int) -> bytes:
    data = data.ljust(3 * WORD, b"\0")
    return data[:WORD * which] + value.to_bytes(WORD, "big") + data[WORD * (which + 1):]


def _bit_flip(rng, data):
    return _flip_in(rng, data) if data else data


def _body_bit_flip(rng, data):
    """A bit of the base, exponent or modulus (past the lengths)."""
    if len(data) <= 3 * WORD:
        return data
    return data[:3 * WORD] + _flip_in(rng, data[3 * WORD:])


def _edge_length(rng, data):
    return _with_length(data, rng.randrange(3), rng.choice(LENGTH_EDGES))


def _nudged_length(rng, data):
    which = rng.randrange(3)
    value = cases.declared_lengths(data)[which] + rng.choice([-32, -1, 1, 32])
    return _with_length(data, which, min(max(value, 0), cases.HUGE))


def _swapped_lengths(rng, data):
    lengths = list(cases.declared_lengths(data))
    i, j = rng.sample(range(3), 2)
    lengths[i], lengths[j] = lengths[j], lengths[i]
    return cases.raw(*lengths, data[3 * WORD:])


def _cut(rng, data):
    return data[:rng.randrange(len(data) + 1)]


def _trailing(rng, data):
    return data + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 70)))


def _value(rng, data):
    """The base, exponent or modulus (of its declared length, if within the bound) set to
    0, 1, 2, all ones, a power of two or its value plus or minus one."""
    lengths = cases.declared_lengths(data)
    if not cases.within_bounds(data):
        return data
    which = rng.randrange(3)
    size = lengths[which]
    start = 3 * WORD + sum(lengths[:which])
    body = data.ljust(start + size, b"\0")
    old = int.from_bytes(body[start:start + size], "big")
    value = rng.choice([0, 1, 2, 2 ** (8 * size) - 1, 1 << rng.randrange(max(8 * size, 1)),
                        old + 1, old - 1]) % 2 ** (8 * size)
    return body[:start] + value.to_bytes(size, "big") + body[start + size:]


def _leading_zeros(rng, data):
    """The first bytes of the base, exponent or modulus zeroed."""
    lengths = cases.declared_lengths(data)
    if not cases.within_bounds(data):
        return data
    which = rng.randrange(3)
    start = 3 * WORD + sum(lengths[:which])
    count = rng.randint(0, lengths[which])
    body = data.ljust(start + count, b"\0")
    return body[:start] + bytes(count) + body[start + count:]


Mutation = Callable[[random.Random, bytes], bytes]
MUTATIONS: Dict[str, Mutation] = {
    "bit flip": _bit_flip, "body bit flip": _body_bit_flip, "edge length": _edge_length,
    "nudged length": _nudged_length, "swapped lengths": _swapped_lengths, "cut": _cut,
    "trailing bytes": _trailing, "special value": _value, "leading zeros": _leading_zeros,
}


# --- inputs ------------------------------------------------------------------------------------

def _seed_input(rng: random.Random) -> bytes:
    """A random input (most often), an edge case, a cheap shape or a go-ethereum vector."""
    kind = rng.random()
    if kind < 0.7:
        return cases.random_input(rng)
    if kind < 0.85:
        return rng.choice(cases.edge_cases()).data
    if kind < 0.93:
        return rng.choice(cases.shapes()[:6]).data
    return rng.choice(cases.vectors("eip-7883")[:15]).data


class FuzzCase(NamedTuple):
    index: int
    mutations: List[str]
    data: bytes


def _affordable(data: bytes) -> bool:
    return not cases.within_bounds(data) or price_eip7883(data) <= MAX_PRICE


def fuzz_case(index: int, names: Optional[List[str]] = None) -> FuzzCase:
    """Case ``index``: a seed input and none (one case in five) to three mutations chosen
    from ``names`` (a mutant too costly to run, MAX_PRICE, is dropped)."""
    rng = random.Random(f"modexp-case:{index}")
    data = _seed_input(rng)
    applied: List[str] = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        name = rng.choice(names or sorted(MUTATIONS))
        mutant = MUTATIONS[name](rng, data)
        if _affordable(mutant):
            data = mutant
            applied.append(name)
    return FuzzCase(index, applied, data)


# --- the loop ---------------------------------------------------------------------------------

def answers_of(case: FuzzCase, run: Runner, oracles_: Dict[str, Oracle]) -> Dict[str, RunResult]:
    """The answering oracles' answers and the contract's ("contract")."""
    answers = {}
    for name, oracle in oracles_.items():
        answer = oracle(case.data)
        if answer is not None:
            answers[name] = answer
    answers["contract"] = run(case.data)
    return answers


def _describe(mismatch: agreement.Mismatch) -> str:
    case = mismatch.case
    return "\n".join([f"modexp: case {case.index} ({', '.join(case.mutations) or 'unmutated'}) "
                      "MISMATCH"] + agreement.describe_answers(mismatch.answers, "fails")
                     + [f"  input {case.data.hex()}"])


def fuzz_cases(seconds: float, seed: int, run: Runner, oracles_: Dict[str, Oracle],
               max_cases: Optional[int] = None) -> agreement.Report:
    """Cases seed * 1,000,000, ... until ``seconds`` pass (or ``max_cases`` ran)."""
    return agreement.run_cases(seconds, seed, fuzz_case,
                               lambda case: answers_of(case, run, oracles_), max_cases)


def fuzz(seconds: float, seed: int, log: TextIO, run: Optional[Runner] = None,
         oracles_: Optional[Dict[str, Oracle]] = None, max_cases: Optional[int] = None) -> int:
    """The mode ``python -m fuzz modexp``: 0 when everything agreed, else 1 (each mismatch,
    at most five, printed to ``log``). ``run`` defaults to the plain-EVM build on the fast
    engine; ``oracles_`` to py-evm and revm."""
    run = run or contract_runner()
    oracles_ = oracles_ or default_oracles()
    report = fuzz_cases(seconds, seed, run, oracles_, max_cases)
    return agreement.verdict("modexp", report, oracles_, _describe, log)
