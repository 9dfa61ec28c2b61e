"""Everything ``evm384 report`` shows, measured now, as one JSON-ready dict.

The numbers come from the commands' own code, called here, never re-derived: the gas table
is :func:`..cli.gas.rows` (``evm384 gas --json``, contract by contract), the fast engine's
time and Mgas/s of each build are :func:`..pricing.report.contract_rows` (``evm384 price
--json``'s ``contracts``) under the EIPs' models, and the flame graph is the profiler's
(:mod:`..asm.flamegraph`). What is new here: each precompile's native library timed on
the same input (:mod:`.natives`), and the two-pairing check in every implementation beside
the BLS12-381 libraries (:mod:`.peers`), in interleaved rounds."""
from __future__ import annotations

import datetime
import random
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import __version__, execute
from ..asm.flamegraph import CallPathGas, svg
from ..cli.gas import TABLE_GAS, rows as gas_rows
from ..contracts import CONTRACTS, TARGETS, USAGE, build_contract, build_program, targets_of
from ..evm.costs import COST_MODELS
from ..evm.gas import SCHEDULES
from ..pricing.anchor import DEFAULT_MGAS_PER_S, Anchor
from ..pricing.measure import best_times
from ..pricing.report import MAINNET, contract_rows, machine
from .commit import commit
from .natives import NO_LIBRARY, NOT_INSTALLED, eip2537_pairs, installed, native_of
from .peers import PEER_CHECKS, PY_ECC

Progress = Callable[[int, int, str], None]          # step done, steps, what runs now
FIGURE_CONTRACT = "pairing_product_is_one"          # the design notes' two-pairing check
# the builds whose flame graph the page shows, and their pricing: the plain-EVM build's
# 16 million steps would take minutes through the profiler's Python tracer
FLAME_PRICING = {"evm384": {"schedule": "update5-A"}, "evmmax": {"costs": "eip-6690"}}


class WrongAnswer(RuntimeError):
    """An implementation in the figure did not answer that the product is one."""


@dataclass(frozen=True)
class Settings:
    """How much a report measures: ``rounds`` (each time is the fastest of that many
    interleaved rounds), ``figure_contracts`` (the two-pairing checks timed on both
    engines), ``slow_peers`` (py_ecc, pure Python, ~0.2 s a check)."""
    rounds: int
    figure_rounds: int
    figure_contracts: Tuple[str, ...]
    slow_peers: bool


DEFAULT = Settings(rounds=30, figure_rounds=15,
                   figure_contracts=(FIGURE_CONTRACT, "eip2537_pairing_check",
                                     "pairing_check_hinted", "eip2537_pairing_check_hinted"),
                   slow_peers=True)
QUICK = Settings(rounds=5, figure_rounds=3, figure_contracts=(FIGURE_CONTRACT,),
                 slow_peers=False)
# What --quick leaves out, for the page and --help
QUICK_DROPS = ("5 timing rounds instead of 30 and 3 instead of 15 for the figure; the figure "
               "shows the plain two-pairing check only (not the EIP-2537, hinted and "
               "EIP-2537 hinted ones) and leaves out py_ecc (pure Python)")


def _quiet(done: int, steps: int, what: str) -> None:
    pass


def _example(name: str, seed: int) -> bytes:
    usage = USAGE[name]
    return usage.example(random.Random(seed), usage.example_k, True)


def natives(seed: int, rounds: int) -> Dict[str, Dict[str, Any]]:
    """Per contract with a precompile: the library doing its job on the same input (the
    precompile's own encoding of it) and its fastest time of ``rounds``."""
    found = {}
    for name in CONTRACTS:
        usage = USAGE.get(name)
        native = native_of(usage.precompile if usage else None)
        if native is None:
            found[name] = {"library": None, "ns": None, "status": NO_LIBRARY}
        elif not installed(native):
            found[name] = {"library": native.label, "ns": None, "status": NOT_INSTALLED}
        else:
            job = native.prepare(usage.precompile_input(_example(name, seed)))
            found[name] = {"library": native.label, "ns": best_times([job], rounds)[0][0],
                           "status": "measured"}
    return found


Check = Optional[Callable[[], bool]]


def _figure_jobs(seed: int, settings: Settings) -> Dict[str, Tuple[str, Check]]:
    """Label -> (kind, a call returning True when the check answered "one"; None for a
    library not installed)."""
    jobs: Dict[str, Tuple[str, Check]] = {}
    for name in settings.figure_contracts:
        data = _example(name, seed)
        for target in targets_of(name):
            code = build_contract(name, target=target)
            for engine in ("fast", "python"):
                jobs[f"{name}, {target.upper()}, {engine} engine"] = ("ours", (
                    lambda c=code, d=data, t=target, e=engine: _answers_one(
                        execute(c, d, engine=e, opcodes=t, gas=TABLE_GAS))))
    pairs = eip2537_pairs(USAGE[FIGURE_CONTRACT].precompile_input(_example(FIGURE_CONTRACT, seed)))
    for label, check in PEER_CHECKS.items():
        if label == PY_ECC and not settings.slow_peers:
            continue
        try:
            jobs[label] = ("library", check(pairs))
        except ImportError:
            jobs[label] = ("library", None)
    return jobs


def _answers_one(result: Any) -> bool:
    return bool(result.success) and int.from_bytes(result.output, "big") == 1


def figure(seed: int, settings: Settings) -> List[Dict[str, Any]]:
    """The two-pairing check's time in every implementation, fastest of interleaved
    rounds; a library not installed has no time."""
    jobs = _figure_jobs(seed, settings)
    timed = [(label, run) for label, (_, run) in jobs.items() if run is not None]
    times, answers = best_times([run for _, run in timed], settings.figure_rounds)
    wrong = [label for (label, _), answer in zip(timed, answers) if answer is not True]
    if wrong:
        raise WrongAnswer(f"the two-pairing check did not answer one: {', '.join(wrong)}")
    ns = dict(zip((label for label, _ in timed), times))
    return [{"label": label, "kind": kind, "ns": ns.get(label),
             "status": "measured" if label in ns else NOT_INSTALLED}
            for label, (kind, _) in jobs.items()]


def flame_graphs(seed: int) -> Dict[str, Dict[str, Any]]:
    """The two-pairing check's gas by call path on the targets of FLAME_PRICING (the
    profiler's tracer)."""
    data = _example(FIGURE_CONTRACT, seed)
    found = {}
    for target, options in FLAME_PRICING.items():
        program = build_program(FIGURE_CONTRACT, target=target)
        paths = CallPathGas(program)
        result = execute(program.code, data, tracer=paths, opcodes=target, **options)
        pricing = next(iter(options.values()), "mainnet")
        found[target] = {"pricing": pricing, "gas": result.gas_used, "svg": svg(
            paths.stacks(), f"{FIGURE_CONTRACT}, {target.upper()} ({pricing}): gas by call path")}
    return found


def collect(seed: int, settings: Settings = DEFAULT, quick: bool = False,
            progress: Progress = _quiet) -> Dict[str, Any]:
    """The whole report's data."""
    steps = len(CONTRACTS) + 4
    found: List[Dict[str, Any]] = []
    for i, name in enumerate(CONTRACTS):
        progress(i, steps, f"gas of {name}")
        found += gas_rows([name], seed, TARGETS, tuple(COST_MODELS.values()), TABLE_GAS)
    anchor = Anchor.from_mgas_per_s(DEFAULT_MGAS_PER_S)
    progress(len(CONTRACTS), steps, "the fast engine's time of every build")
    models = {"evmmax": dict(COST_MODELS), "evm384": dict(SCHEDULES), "evm": {MAINNET: None}}
    timing = contract_rows(["fast"], models, anchor, settings.rounds, seed)
    progress(len(CONTRACTS) + 1, steps, "the native libraries")
    native = natives(seed, settings.rounds)
    progress(len(CONTRACTS) + 2, steps, "the two-pairing check in every implementation")
    bars = figure(seed, settings)
    progress(len(CONTRACTS) + 3, steps, "the flame graphs")
    flames = flame_graphs(seed)
    progress(steps, steps, "done")
    quick_flag = " --quick" if quick else ""
    return {
        "seed": seed, "quick": quick, "settings": asdict(settings),
        "quick_drops": QUICK_DROPS if quick else None,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(), "version": __version__, "machine": machine(),
        "commands": [f"evm384 report --seed {seed}{quick_flag}",
                     f"evm384 gas --json --seed {seed}",
                     "evm384 price --json (its \"contracts\": time and Mgas/s)"],
        "anchor_mgas_per_s": anchor.mgas_per_s, "mainnet": MAINNET,
        "gas": found, "timing": timing, "natives": native, "figure": bars,
        "flame_graphs": flames,
    }


def mainnet_label(schedule: str) -> str:
    """``contract_rows``' model label of an ``evm384 gas`` row's schedule (plain EVM's "-"
    is mainnet's gas)."""
    return MAINNET if schedule == "-" else schedule


def timing_of(report: Dict[str, Any]) -> Dict[Tuple[str, str], Dict[str, Any]]:
    """The report's timing rows by (contract, target)."""
    return {(row["contract"], row["target"]): row for row in report["timing"]}


def rate(report: Dict[str, Any], row: Dict[str, Any]) -> Optional[float]:
    """Mgas/s on the fast engine of an ``evm384 gas`` row (None where it did not run)."""
    timed = timing_of(report).get((row["contract"], row["target"]))
    if timed is None or row["gas"] is None:
        return None
    return timed["mgas_per_s"][mainnet_label(row["schedule"])]["fast"]
