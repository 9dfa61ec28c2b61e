"""The code blocks of a Markdown file, for running its examples as written.

A fenced block (```python, ```sh, ```text) may be preceded by a marker line, an HTML comment
that the rendered page does not show:

    <!-- doc-test: not run: REASON -->           the block is not run here (say why)
    <!-- doc-test: needs MODULE EXTRA [X.Y] -->  the block needs MODULE, from EXTRA (on Python X.Y+)

A ``text`` block whose first line starts with ``$ `` is a shell session: the command and,
below it, its output, where ``...`` stands for any text (a line of only ``...``: any lines).

As a script, ``python tests/markdown_blocks.py FILE HEADING`` prints the first sh block after
the line HEADING (CI runs the README's Install commands that way).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Tuple

_FENCE = re.compile(r"^```(\w*)\s*$")
_MARKER = re.compile(r"^<!-- doc-test: (.*?) -->$")
_NEEDS = re.compile(r"^needs (\w+) (\w+)(?: (\d+)\.(\d+))?$")


@dataclass(frozen=True)
class Needs:
    module: str
    extra: str
    since: Tuple[int, int] = (3, 9)


@dataclass(frozen=True)
class Block:
    path: Path
    line: int                       # of the first line of code (1-based)
    language: str
    code: str
    not_run: Optional[str] = None   # the reason it is not run
    needs: Optional[Needs] = None

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"

    @property
    def is_session(self) -> bool:
        return self.language == "text" and self.code.startswith("$ ")


def _marker(text: str, path: Path, line: int) -> Tuple[Optional[str], Optional[Needs]]:
    if text.startswith("not run: ") and len(text) > len("not run: "):
        return text[len("not run: "):], None
    needs = _NEEDS.match(text)
    if needs:
        module, extra, major, minor = needs.groups()
        since = (int(major), int(minor)) if major else (3, 9)
        return None, Needs(module, extra, since)
    raise ValueError(f"{path}:{line}: unknown doc-test marker {text!r}")


def blocks(path: Path) -> List[Block]:
    """Every fenced block of ``path``, in order, with its marker."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: List[Block] = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        start = i + 1
        end = start
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{i + 1}: the block is never closed")
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = _MARKER.match(before.strip())
        not_run, needs = _marker(marker.group(1), path, i) if marker else (None, None)
        found.append(Block(path, start + 1, fence.group(1), "\n".join(lines[start:end]) + "\n",
                           not_run, needs))
        i = end + 1
    return found


def session_matches(expected: str, actual: str) -> bool:
    """Does ``actual`` output match ``expected``, where ``...`` is any text within a line
    and a line of only ``...`` any number of lines?"""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line.strip() == "..." else
                      "[^\n]*".join(map(re.escape, line.split("..."))) + r"\n"
                      for line in expected.splitlines())
    return re.fullmatch(pattern, actual if actual.endswith("\n") else actual + "\n") is not None


def block_after(path: Path, heading: str, language: str = "sh") -> Block:
    """The first ``language`` block after the line ``heading``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if heading not in lines:
        raise ValueError(f"{path}: no line {heading!r}")
    at = lines.index(heading) + 1
    for block in blocks(path):
        if block.line > at and block.language == language:
            return block
    raise ValueError(f"{path}: no {language} block after {heading!r}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python tests/markdown_blocks.py FILE HEADING")
    sys.stdout.write(block_after(Path(sys.argv[1]), sys.argv[2]).code)
