"""The report as Markdown: the same blocks as the HTML page, its figures linked as SVG files
written beside it (``figures``)."""
from __future__ import annotations

from typing import Any, Dict, List

from .page import TITLE, Block, Figure, Heading, Table, Text, blocks


def _escape(cell: str) -> str:
    return cell.replace("|", "\\|")


def _table(table: Table) -> List[str]:
    header = [_escape(h) for h in table.header]
    lines = ["#" * table.level + f" {table.title}", "", "| " + " | ".join(header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(_escape(cell) for cell in row) + " |" for row in table.rows]
    return lines + ([""] + [table.notes] if table.notes else []) + [""]


def _block(block: Block) -> List[str]:
    if isinstance(block, Heading):
        return [f"## {block.text}", ""]
    if isinstance(block, Text):
        return [block.text, ""]
    if isinstance(block, Figure):
        return [f"![{block.caption}]({block.name}.svg)", ""]
    return _table(block)


def render(report: Dict[str, Any]) -> str:
    return "\n".join([f"# {TITLE}", ""] +
                     [line for block in blocks(report) for line in _block(block)])


def figures(report: Dict[str, Any]) -> Dict[str, str]:
    """The SVG files the Markdown page links: file name -> text."""
    return {f"{block.name}.svg": block.svg for block in blocks(report)
            if isinstance(block, Figure)}
