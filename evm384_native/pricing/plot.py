"""``--plot``: the fitted ns per operation against limbs beside each model's implied ns
(gas * ns per gas), and each contract's Mgas/s under each model. Needs matplotlib (the
``plot`` extra)."""
from __future__ import annotations

from typing import Any, Dict

from .anchor import FITTED, Anchor

NEEDS_MATPLOTLIB = "--plot needs matplotlib: pip install 'evm384_native[plot]'"
ROWS = (("MULMODX", ("MULMODX",)), ("ADD/SUBMODX", ("ADDMODX", "SUBMODX")),
        ("SETMODX", ("SETMODX",)), ("LOADX/STOREX", ("LOADX", "STOREX")))
MODEL_ROW = {"MULMODX": "MULMODX", "ADD/SUBMODX": "ADDMODX", "SETMODX": "SETMODX"}
STYLES = {"eip-6690": ":", "eip-7747": "-.", FITTED: "--"}


def require_matplotlib() -> Any:
    """matplotlib.pyplot on the file-only backend; ImportError with the one-line reason."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        raise ImportError(NEEDS_MATPLOTLIB) from None
    return pyplot


def plot(report: Dict[str, Any], path: str) -> None:
    pyplot = require_matplotlib()
    anchor = Anchor(report["anchor"]["ns_per_gas"])
    figure, (left, right) = pyplot.subplots(1, 2, figsize=(14, 6))
    fits = report["fits"][report["priced_on"]]["evmmax"]
    limbs = [fit["limbs"] for fit in fits]
    for i, (label, features) in enumerate(ROWS):
        color = f"C{i}"
        measured = [max(fit["ns"][f] for f in features) for fit in fits]
        left.plot(limbs, measured, "o-", color=color, label=f"{label} fitted ns")
        for model, table in report["evmmax_models"].items():
            if label in MODEL_ROW:
                left.plot(limbs, [anchor.implied_ns(g) for g in table[MODEL_ROW[label]]],
                          STYLES.get(model, "-"), color=color, alpha=0.7,
                          label=f"{label} {model} gas x {anchor.ns_per_gas:g} ns")
    left.set_yscale("log")
    left.set_xlabel("limbs (64-bit)")
    left.set_ylabel("ns per element / context / value")
    left.set_title(f"EVMMAX on the {report['priced_on']} engine, R^2 "
                   f"{min(f['r2'] for f in fits):.3f}..{max(f['r2'] for f in fits):.3f}")
    left.legend(fontsize=6, ncol=2)
    _contracts(right, report)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)


def _contracts(axes: Any, report: Dict[str, Any]) -> None:
    """Horizontal bars: each build's Mgas/s under each model, on the pricing engine."""
    engine = report["priced_on"]
    rows = report["contracts"]
    labels = sorted({label for row in rows for label in row["mgas_per_s"]})
    height = 0.8 / len(labels)
    for j, label in enumerate(labels):
        positions = [i + j * height for i, row in enumerate(rows) if label in row["mgas_per_s"]]
        values = [row["mgas_per_s"][label][engine] for row in rows if label in row["mgas_per_s"]]
        axes.barh(positions, values, height=height, label=label)
    axes.axvline(report["anchor"]["mgas_per_s"], color="black", linestyle="--",
                 label=f"anchor {report['anchor']['mgas_per_s']:g} Mgas/s")
    axes.set_yticks([i + 0.4 - height / 2 for i in range(len(rows))])
    axes.set_yticklabels([f"{row['contract']} ({row['target']})" for row in rows], fontsize=7)
    axes.set_xscale("log")
    axes.set_xlabel(f"Mgas/s on the {engine} engine")
    axes.legend(fontsize=7)
