"""The bn254 fuzz mode (fuzz/bn254.py) before the BN254 contracts exist: its loop, run with
py-evm's precompile in the contract's place, finds no mismatch; with a deliberately wrong
runner it finds them; its contract path (build_contract + an engine) runs a contract that
exists; every mutation applies to every op's inputs."""
import io
import random
from types import SimpleNamespace

import pytest

from fuzz import bn254
from fuzz.__main__ import main
from tests import bn254_cases as cases

QUICK_CASES = 24


def _fast_oracles():
    """revm alone where installed (fast); py-evm otherwise."""
    if cases.revm_available():
        return {"revm": cases.precompile_revm}
    return {"py-evm": cases.precompile_pyevm}


def test_pyevm_in_the_contracts_place_agrees_with_every_oracle():
    log = io.StringIO()
    stand_in = bn254.oracle_runner(cases.precompile_pyevm)
    assert bn254.fuzz(60, seed=1, log=log, run=stand_in, max_cases=QUICK_CASES) == 0, log.getvalue()
    assert f"{QUICK_CASES} inputs, 0 mismatches" in log.getvalue()


def test_a_short_run_sees_every_op_answered_and_rejected():
    report = bn254.fuzz_cases(60, 1, bn254.oracle_runner(cases.precompile_pyevm),
                              {"py-evm": cases.precompile_pyevm}, max_cases=QUICK_CASES)
    ops = {bn254.fuzz_case(1_000_000 + i).op for i in range(QUICK_CASES)}
    assert ops == set(cases.OPS)
    assert report.answered > 0 and report.rejected > 0 and not report.mismatches


def _wrong_add(op, data):
    """py-evm's answer, but ECADD's output has its last byte flipped."""
    success, output = bn254.oracle_runner(cases.precompile_pyevm)(op, data)
    if op == "add" and success:
        output = output[:-1] + bytes([output[-1] ^ 1])
    return success, output


def _accepts_everything(op, data):
    """py-evm's answer, but an input py-evm rejects 'succeeds' with zeros."""
    answer = cases.precompile_pyevm(op, data)
    return (True, bytes(64 if op != "pairing" else 32)) if answer is None else (True, answer)


@pytest.mark.parametrize("wrong", [_wrong_add, _accepts_everything])
def test_a_wrong_runner_is_reported(wrong):
    log = io.StringIO()
    assert bn254.fuzz(60, seed=2, log=log, run=wrong, oracles=_fast_oracles(),
                      max_cases=QUICK_CASES) == 1
    text = log.getvalue()
    assert "MISMATCH" in text and "0 mismatches" not in text and "input " in text


def test_oracles_that_disagree_are_a_mismatch_too():
    """The loop compares the oracles with each other, not only with the contract."""
    agreeing = bn254.oracle_runner(cases.precompile_pyevm)
    rejects_all = lambda op, data: None
    report = bn254.fuzz_cases(60, 3, agreeing, {"py-evm": cases.precompile_pyevm,
                                                "broken": rejects_all}, max_cases=8)
    assert report.mismatches


def test_a_failure_other_than_the_precompiles_is_an_error_not_an_answer():
    halt = SimpleNamespace(success=False, error="invalid opcode: INVALID", output=b"", gas_left=0)
    assert bn254._answer_of(halt) == (False, b"")
    assert bn254._answer_of(SimpleNamespace(success=True, error=None, output=b"x")) == (True, b"x")
    for other in (SimpleNamespace(success=False, error="out of gas", output=b"", gas_left=0),
                  SimpleNamespace(success=False, error="revert", output=b"", gas_left=5),
                  SimpleNamespace(success=False, error="invalid opcode: INVALID", output=b"",
                                  gas_left=1)):
        with pytest.raises(AssertionError, match="instead of failing as the precompile"):
            bn254._answer_of(other)


@pytest.mark.parametrize("engine", ["fast", "python"])
@pytest.mark.parametrize("target", ["evm384", "evmmax"])
def test_the_contract_runner_answers_as_the_precompile(target, engine):
    run = bn254.contract_runner(engine=engine, target=target)
    data = cases.pairing_instance(random.Random(0), 1, True)
    assert run("pairing", data) == cases.as_run_result(cases.reference("pairing", data))
    assert run("pairing", data[:-1]) == (False, b"")


@pytest.mark.parametrize("name", sorted(bn254.MUTATIONS))
def test_every_mutation_applies_to_every_op(name):
    rng = random.Random(name)
    for op in cases.OPS:
        for seed in range(3):
            data = bn254.valid_input(op, seed)
            for source in (data, data[:5], b""):
                mutated = bn254.MUTATIONS[name](rng, op, source)
                assert isinstance(mutated, bytes)


def test_cases_are_reproducible_and_mutated():
    first = [bn254.fuzz_case(i) for i in range(40)]
    assert first == [bn254.fuzz_case(i) for i in range(40)]
    assert sum(bool(case.mutations) for case in first) > 20


def test_the_command_line_offers_the_mode(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "bn254" in out and "--target" in out


def test_the_contracts_agree_with_the_precompiles():
    """A short run of the real mode on the contracts."""
    log = io.StringIO()
    assert bn254.fuzz(60, seed=4, log=log, max_cases=QUICK_CASES) == 0, log.getvalue()
