"""Bar chart of the two-pairing check per implementation, in the spirit of Figure 1 of
"EVM384 Update 4" (runtimes of a BLS12-381 two-pairing check), on a log time axis.

    python bench/plot.py bench/results/pairing.json [bench/results/two_pairing.png]

Each bar is annotated with its median time and its ratio to the group's baseline (pyblst),
all from the same run. The PNG goes next to the JSON unless a path is given.
"""
from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display on CI or the benchmark machine
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

from report import baseline, format_time, label, load, median  # noqa: E402

GROUP = "two-pairing check (k = 2)"
OURS, PEER, BASELINE = "#1f77b4", "#9a9a9a", "#2ca02c"


def plot(json_path: str, png_path: str) -> None:
    """Write the chart of GROUP in ``json_path`` to ``png_path``."""
    machine, groups = load([json_path])
    benchmarks = sorted(groups[GROUP], key=median, reverse=True)  # fastest at the top
    base = baseline(benchmarks)
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(benchmarks) + 1.6))
    colors = [BASELINE if b is base else OURS if label(b).startswith("EVM384") else PEER
              for b in benchmarks]
    times_ms = [1e3 * median(b) for b in benchmarks]
    ax.barh([label(b) for b in benchmarks], times_ms, color=colors)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))
    ax.set_xlim(min(times_ms) / 2, max(times_ms) * 20)  # room for the annotations
    for y, (bench, ms) in enumerate(zip(benchmarks, times_ms)):
        ratio = median(bench) / median(base)
        ax.text(ms * 1.1, y, f"{format_time(median(bench))}  ({ratio:.{2 if ratio < 10 else 0}f}x "
                f"{label(base)})", va="center", fontsize=9)
    ax.legend(handles=[Patch(color=OURS, label="EVM384 bytecode (this project)"),
                       Patch(color=PEER, label="BLS12-381 libraries"),
                       Patch(color=BASELINE, label=f"baseline: {label(base)}")],
              loc="upper right", fontsize=8)
    ax.set_xlabel("median time per check, ms (log scale; shorter is faster)")
    ax.set_title(f"BLS12-381 two-pairing check (k = 2): EVM384 bytecode vs libraries\n"
                 f"{machine.get('cpu', {}).get('brand_raw', '?')}, "
                 f"{machine.get('cpu', {}).get('count', '?')} cores, "
                 f"Python {machine.get('python_version', '?')}, {machine['datetime'][:10]}",
                 fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.set_axisbelow(True)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    source = sys.argv[1]
    target = sys.argv[2] if len(sys.argv) == 3 else str(Path(source).with_name("two_pairing.png"))
    plot(source, target)
    print(target)
