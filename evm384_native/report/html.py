"""The report as one self-contained HTML page: its style inline, its figures inline SVG, no
script, no font or file fetched from anywhere."""
from __future__ import annotations

import re
from html import escape
from typing import Any, Dict, List

from .page import TITLE, Block, Figure, Heading, Table, Text, blocks
from .tables import BELOW

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 11px; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; }
th { background: #f2f2f2; position: sticky; top: 0; }
td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.below { color: #b00; font-weight: bold; }
figure { margin: 1em 0; overflow-x: auto; }
p.note { font-size: 12px; color: #555; max-width: 70em; }
"""
_NUMBER = re.compile(r"^[0-9][0-9,.]*x?( \*)?$")


def _inline(text: str) -> str:
    """Text with `code` spans."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(text))


def _cell(text: str) -> str:
    classes = [name for name, test in (("number", _NUMBER.match(text)),
                                       ("below", text.endswith(BELOW))) if test]
    attribute = f' class="{" ".join(classes)}"' if classes else ""
    return f"<td{attribute}>{escape(text)}</td>"


def _table(table: Table) -> List[str]:
    lines = [f"<h{table.level}>{escape(table.title)}</h{table.level}>", "<table>"]
    lines.append("<tr>" + "".join(f"<th>{escape(h)}</th>" for h in table.header) + "</tr>")
    lines += ["<tr>" + "".join(_cell(cell) for cell in row) + "</tr>" for row in table.rows]
    lines.append("</table>")
    if table.notes:
        lines.append(f'<p class="note">{_inline(table.notes)}</p>')
    return lines


def _block(block: Block) -> List[str]:
    if isinstance(block, Heading):
        return [f"<h2>{escape(block.text)}</h2>"]
    if isinstance(block, Text):
        return [f"<p>{_inline(block.text)}</p>"]
    if isinstance(block, Figure):
        return ["<figure>", block.svg.strip(), "</figure>"]     # the SVG has its own title
    return _table(block)


def render(report: Dict[str, Any]) -> str:
    """The whole page."""
    body = [line for block in blocks(report) for line in _block(block)]
    return "\n".join(["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                      f"<title>{escape(TITLE)}</title>", f"<style>{STYLE}</style>", "</head>",
                      "<body>", f"<h1>{escape(TITLE)}</h1>", *body, "</body>", "</html>"]) + "\n"
