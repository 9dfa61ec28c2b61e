"""Every example in the README and in docs/ runs as written.

Each file's Python blocks run in order in one fresh interpreter (a block may use what the
blocks before it defined, nothing else); its sh blocks run in order in one bash with
``set -euo pipefail``, in an empty folder, with this interpreter's scripts first on PATH, and
its shell sessions (text blocks of ``$ command`` and output) run there too and must print
what they show. Blocks marked ``not run`` (with the reason) are left out; blocks that need
an optional module run where it is installed (``tests/optional.py``). The marker syntax:
``tests/markdown_blocks.py``.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

import pytest

import evm384_native
from markdown_blocks import Block, blocks, session_matches
from optional import require

# Each worker runs a whole file's blocks once (the outcomes are cached per process): keep a
# file's tests on one worker (``--dist loadgroup`` in pyproject.toml) so that none runs twice.
pytestmark = pytest.mark.xdist_group("docs")
ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIMEOUT = 600

# Runs the Python blocks given on stdin as [[file, line, code], ...]; writes, per block,
# None or the traceback of its failure (the rest are not reached).
_PYTHON_RUNNER = """
import json, sys, traceback
namespace = {"__name__": "__main__"}
outcomes = []
for path, line, code in json.load(sys.stdin):
    try:
        exec(compile("\\n" * (line - 1) + code, path, "exec"), namespace)
    except BaseException:
        outcomes.append(traceback.format_exc())
        break
    outcomes.append(None)
with open(sys.argv[1], "w") as out:
    json.dump(outcomes, out)
"""


def _runs_here(block: Block) -> bool:
    needs = block.needs
    return needs is None or (sys.version_info[:2] >= needs.since
                             and importlib.util.find_spec(needs.module) is not None)


def _environment() -> Dict[str, str]:
    """This interpreter's scripts first on PATH, and the evm384_native these tests import
    (a checkout's or the installed one) first on the import path."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    package_root = str(Path(evm384_native.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_root] + ([env["PYTHONPATH"]]
                                                          if env.get("PYTHONPATH") else []))
    return env


def _outcomes(ran: List[Block], reached: List[Optional[str]], output: str) -> Dict[int, str]:
    """Per block line: "" (passed) or what went wrong."""
    found = {}
    for i, block in enumerate(ran):
        if i < len(reached):
            found[block.line] = reached[i] or ""
        else:
            first = next(b for b, outcome in zip(ran, reached) if outcome)
            found[block.line] = f"not reached: the block at line {first.line} failed"
    if not reached and ran:
        found[ran[0].line] = f"the runner failed:\n{output}"
    return found


@functools.lru_cache(maxsize=None)
def python_outcomes(path: Path) -> Dict[int, str]:
    ran = [b for b in blocks(path) if b.language == "python" and not b.not_run and _runs_here(b)]
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "outcomes.json"
        done = subprocess.run(
            [sys.executable, "-c", _PYTHON_RUNNER, str(results)], cwd=folder,
            input=json.dumps([[str(path), b.line, b.code] for b in ran]), env=_environment(),
            capture_output=True, text=True, timeout=TIMEOUT)
        reached = json.loads(results.read_text()) if results.exists() else []
    return _outcomes(ran, reached, done.stdout + done.stderr)


@functools.lru_cache(maxsize=None)
def shell_outcomes(path: Path) -> Dict[int, str]:
    ran = [b for b in blocks(path) if (b.language == "sh" or b.is_session) and not b.not_run]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        script = ["set -euo pipefail"]
        for i, block in enumerate(ran):
            if block.is_session:
                command = block.code.splitlines()[0][2:]
                (work / f"expected{i}").write_text(block.code.split("\n", 1)[1])
                body = f"{command} > {folder}/output{i} 2>&1"
            else:
                (work / f"block{i}.sh").write_text(block.code)
                body = f"source {folder}/block{i}.sh > {folder}/output{i} 2>&1"
            script += [f"echo {i} > {folder}/reached", body]
        script.append(f"echo {len(ran)} > {folder}/reached")
        (work / "run").mkdir()
        done = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work / "run",
                              env=_environment(), capture_output=True, text=True,
                              timeout=TIMEOUT)
        reached_file = work / "reached"
        count = int(reached_file.read_text()) if reached_file.exists() else 0
        reached: List[Optional[str]] = []
        for i, block in enumerate(ran[:count + 1]):
            output_file = work / f"output{i}"
            output = output_file.read_text() if output_file.exists() else ""
            if i == count:            # the block that stopped the script
                reached.append(f"exit {done.returncode}:\n{output}{done.stderr}")
            elif block.is_session and not session_matches(
                    (work / f"expected{i}").read_text(), output):
                reached.append(f"the output differs from the shown one:\n{output}")
                break
            else:
                reached.append(None)
    return _outcomes(ran, reached, done.stdout + done.stderr)


def _cases() -> List[Block]:
    return [b for path in FILES for b in blocks(path) if not b.not_run
            and (b.language in ("python", "sh") or b.is_session)]


@pytest.mark.parametrize("block", _cases(), ids=lambda block: block.where)
def test_example_runs_as_written(block: Block):
    if block.needs is not None:
        require(block.needs.module, block.needs.extra, block.needs.since)
    outcomes = python_outcomes(block.path) if block.language == "python" else \
        shell_outcomes(block.path)
    assert outcomes[block.line] == "", f"{block.where}: {outcomes[block.line]}"


def test_session_matching():
    assert session_matches("a ...z\n...\nend\n", "a b c z\nx\ny\nend\n")
    assert session_matches("a\n...\n", "a\n")
    assert not session_matches("a\nb\n", "a\nc\n")
    assert not session_matches("a...z\n", "a b\n")


def test_architecture_paths_exist():
    """Every path docs/architecture.md names in backquotes (a folder, or a file with its
    extension) exists: in the package (the installed one, wherever it is), from the
    checkout's root, or, for a contract package's file named alone (``family.py``), in a
    contract package. The C sources are checked where they are (a checkout; the wheel's
    test copy has none)."""
    import re
    from evm384_native.contracts import FAMILIES
    root = Path(__file__).parent.parent
    package = Path(evm384_native.__file__).parent
    text = (root / "docs" / "architecture.md").read_text()
    named = set(re.findall(r"`([\w./-]+\.(?:py|h|c)|[\w-]+/(?:[\w.-]+/?)*)`", text))
    if not (root / "csrc").is_dir():
        named = {path for path in named if not path.startswith("csrc/")}
    families = [package / family.name for family in FAMILIES]
    missing = [path for path in sorted(named)
               if not (root / path).exists() and not (package / path).exists()
               and not any((family / path).exists() for family in families)]
    assert len(named) > 20 and not missing
