"""The benchmark scripts' command lines: each one's ``--help`` prints its usage and exits 0,
and a contract name it does not know is one line on stderr and exit code 2 (where the
script takes names), never a traceback."""
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py")
                 if not p.name.startswith(("test_", "conftest")) and "argparse" in p.read_text())

# bench/ belongs to a checkout: the wheel's test run (.ci/run, section 3) copies tests/ alone.
pytestmark = pytest.mark.skipif(not BENCH.is_dir(), reason="bench/ is not beside tests/ "
                                "(the tests run from a copy, against an installed wheel)")


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=300, cwd=BENCH)


@pytest.mark.parametrize("script", SCRIPTS)
def test_help(script):
    done = _run(script, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")


@pytest.mark.parametrize("script", ["deferred_tests.py", "stack_moves.py", "plain_evm_floor.py"])
def test_unknown_name_is_one_line(script):
    done = _run(script, "no_such_contract")
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr
    assert "no_such_contract" in lines[-1]
