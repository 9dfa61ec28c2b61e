"""Verifying keys, proofs and public inputs published by real projects: snarkjs's own
fixture (tests/vectors/groth16/snarkjs/SOURCE.md) and RISC Zero's on-chain verifier with
a receipt from its tests (tests/vectors/groth16/risc0/SOURCE.md): accepted on both
targets and engines, as arkworks accepts them
(tests/test_groth16.py::test_arkworks_accepts_the_snarkjs_fixture and below); a changed
input or proof rejected."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import risc0_receipt
from optional import require
from risc0_receipt import tagged

from evm384_native import execute, groth16
from evm384_native.cli.main import main

FOLDER = Path(__file__).parent / "vectors" / "groth16" / "snarkjs"
KEY, PROOF, PUBLIC = (FOLDER / name for name in ("verification_key.json", "proof.json",
                                                 "public.json"))


def answer(code, data, target, engine="fast"):
    result = execute(code, data, opcodes=target, engine=engine, gas=30_000_000)
    assert result.success, result.error
    return int.from_bytes(result.output, "big")


@pytest.mark.parametrize("target", ["evmmax", "evm384"])
def test_snarkjs_fixture(target):
    key = groth16.VerifyingKey.from_snarkjs(KEY)
    proof = groth16.Proof.from_snarkjs(PROOF)
    public = groth16.public_inputs_from_snarkjs(PUBLIC)
    assert key.inputs == 2 and public[1] == 11
    code = groth16.build_verifier(key, target=target)
    data = groth16.encode_calldata(key, proof, public)
    assert answer(code, data, target) == 1
    assert answer(code, data, target, engine="python") == 1
    assert answer(code, groth16.encode_calldata(key, proof, [public[0], 12]), target) == 0
    moved = groth16.Proof(proof.c, proof.b, proof.a)
    assert answer(code, groth16.encode_calldata(
        key, moved, public, hint_bytes=groth16.hint(key, proof, public)), target) == 0


def test_cli_verifies_the_fixture(capsys):
    assert main(["groth16", "verify", str(KEY), str(PROOF), str(PUBLIC)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "answer: 1 (accepted)"


# --- RISC Zero's on-chain verifier: its key and a receipt from its tests ---------------------

@pytest.fixture(scope="module")
def risc0():
    return risc0_receipt.key(), risc0_receipt.seal()[1], risc0_receipt.public_inputs()


def test_the_solidity_key_is_risc0s(risc0):
    """The key read from Groth16Verifier.sol's constants is the one the receipt's selector
    commits to: the selector recomputed from the parsed key (verifier_key_digest in
    RiscZeroGroth16Verifier.sol, G2 words in EIP-197's order) equals the seal's first 4
    bytes."""
    key, _, _ = risc0
    assert key.curve == "bn254" and key.inputs == 5

    def words(*values):
        return risc0_receipt.sha256(b"".join(v.to_bytes(32, "big") for v in values))

    def g2(point):
        (x0, x1), (y0, y1) = point
        return words(x1, x0, y1, y0)
    ic = bytes(32)
    for point in reversed(key.ic):
        ic = tagged("risc0_groth16.VerifyingKey.IC", [words(*point), ic])
    key_digest = tagged("risc0_groth16.VerifyingKey", [words(*key.alpha), g2(key.beta),
                                                        g2(key.gamma), g2(key.delta), ic])
    control = risc0_receipt.CONTROL
    selector = tagged("risc0.Groth16ReceiptVerifierParameters", [
        risc0_receipt.hex_constant(control, "CONTROL_ROOT"),
        risc0_receipt.hex_constant(control, "BN254_CONTROL_ID")[::-1], key_digest])[:4]
    assert selector == risc0_receipt.seal()[0]


def test_arkworks_accepts_the_risc0_receipt(risc0):
    require("groth16py", "test")
    import groth16py
    from groth16_cases import proof_to_bytes
    key, proof, public = risc0
    verifier = groth16py.Verifier(groth16py.VerifyingKey.from_snarkjs(
        json.dumps(key.to_snarkjs())))
    assert verifier.verify(proof_to_bytes(proof), public)
    assert not verifier.verify(proof_to_bytes(proof), [*public[:2], public[2] ^ 1, *public[3:]])


@pytest.mark.parametrize("target", ["evmmax", "evm384"])
def test_risc0_receipt(risc0, target):
    """RISC Zero's test receipt is accepted on both engines; another journal's claim, a
    proof element from the snarkjs fixture, or the valid hint beside a changed proof: 0."""
    key, proof, public = risc0
    code = groth16.build_verifier(key, target=target)
    data = groth16.encode_calldata(key, proof, public)
    assert answer(code, data, target) == 1
    assert answer(code, data, target, engine="python") == 1
    other_journal = risc0_receipt.public_inputs(journal=b"another")
    assert answer(code, groth16.encode_calldata(key, proof, other_journal), target) == 0
    hint = data[-192:]
    stranger = groth16.Proof.from_snarkjs(PROOF)
    for forged in (groth16.Proof(stranger.a, proof.b, proof.c),
                   groth16.Proof(proof.a, proof.b, stranger.c),
                   groth16.Proof(proof.c, proof.b, proof.a)):
        assert answer(code, groth16.encode_calldata(key, forged, public, hint), target) == 0


def test_solidity_key_errors(tmp_path):
    text = (risc0_receipt.FOLDER / "Groth16Verifier.sol").read_text()
    for name, changed, message in [
            ("no_delta.sol", re.sub(r"uint256 constant deltay2[^;]*;", "", text),
             "no constant deltay2"),
            ("other_q.sol", text.replace("constant q = 2188", "constant q = 1188"),
             "no Groth16 curve has base field modulus"),
            ("off_curve.sol", text.replace("alphay = 9", "alphay = 8"),
             "alpha is not a point")]:
        path = tmp_path / name
        path.write_text(changed)
        with pytest.raises(ValueError, match=message):
            groth16.VerifyingKey.from_snarkjs_solidity(path)
    with pytest.raises(ValueError, match="cannot read"):
        groth16.VerifyingKey.from_snarkjs_solidity(tmp_path / "absent.sol")
