"""The page's content in order, as blocks both renderings (:mod:`.html`, :mod:`.markdown`)
walk: headings, text, tables (:mod:`.tables`) and figures (SVG, with the file name the
Markdown page links them by)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Union

from . import charts, tables
from .tables import Table

TITLE = "evm384_native: the whole answer on one page"


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Figure:
    name: str               # its file beside the Markdown page: NAME.svg
    caption: str
    svg: str


Block = Union[Heading, Text, Table, Figure]


def blocks(report: Dict[str, Any]) -> List[Block]:
    """Every block of the page, top to bottom."""
    found: List[Block] = [
        Text("For each operation: what its precompile costs today, what bytecode for each "
             "instruction set costs (plain EVM, EVMMAX under EIP-6690 and EIP-7747, EVM384 "
             "under its schedules), how long it takes on the fast engine beside the native "
             "library, and whether its gas is safe at 100 Mgas/s. Everything was measured "
             "when the page was made; the gas is `evm384 gas --json`'s, the times and Mgas/s "
             "`evm384 price --json`'s code."),
        tables.about(report)]
    for name, title, draw in charts.CHARTS:
        found += [Heading(title), Figure(name, title, draw(report))]
        if name == "figure":
            found += [tables.figure(report), tables.operations(report)]
    found += [Heading("The two-pairing check's flame graphs"),
              Text("Gas by run-time call path (`evm384 profile --flamegraph`): the contract on "
                   "top, each routine as wide as its gas, its callees below it.")]
    for target, flame in report["flame_graphs"].items():
        found.append(Figure(f"flame_{target}", f"{target.upper()} ({flame['pricing']}): "
                                               f"{flame['gas']:,} gas", flame["svg"]))
    return found
