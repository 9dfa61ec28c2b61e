"""The report's three charts from its data (:mod:`.collect`), drawn by :mod:`.svg`: the
two-pairing check in every implementation, each operation's gas per instruction set beside
its precompile's price, and each build's Mgas/s against the anchor."""
from __future__ import annotations

from itertools import groupby
from typing import Any, Dict, List

from .collect import rate
from .svg import Bar, bar_chart, headed
from .tables import baseline

OURS, LIBRARY, BASE, PRECOMPILE, BELOW = "#1f77b4", "#9a9a9a", "#2ca02c", "#ff7f0e", "#d62728"


def _ms(ns: float) -> str:
    return f"{ns / 1e6:.3g} ms"


def figure(report: Dict[str, Any]) -> str:
    """The design notes' figure: the two-pairing check's time per implementation."""
    base = baseline(report)
    bars = []
    for bar in sorted(report["figure"], key=lambda bar: bar["ns"] or float("inf")):
        kind = "base" if bar is base else bar["kind"]
        note = bar["status"] if bar["ns"] is None else _ms(bar["ns"]) + (
            f" ({bar['ns'] / base['ns']:.2f}x pyblst)" if base else "")
        bars.append(Bar(bar["label"], bar["ns"] / 1e6 if bar["ns"] else None, kind, note))
    return bar_chart(bars, f"BLS12-381 two-pairing check: this project's bytecode and the "
                           f"libraries ({report['date']})",
                     "ms per check (log scale; shorter is faster)",
                     {"ours": OURS, "library": LIBRARY, "base": BASE},
                     {"ours": "bytecode here (contract, target, engine)",
                      "library": "BLS12-381 libraries", "base": "baseline: pyblst"})


def _by_contract(report: Dict[str, Any]) -> List[Any]:
    return [(name, list(rows)) for name, rows in groupby(report["gas"],
                                                           key=lambda row: row["contract"])]


def gas(report: Dict[str, Any]) -> str:
    """Each operation's gas on each instruction set and model, beside its precompile."""
    groups = []
    for name, rows in _by_contract(report):
        bars = [Bar(f"{row['target']} {row['schedule']}", row["gas"], "ours",
                    f"{row['gas']:,}" if row["gas"] is not None else f"failed: {row['error']}")
                for row in rows]
        if rows[0]["precompile_gas"] is not None:
            bars.append(Bar("precompile", rows[0]["precompile_gas"], "precompile",
                            f"{rows[0]['precompile_gas']:,} ({rows[0]['precompile']})"))
        groups.append((name, bars))
    return bar_chart(headed(groups), "Gas of each operation per instruction set and model "
                                     f"(evm384 gas --seed {report['seed']})",
                     "execution gas (log scale)", {"ours": OURS, "precompile": PRECOMPILE},
                     {"ours": "the contract's execution gas", "precompile": "the precompile's "
                                                                           "price"})


def throughput(report: Dict[str, Any]) -> str:
    """Each build's Mgas/s on the fast engine under each model, against the anchor."""
    anchor = report["anchor_mgas_per_s"]
    groups = []
    for name, rows in _by_contract(report):
        bars = []
        for row in rows:
            value = rate(report, row)
            if value is not None:
                bars.append(Bar(f"{row['target']} {row['schedule']}", value,
                                "below" if value < anchor else "ours", f"{value:,.0f}"))
        groups.append((name, bars))
    return bar_chart(headed(groups), "Mgas/s of each build on the fast engine",
                     "Mgas/s: gas over the measured time net of an empty call's (log scale)",
                     {"ours": OURS, "below": BELOW},
                     {"ours": f"at least {anchor:g} Mgas/s",
                      "below": f"below {anchor:g}: underpriced here"},
                     line=(anchor, f"{anchor:g} Mgas/s"))


CHARTS = (("figure", "The two-pairing check in every implementation", figure),
          ("gas", "Gas per instruction set", gas),
          ("mgas", "Mgas/s against the 100 Mgas/s line", throughput))
