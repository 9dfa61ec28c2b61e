"""go-ethereum's precompile failure vectors (every ``fail-*.json`` of its
core/vm/testdata/precompiles that a contract here stands for: tests/vectors/geth, SOURCE.md
there) and its G2 MSM vectors, through the matching contracts on every target they build for.

Each failure vector must make its contract fail as the precompile does (INVALID, all gas
consumed, no output), on both engines (they
fail early: cheap), and for the reason go-ethereum names where the contract's source map
tells it (the pairing check's validation scopes, tests/test_eip2537_contract.py). The G2 MSM
vectors (153, up to 1,024 pairs) run on the fast engine on every target; the python engine
must agree on a sample by default and on all of them under ``slow``."""
import pytest

from peer_vectors import (VECTORS, answer, cases, check_both_engines, load,
                          python_engine_cases, read_json)
from test_eip2537_contract import EXPECTED_REJECTION, rejected_by

GETH = VECTORS / "geth"
# go-ethereum's file -> the contract for its precompile; its G1MUL and G2MUL files (the
# precompiles EIP-2537 folded into MSM) through the MSM contracts: one pair of MSM input is
# MUL's input. fail-blake2f.json is go-ethereum's other failure file: no contract here
# computes BLAKE2 F.
FAILURES = {"fail-blsG1Add": "eip2537_g1add", "fail-blsG2Add": "eip2537_g2add",
            "fail-blsG1Mul": "eip2537_g1msm", "fail-blsG2Mul": "eip2537_g2msm",
            "fail-blsG1MultiExp": "eip2537_g1msm", "fail-blsG2MultiExp": "eip2537_g2msm",
            "fail-blsMapG1": "eip2537_map_fp_to_g1", "fail-blsMapG2": "eip2537_map_fp2_to_g2",
            "fail-blsPairing": "eip2537_pairing_check"}
FAILING = [v for file, contract in FAILURES.items() for v in load(GETH / f"{file}.json", contract)]
G2_MSM = load(GETH / "blsG2MultiExp.json.gz", "eip2537_g2msm")
G2_MSM_SAMPLE = sorted(G2_MSM, key=lambda v: len(v.data))[:2]


def test_every_file_is_read_whole():
    assert len(FAILING) == 6 + 6 + 7 + 7 + 7 + 7 + 5 + 5 + 9
    assert all(v.expected is None for v in FAILING)
    assert len(G2_MSM) == 153 and all(v.expected for v in G2_MSM)
    assert sorted(GETH.glob("fail-*.json")) == sorted(GETH / f"{f}.json" for f in FAILURES)


@pytest.mark.parametrize("engine", ["fast", "python"])
@pytest.mark.parametrize("vector,target", cases(FAILING))
def test_failure_vectors_revert(vector, target, engine):
    assert answer(vector.contract, target, vector.data, engine)[0] is None


def test_the_pairing_check_rejects_for_go_ethereums_reason():
    reasons = {"g1 point is not on correct subgroup": "g1_subgroup",
               "g2 point is not on correct subgroup": "g2_subgroup"}
    for entry in read_json(GETH / "fail-blsPairing.json"):
        error = entry["ExpectedError"]
        expected = reasons.get(error) or EXPECTED_REJECTION[error]
        assert rejected_by(bytes.fromhex(entry["Input"])) == expected, entry["Name"]


@pytest.mark.parametrize("vector,target", cases(G2_MSM))
def test_g2_msm_vectors_fast_engine(vector, target):
    assert answer(vector.contract, target, vector.data, "fast")[0] == vector.expected


@pytest.mark.parametrize("vector,target", cases(G2_MSM_SAMPLE))
def test_g2_msm_python_engine_sample(vector, target):
    check_both_engines(vector, target)


@pytest.mark.slow
@pytest.mark.parametrize("vector,target",
                         python_engine_cases([v for v in G2_MSM if v not in G2_MSM_SAMPLE]))
def test_g2_msm_python_engine_every_vector(vector, target):
    check_both_engines(vector, target)
