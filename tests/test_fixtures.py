"""The conformance fixtures (tests/fixtures/, evm384_native.fixtures): every case passes on
both engines and both backends, regenerating them gives the same bytes, and an engine broken
on purpose (a gas value, an assert, the overlap rule) fails them, as the runner reports."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from evm384_native.evm import api, costs, evmmax
from evm384_native.evm.kernels import modx_reference
from evm384_native.evm.kernels.modx_common import vector_indices
from evm384_native.fixtures.__main__ import main
from evm384_native.fixtures.generate import FILES, generate
from evm384_native.fixtures.halt_classes import EVMMAX_RULES
from evm384_native.fixtures.runner import run_fixtures

FIXTURES = Path(__file__).parent / "fixtures"
RUNNERS = (("python", "native"), ("python", "reference"), ("fast", "native"))


@pytest.mark.parametrize("engine, backend", RUNNERS)
def test_every_fixture_passes(engine, backend):
    report = run_fixtures(FIXTURES, engine, backend)
    assert report.failures == []
    assert report.passed > 700


def test_regenerating_gives_the_same_bytes(tmp_path):
    generate(tmp_path)
    for relative in FILES:
        assert (tmp_path / relative).read_bytes() == (FIXTURES / relative).read_bytes(), relative


def test_every_evmmax_rule_has_a_fixture():
    text = "".join((FIXTURES / relative).read_text() for relative in FILES)
    for rule, _ in EVMMAX_RULES:
        assert f'"rule": "{rule}"' in text, rule


def test_the_runner_prints_a_summary_and_exits_0(capsys):
    assert main(["run", str(FIXTURES / "evm384")]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(" passed, 0 failed")


# --- a deliberately broken engine (Python engine, reference backend) -----------------------

@pytest.fixture
def broken(monkeypatch):
    """Resolved options are memoised by name: a patched table must be resolved anew."""
    monkeypatch.setattr(api, "_RESOLVED", {})
    return monkeypatch


def _fails(capsys, directory: Path, expected_in_failure: str) -> None:
    status = main(["run", str(directory), "--engine", "python", "--backend", "reference"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    failures, summary = lines[:-1], lines[-1]
    assert failures and not summary.endswith(" 0 failed"), summary
    assert any(expected_in_failure in line for line in failures), failures[:5]


def test_a_changed_gas_value_fails(broken, capsys):
    model = costs.COST_MODELS["eip-6690"]
    mul = (model.mul[0] + 1,) + model.mul[1:]                 # MULMODX at one limb
    broken.setitem(costs.COST_MODELS, "eip-6690", replace(model, mul=mul))
    _fails(capsys, FIXTURES / "evmmax", "gas/eip-6690/mulmodx/odd/limbs-01/exact: success expected True, got False")


def test_a_dropped_assert_fails(broken, capsys):
    # the memory-range assert dropped: SETMODX then reads the part of the range inside
    # memory and goes on
    broken.setattr(evmmax, "_memory_range", lambda *arguments: None)
    _fails(capsys, FIXTURES / "evmmax", "setmodx/memory-past-end: success expected False, "
           "got True")


def test_writing_as_it_goes_breaks_the_overlap_rule(broken, capsys):
    def run_vector_in_place(self, operation, immediates):
        out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count = immediates
        op = self.context.operation(operation)
        for out, x, y in zip(vector_indices(out_idx, out_stride, count),
                             vector_indices(x_idx, x_stride, count),
                             vector_indices(y_idx, y_stride, count)):
            self._values[out] = op(self._values[x], self._values[y])

    broken.setattr(modx_reference.RegisterFile, "_run_vector", run_vector_in_place)
    _fails(capsys, FIXTURES / "evmmax", "arithmetic/overlap/addmodx/odd-limbs-01/out-ahead-of-x: "
           "output")


def test_a_pair_that_cannot_run_is_one_error_line():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "evm384_native.fixtures", "run", str(FIXTURES),
                           "--engine", "fast", "--backend", "reference"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines()[-1].endswith(
        "engine 'fast' runs the native kernels; backend 'reference' needs engine='python'")
