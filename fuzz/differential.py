"""The differential fuzzer: generated cases on every variant, until time runs out or a
case fails; a failure is shrunk and written out as a reproducer.

Case ``n`` of seed ``s`` is drawn from ``random.Random(f"{s}:{n}")`` alone, so
``--seed s --case n`` replays it.
"""
from __future__ import annotations

import json
import pathlib
import random
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Callable, Dict, List, Optional, TextIO, Tuple

from .cases import Case, decode, encode
from .evm768 import evm768_program
from .evmmax import evmmax_program
from .plain import plain_program
from .programs import Limits, mutate, random_bytes, structured
from .shrink import shrink
from .variants import (PYEVM_FORK, Outcome, describe_differences, pyevm_differences,
                       run_variant, run_variants, signature)

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus" / "engine"
PYEVM_MAX_GAS = 10_000_000     # at most ~2.3 MB of memory
KINDS = ("random", "structured", "huge-gas", "mutated", "mutated", "structured", "evmmax",
         "evm", "evm768")
# The opcode sets whose cases py-evm checks: plain EVM is py-evm's own (the integration adds
# nothing), EVM384 and EVM768 through our integration (py-evm's memory growth and gas around
# the kernels); EVMMAX's py-evm opcodes are the engine's handlers
PYEVM_SETS = ("evm384", "evm", "evm768")


def corpus_cases() -> List[Case]:
    """The committed corpus (shared with the coverage-guided harness): programs from the
    tests, kept where they add coverage, and what the harness found."""
    return [decode(path.read_bytes()) for path in sorted(CORPUS.iterdir())]


@lru_cache(maxsize=None)
def contract_cases() -> Tuple[Case, ...]:
    """The BLS12-381 contracts with valid calldata (built here, not stored)."""
    from evm384_native.bls12_381 import build_contract, encode_calldata
    from evm384_native.bls12_381.oracle import eip2537_input, encode_pairs, random_product_case

    pairs = random_product_case(random.Random(1), 2, True)
    return (Case(build_contract("eip2537_pairing_check"), eip2537_input(pairs), 2_000_000,
                 (2, 2, 6)),
            Case(build_contract("pairing_product_is_one"),
                 encode_calldata("pairing_product_is_one", encode_pairs(pairs)), 2_000_000))


def make_case(seed: int, index: int, limits: Limits, seeds: List[Case]) -> Tuple[str, Case]:
    rng = random.Random(f"{seed}:{index}")
    kind = rng.choice(KINDS)
    if kind == "random":
        case = random_bytes(rng, limits)
    elif kind == "structured":
        case = structured(rng, limits)
    elif kind == "huge-gas":   # loop-free, memory under 64 KiB or past the 4 GiB cap
        case = structured(rng, limits, huge=True)
    elif kind == "evmmax":
        case = evmmax_program(rng, limits)
    elif kind == "evm":
        case = plain_program(rng, limits)
    elif kind == "evm768":
        case = evm768_program(rng, limits)
    else:
        case = mutate(rng, rng.choice(seeds), seeds, limits)
    return kind, case


def problems_of(case: Case) -> Tuple[List[str], Dict[str, Outcome]]:
    outcomes = run_variants(case.code, case.calldata, case.gas, case.schedule_argument(),
                            opcodes=case.opcodes)
    return describe_differences(outcomes, case.gas), outcomes


def problems_with_pyevm(case: Case) -> Tuple[List[str], Dict[str, Outcome]]:
    """:func:`problems_of`, and py-evm's answer where gas keeps its memory small (py-evm has
    no 4 GiB cap: with huge gas it would allocate what it is asked for)."""
    problems, outcomes = problems_of(case)
    if not problems and case.gas <= PYEVM_MAX_GAS and case.opcodes in PYEVM_SETS:
        problems = pyevm_differences(_at_pyevm_fork(case, outcomes["python/native"]),
                                     case.code, case.calldata, case.gas, case.schedule,
                                     case.opcodes)
    return problems, outcomes


def _at_pyevm_fork(case: Case, ours: Outcome) -> Outcome:
    """Our outcome under py-evm's fork (Prague: no CLZ). The cases run under Osaka; one
    that ran no CLZ runs the same under Prague (0x1e has no immediate data, so it moves
    no jump destination), else it runs again there."""
    if isinstance(ours, str) or "CLZ" not in ours.opcode_counts:
        return ours
    return run_variant("python/native", case.code, case.calldata, case.gas,
                       case.schedule_argument(), case.opcodes, fork=PYEVM_FORK)


@dataclass
class Stats:
    cases: int = 0
    by_kind: Dict[str, int] = field(default_factory=dict)
    slowest: Tuple[float, str] = (0.0, "")

    def add(self, kind: str, seconds: float, label: str) -> None:
        self.cases += 1
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
        if seconds > self.slowest[0]:
            self.slowest = (seconds, label)


def write_reproducer(out_dir: pathlib.Path, label: str, case: Case, original: Case,
                     problems: List[str], outcomes: Dict[str, Outcome]) -> pathlib.Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    report = {"label": label, "problems": problems,
              "case": {"code": case.code.hex(), "calldata": case.calldata.hex(), "gas": case.gas,
                       "schedule": case.schedule_argument(), "opcodes": case.opcodes},
              "outcomes": {name: repr(outcome) for name, outcome in outcomes.items()},
              "original_case": {"code": original.code.hex(), "calldata": original.calldata.hex(),
                                "gas": original.gas, "schedule": original.schedule_argument()}}
    path = out_dir / f"{label}.json"
    path.write_text(json.dumps(report, indent=1) + "\n")
    (out_dir / f"{label}.py").write_text(case.python_source())
    if case.encodable():
        (out_dir / f"{label}.case").write_bytes(encode(case))
    return path


def fuzz(seconds: float, seed: int, limits: Limits, out_dir: pathlib.Path, log: TextIO,
         only_case: Optional[int] = None, shrink_seconds: float = 60.0,
         check: Callable[[Case], Tuple[List[str], Dict[str, Outcome]]] = problems_of) -> int:
    """Run cases for ``seconds``; 0 when all agreed, 1 after writing a reproducer."""
    seeds = corpus_cases() + list(contract_cases())
    stats = Stats()
    deadline = time.monotonic() + seconds
    index = only_case if only_case is not None else 0
    while True:
        kind, case = make_case(seed, index, limits, seeds)
        label = f"seed{seed}-case{index}"
        started = time.monotonic()
        problems, outcomes = check(case)
        follow_up = _boundary_case(case, outcomes)
        if not problems and follow_up is not None:   # the same program at its exact gas - 1
            case = follow_up
            problems, outcomes = check(case)
        stats.add(kind, time.monotonic() - started, label)
        if problems:
            return _report_failure(label, kind, case, problems, limits, out_dir, log,
                                   shrink_seconds, check)
        index += 1
        if only_case is not None or time.monotonic() >= deadline:
            break
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(stats.by_kind.items()))
    print(f"fuzz: seed {seed}: {stats.cases} cases agree on every variant ({kinds}); "
          f"slowest {stats.slowest[0]:.2f} s ({stats.slowest[1]})", file=log)
    return 0


def _boundary_case(case: Case, outcomes: Dict[str, Outcome]) -> Optional[Case]:
    """Half of the successful cases are run again with one gas less than they used."""
    result = next(iter(outcomes.values()))
    if isinstance(result, str) or not result.success or result.gas_used == 0 or \
            random.Random(case.code + case.calldata).random() < 0.5:
        return None
    return replace(case, gas=result.gas_used - 1)


def _report_failure(label: str, kind: str, case: Case, problems: List[str], limits: Limits,
                    out_dir: pathlib.Path, log: TextIO, shrink_seconds: float,
                    check: Callable[[Case], Tuple[List[str], Dict[str, Outcome]]]) -> int:
    print(f"fuzz: {label} ({kind}) FAILED:", *problems[:10], sep="\n  ", file=log)
    wanted = signature(problems)

    def fails(candidate: Case) -> bool:
        # Code cut down under huge gas could reach any memory size below the cap: only the
        # gas is shrunk then (see shrink()).
        if candidate.gas > limits.max_gas and candidate.code != case.code:
            return False
        return signature(check(candidate)[0]) == wanted

    small = shrink(case, fails, shrink_seconds)
    problems, outcomes = check(small)
    path = write_reproducer(out_dir, label, small, case, problems, outcomes)
    print(f"fuzz: shrunk to code {small.code.hex() or '(empty)'} calldata "
          f"{small.calldata.hex() or '(empty)'} gas {small.gas} schedule "
          f"{small.schedule_argument()}; reproducer: {path}", file=log)
    return 1
