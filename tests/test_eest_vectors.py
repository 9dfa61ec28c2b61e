"""execution-spec-tests' precompile vectors and edge cases (tests/vectors/eest, SOURCE.md
there) through the contracts that stand for the precompiles: EIP-196/197 (BN254 ECADD,
ECMUL, ECPAIRING), EIP-2537 (the seven BLS12-381 precompiles, G2 MSM included), EIP-7951
(P256VERIFY) and EIP-198 (MODEXP, with Osaka's EIP-7823 bounds and EIP-7883 prices), on
every target each contract builds for; the pairing vectors through the hinted pairing
checks too, and MODEXP's prices (reference.py) against the gas EEST states.

Every vector runs on the fast engine on every target; the python engine must give the same
output and gas on a sample by default (a few vectors a contract, the cheapest) and on every
vector under ``slow``. A precompile's failure is the contract's (an exceptional halt that
consumes the gas; the hinted checks REVERT; P256VERIFY's is empty output:
tests/peer_vectors.py)."""
import pytest

from evm384_native import bls12_381, bn254
from evm384_native.bls12_381.usage import USAGE as BLS12_381_USAGE
from evm384_native.ec.bls12_hinted import HINT_BYTES as BLS12_381_HINT_BYTES
from evm384_native.modexp import reference as modexp_reference
from peer_vectors import (VECTORS, Vector, answer, cases, check_both_engines, load,
                          python_engine_cases, read_json)

EEST = VECTORS / "eest"
FILES = {  # file -> the contract that stands for its precompile
    "bn254/ecadd": "bn254_add", "bn254/ecmul": "bn254_mul",
    "bn254/ecpairing": "bn254_pairing_check", "bn254/ecpairing_inputs": "bn254_pairing_check",
    "eip2537/bls12_g1add": "eip2537_g1add", "eip2537/bls12_g2add": "eip2537_g2add",
    "eip2537/bls12_g1msm": "eip2537_g1msm", "eip2537/bls12_g2msm": "eip2537_g2msm",
    "eip2537/bls12_pairing_check": "eip2537_pairing_check",
    "eip2537/bls12_map_fp_to_g1": "eip2537_map_fp_to_g1",
    "eip2537/bls12_map_fp2_to_g2": "eip2537_map_fp2_to_g2",
    "eip2537/msm_G2_bls_sample": "eip2537_g2msm",
    "p256/p256verify": "p256verify", "modexp/modexp": "modexp",
    "modexp/static": "modexp",
}
# (vectors, failures) a file holds (SOURCE.md says where each comes from)
COUNTS = {"bn254/ecadd": (41, 18), "bn254/ecmul": (21, 10), "bn254/ecpairing": (8, 3),
          "bn254/ecpairing_inputs": (144, 106),
          "eip2537/bls12_g1add": (74, 46), "eip2537/bls12_g2add": (81, 52),
          "eip2537/bls12_g1msm": (262, 78), "eip2537/bls12_g2msm": (113, 82),
          "eip2537/bls12_pairing_check": (74, 53), "eip2537/bls12_map_fp_to_g1": (33, 17),
          "eip2537/bls12_map_fp2_to_g2": (30, 22), "eip2537/msm_G2_bls_sample": (17, 0),
          "p256/p256verify": (377, 0),
          "modexp/modexp": (184, 37), "modexp/static": (128, 0)}
VECTORS_OF = {file: load(EEST / f"{file}.json.gz", contract) for file, contract in FILES.items()}
ALL = [v for vectors in VECTORS_OF.values() for v in vectors]
# the python engine's default sample: the shortest inputs of each file, a valid one and a
# failure among them where the file has both
SAMPLE_SIZE = 3


def sample(vectors):
    ordered = sorted(vectors, key=lambda v: (len(v.data), v.name))
    picked = ordered[:SAMPLE_SIZE - 1]
    other = [v for v in ordered if (v.expected is None) != (picked[0].expected is None)]
    return picked + other[:1]


SAMPLE = [v for vectors in VECTORS_OF.values() for v in sample(vectors)]


def test_every_file_is_read_whole():
    for file, vectors in VECTORS_OF.items():
        assert (len(vectors), sum(v.expected is None for v in vectors)) == COUNTS[file], file
        assert len({v.data for v in vectors}) == len(vectors), file     # no duplicate input
    assert {v.contract for v in ALL} == set(FILES.values())
    assert len(ALL) == len({(v.contract, v.name) for v in ALL})


@pytest.mark.parametrize("vector,target", cases(ALL))
def test_fast_engine(vector: Vector, target: str):
    output, _ = answer(vector.contract, target, vector.data, "fast")
    assert output == vector.expected


@pytest.mark.parametrize("vector,target", cases(SAMPLE))
def test_python_engine_sample(vector: Vector, target: str):
    check_both_engines(vector, target)


@pytest.mark.slow
@pytest.mark.parametrize("vector,target", python_engine_cases([v for v in ALL if v not in SAMPLE]))
def test_python_engine_every_vector(vector: Vector, target: str):
    check_both_engines(vector, target)


# --- the pairing vectors through the hinted pairing checks -----------------------------------

def bn254_hint(data: bytes) -> bytes:
    try:
        return bn254.pairing_hint(data)
    except ValueError:                      # invalid input: any hint, the contract rejects it
        return bytes(bn254.HINT_BYTES)


def eip2537_hint(data: bytes) -> bytes:
    try:
        return bls12_381.pairing_hint(bls12_381.pairs_from_eip2537(data))
    except ValueError:
        return bytes(BLS12_381_HINT_BYTES)


# the pairing check -> its hinted twin (the same input, then the prover's hint), and the hint
# of each twin
HINTED = {"bn254_pairing_check": "bn254_pairing_check_hinted",
          "eip2537_pairing_check": "eip2537_pairing_check_hinted"}
HINT_OF = {"bn254_pairing_check_hinted": bn254_hint, "eip2537_pairing_check_hinted": eip2537_hint}
HINTED_VECTORS = [Vector(HINTED[v.contract], v.name, v.data, v.expected)
                  for v in ALL if v.contract in HINTED]


@pytest.mark.parametrize("vector,target", cases(HINTED_VECTORS))
def test_hinted_pairing_checks_fast_engine(vector: Vector, target: str):
    """The same answers with the prover's hint (zeros where the prover refuses the input)."""
    hint = HINT_OF[vector.contract](vector.data)
    output, _ = answer(vector.contract, target, vector.data + hint, "fast")
    assert output == vector.expected


def test_g2_msm_sample_gas_is_the_precompiles_price():
    """msm_G2_bls.json's "Gas" (EIP-2537's price: the discount table) is what the tools
    price the G2 MSM precompile at."""
    entries = read_json(EEST / "eip2537/msm_G2_bls_sample.json.gz")
    for entry in entries:
        data = bytes.fromhex(entry["Input"])
        assert BLS12_381_USAGE["eip2537_g2msm"].precompile_gas(data) == entry["Gas"], entry["Name"]


# --- MODEXP: the Python model and the prices -----------------------------------------------

MODEXP_FILE = EEST / "modexp/modexp.json.gz"


def test_modexp_reference_gives_every_expected_output():
    """reference.modexp (the contract's own model) answers each vector as EEST expects; a
    failure is a declared length above EIP-7823's 1,024 bytes, and only that."""
    for vector in VECTORS_OF["modexp/modexp"] + VECTORS_OF["modexp/static"]:
        assert modexp_reference.modexp(vector.data) == vector.expected, vector.name
        over = max(modexp_reference.lengths(vector.data)) > modexp_reference.MAX_LENGTH
        assert over == (vector.expected is None), vector.name


def test_modexp_prices_are_the_gas_eest_states():
    """EIP-7883's price ("Gas": the precompile's gas EEST's state tests store, literal in
    its vectors and tables or from its spec's formula) and EIP-2565's ("GasOld", where EEST
    states the Berlin-to-Prague figure)."""
    entries = read_json(MODEXP_FILE)
    priced = [e for e in entries if "Gas" in e]
    assert (len(priced), sum("GasOld" in e for e in entries)) == (137, 46)
    for entry in priced:
        data = bytes.fromhex(entry["Input"])
        assert modexp_reference.price_eip7883(data) == entry["Gas"], entry["Name"]
        if "GasOld" in entry:
            assert modexp_reference.price_eip2565(data) == entry["GasOld"], entry["Name"]
