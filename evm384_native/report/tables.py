"""The report's tables as text cells, one source for the HTML and the Markdown page (and
for the test that reads the numbers back): numbers with thousands separators, times in
microseconds, a rate below the anchor marked with ``BELOW``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

from .collect import rate, timing_of

BELOW = " *"                # after a Mgas/s under the anchor: that gas buys too much time
NONE = "-"


@dataclass(frozen=True)
class Table:
    title: str
    header: Sequence[str]
    rows: List[Sequence[str]]
    notes: str = ""
    level: int = 3          # its title's heading level


def integer(value: Optional[int]) -> str:
    return NONE if value is None else f"{value:,}"


def micros(ns: Optional[float]) -> str:
    """ns as microseconds, one decimal."""
    return NONE if ns is None else f"{ns / 1000:,.1f}"


def mgas(value: Optional[float], anchor: float) -> str:
    if value is None:
        return NONE
    return f"{value:,.0f}" + (BELOW if value < anchor else "")


OPERATION_HEADER = ("contract", "precompile", "its gas", "its EIP-7904 gas", "its total",
                    "target", "schedule", "gas", "calldata", "total", "bytes",
                    "fast engine µs", "library", "library µs", "Mgas/s")


def operations(report: Dict[str, Any]) -> Table:
    """Every build of every contract under each model of its target (``evm384 gas``'s
    rows), with its time on the fast engine, the library's and the Mgas/s."""
    anchor = report["anchor_mgas_per_s"]
    timing = timing_of(report)
    rows: List[Sequence[str]] = []
    for row in report["gas"]:
        native = report["natives"][row["contract"]]
        timed = timing.get((row["contract"], row["target"]))
        gas = integer(row["gas"]) if row["success"] is not False else f"failed: {row['error']}"
        rows.append((row["contract"], row["precompile"] or NONE,
                     integer(row["precompile_gas"]), integer(row["precompile_measured_gas"]),
                     integer(row["precompile_total_gas"]), row["target"], row["schedule"],
                     gas, integer(row["calldata_gas"]), integer(row["total_gas"]),
                     integer(row["bytes"]), micros(timed["ns"]["fast"] if timed else None),
                     native["library"] or NONE,
                     micros(native["ns"]) if native["ns"] is not None else native["status"],
                     mgas(rate(report, row), anchor)))
    notes = (f"gas: execution under the schedule (EVM384) or cost model (EVMMAX; plain EVM: "
             f"mainnet's, \"-\"); calldata: EIP-2028; total: what a transaction pays for the "
             f"call (execution, calldata, the contract's cold access, or EIP-7623's floor), "
             f"the 21,000 of every transaction aside; its gas / its total: the precompile's "
             f"price and its total with its own input (warm); its EIP-7904 gas: the slowest "
             f"client's measured time at 100 Mgas/s; fast engine µs and library µs: the "
             f"fastest of {report['settings']['rounds']} interleaved rounds on the example "
             f"input (seed {report['seed']}); Mgas/s: gas over the fast engine's time net of an "
             f"empty call's (the CALL that reaches a contract prices the call), "
             f"\"{BELOW.strip()}\" below {anchor:g} (that gas buys more time than "
             f"{anchor:g} Mgas/s allows)")
    return Table("Every operation", OPERATION_HEADER, rows, notes, level=2)


def baseline(report: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """The figure's pyblst entry, the ratios' baseline."""
    return next((bar for bar in report["figure"] if bar["label"] == "pyblst"), None)


def figure(report: Dict[str, Any]) -> Table:
    base = baseline(report)
    rows: List[Sequence[str]] = []
    for bar in sorted(report["figure"], key=lambda bar: bar["ns"] or float("inf")):
        ratio = (f"{bar['ns'] / base['ns']:.2f}x" if bar["ns"] is not None and base
                 else NONE)
        rows.append((bar["label"], bar["kind"],
                     micros(bar["ns"]) if bar["ns"] is not None else bar["status"], ratio))
    return Table("Its times",
                 ("implementation", "kind", "µs", "x pyblst"), rows,
                 f"BLS12-381, two pairs (a product that is one, seed {report['seed']}); each "
                 f"time the fastest of {report['settings']['figure_rounds']} rounds in which "
                 "every implementation runs in turn; the libraries get the points decoded "
                 "beforehand and validate nothing, as the plain check does not either; the "
                 "hinted checks are given the residue witness their caller computes "
                 "(pairing_hint, not timed) and skip the final exponentiation")


def about(report: Dict[str, Any]) -> Table:
    machine = report["machine"]
    rows: List[Sequence[str]] = [
        ("date", report["date"]), ("commit", report["commit"]),
        ("machine", f"{machine['cpu']}, {machine['cores']} cores, load "
                    f"{machine['load_average'][0]:.2f}, Python {machine['python']}"),
        ("seed", f"{report['seed']} (the gas figures: evm384 gas --seed {report['seed']})"),
        *(("command", command) for command in report["commands"])]
    if report["quick"]:
        rows.append(("--quick", report["quick_drops"]))
    return Table("How this page was made", ("what", "value"), rows, level=2)
