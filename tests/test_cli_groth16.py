"""``evm384 groth16 build|calldata|verify`` on snarkjs files of a groth16py key and proof:
the same bytes as the Python API, the answer for a true and a false statement, one line
and exit code 2 for bad files."""
from __future__ import annotations

import json

import pytest

from optional import require

require("groth16py", "test")

import groth16_cases as cases                                   # noqa: E402
from evm384_native import groth16                                # noqa: E402
from evm384_native.cli.main import main                          # noqa: E402


def cli(capsys, *argv):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("groth16")
    _, vk, key = cases.setup(2)
    proof, public = cases.prove(2, 41, (43,))
    (folder / "vk.json").write_text(vk.to_json())
    (folder / "proof.json").write_text(json.dumps({
        "pi_a": [str(v) for v in proof.a] + ["1"],
        "pi_b": [[str(v) for v in c] for c in proof.b] + [["1", "0"]],
        "pi_c": [str(v) for v in proof.c] + ["1"], "protocol": "groth16"}))
    (folder / "public.json").write_text(json.dumps([str(v) for v in public]))
    (folder / "wrong.json").write_text(json.dumps([str(public[0] + 1), str(public[1])]))
    return folder, key, proof, public


def test_build_and_calldata_are_the_apis(capsys, files):
    folder, key, proof, public = files
    code, out, err = cli(capsys, "groth16", "build", folder / "vk.json")
    assert (code, err) == (0, "")
    assert bytes.fromhex(out.strip()) == groth16.build_verifier(key)
    code, out, err = cli(capsys, "groth16", "build", folder / "vk.json", "--target", "evm384")
    assert bytes.fromhex(out.strip()) == groth16.build_verifier(key, target="evm384")
    code, out, err = cli(capsys, "groth16", "calldata", folder / "vk.json",
                         folder / "proof.json", folder / "public.json")
    assert (code, err) == (0, "")
    assert bytes.fromhex(out.strip()) == groth16.encode_calldata(key, proof, public)


@pytest.mark.parametrize("target", ["evmmax", "evm384"])
def test_verify(capsys, files, target):
    folder = files[0]
    for public, answer in (("public.json", "answer: 1 (accepted)"),
                           ("wrong.json", "answer: 0 (rejected)")):
        code, out, err = cli(capsys, "groth16", "verify", folder / "vk.json",
                             folder / "proof.json", folder / public, "--target", target)
        assert (code, err) == (0, "")
        assert out.splitlines()[0] == answer
        assert "precompile-based verifier" in out


def test_bad_files_are_one_line(capsys, files, tmp_path):
    folder = files[0]
    (tmp_path / "bad.json").write_text("{")
    for argv, message in (
            (("build", tmp_path / "missing.json"), "cannot read"),
            (("build", tmp_path / "bad.json"), "is not JSON"),
            (("build", folder / "proof.json"), "lacks curve, vk_alpha_1"),
            (("calldata", folder / "vk.json", folder / "vk.json", folder / "public.json"),
             "pi_a"),
            (("verify", folder / "vk.json", folder / "proof.json", folder / "proof.json"),
             "a JSON list")):
        code, out, err = cli(capsys, "groth16", *argv)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1, err
