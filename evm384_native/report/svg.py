"""Horizontal bar charts as SVG text, on a log axis: the report's plots, drawn here so that
the page needs no plotting library and no script (a bar's <title> is its tooltip)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Mapping, Optional, Sequence, Tuple
from xml.sax.saxutils import escape, quoteattr

WIDTH = 980                 # the whole chart, px
BAR, GAP = 14, 4            # a bar's height and the space under it
CHAR = 6.6                  # width of a character of the 11 px monospace labels
HEADING = "heading"         # a Bar of this kind is a group's title line, not a bar


@dataclass(frozen=True)
class Bar:
    """One line of a chart: ``value`` (None: no bar, the note alone), ``kind`` (its colour,
    a key of the chart's ``colors``, or HEADING), ``note`` written after the bar."""
    label: str
    value: Optional[float]
    kind: str
    note: str = ""


def _decades(values: Sequence[float], line: Optional[float]) -> Tuple[int, int]:
    """The powers of ten the axis spans (values and the reference line inside it)."""
    span = list(values) + ([line] if line else [])
    low = math.floor(math.log10(min(span)))
    high = math.ceil(math.log10(max(span)))
    return low, max(high, low + 1)


def _tick(exponent: int) -> str:
    value = 10.0 ** exponent
    return f"{value:,.0f}" if exponent >= 0 else f"{value:g}"


def bar_chart(bars: Sequence[Bar], title: str, axis: str, colors: Mapping[str, str],
              legend: Mapping[str, str], line: Optional[Tuple[float, str]] = None) -> str:
    """An SVG of ``bars`` (top to bottom) on a log axis titled ``axis``, with a legend
    (kind -> text) and an optional vertical reference ``line`` (value, label)."""
    values = [bar.value for bar in bars if bar.value is not None and bar.value > 0]
    if not values:
        raise ValueError(f"chart {title!r} has no value to draw")
    low, high = _decades(values, line[0] if line else None)
    left = 8 + CHAR * max(len(bar.label) for bar in bars)
    plot = WIDTH - left - 230                   # room on the right for the notes
    top = 48 + 16 * ((len(legend) + 2) // 3)

    def x(value: float) -> float:
        return left + plot * (math.log10(value) - low) / (high - low)

    height = top + (BAR + GAP) * len(bars) + 36
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
             f'viewBox="0 0 {WIDTH} {height}" font-family="monospace" font-size="11" '
             f'role="img" aria-label={quoteattr(title)}>',
             f'<text x="{WIDTH / 2}" y="18" text-anchor="middle" font-size="14">'
             f'{escape(title)}</text>']
    for i, (kind, text) in enumerate(legend.items()):
        lx, ly = 10 + 320 * (i % 3), 34 + 16 * (i // 3)
        parts.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" '
                     f'fill="{colors[kind]}"/><text x="{lx + 14}" y="{ly}">{escape(text)}</text>')
    bottom = top + (BAR + GAP) * len(bars)
    for exponent in range(low, high + 1):
        tx = x(10.0 ** exponent)
        parts.append(f'<line x1="{tx:.1f}" y1="{top - 4}" x2="{tx:.1f}" y2="{bottom}" '
                     f'stroke="#ddd"/><text x="{tx:.1f}" y="{bottom + 14}" '
                     f'text-anchor="middle">{_tick(exponent)}</text>')
    for i, bar in enumerate(bars):
        y = top + (BAR + GAP) * i
        if bar.kind == HEADING:
            parts.append(f'<text x="4" y="{y + BAR - 3}" font-weight="bold">'
                         f'{escape(bar.label)}</text>')
            continue
        parts.append(f'<text x="{left - 6:.1f}" y="{y + BAR - 3}" text-anchor="end">'
                     f'{escape(bar.label)}</text>')
        end = left
        if bar.value is not None and bar.value > 0:
            end = x(bar.value)
            parts.append(f'<rect x="{left:.1f}" y="{y}" width="{max(end - left, 1):.1f}" '
                         f'height="{BAR}" fill="{colors[bar.kind]}"><title>'
                         f'{escape(bar.label)}: {escape(bar.note)}</title></rect>')
        parts.append(f'<text x="{end + 4:.1f}" y="{y + BAR - 3}">{escape(bar.note)}</text>')
    if line is not None:
        lx = x(line[0])
        parts.append(f'<line x1="{lx:.1f}" y1="{top - 6}" x2="{lx:.1f}" y2="{bottom}" '
                     f'stroke="#d62728" stroke-dasharray="4 3"/><text x="{lx + 3:.1f}" '
                     f'y="{top - 8}" fill="#d62728">{escape(line[1])}</text>')
    parts.append(f'<text x="{left + plot / 2:.1f}" y="{bottom + 30}" text-anchor="middle">'
                 f'{escape(axis)}</text></svg>')
    return "\n".join(parts) + "\n"


def headed(groups: Sequence[Tuple[str, List[Bar]]]) -> List[Bar]:
    """Groups of bars, each under a heading line."""
    return [bar for heading, bars in groups for bar in [Bar(heading, None, HEADING)] + bars]
