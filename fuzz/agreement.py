"""The loop of the precompile modes (bn254, modexp): cases made by index from the seed until
a deadline, each answered by the contract and by oracles as (success, output); a case whose
answers are not all equal is a mismatch. The modes supply the cases, the answers and the
way a mismatch reads."""
from __future__ import annotations

import time
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, TextIO, Tuple

from evm384_native.asm.failure import HALT

RunResult = Tuple[bool, bytes]                    # (success, output), as a call ends


def contract_answer(result: Any) -> RunResult:
    """A contract's ExecutionResult as (success, output); any end but the precompile's
    failure (INVALID, all gas consumed, no output) is a bug of the contract, not an
    answer."""
    if result.success:
        return (True, result.output)
    if not HALT.ended(result):
        raise AssertionError(f"the contract halted with {result.error!r} "
                             f"(output {result.output.hex()}) instead of failing as the "
                             f"precompile does")
    return (False, b"")


class Mismatch(NamedTuple):
    case: Any
    answers: Dict[str, RunResult]                 # "contract" and every answering oracle's


class Report(NamedTuple):
    cases: int
    answered: int                                 # all agreed on an output
    rejected: int                                 # all agreed that the input fails
    mismatches: List[Mismatch]


def run_cases(seconds: float, seed: int, make_case: Callable[[int], Any],
              answers_of: Callable[[Any], Dict[str, RunResult]],
              max_cases: Optional[int] = None) -> Report:
    """Cases seed * 1,000,000, ... until ``seconds`` pass (or ``max_cases`` ran); the
    contract's answer is ``answers_of(case)["contract"]``."""
    deadline, index, count = time.monotonic() + seconds, seed * 1_000_000, 0
    answered, rejected, mismatches = 0, 0, []
    while time.monotonic() < deadline and (max_cases is None or count < max_cases):
        case = make_case(index)
        answers = answers_of(case)
        if len(set(answers.values())) > 1:
            mismatches.append(Mismatch(case, answers))
        elif answers["contract"][0]:
            answered += 1
        else:
            rejected += 1
        index, count = index + 1, count + 1
    return Report(count, answered, rejected, mismatches)


def describe_answers(answers: Dict[str, RunResult], failure: str) -> List[str]:
    """One line per answer: its output, or ``failure`` (how the mode's failures end)."""
    return [f"  {name:>8}: {'output ' + output.hex() if success else failure}"
            for name, (success, output) in answers.items()]


def verdict(mode: str, report: Report, oracle_names: Iterable[str],
            describe: Callable[[Mismatch], str], log: TextIO) -> int:
    """Prints the first five mismatches and the counts to ``log``: 0 when everything
    agreed, else 1."""
    for mismatch in report.mismatches[:5]:
        print(describe(mismatch), file=log)
    print(f"{mode}: {report.cases} inputs, {len(report.mismatches)} mismatches; the agreeing "
          f"{report.answered} answered, {report.rejected} rejected (oracles: "
          f"{', '.join(oracle_names)})", file=log)
    return 1 if report.mismatches else 0
