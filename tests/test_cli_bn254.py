"""The ``evm384`` command line on the BN254 contracts: build, gas beside the EIP-1108
prices, calldata (from points and random, true and false relations), run, disasm and
debug by contract:NAME, and all of it without the test extra."""
import json
import random
import subprocess
import sys

import pytest

from evm384_native import execute
from evm384_native.bn254 import HINT_BYTES, build_contract
from evm384_native.bn254.points import G1, G2, encode_g1, encode_g2
from evm384_native.cli.main import main

BN254_CONTRACTS = ("bn254_add", "bn254_mul", "bn254_pairing_check", "bn254_pairing_check_hinted")
PAIRING_CHECKS = ("bn254_pairing_check", "bn254_pairing_check_hinted")
ONE, ZERO = (1).to_bytes(32, "big"), bytes(32)


def cli(capsys, *argv):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def random_calldata(capsys, name, *options):
    code, out, err = cli(capsys, "calldata", name, "--seed", 5, *options)
    assert (code, err) == (0, "")
    return bytes.fromhex(out.strip())


def run_fast(name, calldata, target):
    return execute(build_contract(name, target=target), calldata, engine="fast", opcodes=target)


def test_gas_prints_the_precompiles_price_beside_each_evmmax_row(capsys):
    code, out, _ = cli(capsys, "gas", "bn254_pairing_check", "--target", "evmmax")
    rows = [line.split() for line in out.splitlines() if line.startswith("bn254_pairing_check ")]
    assert code == 0 and [row[2] for row in rows] == ["eip-6690", "eip-7747"]
    for row in rows:             # k = 2: 34,000 k + 45,000, then its calldata, access, total,
        # and EIP-7904's measured gas, 11,712 k + 8,247
        assert row[1] == "2" and row[row.index("ECPAIRING") + 2] == "113,000"
        assert row[-3] == "100" and int(row[-2].replace(",", "")) == \
            113_000 + int(row[-4].replace(",", "")) + 100
        assert row[-1] == "31,671"


@pytest.mark.parametrize("name, price", [("bn254_add", 150), ("bn254_mul", 6_000),
                                         ("bn254_pairing_check", 113_000),
                                         ("bn254_pairing_check_hinted", 113_000)])
def test_gas_json_rows_on_every_target(capsys, name, price):
    code, out, _ = cli(capsys, "gas", name, "--json")
    rows = json.loads(out)
    assert code == 0 and {row["target"] for row in rows} == {"evm384", "evmmax", "evm"}
    for row in rows:
        assert row["success"] is True and row["precompile_gas"] == price
        assert row["bytes"] == len(build_contract(name, target=row["target"]))
        assert row["total_gas"] >= row["gas"] + row["calldata_gas"] + 2_600 - 1
    hinted = name == "bn254_pairing_check_hinted"      # the precompile is sent no hint
    assert rows[0]["precompile_calldata_gas"] < rows[0]["calldata_gas"] if hinted else \
        rows[0]["precompile_calldata_gas"] == rows[0]["calldata_gas"]


@pytest.mark.parametrize("name", PAIRING_CHECKS)
@pytest.mark.parametrize("target", ["evm384", "evmmax", "evm"])
def test_random_pairing_calldata_is_accepted_true_and_rejected_false(capsys, name, target):
    hint = HINT_BYTES if name.endswith("_hinted") else 0
    for options, answer in ((("--random", 2), ONE), (("--random", 3, "--false"), ZERO)):
        calldata = random_calldata(capsys, name, *options)
        assert len(calldata) == 192 * options[1] + hint
        result = run_fast(name, calldata, target)
        assert (result.success, result.output) == (True, answer), options


@pytest.mark.parametrize("target", ["evm384", "evmmax"])
def test_random_add_and_mul_calldata_give_the_sum_and_the_product(capsys, target):
    data = random_calldata(capsys, "bn254_add", "--random", 1)
    a, b = (_g1(data[i:i + 64]) for i in (0, 64))
    assert run_fast("bn254_add", data, target).output == encode_g1(G1.add(a, b))
    data = random_calldata(capsys, "bn254_mul", "--random", 1)
    product = G1.multiply(_g1(data[:64]), int.from_bytes(data[64:], "big"))
    assert len(data) == 96 and run_fast("bn254_mul", data, target).output == encode_g1(product)


def _g1(data: bytes):
    return int.from_bytes(data[:32], "big"), int.from_bytes(data[32:], "big")


def test_calldata_from_points(capsys):
    p, q = encode_g1(G1.generator_multiple(5)), encode_g2(G2.generator_multiple(7))
    minus_p = encode_g1(G1.negate(G1.generator_multiple(5)))
    code, out, _ = cli(capsys, "calldata", "bn254_pairing_check", p.hex(), q.hex(),
                       minus_p.hex(), q.hex())
    assert code == 0 and bytes.fromhex(out.strip()) == p + q + minus_p + q
    code, out, _ = cli(capsys, "calldata", "bn254_pairing_check_hinted", p.hex(), q.hex(),
                       minus_p.hex(), q.hex())
    calldata = bytes.fromhex(out.strip())
    assert code == 0 and calldata[:-HINT_BYTES] == p + q + minus_p + q
    assert run_fast("bn254_pairing_check_hinted", calldata, "evmmax").output == ONE
    scalar = (3).to_bytes(32, "big")
    code, out, _ = cli(capsys, "calldata", "bn254_mul", p.hex(), scalar.hex())
    assert code == 0 and bytes.fromhex(out.strip()) == p + scalar


@pytest.mark.parametrize("argv, message", [
    (["calldata", "bn254_add", "00" * 64], "bn254_add takes G1 (64-byte x||y) G1"),
    (["calldata", "bn254_pairing_check", "00" * 64], "points come in (G1, G2) pairs"),
    (["calldata", "bn254_pairing_check", "00" * 64, "00" * 96], "points of 64, 128 bytes"),
    (["calldata", "bn254_add", "--random", 1, "--false"], "checks no relation"),
    (["calldata", "bn254_pairing_check", "--random", 1],
     "can be one only for k >= 2"),
    (["calldata", "bn254_pairing_check_hinted", "01" * 64, "00" * 128],
     "not a valid bn254_pairing_check input"),
    (["build", "miller_loop", "--target", "evmmax"], "miller_loop is built for EVM384 only"),
    (["run", "contract:bn254_nope"], "unknown contract 'bn254_nope'; choose one of miller_loop"),
])
def test_input_errors_are_one_line(capsys, argv, message):
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_run_build_and_disasm_by_name(capsys):
    a, b = G1.generator_multiple(11), G1.generator_multiple(13)
    code, out, _ = cli(capsys, "run", "contract:bn254_add", "--calldata",
                       (encode_g1(a) + encode_g1(b)).hex(), "--engine", "fast")
    assert code == 0 and "success:    true" in out
    assert f"output:     0x{encode_g1(G1.generator_multiple(24)).hex()}\n" in out
    code, out, _ = cli(capsys, "run", "contract:bn254_add", "--opcodes", "evmmax", "--json",
                       "--calldata", (encode_g1(a) + encode_g1(b)).hex())
    assert code == 0 and json.loads(out)["evmmax_ops"]["MULMODX"] > 0
    for target in ("evm384", "evmmax"):
        code, out, _ = cli(capsys, "build", "bn254_mul", "--target", target)
        assert code == 0 and bytes.fromhex(out.strip()) == build_contract("bn254_mul",
                                                                            target=target)
    code, out, _ = cli(capsys, "disasm", "contract:bn254_pairing_check", "--opcodes", "evmmax")
    assert code == 0 and "; bn254_pairing_check" in out and "MULMODX out_idx=" in out


def test_debug_shows_field_values_mod_the_contracts_curve(capsys, monkeypatch):
    """--montgomery without P takes BN254's p for a BN254 contract."""
    import io
    a, b = G1.generator_multiple(2), G1.generator_multiple(3)
    monkeypatch.setattr(sys, "stdin", io.StringIO("break g1_loaded_1\ncontinue\nfp points.b.x\n"))
    code, out, _ = cli(capsys, "debug", "contract:bn254_add", "--calldata",
                       (encode_g1(a) + encode_g1(b)).hex(), "--montgomery")
    assert code == 0 and f"from Montgomery: {b[0]:#x}\n" in out


def test_calldata_and_gas_need_no_test_extra():
    """From the plain wheel (no py_ecc): the BN254 gas rows on both targets and every BN254
    contract's random calldata, true and false."""
    script = f"""
import sys
sys.modules.update(py_ecc=None, chia_rs=None)        # importing either raises ImportError
from evm384_native.bn254.usage import USAGE
from evm384_native.cli.main import main
names = {list(BN254_CONTRACTS)!r}
assert sorted(USAGE) == sorted(names)
assert main(["gas", *names, "--out", "/dev/null"]) == 0
for name, usage in USAGE.items():
    for false in ([["--false"]] if usage.relation else []) + [[]]:
        assert main(["calldata", name, "--random", str(usage.example_k), "--seed", "1", *false,
                     "--out", "/dev/null"]) == 0, name
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
