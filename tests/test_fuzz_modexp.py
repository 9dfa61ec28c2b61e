"""The modexp fuzz mode (fuzz/modexp.py): its loop, run with the reference in the contract's
place, finds no mismatch against py-evm and revm; with a deliberately wrong runner it finds
them; oracles that disagree are a mismatch (a contract's end other than the precompile's
failure is an error: tests/test_fuzz_bn254.py tests the shared rule); every mutation applies
to every kind of input; and a short run of the real mode on the contract."""
import io
import random

import pytest

from fuzz import agreement, modexp
from fuzz.__main__ import main
from tests import modexp_cases as cases
from tests import modexp_runs as runs

QUICK_CASES = 150


def _stand_in(data):
    return agreement.contract_answer(runs.reference_outcome(data))


def test_the_reference_in_the_contracts_place_agrees_with_every_oracle():
    log = io.StringIO()
    assert modexp.fuzz(60, seed=1, log=log, run=_stand_in, max_cases=QUICK_CASES) == 0, \
        log.getvalue()
    assert f"{QUICK_CASES} inputs, 0 mismatches" in log.getvalue()


def test_a_short_run_sees_answers_and_failures():
    report = modexp.fuzz_cases(60, 1, _stand_in, modexp.default_oracles(), max_cases=QUICK_CASES)
    assert report.answered > 0 and report.rejected > 0 and not report.mismatches


def _flips_the_last_bit(data):
    """The stand-in, but every output has its last bit flipped."""
    success, output = _stand_in(data)
    if success and output:
        output = output[:-1] + bytes([output[-1] ^ 1])
    return success, output


def _accepts_long_lengths(data):
    """The stand-in, but a failure (a length past 1,024) 'succeeds' with no output."""
    success, output = _stand_in(data)
    return (True, b"") if not success else (success, output)


@pytest.mark.parametrize("wrong", [_flips_the_last_bit, _accepts_long_lengths])
def test_a_wrong_runner_is_reported(wrong):
    log = io.StringIO()
    assert modexp.fuzz(60, seed=2, log=log, run=wrong, max_cases=QUICK_CASES) == 1
    text = log.getvalue()
    assert "MISMATCH" in text and "0 mismatches" not in text and "input " in text


def test_oracles_that_disagree_are_a_mismatch_too():
    agreeing = _stand_in
    report = modexp.fuzz_cases(60, 3, agreeing, {"py-evm": modexp.pyevm_oracle,
                                                 "broken": lambda data: (False, b"")},
                               max_cases=20)
    assert report.mismatches


def test_an_abstaining_oracle_is_not_a_mismatch():
    data = next(c.data for c in cases.edge_cases() if c.name == "0^0 (bl = 0, el = 0)")
    assert modexp.pyevm_oracle(data) is None
    case = modexp.FuzzCase(0, [], data)
    answers = modexp.answers_of(case, _stand_in, {"py-evm": modexp.pyevm_oracle})
    assert answers == {"contract": (True, (1).to_bytes(32, "big"))}


@pytest.mark.parametrize("name", sorted(modexp.MUTATIONS))
def test_every_mutation_applies_to_every_kind_of_input(name):
    rng = random.Random(name)
    sources = [c.data for c in cases.edge_cases()] + cases.random_inputs(5, 30)
    changed = 0
    for data in sources:
        mutated = modexp.MUTATIONS[name](rng, data)
        assert isinstance(mutated, bytes)
        changed += mutated != data
    assert changed > len(sources) // 4, name


def test_cases_are_reproducible_mutated_and_affordable():
    first = [modexp.fuzz_case(i) for i in range(60)]
    assert first == [modexp.fuzz_case(i) for i in range(60)]
    assert sum(bool(case.mutations) for case in first) > 30
    assert all(modexp._affordable(case.data) for case in first)


def test_the_command_line_offers_the_mode(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "modexp" in out and "--target" in out
    with pytest.raises(SystemExit) as exit_:
        main(["modexp", "--target", "evm384", "--seconds", "0"])
    assert exit_.value.code == 2


@pytest.mark.parametrize("target", runs.TARGETS)
def test_the_contract_agrees_with_the_precompile(target):
    """A short run of the real mode on the contract."""
    log = io.StringIO()
    run = modexp.contract_runner(target=target)
    assert modexp.fuzz(60, seed=4, log=log, run=run, max_cases=QUICK_CASES) == 0, log.getvalue()
