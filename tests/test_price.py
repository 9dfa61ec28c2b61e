"""``evm384 price`` and evm384_native.pricing: NNLS against scipy's, the fit on synthetic
timings, the anchor's arithmetic, the fitted model on both engines, the command's JSON and
its --plot without matplotlib."""
from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import time
import types

import numpy as np
import pytest

from evm384_native.contracts import BUILT_FOR
from evm384_native.evm import execute
from evm384_native.evm.costs import EIP_6690, EvmmaxCosts, costs_from_table
from evm384_native.pricing import Anchor, Fit, fit, fitted_costs, fitted_schedule, nnls, r_squared
from evm384_native.pricing.adversarial import evmmax_corpus
from evm384_native.pricing.anchor import throughput
from evm384_native.pricing.plot import NEEDS_MATPLOTLIB
from evm384_native.pricing.programs import (EVM384_FEATURES, EVMMAX_FEATURES, evm384_calldata,
                                            evm384_program, evmmax_calldata, evmmax_program,
                                            max_new_contexts, other_instructions)
from evm384_native.pricing.report import render
from optional import require


# --- NNLS --------------------------------------------------------------------------------

def test_nnls_matches_scipy_on_random_problems():
    require("scipy", "test")
    from scipy.optimize import nnls as scipy_nnls
    rng = np.random.default_rng(7)
    for trial in range(400):
        m, n = int(rng.integers(1, 30)), int(rng.integers(1, 12))
        a = rng.normal(size=(m, n))
        if trial % 3 == 0:         # columns of very different scales, as counts are
            a = np.abs(a) * rng.choice([1e-3, 1.0, 1e4], size=n)
        b = rng.normal(size=m)
        x, residual = nnls(a, b)
        expected_x, expected_residual = scipy_nnls(a, b)
        assert (x >= 0).all()
        assert residual == pytest.approx(expected_residual, rel=1e-7, abs=1e-9), (m, n)
        if m >= n and np.linalg.matrix_rank(a) == n:    # a unique solution
            assert x == pytest.approx(expected_x, rel=1e-6, abs=1e-8)


def test_nnls_rejects_bad_shapes_and_r_squared_edges():
    with pytest.raises(ValueError):
        nnls(np.ones((3, 2)), np.ones(2))
    assert r_squared([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]) == 1.0
    assert r_squared([2.0, 2.0], [2.0, 2.0]) == 1.0
    assert r_squared([1.0, 3.0], [2.0, 2.0]) == 0.0


def test_fit_recovers_synthetic_costs():
    rng = random.Random(3)
    features = ("MULMODX", "ADDMODX", "SETMODX", "instructions")
    true = {"intercept": 30_000.0, "MULMODX": 41.5, "ADDMODX": 6.25, "SETMODX": 1_800.0,
            "instructions": 0.0}
    rows = [{name: rng.randrange(0, 20_000) if name != "SETMODX" else rng.randrange(0, 256)
             for name in features} for _ in range(40)]
    times = [true["intercept"] + sum(true[n] * row[n] for n in features)
             + rng.gauss(0, 200) for row in rows]
    ns, r2 = fit(features, rows, times)
    assert r2 > 0.999
    for name in ("MULMODX", "ADDMODX", "SETMODX"):
        assert ns[name] == pytest.approx(true[name], rel=0.02)
    assert ns["intercept"] == pytest.approx(true["intercept"], rel=0.05)
    assert 0.0 <= ns["instructions"] < 0.1      # a free feature: no negative cost


# --- the anchor --------------------------------------------------------------------------

def test_anchor_arithmetic():
    anchor = Anchor.from_mgas_per_s(100)
    assert anchor.ns_per_gas == 10.0 and anchor.mgas_per_s == 100.0
    assert [anchor.gas(ns) for ns in (0.0, 0.3, 10.0, 10.01, 20.0, 333.3)] == [1, 1, 1, 2, 2, 34]
    assert Anchor(2.5).gas(10.0) == 4 and Anchor(2.5).mgas_per_s == 400.0
    assert Anchor.from_mgas_per_s(50).implied_ns(3) == 60.0
    assert throughput(1_000_000, 10_000_000) == 100.0      # 1M gas in 10 ms
    for bad in (0, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            Anchor.from_mgas_per_s(bad)
        with pytest.raises(ValueError):
            Anchor(bad)


def _fit(limbs: int) -> Fit:
    ns = {"intercept": 1e4, "MULMODX": 2.0 * limbs * limbs, "ADDMODX": 3.0 + limbs,
          "SUBMODX": 4.0 + limbs, "SETMODX": 300.0 * limbs, "LOADX": 1.0, "STOREX": 1.0,
          "instructions": 5.0}
    return Fit("fast", "evmmax", limbs, ns, 0.99, 40)


def test_fitted_model_prices_both_engines_alike():
    model = fitted_costs({limbs: _fit(limbs) for limbs in range(1, 13)}, Anchor(10.0))
    assert isinstance(model, EvmmaxCosts) and model.name == "fitted"
    assert model.mul[11] == 29 and model.add_sub[0] == 1 and model.add_sub[11] == 2  # SUB's
    assert model.setmodx[0] == 30
    rows = {name: model.table()[name] for name in ("SETMODX", "ADDMODX", "SUBMODX", "MULMODX")}
    assert costs_from_table(rows, name="fitted") == model
    with pytest.raises(ValueError, match="missing"):
        fitted_costs({1: _fit(1)}, Anchor(10.0))
    for limbs in (1, 7, 12):
        rng = random.Random(limbs)
        program = evmmax_program(limbs, {"MULMODX": 300, "ADDMODX": 200, "SUBMODX": 100,
                                         "SETMODX": 3, "LOADX": 50, "STOREX": 50}, rng,
                                 evmmax_calldata(limbs))
        results = [execute(program.code, program.calldata, gas=10**8, engine=engine,
                           opcodes="evmmax", costs=costs)
                   for costs in (model, EIP_6690) for engine in ("python", "fast")]
        assert all(r.success for r in results), [r.error for r in results]
        assert results[0].gas_used == results[1].gas_used      # fitted: both engines
        assert results[2].gas_used == results[3].gas_used      # eip-6690: both engines
        assert results[0].gas_used != results[2].gas_used


def test_fitted_schedule():
    ns = {"intercept": 0.0, "ADDMOD384": 4.9, "SUBMOD384": 12.0, "MULMODMONT384": 47.0,
          "instructions": 6.0}
    schedule = fitted_schedule(Fit("fast", "evm384", None, ns, 0.99, 40), Anchor(10.0))
    assert (schedule.addmod384, schedule.submod384, schedule.mulmodmont384) == (1, 2, 5)


# --- the programs ------------------------------------------------------------------------

@pytest.mark.parametrize("limbs", [1, 12])
def test_programs_run_with_the_counts_they_declare(limbs):
    contexts = max_new_contexts(limbs)
    amounts = {"MULMODX": 130, "ADDMODX": 70, "SUBMODX": 1, "SETMODX": contexts,
               "LOADX": 129, "STOREX": 300, "instructions": 10}
    program = evmmax_program(limbs, amounts, random.Random(1), evmmax_calldata(limbs))
    result = execute(program.code, program.calldata, gas=10**9, engine="fast", opcodes="evmmax")
    assert result.success, result.error
    assert result.opcode_counts["SETMODX"] == 1 + contexts
    assert set(program.amounts) == set(EVMMAX_FEATURES) - {"instructions"}
    assert program.amounts["STOREX"] == 300 + 128       # the prefix's 128 values too
    pairs = result.opcode_counts["POP"]
    assert pairs == 10 and other_instructions(program, result) > 2 * pairs
    with pytest.raises(ValueError):
        evmmax_program(limbs, {"SETMODX": contexts + 1}, random.Random(1), evmmax_calldata(limbs))
    program = evm384_program({"ADDMOD384": 3, "MULMODMONT384": 2, "instructions": 4},
                             evm384_calldata())
    result = execute(program.code, program.calldata, engine="fast")
    assert result.success and result.opcode_counts["MULMODMONT384"] == 2
    # CALLDATACOPY and MSTORE with their PUSHes, 4 PUSH1/POP pairs, STOP
    assert other_instructions(program, result) == 4 + 3 + 8 + 1
    assert set(program.amounts) == set(EVM384_FEATURES) - {"instructions"}


# --- the command -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    """The report of one ``evm384 price --quick --json`` (through the command line's entry
    point, as the console script runs it), shared by the tests that read it: a run takes
    seconds."""
    from evm384_native.cli.main import main
    out = tmp_path_factory.mktemp("price") / "price.json"
    assert main(["price", "--quick", "--json", "--mgas-per-s", "50", "--out", str(out)]) == 0
    return json.loads(out.read_text())


def test_price_quick_json(quick_report):
    report = quick_report
    assert {"anchor", "engines", "priced_on", "settings", "machine", "fits", "evmmax_models",
            "evm384_models", "contracts", "adversarial", "seconds"} <= set(report)
    assert report["anchor"] == {"mgas_per_s": 50.0, "ns_per_gas": 20.0}
    fits = report["fits"]["fast"]
    assert [f["limbs"] for f in fits["evmmax"]] == list(range(1, 13))
    assert all(set(f["ns"]) == {"intercept", *EVMMAX_FEATURES} for f in fits["evmmax"])
    assert all(value >= 0 for f in fits["evmmax"] for value in f["ns"].values())
    assert set(report["evmmax_models"]) == {"eip-6690", "eip-7747", "fitted"}
    assert set(report["evm384_models"]) == {"evmone-v7", "update5-A", "update5-B", "fitted"}
    costs_from_table(report["evmmax_models"]["fitted"], name="fitted")   # a valid table
    # the corpus is the package's: there from a checkout and from a wheel alike
    assert [row["program"] for row in report["adversarial"]] == \
        [program.name for program in evmmax_corpus()]
    assert all(set(row["mgas_per_s"]) == {"eip-6690", "eip-7747", "fitted"}
               for row in report["adversarial"])


def test_price_reprices_every_contract_on_every_target(quick_report):
    """Issue 42: every contract of the registry (BN254's, the Poseidon hashes, P256VERIFY
    and ECRECOVER were left out), on each target it is built for, with its gas and its
    Mgas/s on the fast engine under each model of that target, in the JSON and the text."""
    report = quick_report
    builds = {(name, target) for target, names in BUILT_FOR.items() for name in names}
    rows = {(row["contract"], row["target"]): row for row in report["contracts"]}
    assert len(rows) == len(report["contracts"]) and set(rows) == builds
    models = {**{target: set(report[f"{target}_models"]) for target in ("evmmax", "evm384")},
              "evm": {"mainnet"}}                  # plain EVM: mainnet's gas, one model
    models["evm768"] = models["evm384"]            # EVM384's schedules, applied per limb
    for (name, target), row in rows.items():
        assert row["success"], (name, target)
        assert set(row["gas"]) == set(row["mgas_per_s"]) == models[target], (name, target)
        assert all(gas > 0 for gas in row["gas"].values())
        assert all(set(rates) == {"fast"} and rates["fast"] > 0
                   for rates in row["mgas_per_s"].values())
    text = render(report)
    for target in ("evmmax", "evm384", "evm768", "evm"):
        section = text.split(f"contracts built for {target.upper()} on")[1].split("\n\n")[0]
        listed = {line.split()[0] for line in section.splitlines()[2:]}
        assert listed == {name for name, built in builds if built == target}, target


def test_price_plot_without_matplotlib_is_one_line(tmp_path):
    script = ("import sys; sys.modules['matplotlib'] = None\n"
              "from evm384_native.cli.main import main\n"
              f"sys.exit(main(['price', '--quick', '--plot', {str(tmp_path / 'p.png')!r}]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"evm384: error: {NEEDS_MATPLOTLIB}\n"
    assert not (tmp_path / "p.png").exists()


def test_price_bad_anchor_is_one_line(capsys):
    from evm384_native.cli.main import main
    assert main(["price", "--quick", "--ns-per-gas", "0"]) == 2
    assert main(["price", "--mgas-per-s", "100", "--ns-per-gas", "10"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all(e.startswith("evm384: error: ") for e in errors)


def test_best_times_gives_a_long_job_only_its_budget(monkeypatch):
    """A job that runs longer than its budget is timed by its first run alone; a short one
    joins every round; one between joins as many rounds as the budget holds."""
    measure = importlib.import_module("evm384_native.pricing.measure")
    monkeypatch.setattr(measure, "JOB_BUDGET_NS", 40_000_000)          # 40 ms a job
    calls = {"short": 0, "middle": 0, "long": 0}

    def job(name, seconds):
        def run():
            calls[name] += 1
            time.sleep(seconds)
            return name
        return run
    times, results = measure.best_times([job("short", 0), job("middle", 0.012),
                                         job("long", 0.05)], 6)
    assert results == ["short", "middle", "long"]
    assert calls == {"short": 7, "middle": 1 + 3, "long": 1}
    assert times[2] >= 50_000_000 and times[1] >= 12_000_000


def test_block_slopes_leave_out_the_first_calls_cost(monkeypatch):
    """A job whose first call after another job costs 8 ms more (its caches evicted) and
    every call 1 ms is priced at 1 ms a call; a job of one long call keeps its own time;
    each block is as long as ``BLOCK_NS`` allows, within ``MAX_BLOCK``. On a clock that
    the jobs advance (no sleeping: exact)."""
    measure = importlib.import_module("evm384_native.pricing.measure")
    monkeypatch.setattr(measure, "BLOCK_NS", 12_000_000)
    now, last = [0], [None]
    monkeypatch.setattr(measure, "time", types.SimpleNamespace(perf_counter_ns=lambda: now[0]))

    def job(name, ns, cold_ns):
        def run():
            now[0] += ns + (cold_ns if last[0] != name else 0)
            last[0] = name
            return name
        return run
    assert measure.block_size(9_000_000) == 0 and measure.block_size(1_000_000) == 12
    assert measure.block_size(4_000_000) == 3 and measure.block_size(10) == measure.MAX_BLOCK
    jobs = [job("cold", 1_000_000, 8_000_000), job("other", 500_000, 0),
            job("long", 20_000_000, 8_000_000)]
    slopes, sizes = measure.block_slopes(jobs, [3_000_000, 500_000, 28_000_000], 2)
    assert sizes == [4, measure.MAX_BLOCK, 0]
    assert slopes == [1_000_000, 500_000, 28_000_000]   # not the cold job's 9 ms
