"""``evm384 fixtures run DIR``: the conformance fixtures through the command line (the runner
itself: tests/test_fixtures.py). A passing directory exits 0 with the counts, a failing case
prints its line and exits 1, bad input is one error line and exit 2."""
import json
import shutil
from pathlib import Path

import pytest

from test_cli import cli

FIXTURES = Path(__file__).parent / "fixtures"
EVM384 = FIXTURES / "evm384" / "evm384.json"


def cases_in(path):
    return len(json.loads(path.read_text()))


def test_every_fixture_passes_on_the_fast_engine(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "fixtures", "run", FIXTURES, "--engine", "fast")
    total = sum(cases_in(path) for path in FIXTURES.rglob("*.json"))
    assert (code, out, err) == (0, f"{total} passed, 0 failed\n", "")


@pytest.mark.parametrize("engine,backend", [("python", "native"), ("python", "reference")])
def test_the_python_engine_and_both_backends(capsys, monkeypatch, tmp_path, engine, backend):
    shutil.copy(EVM384, tmp_path)
    code, out, err = cli(capsys, monkeypatch, "fixtures", "run", tmp_path, "--engine", engine,
                         "--backend", backend)
    assert (code, out, err) == (0, f"{cases_in(EVM384)} passed, 0 failed\n", "")


def test_a_failing_case_is_one_line_and_exit_1(capsys, monkeypatch, tmp_path):
    cases = json.loads(EVM384.read_text())
    name = next(iter(cases))
    cases[name]["expected"]["gasUsed"] += 1
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "broken.json").write_text(json.dumps(cases))
    code, out, err = cli(capsys, monkeypatch, "fixtures", "run", tmp_path, "--engine", "fast")
    total = len(cases)
    assert code == 1
    first, summary = out.splitlines()
    assert first.startswith(f"sub/broken.json::{name}: gasUsed expected ")
    assert summary == f"{total - 1} passed, 1 failed"
    assert err == f"evm384: error: 1 of {total} fixture cases failed\n"


def test_bad_input_is_one_error_line_and_exit_2(capsys, monkeypatch, tmp_path):
    def error_of(*argv):
        code, out, err = cli(capsys, monkeypatch, "fixtures", "run", *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
        return err

    assert "is not a directory" in error_of(tmp_path / "missing")
    assert "no fixture files (*.json) under" in error_of(tmp_path)
    (tmp_path / "notes.json").write_text('{"a case": {"code": "0x00"}}')
    assert "notes.json is not a fixture file (KeyError" in error_of(tmp_path)
    (tmp_path / "notes.json").write_text("not json")
    assert "notes.json is not a fixture file (JSONDecodeError" in error_of(tmp_path)
    shutil.copy(EVM384, tmp_path / "notes.json")
    assert "backend 'reference' needs engine='python'" in error_of(
        tmp_path, "--engine", "fast", "--backend", "reference")
    code, _, err = cli(capsys, monkeypatch, "fixtures")
    assert code == 2 and "required: ACTION" in err
