"""The precompile-based BLS12-381 Groth16 verifier (evm384_native.groth16.eip2537_verifier:
EIP-2537's G1MSM, G1ADD and PAIRING_CHECK called from plain EVM code) in py-evm at Prague,
whose precompiles are py_ecc's: a second, independent reference for the hinted verifier.
Both answer the same on the published snarkjs proof and on forgeries (slow: py-evm's
pairing takes seconds), and the hinted verifier's total is at most 0.9x the anchor's for
one and two public inputs (docs/groth16.md)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from optional import require

require("eth", "pyevm")

from groth16_cases import Trapdoor                                       # noqa: E402
from evm384_native import execute, groth16                               # noqa: E402
from evm384_native.curves.bls12_381 import BLS12_381                     # noqa: E402
from evm384_native.evm.transaction import call_cost                      # noqa: E402
from evm384_native.groth16.eip2537_verifier import (anchor_calldata,      # noqa: E402
                                                    build_eip2537_verifier)
from evm384_native.integrations.pyevm import execute_in_pyevm            # noqa: E402

R = BLS12_381.r
FIXTURE = Path(__file__).parent / "vectors" / "groth16" / "bls12381"


def run_anchor(code, data):
    from eth.vm.forks import PragueVM
    return execute_in_pyevm(code, data, vm_class=PragueVM)


def anchor_answer(code, data):
    result = run_anchor(code, data)
    assert result.success, result.error
    return int.from_bytes(result.output, "big")


def ours(key, proof, public, hint=None):
    data = groth16.encode_calldata(key, proof, public, hint_bytes=hint)
    result = execute(groth16.build_verifier(key), data, opcodes="evmmax", engine="fast",
                     gas=30_000_000)
    assert result.success, result.error
    return int.from_bytes(result.output, "big"), call_cost(result.gas_used, data).total


@pytest.fixture(scope="module")
def fixture():
    key = groth16.VerifyingKey.from_snarkjs(FIXTURE / "verification_key.json")
    return key, groth16.Proof.from_snarkjs(FIXTURE / "proof.json"), build_eip2537_verifier(key)


def test_lengths_selectors_and_inputs_at_or_above_r(fixture):
    """Checked before any precompile call: a wrong length or selector REVERTs, an input
    >= r answers 0."""
    key, proof, code = fixture
    good = anchor_calldata(key, proof, [33])
    assert len(good) == 4 + 512 + 32
    for bad in (good[:-1], good + b"\0", b"\0\0\0\0" + good[4:]):
        result = run_anchor(code, bad)
        assert not result.success and result.output == b""
    assert anchor_answer(code, anchor_calldata(key, proof, [33 + R])) == 0
    with pytest.raises(ValueError, match="BLS12-381's, not bn254's"):
        build_eip2537_verifier(groth16.VerifyingKey.from_snarkjs(
            Path(__file__).parent / "vectors" / "groth16" / "snarkjs" / "verification_key.json"))


@pytest.mark.slow
def test_published_proof_and_the_gas_ratio(fixture):
    key, proof, code = fixture
    data = anchor_calldata(key, proof, [33])
    result = run_anchor(code, data)
    assert result.success and int.from_bytes(result.output, "big") == 1
    assert anchor_answer(code, anchor_calldata(key, proof, [34])) == 0
    answer, total = ours(key, proof, [33])
    assert answer == 1
    assert total <= 0.9 * call_cost(result.gas_used, data).total


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 2])
def test_gas_ratio_with_one_and_two_inputs(n):
    rng = random.Random(n)
    trap = Trapdoor("bls12_381", [rng.randrange(1, R) for _ in range(n + 1)], seed=n)
    public = [rng.randrange(R) for _ in range(n)]
    proof, _ = trap.proof(rng.randrange(1, R), rng.randrange(1, R), public)
    data = anchor_calldata(trap.key, proof, public)
    result = run_anchor(build_eip2537_verifier(trap.key), data)
    assert result.success and int.from_bytes(result.output, "big") == 1
    answer, total = ours(trap.key, proof, public)
    assert answer == 1
    assert total <= 0.9 * call_cost(result.gas_used, data).total


@pytest.mark.slow
def test_forgeries_get_the_anchors_answer():
    """A forgery of each kind: the anchor (py-evm's precompiles) and the hinted verifier
    (with the forgery's own hint) answer alike."""
    from groth16_cases import G1_ORDER, g1_point, g2_point, torsion
    from evm384_native.groth16.curves import BLS12_381_GROTH16 as spec
    rng = random.Random(4)
    trap = Trapdoor("bls12_381", [rng.randrange(1, R) for _ in range(2)], seed=4)
    public = [rng.randrange(R)]
    proof, _ = trap.proof(rng.randrange(1, R), rng.randrange(1, R), public)
    t3 = torsion(spec.g1, g1_point, G1_ORDER, 3)
    forgeries = {
        "-A, -B": (groth16.Proof(spec.g1.negate(proof.a), spec.g2.negate(proof.b), proof.c),
                   1),
        "A + a point of order 3": (groth16.Proof(spec.g1.add(proof.a, t3), proof.b,
                                                 proof.c), 0),
        "B outside G2's subgroup": (groth16.Proof(proof.a, g2_point(17), proof.c), 0),
        "C changed": (groth16.Proof(proof.a, proof.b, spec.g1.add(proof.c, spec.curve.g1)),
                      0)}
    code = build_eip2537_verifier(trap.key)
    for name, (forged, expected) in forgeries.items():
        assert anchor_answer(code, anchor_calldata(trap.key, forged, public)) == expected, name
        assert ours(trap.key, forged, public)[0] == expected, name
