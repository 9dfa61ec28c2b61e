"""A verifying key, proof and public inputs published by snarkjs itself
(tests/vectors/groth16/snarkjs/SOURCE.md): accepted on both targets and engines, as
arkworks accepts them (tests/test_groth16.py::test_arkworks_accepts_the_snarkjs_fixture);
a changed input or proof rejected."""
from __future__ import annotations

from pathlib import Path

import pytest

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
