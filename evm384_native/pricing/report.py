"""A whole pricing run: the fits on each engine, the cost table they give at the anchor,
the built contracts and the adversarial EVMMAX programs repriced and timed under every
model; as a JSON-ready dict (``price``) and as text (``render``)."""
from __future__ import annotations

import dataclasses
import os
import platform
import random
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from ..contracts import CONTRACTS, USAGE, build_contract, targets_of
from ..evm.api import execute
from ..evm.result import ExecutionResult
from ..evm.costs import COST_MODELS, EvmmaxCosts
from ..evm.gas import EVM384_NAMES, SCHEDULES, Evm384Schedule
from ..evm.opcode_sets import resolve_opcodes
from ..evm.opcodes import EVM768_MNEMONICS
from .adversarial import Program as AdversarialProgram
from .adversarial import evmmax_corpus
from .anchor import FITTED, Anchor, fitted_costs, fitted_op_costs, fitted_schedule, throughput
from .measure import (DEFAULT, INTERCEPT, LIMB_COUNTS, RUN_GAS, Fit, Settings, best_times,
                      block_slopes, measure, plan_evm384, plan_evmmax)
from .programs import EVMMAX_FEATURES, PACKED_FEATURES

Model = Union[EvmmaxCosts, Evm384Schedule]
ADVERSARIAL_GAS = {"fast": 2_000_000, "python": 300_000}   # each run: until out of gas
QUICK_ADVERSARIAL_GAS = 100_000
Progress = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


# --- the fits ----------------------------------------------------------------------------

def measure_fits(engines: Sequence[str], settings: Settings, progress: Progress = _quiet
                 ) -> Dict[str, Dict[str, Any]]:
    """Per engine: "evmmax" (limbs -> Fit), "evm384" and "evm768" (a Fit each)."""
    plans = []
    for engine in engines:
        progress(f"sizing the programs on the {engine} engine")
        plans += [plan_evmmax(limbs, engine, settings) for limbs in LIMB_COUNTS]
        plans += [plan_evm384(engine, settings, opcodes) for opcodes in PACKED_FEATURES]
    fits = measure(plans, settings, progress)
    found: Dict[str, Dict[str, Any]] = {engine: {"evmmax": {}} for engine in engines}
    for fit in fits:
        if fit.limbs is None:
            found[fit.engine][fit.opcodes] = fit
        else:
            found[fit.engine]["evmmax"][fit.limbs] = fit
    return found


def _fit_json(fit: Fit) -> Dict[str, Any]:
    return {"limbs": fit.limbs, "r2": fit.r2, "programs": fit.programs, "ns": fit.ns}


# --- the models --------------------------------------------------------------------------

def evmmax_models(fitted: EvmmaxCosts) -> Dict[str, EvmmaxCosts]:
    return {**COST_MODELS, FITTED: fitted}


def evm384_models(fitted: Evm384Schedule) -> Dict[str, Evm384Schedule]:
    return {**SCHEDULES, FITTED: fitted}


# Plain EVM has one model, mainnet's gas at the fork (Osaka): nothing to fit or choose.
MAINNET = "mainnet"


def _model_options(target: str, model: Optional[Model]) -> Dict[str, Any]:
    """execute()'s options for a model of ``target``."""
    if model is None:
        return {}
    return {"costs": model} if target == "evmmax" else {"schedule": model}


def _schedule_json(schedule: Evm384Schedule) -> Dict[str, int]:
    return dict(zip(EVM384_NAMES, (schedule.addmod384, schedule.submod384,
                                   schedule.mulmodmont384)))


def evm768_models(fitted: Dict[str, int], schedules: Dict[str, Evm384Schedule]
                  ) -> Dict[str, Dict[str, int]]:
    """EVM768's gas: fitted on its own ops' time, and each EVM384 schedule (the fitted one
    among them) by the per-limb model at twelve limbs."""
    limbs = resolve_opcodes("evm768").value_limbs
    modelled = {f"{label} per limb": dict(zip(EVM768_MNEMONICS,
                                              schedule.by_opcode(limbs).values()))
                for label, schedule in schedules.items()}
    return {FITTED: fitted, **modelled}


def _costs_json(costs: EvmmaxCosts) -> Dict[str, List[int]]:
    return {"SETMODX": list(costs.setmodx), "ADDMODX": list(costs.add_sub),
            "SUBMODX": list(costs.add_sub), "MULMODX": list(costs.mul)}


EMPTY_CALL = b"\x00"      # STOP: the time of a call that does nothing


def net_ns(ns: int, call_ns: int) -> int:
    """A run's time net of its empty call's (``call_ns``), or the whole time where the
    empty call measured no less than the run: both start cold, and on a small contract
    the call's misses can outweigh the contract's own work, a measurement that says
    nothing of the contract's rate."""
    return ns - call_ns if call_ns < ns else ns


# --- contracts ---------------------------------------------------------------------------

def contract_rows(engines: Sequence[str], models: Dict[str, Dict[str, Optional[Model]]],
                  anchor: Anchor, repeat: int, seed: int = 1) -> List[Dict[str, Any]]:
    """Each build of every registered contract (:mod:`..contracts`: each target it is built
    for) on its example input: its gas under each model of its target, its time on each
    engine, and the Mgas/s that makes net of an empty call's time (``call_ns``: a STOP on
    the same engine and opcode set), since the CALL that reaches a contract pays for the
    call itself.

    The time is a call's in a block of calls of the build, as EIP-7904 measures an
    operation (:func:`.measure.block_slopes`): the first call's cold misses (Python's call
    path, the binding's and the engine's caches, evicted by the build timed before) fall
    out, and the empty call's alike. The first call, cold, is kept beside (``cold_ns``, and
    ``cold_call_ns`` the empty call's, timed after the same job as the contract: the
    contracts again in a second pass of each round, each after its empty call)."""
    # EVM768's builds (BW6-761's check) are priced by EVM384's schedules, which an EVM768 run
    # applies per limb (docs/evm768.md), unless the caller gives models of their own
    models = {"evm768": models["evm384"], **models}
    builds = [(name, target) for name in CONTRACTS for target in targets_of(name)]
    inputs = {}
    for name, target in builds:
        usage = USAGE[name]
        inputs[name, target] = (build_contract(name, target=target),
                                usage.example(random.Random(seed), usage.example_k, True))
    runs = [(target, code, data) for (_, target), (code, data) in inputs.items()]
    count = len(runs)
    timed: Dict[str, Dict[str, List[int]]] = {}
    for engine in engines:
        def job(target: str, code: bytes, data: bytes, e: str = engine
                ) -> Callable[[], ExecutionResult]:
            return lambda: execute(code, data, engine=e, opcodes=target, gas=RUN_GAS)
        contracts = [job(*run) for run in runs]
        empties = [job(target, EMPTY_CALL, b"") for target, _, _ in runs]
        paired = [j for pair in zip(empties, contracts) for j in pair]
        best = best_times(contracts + paired, repeat)[0]
        cold, cold_call = best[:count], best[count::2]
        alternate = [j for pair in zip(contracts, empties) for j in pair]
        firsts = [t for pair in zip(cold, cold_call) for t in pair]
        slopes, sizes = block_slopes(alternate, firsts, repeat)
        steady, steady_call, sizes = slopes[::2], slopes[1::2], sizes[::2]
        timed[engine] = {"ns": steady, "call_ns": steady_call, "cold_ns": cold,
                         "cold_call_ns": cold_call, "block": sizes}
    rows = []
    for i, ((name, target), (code, data)) in enumerate(inputs.items()):
        gas = {}
        success = True
        for label, model in models[target].items():
            result = execute(code, data, engine="fast", opcodes=target, gas=RUN_GAS,
                             **_model_options(target, model))
            gas[label] = result.gas_used
            success = success and result.success
        row: Dict[str, Any] = {"contract": name, "target": target,
                               "k": USAGE[name].example_k, "success": success, "gas": gas}
        for key in ("ns", "call_ns", "cold_ns", "cold_call_ns", "block"):
            row[key] = {engine: timed[engine][key][i] for engine in engines}
        net = {engine: net_ns(row["ns"][engine], row["call_ns"][engine]) for engine in engines}
        cold = {engine: net_ns(row["cold_ns"][engine], row["cold_call_ns"][engine])
                for engine in engines}
        row["cold_mgas_per_s"] = {label: {engine: throughput(g, t) for engine, t in cold.items()}
                                  for label, g in gas.items()}
        rows.append(_throughput_row(row, gas, net, anchor))
    return rows


def _throughput_row(row: Dict[str, Any], gas: Dict[str, int], ns: Dict[str, int],
                    anchor: Anchor) -> Dict[str, Any]:
    """``row`` with Mgas/s by model and engine (``ns``: the time each engine's gas buys),
    and the pairs below the anchor."""
    rates = {label: {engine: throughput(gas[label], t) for engine, t in ns.items()}
             for label in gas}
    row["mgas_per_s"] = rates
    row["below_anchor"] = [f"{label} on {engine}" for label, by_engine in rates.items()
                           for engine, rate in by_engine.items() if rate < anchor.mgas_per_s]
    return row


# --- the adversarial corpus --------------------------------------------------------------

def adversarial_rows(programs: Sequence[AdversarialProgram], engines: Sequence[str],
                     models: Dict[str, EvmmaxCosts], anchor: Anchor, repeat: int,
                     quick: bool) -> List[Dict[str, Any]]:
    """Each program run until out of gas under each model: gas over time."""
    gas = {engine: QUICK_ADVERSARIAL_GAS if quick else ADVERSARIAL_GAS[engine]
           for engine in engines}
    pairs = [(program, label) for program in programs for label in models]
    times = {}
    for engine in engines:
        jobs = [lambda p=program, m=models[label], e=engine: execute(
                    p.code, p.calldata, gas=gas[e], engine=e, opcodes="evmmax", costs=m)
                for program, label in pairs]
        times[engine], results = best_times(jobs, repeat)
        for (program, label), result in zip(pairs, results):
            if result.error != "out of gas":
                raise RuntimeError(f"adversarial {program.name!r} under {label}: "
                                   f"{result.error or 'stopped'}, not out of gas")
    rows = []
    for i, program in enumerate(programs):
        per = {label: i * len(models) + j for j, label in enumerate(models)}
        rates = {label: {engine: throughput(gas[engine], times[engine][k])
                         for engine in engines} for label, k in per.items()}
        rows.append({"program": program.name, "gas": gas, "mgas_per_s": rates,
                     "below_anchor": [f"{label} on {engine}" for label, by in rates.items()
                                      for engine, rate in by.items()
                                      if rate < anchor.mgas_per_s]})
    return rows


# --- a whole run -------------------------------------------------------------------------

def machine() -> Dict[str, Any]:
    """The CPU, its cores, the load average and the Python version, for a report."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info
                       if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "load_average": list(os.getloadavg()),
            "python": platform.python_version()}


def price(engines: Sequence[str] = ("fast",), anchor: Anchor = Anchor(10.0),
          settings: Settings = DEFAULT, quick: bool = False,
          progress: Progress = _quiet) -> Dict[str, Any]:
    """Measure, fit, derive the cost table at ``anchor`` and reprice: the whole report.
    The table is priced from the first engine's fits; the others are reported beside."""
    start = time.perf_counter()
    machine_info = machine()
    fits = measure_fits(engines, settings, progress)
    first = fits[engines[0]]
    costs = fitted_costs(first["evmmax"], anchor)
    schedule = fitted_schedule(first["evm384"], anchor)
    models = {"evmmax": evmmax_models(costs), "evm384": evm384_models(schedule),
              "evm": {MAINNET: None}}
    evm768 = evm768_models(fitted_op_costs(first["evm768"], anchor), models["evm384"])
    progress("timing the contracts")
    contracts = contract_rows(engines, models, anchor, settings.rounds * settings.repeat)
    progress("timing the adversarial EVMMAX programs")
    adversarial = adversarial_rows(evmmax_corpus(), engines, models["evmmax"], anchor,
                                   settings.repeat, quick)
    return {
        "anchor": {"mgas_per_s": anchor.mgas_per_s, "ns_per_gas": anchor.ns_per_gas},
        "engines": list(engines), "priced_on": engines[0],
        "settings": {**dataclasses.asdict(settings), "quick": quick},
        "machine": machine_info,
        "fits": {engine: {"evmmax": [_fit_json(by["evmmax"][n]) for n in LIMB_COUNTS],
                          **{opcodes: _fit_json(by[opcodes]) for opcodes in PACKED_FEATURES}}
                 for engine, by in fits.items()},
        "evmmax_models": {label: _costs_json(m) for label, m in models["evmmax"].items()},
        "evm384_models": {label: _schedule_json(m) for label, m in models["evm384"].items()},
        "evm768_models": evm768,
        "contracts": contracts, "adversarial": adversarial,
        "seconds": time.perf_counter() - start,
    }


# --- text --------------------------------------------------------------------------------

def _columns(lines: List[Sequence[str]], left: int = 1) -> List[str]:
    """Aligned columns: the first ``left`` to the left, the others to the right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return ["  ".join(cell.ljust(w) if i < left else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(line, widths))).rstrip()
            for line in lines]


def _ns(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def _fit_lines(engine: str, by: Dict[str, Any]) -> List[str]:
    features = [f for f in EVMMAX_FEATURES if f != "instructions"]
    lines: List[Sequence[str]] = [("limbs", "R^2", *features, "other instr", "intercept")]
    for fit in by["evmmax"]:
        lines.append((str(fit["limbs"]), f"{fit['r2']:.4f}", *(_ns(fit["ns"][f]) for f in features),
                      _ns(fit["ns"]["instructions"]), _ns(fit["ns"][INTERCEPT])))
    packed = []
    for opcodes, features in PACKED_FEATURES.items():
        fit = by[opcodes]
        ops = [f for f in features if f != "instructions"]
        packed += [""] + _columns([(opcodes.upper(), "R^2", *ops, "other instr", "intercept"),
                                   ("", f"{fit['r2']:.4f}", *(_ns(fit["ns"][f]) for f in ops),
                                    _ns(fit["ns"]["instructions"]),
                                    _ns(fit["ns"][INTERCEPT]))])
    return ([f"fitted ns per operation on the {engine} engine (NNLS of whole-program times; "
             "per element, new context, value; intercept: per program)"]
            + _columns(lines) + packed)


def _gas_lines(report: Dict[str, Any]) -> List[str]:
    anchor = Anchor(report["anchor"]["ns_per_gas"])
    models = report["evmmax_models"]
    order = [FITTED] + [label for label in models if label != FITTED]
    fits = report["fits"][report["priced_on"]]["evmmax"]
    lines: List[Sequence[str]] = [("limbs", *(f"{row} ({' / '.join(order)})"
                                              for row in ("SETMODX", "ADD/SUBMODX", "MULMODX")),
                                   "LOADX/STOREX fitted")]
    for i, fit in enumerate(fits):
        transfer = anchor.gas(max(fit["ns"]["LOADX"], fit["ns"]["STOREX"]))
        flag = " (above MULMODX's)" if transfer > models[FITTED]["MULMODX"][i] else ""
        lines.append((str(fit["limbs"]),
                      *(" / ".join(str(models[label][row][i]) for label in order)
                        for row in ("SETMODX", "ADDMODX", "MULMODX")), f"{transfer}{flag}"))
    schedules = report["evm384_models"]
    evm384_order = [FITTED] + [label for label in schedules if label != FITTED]
    evm384 = [("EVM384", *evm384_order)] + [
        (op, *(str(schedules[label][op]) for label in evm384_order)) for op in EVM384_NAMES]
    evm768_models = report["evm768_models"]
    evm768 = [("EVM768", *evm768_models)] + [
        (op, *(str(evm768_models[label][op]) for label in evm768_models))
        for op in EVM768_MNEMONICS]
    return ([f"gas at {anchor.mgas_per_s:g} Mgas/s ({anchor.ns_per_gas:g} ns a gas), rounded up, "
             f"at least 1: fitted on the {report['priced_on']} engine beside the EIPs' tables; "
             "LOADX/STOREX are priced as MULMODX, their own fitted gas beside; EVM768 "
             "fitted beside each EVM384 schedule's per-limb model at 12 limbs (evm.gas)"]
            + _columns(lines) + [""] + _columns(evm384) + [""] + _columns(evm768))


def _rate(value: float, anchor: float) -> str:
    return f"{value:,.0f}" + ("*" if value < anchor else "")


def _contract_lines(report: Dict[str, Any], target: str) -> List[str]:
    rows = [row for row in report["contracts"] if row["target"] == target]
    if not rows:
        return []
    anchor = report["anchor"]["mgas_per_s"]
    labels = list(rows[0]["gas"])
    lines: List[Sequence[str]] = [("contract", "engine", "ms", *(f"gas {l}" for l in labels),
                                   *(f"Mgas/s {l}" for l in labels), "first call ms",
                                   *(f"first call Mgas/s {l}" for l in labels))]
    for row in rows:
        for engine, ns in row["ns"].items():
            lines.append((row["contract"], engine, f"{ns / 1e6:.3f}",
                          *(f"{row['gas'][l]:,}" for l in labels),
                          *(_rate(row["mgas_per_s"][l][engine], anchor) for l in labels),
                          f"{row['cold_ns'][engine] / 1e6:.3f}",
                          *(_rate(row["cold_mgas_per_s"][l][engine], anchor) for l in labels)))
    calls = ", ".join(f"{engine} {min(c) / 1e3:.1f}-{max(c) / 1e3:.1f} us" for engine, c in
                      {e: [row["call_ns"][e] for row in rows] for e in rows[0]["call_ns"]}.items())
    return [f"contracts built for {target.upper()} on their example inputs (`evm384 gas`'s): "
            "a call's time in a block of calls of the build (EIP-7904's slope over the "
            "count), gas and Mgas/s under each model net of an empty call's time in the same "
            f"way ({calls}: the CALL that reaches a contract prices the call); beside, the "
            "block's first call, cold after another build, net of an empty call timed after "
            "the same job"] + _columns(lines, left=2)


def _adversarial_lines(report: Dict[str, Any]) -> List[str]:
    rows = report["adversarial"]
    anchor = report["anchor"]["mgas_per_s"]
    labels = list(report["evmmax_models"])
    lines: List[Sequence[str]] = [("program", "engine", *(f"Mgas/s {l}" for l in labels))]
    for row in rows:
        for engine in report["engines"]:
            lines.append((row["program"], engine,
                          *(_rate(row["mgas_per_s"][l][engine], anchor) for l in labels)))
    gas = ", ".join(f"{g:,} gas on {e}" for e, g in rows[0]["gas"].items()) if rows else ""
    return ([f"adversarial EVMMAX programs (evm384_native.pricing.adversarial), each run "
             f"until out of gas ({gas})"] + _columns(lines, left=2))


def render(report: Dict[str, Any]) -> str:
    """The report as text tables."""
    anchor = report["anchor"]["mgas_per_s"]
    settings, machine = report["settings"], report["machine"]
    sections = [[f"prices fitted from measured time: {', '.join(report['engines'])} engine(s), "
                 f"{settings['programs']} programs a fit, each the fastest of "
                 f"{settings['rounds']} x {settings['repeat']} runs; {machine['cpu']}, load {machine['load_average'][0]:.2f}; "
                 f"{report['seconds']:.0f} s"]]
    sections += [_fit_lines(engine, by) for engine, by in report["fits"].items()]
    sections.append(_gas_lines(report))
    sections += [_contract_lines(report, target)
                 for target in ("evmmax", "evm384", "evm768", "evm")]
    sections.append(_adversarial_lines(report))
    sections.append([f"* below {anchor:g} Mgas/s: the model buys more time than the anchor "
                     "allows a gas (underpriced on that engine)"])
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"
