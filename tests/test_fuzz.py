"""The fuzzers of fuzz/: they run clean, catch and shrink a planted bug, keep huge-gas
programs within their memory bound; and the EIP-2537 contract agrees with py-evm's own
pairing-check precompile on mutated inputs."""
import dataclasses
import io
import json
import random

import pytest

from evm384_native.evm import Tracer
from evm384_native.evm.api import run

from fuzz import differential, eip2537
from fuzz.cases import Case, decode, encode
from fuzz.programs import SAFE_MEMORY, Limits, instructions, structured
from fuzz.threads import stress
from fuzz.variants import pyevm_differences, run_variants
from test_pyevm_integration import MOD, X, Y, spec_program


def test_a_short_differential_run_is_clean():
    log = io.StringIO()
    assert differential.fuzz(2, seed=7, limits=Limits(), out_dir=None, log=log) == 0, log.getvalue()
    assert "cases agree on every variant" in log.getvalue()


def test_a_planted_bug_is_caught_shrunk_and_written_out(tmp_path):
    """A 'bug' in every program that runs ADD: the fuzzer stops, shrinks the case to the one
    instruction and writes a reproducer that replays it."""
    def check(case):   # one variant is enough here, and keeps shrinking quick
        outcomes = run_variants(case.code, case.calldata, case.gas, case.schedule_argument(),
                                ["python/native"])
        ran = outcomes["python/native"]
        return (["planted: ADD ran"] if "ADD" in getattr(ran, "opcode_counts", {}) else []), outcomes

    log = io.StringIO()
    assert differential.fuzz(60, seed=3, limits=Limits(), out_dir=tmp_path, log=log,
                             shrink_seconds=30, check=check) == 1
    [report] = tmp_path.glob("*.json")
    case = json.loads(report.read_text())["case"]
    assert bytes.fromhex(case["code"]) == b"\x01"     # ADD on an empty stack still counts
    assert (tmp_path / report.name.replace(".json", ".py")).exists()
    assert decode((tmp_path / report.name.replace(".json", ".case")).read_bytes()).code == b"\x01"


def test_replaying_one_case():
    log = io.StringIO()
    assert differential.fuzz(0, seed=5, limits=Limits(), out_dir=None, log=log, only_case=12) == 0
    assert ": 1 cases agree" in log.getvalue()


def test_pyevm_comparison():
    code = bytes.fromhex("600260030160005260206000f3")          # return 2 + 3
    case = Case(code, b"", 100_000, (2, 2, 6))
    problems, outcomes = differential.problems_with_pyevm(case)
    assert problems == []
    ours = outcomes["python/native"]
    wrong = dataclasses.replace(ours, gas_used=ours.gas_used + 1)
    assert pyevm_differences(wrong, code, b"", case.gas, case.schedule)
    unsupported = run(b"\x54", b"", gas=1000)                     # SLOAD: py-evm runs it, we do not
    assert pyevm_differences(unsupported, b"\x54", b"", 1000, (8, 8, 24)) == []


def test_plain_evm_cases_run_under_the_plain_set_and_py_evm_checks_them():
    from fuzz.plain import plain_program
    cases = [plain_program(random.Random(index), Limits()) for index in range(40)]
    assert {case.opcodes for case in cases} == {"evm"}
    halts = set()
    for case in cases:
        problems, outcomes = differential.problems_with_pyevm(case)
        assert problems == [], (case, problems)
        halts.add(outcomes["fast"].error)
    assert any(error and error.startswith("invalid opcode 0xc") for error in halts), halts
    # py-evm runs them as plain Prague: 0xc0 is undefined there, not ADDMOD384
    code = spec_program(0xC0)
    ours = run(code, X + Y + MOD, gas=10_000, opcodes="evm")
    assert ours.error == "invalid opcode 0xc0"
    assert pyevm_differences(ours, code, X + Y + MOD, 10_000, (8, 8, 24), "evm") == []
    assert pyevm_differences(ours, code, X + Y + MOD, 10_000, (8, 8, 24), "evm384")


def test_case_encoding_round_trips_and_any_bytes_decode():
    case = Case(b"\x60\x01\x00", b"\xaa" * 5, 2**63 - 1, (1, 2, 3))
    assert decode(encode(case)) == case
    assert decode(encode(Case(b"", b"", 0, (8, 8, 24)))).schedule_argument() == "evmone-v7"
    rng = random.Random(1)
    for size in (0, 1, 22, 23, 24, 100):
        decoded = decode(bytes(rng.randrange(256) for _ in range(size)))
        assert 0 <= decoded.gas < 2**63 and len(decoded.schedule) == 3


class MemoryHighWater(Tracer):
    def __init__(self):
        self.most = 0

    def on_step_end(self, step, gas_cost, error):
        self.most = max(self.most, step.memory_size)


def test_huge_gas_programs_stay_within_their_memory_bound_and_never_jump_back():
    for index in range(100):
        case = structured(random.Random(index), Limits(), huge=True)
        assert case.gas >= 2**32 - 1
        high_water = MemoryHighWater()
        run(case.code, case.calldata, gas=case.gas, schedule=case.schedule_argument(),
            tracer=high_water)
        assert high_water.most <= SAFE_MEMORY
        for pc, opcode in instructions(case.code):   # PUSH2 target; JUMP(I): forward only
            if opcode in (0x56, 0x57) and case.code[pc - 3] == 0x61:
                assert int.from_bytes(case.code[pc - 2:pc], "big") > pc - 3


def test_thread_stress_runs_clean():
    log = io.StringIO()
    assert stress(1, seed=2, log=log, schedules=20, gas=1_000_000) == 0, log.getvalue()


# --- the EIP-2537 contract against py-evm's precompile -------------------------------------

# The mutations whose inputs py-evm rejects or answers quickly; all of them under -m slow.
QUICK = ["bit flip", "edge value", "infinity point", "length", "off curve", "off subgroup",
         "padding byte", "value bit flip"]


@pytest.mark.parametrize("mutation", QUICK)
def test_eip2537_contract_agrees_with_pyevm_precompile(mutation):
    _, data = eip2537.mutated_input(QUICK.index(mutation), names=[mutation])
    assert eip2537.contract(data) == eip2537.precompile(data)


def test_eip2537_valid_input_agrees_with_pyevm_precompile():
    data = eip2537.valid_input(1)                 # two pairs whose product is one
    assert eip2537.precompile(data) == (1).to_bytes(32, "big") == eip2537.contract(data)


@pytest.mark.slow
@pytest.mark.parametrize("mutation", sorted(eip2537.MUTATIONS))
@pytest.mark.parametrize("seed", range(3))
def test_more_mutated_eip2537_inputs(mutation, seed):
    applied, data = eip2537.mutated_input(100 * seed + sorted(eip2537.MUTATIONS).index(mutation),
                                          names=[mutation])
    assert eip2537.contract(data) == eip2537.precompile(data), applied


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_more_inputs_with_mixed_mutations(seed):
    applied, data = eip2537.mutated_input(10_000 + seed)
    assert eip2537.contract(data) == eip2537.precompile(data), applied


def test_evm768_cases_run_under_evm768_and_py_evm_checks_them():
    """EVM384's structured programs run as EVM768 code (fuzz/evm768.py): every variant and
    py-evm with the EVM768 integration agree."""
    from fuzz.evm768 import evm768_program
    cases = [evm768_program(random.Random(index), Limits()) for index in range(30)]
    assert {case.opcodes for case in cases} == {"evm768"}
    ran = 0
    for case in cases:
        problems, outcomes = differential.problems_with_pyevm(case)
        assert problems == [], (case, problems)
        counts = outcomes["fast"].opcode_counts if not isinstance(outcomes["fast"], str) else {}
        ran += sum(counts.get(name, 0) for name in ("ADDMOD768", "SUBMOD768", "MULMODMONT768"))
    assert ran > 0
