"""Timing whole programs on an engine and fitting the time of each operation: a pilot run
sizes the programs (each varied count takes up to a time budget), the programs are timed
(the minimum of a few repetitions, interleaved so that a change in the machine's load
touches them all alike), and NNLS fits time = intercept + sum(ns per unit * count)."""
from __future__ import annotations

import gc
import random
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..evm.api import execute
from ..evm.opcode_sets import resolve_opcodes
from ..evm.result import ExecutionResult
from .nnls import nnls, r_squared
from .programs import (EVMMAX_FEATURES, INSTRUCTIONS, PACKED_FEATURES, Program, design,
                       evm384_calldata, evm384_limits, evm384_program, evmmax_calldata,
                       evmmax_limits, evmmax_program, max_new_contexts,
                       other_instructions)

ENGINES = ("fast", "python")
INTERCEPT = "intercept"
RUN_GAS = 10**12                  # the programs are timed, not priced: never out of gas
MIN_UNIT_NS = 0.05                # a pilot's floor, so that no program is sized infinite
LIMB_COUNTS = tuple(range(1, 13))


@dataclass(frozen=True)
class Settings:
    """How much to measure: programs per fit, rounds over all fits and repetitions of
    each program in a round (the minimum is kept), the time each varied count may take in
    one program, and the design's seed."""
    programs: int = 48
    rounds: int = 3
    repeat: int = 3
    budget_ns: float = 1_000_000.0
    seed: int = 1


DEFAULT = Settings()
QUICK = Settings(programs=12, rounds=1, repeat=1, budget_ns=40_000.0)


@dataclass(frozen=True)
class Fit:
    """One regression: ns per unit of each feature (per element, new context, value, op,
    instruction; the intercept: per program) and R^2 on the programs' times."""
    engine: str
    opcodes: str                  # "evmmax", "evm384" or "evm768"
    limbs: Optional[int]          # EVMMAX's limb count; None for EVM384 and EVM768
    ns: Dict[str, float]
    r2: float
    programs: int


JOB_BUDGET_NS = 500_000_000       # the time a job's repeats may take in all (see best_times)


def best_times(jobs: Sequence[Callable[[], ExecutionResult]], repeat: int
               ) -> Tuple[List[int], List[ExecutionResult]]:
    """The fewest ns each job took in ``repeat`` rounds over all of them, after a first
    round (it decodes the code, which is cached after) whose results are returned. A job
    whose first run takes longer than JOB_BUDGET_NS / repeat joins only as many rounds as
    fit that budget, and one that takes longer than the budget none: its first run's time
    is its measurement (long against the machine's noise and the decoding; BLS12-381's
    plain-EVM builds run for seconds on the python engine). The garbage collector is off
    meanwhile: its pauses would land on random programs."""
    results, rounds, best = [], [], []
    for job in jobs:
        start = time.perf_counter_ns()
        results.append(job())
        first = time.perf_counter_ns() - start
        rounds.append(min(repeat, JOB_BUDGET_NS // max(first, 1)))
        best.append(2**63 if rounds[-1] else first)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for r in range(repeat):
            for i, job in enumerate(jobs):
                if r >= rounds[i]:
                    continue
                start = time.perf_counter_ns()
                job()
                best[i] = min(best[i], time.perf_counter_ns() - start)
    finally:
        if was_enabled:
            gc.enable()
    return best, results


BLOCK_NS = 2_000_000      # a job's block of calls takes about this long ...
MAX_BLOCK = 16            # ... and repeats it at most this many times after its first call


def block_size(first_ns: int) -> int:
    """How many calls a job's block adds after its first, by the time of one call (0: none,
    a call long enough for its first-call costs not to matter)."""
    size = min(MAX_BLOCK, BLOCK_NS // max(first_ns, 1))
    return size if size >= 2 else 0


def _repeated(job: Callable[[], ExecutionResult], calls: int) -> Callable[[], ExecutionResult]:
    def run() -> ExecutionResult:
        for _ in range(calls - 1):
            job()
        return job()
    return run


def block_slopes(jobs: Sequence[Callable[[], ExecutionResult]], firsts: Sequence[int],
                 repeat: int) -> Tuple[List[int], List[int]]:
    """The ns of a call of each job within a block of its calls, as EIP-7904 prices an
    operation: the slope of a block's time over its count. Each job runs as a block of one
    call and as one of 1 + n (``block_size`` of its one-call time in ``firsts``), timed by
    :func:`best_times` in rounds over all the one-call blocks, then all the longer ones (in
    the jobs' order: each block starts after another job's, with the caches that job
    left); the slope (T(1 + n) - T(1)) / n leaves out what only a block's first call pays.
    A job with n = 0 keeps its time in ``firsts``. Returns the slopes and the block sizes."""
    sizes = [block_size(ns) for ns in firsts]
    blocked = [(job, n) for job, n in zip(jobs, sizes) if n]
    times = best_times([job for job, _ in blocked]
                       + [_repeated(job, 1 + n) for job, n in blocked], repeat)[0]
    ones, mores = iter(times[:len(blocked)]), iter(times[len(blocked):])
    slopes = []
    for first, n in zip(firsts, sizes):
        if n:
            slopes.append(max((next(mores) - next(ones)) // n, 1))
        else:
            slopes.append(first)
    return slopes, sizes


def _job(program: Program, engine: str) -> Callable[[], ExecutionResult]:
    return lambda: execute(program.code, program.calldata, gas=RUN_GAS, engine=engine,
                           opcodes=program.opcodes)


def fit(features: Sequence[str], rows: Sequence[Mapping[str, float]],
        times_ns: Sequence[float]) -> Tuple[Dict[str, float], float]:
    """NNLS of the times on an intercept and ``features`` (each row's counts): the ns per
    unit of each (INTERCEPT included) and R^2."""
    counts = np.array([[1.0] + [float(row[name]) for name in features] for row in rows])
    times = np.asarray(times_ns, dtype=float)
    # unit-norm columns: counts of 1 and of 100,000 side by side would make the least
    # squares ill-conditioned; scaling a column by a positive number keeps x >= 0
    scale = np.linalg.norm(counts, axis=0)
    scale[scale == 0] = 1.0
    scaled, _ = nnls(counts / scale, times)
    coefficients = scaled / scale
    ns = dict(zip((INTERCEPT, *features), (float(c) for c in coefficients)))
    return ns, r_squared(times, counts @ coefficients)


@dataclass(frozen=True)
class Plan:
    """The programs of one fit, sized by a pilot run on its engine."""
    engine: str
    opcodes: str
    limbs: Optional[int]
    features: Tuple[str, ...]
    programs: Tuple[Program, ...]


def _plan(features: Sequence[str], build: Callable[[Mapping[str, int]], Program],
          limits: Mapping[str, int], pilot: Mapping[str, int], engine: str,
          settings: Settings, rng: random.Random) -> Tuple[Program, ...]:
    """A pilot (each feature alone, and nothing) for the time of a unit of each, then the
    design's programs sized by it."""
    empty = build({})
    singles = [build({name: pilot[name]}) for name in features]
    times, _ = best_times([_job(p, engine) for p in [empty, *singles]], settings.repeat)
    unit_ns = {name: max(MIN_UNIT_NS, (t - times[0]) / pilot[name])
               for name, t in zip(features, times[1:])}
    return tuple(build(amounts) for amounts in
                 design(features, unit_ns, settings.budget_ns, limits, settings.programs, rng))


def plan_evmmax(limbs: int, engine: str, settings: Settings = DEFAULT) -> Plan:
    """Programs for ns per MULMODX/ADDMODX/SUBMODX element, new context, LOADX/STOREX
    value and other instruction at ``limbs`` limbs."""
    rng = random.Random(settings.seed * 1000 + limbs)
    calldata = evmmax_calldata(limbs, settings.seed)
    pilot = {"MULMODX": 4000, "ADDMODX": 4000, "SUBMODX": 4000,
             "SETMODX": min(64, max_new_contexts(limbs)), "LOADX": 1024, "STOREX": 1024,
             INSTRUCTIONS: 2000}
    programs = _plan(EVMMAX_FEATURES, lambda a: evmmax_program(limbs, a, rng, calldata),
                     evmmax_limits(limbs), pilot, engine, settings, rng)
    return Plan(engine, "evmmax", limbs, EVMMAX_FEATURES, programs)


def plan_evm384(engine: str, settings: Settings = DEFAULT, opcodes: str = "evm384") -> Plan:
    """Programs for ns per ADDMOD384, SUBMOD384, MULMODMONT384 (with its PUSH16) and other
    instruction; for ``opcodes="evm768"`` per ADDMOD768, SUBMOD768, MULMODMONT768."""
    features = PACKED_FEATURES[opcodes]
    calldata = evm384_calldata(settings.seed, opcodes)
    rng = random.Random(settings.seed * 1000 + 64 * resolve_opcodes(opcodes).value_limbs)
    pilot = {name: 2000 for name in features}
    programs = _plan(features, lambda a: evm384_program(a, calldata, opcodes),
                     evm384_limits(opcodes), pilot, engine, settings, rng)
    return Plan(engine, opcodes, None, features, programs)


def measure(plans: Sequence[Plan], settings: Settings = DEFAULT,
            progress: Callable[[str], None] = lambda _: None) -> List[Fit]:
    """Each plan's fit. The plans are timed in ``settings.rounds`` rounds, one plan after
    the other in each (a plan's decoded programs fit the engines' caches; all plans' would
    not), each program's time the fewest ns over all rounds: this machine's speed drifts
    over seconds (measured: a MULMODX element 220 to 310 ns, CPU time alike, within 10 s),
    and rounds apart give every fit the fast moments."""
    best: List[List[int]] = [[2**63] * len(plan.programs) for plan in plans]
    first: List[List[ExecutionResult]] = []
    for round_ in range(settings.rounds):
        for i, plan in enumerate(plans):
            progress(f"round {round_ + 1}/{settings.rounds}: {_label(plan)}")
            times, results = best_times([_job(p, plan.engine) for p in plan.programs],
                                        settings.repeat)
            best[i] = [min(a, b) for a, b in zip(best[i], times)]
            if round_ == 0:
                first.append(results)
    return [_fit_plan(plan, times, results) for plan, times, results in zip(plans, best, first)]


def _label(plan: Plan) -> str:
    what = plan.opcodes.upper() if plan.limbs is None else f"EVMMAX at {plan.limbs} limbs"
    return f"{what} on the {plan.engine} engine"


def _fit_plan(plan: Plan, times: Sequence[int], results: Sequence[ExecutionResult]) -> Fit:
    for result in results:
        if not result.success:
            raise RuntimeError(f"a pricing program failed ({_label(plan)}): {result.error}")
    rows = [{**p.amounts, INSTRUCTIONS: other_instructions(p, r)}
            for p, r in zip(plan.programs, results)]
    ns, r2 = fit(plan.features, rows, times)
    return Fit(plan.engine, plan.opcodes, plan.limbs, ns, r2, len(plan.programs))


def measure_evmmax(limbs: int, engine: str, settings: Settings = DEFAULT) -> Fit:
    """The fit at ``limbs`` limbs on ``engine`` alone."""
    return measure([plan_evmmax(limbs, engine, settings)], settings)[0]


def measure_evm384(engine: str, settings: Settings = DEFAULT, opcodes: str = "evm384") -> Fit:
    """The EVM384 (``opcodes="evm768"``: EVM768) fit on ``engine`` alone."""
    return measure([plan_evm384(engine, settings, opcodes)], settings)[0]
