"""``evm384 run/trace/debug/disasm/profile --opcodes evmmax``: the same results as the API,
field contexts and registers (canonical values, against Python integers) in the debugger,
decoded immediates, one-line errors with exit code 2."""
import io
import json
import random

import pytest

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import (blst_check, blst_points_of, encode_pairs,
                                            random_product_case)
from evm384_native.evm import Eip3155Tracer, Profiler

from test_cli import cli
from test_evm_tracing_evmmax import MODULUS, SMALL, VALUES, program

CODE = program()
PAIRS = random_product_case(random.Random(6690), 2, True)     # a product that is one
PRODUCTS = (VALUES[0] * VALUES[2] % MODULUS, VALUES[1] * VALUES[3] % MODULUS)
RESULT = (PRODUCTS[0] - PRODUCTS[1]) % MODULUS
MULMODX_TEXT = "MULMODX out_idx=4 out_stride=1 x_idx=0 x_stride=1 y_idx=2 y_stride=1 count=2"


def evmmax(*argv):
    return [*argv[:1], CODE.hex(), *argv[1:], "--opcodes", "evmmax"]


def pc_of(text: str, disassembly: str) -> int:
    return next(int(line.split()[0]) for line in disassembly.splitlines() if text in line)


def test_run_text_and_json(capsys, monkeypatch):
    expected = execute(CODE, opcodes="evmmax")
    code, out, err = cli(capsys, monkeypatch, *evmmax("run"))
    assert (code, err) == (0, "")
    assert f"output:     0x{RESULT.to_bytes(48, 'big').hex()}\n" in out
    assert f"gas used:   {expected.gas_used:,}\n" in out
    assert "EVMMAX ops: SETMODX 3, LOADX 1, STOREX 2, ADDMODX 1, SUBMODX 1, MULMODX 1; total 9" in out
    code, out, _ = cli(capsys, monkeypatch, *evmmax("run", "--json", "--backend", "reference"))
    fields = json.loads(out)
    assert code == 0 and fields["gas_used"] == expected.gas_used and "evm384_ops" not in fields
    assert fields["evmmax_ops"] == {"SETMODX": 3, "LOADX": 1, "STOREX": 2, "ADDMODX": 1,
                                    "SUBMODX": 1, "MULMODX": 1}
    assert fields["opcode_counts"] == expected.opcode_counts


def test_the_default_set_is_evm384(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "run", CODE.hex())
    assert code == 1 and "error:      invalid opcode 0xc5" in out


def test_fast_engine_runs_evmmax(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, *evmmax("run", "--engine", "fast", "--json"))
    assert code == 0 and json.loads(out)["gas_used"] == \
        execute(CODE, opcodes="evmmax", engine="fast").gas_used == \
        execute(CODE, opcodes="evmmax").gas_used


def test_trace_is_the_eip3155_tracer_with_registers(capsys, monkeypatch):
    for options, registers in (((), False), (("--registers",), True)):
        expected = io.StringIO()
        execute(CODE, opcodes="evmmax", tracer=Eip3155Tracer(expected, registers=registers))
        code, out, _ = cli(capsys, monkeypatch, *evmmax("trace", *options))
        assert code == 0 and out == expected.getvalue()
    lines = [json.loads(line) for line in out.splitlines()[:-1]]
    mul = next(line for line in lines if line["opName"] == "MULMODX")
    assert mul["immediates"]["count"] == 2 and mul["fieldContext"]["elementSize"] == 48
    assert mul["registers"][:4] == [hex(v) for v in VALUES]
    assert lines[-1]["registers"][0] == hex(RESULT)


def test_disasm_decodes_immediates(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, *evmmax("disasm"))
    assert code == 0 and MULMODX_TEXT in out
    assert "SUBMODX out_idx=0 out_stride=1 x_idx=4 x_stride=1 y_idx=5 y_stride=0 count=1" in out
    code, out, _ = cli(capsys, monkeypatch, "disasm", CODE.hex())
    assert code == 0 and "UNKNOWN_0xc5" in out and "MULMODX" not in out


def test_profile_shows_field_contexts(capsys, monkeypatch):
    profiler = Profiler()
    execute(CODE, opcodes="evmmax", tracer=profiler)
    code, out, _ = cli(capsys, monkeypatch, *evmmax("profile"))
    assert code == 0 and profiler.report() in out
    assert "field context     modulus bits" in out and "EVMMAX ops:" in out


def test_debug_shows_contexts_and_registers_by_name(capsys, monkeypatch):
    _, listing, _ = cli(capsys, monkeypatch, *evmmax("disasm"))
    mul, sub = pc_of("MULMODX", listing), pc_of("SUBMODX", listing)
    loadx = pc_of("LOADX", listing)
    script = "\n".join([f"b {mul}", f"b {sub}", f"b {loadx}", "c", "reg x", "reg y", "reg out",
                        "c", "reg x", "reg 1 2", "ctx", "ctx 7", "c", "reg source", "info", "c"])
    code, out, _ = cli(capsys, monkeypatch, *evmmax("debug"), stdin=script)
    assert code == 0
    value = lambda v, size=48: f"{v:#0{2 + 2 * size}x}"
    # each command's answer, by command; a command given twice keeps its first answer
    at = {}
    for block in out.split("(evm384) "):
        at.setdefault(block.split("\n")[0], block)
    second_reg_x = out.split("(evm384) reg x\n")[2]
    assert f"{mul}  {MULMODX_TEXT}" in out
    assert "canonical values (converted out of Montgomery form)" in at["reg x"]
    assert f"r0   = {value(VALUES[0])}\nr1   = {value(VALUES[1])}\n" in at["reg x"]
    assert f"r2   = {value(VALUES[2])}\nr3   = {value(VALUES[3])}\n" in at["reg y"]
    assert f"r4   = {value(0)}\nr5   = {value(0)}\n" in at["reg out"]
    # at SUBMODX: x is r4 (the first product), y is r5 with stride 0
    second_reg_x = second_reg_x.split("(evm384) ")[0]
    assert second_reg_x.count("\nr") == 1 and f"r4   = {value(PRODUCTS[0])}" in second_reg_x
    assert f"r1   = {value(VALUES[1])}\nr2   = {value(VALUES[2])}\n" in at["reg 1 2"]
    assert at["ctx"].splitlines()[1:3] == [
        f"context 0 (active): modulus {MODULUS:#x} (381 bits, odd), 48-byte elements, 7 registers",
        f"context 7: modulus {SMALL:#x} (71 bits, power of two), 16-byte elements, 3 registers"]
    assert "values as stored (power-of-two modulus)" in at["ctx 7"]
    assert f"r0   = {value(5, 16)}\nr1   = {value(10, 16)}\nr2   = {value(0, 16)}" in at["ctx 7"]
    assert f"{loadx}  LOADX dest=256 source=0 count=1" in out
    assert f"r0   = {value(RESULT)}" in at["reg source"]
    assert "context 0 (active)" in at["info"]


@pytest.mark.parametrize("command, message", [
    ("reg", "error: registers exist under --opcodes evmmax only"),
    ("ctx", "error: field contexts exist under --opcodes evmmax only")])
def test_debug_register_commands_need_evmmax(capsys, monkeypatch, command, message):
    code, out, _ = cli(capsys, monkeypatch, "debug", "00", stdin=command)
    assert code == 0 and message in out


def test_debug_register_command_errors(capsys, monkeypatch):
    _, listing, _ = cli(capsys, monkeypatch, *evmmax("disasm"))
    storex = pc_of("STOREX", listing)
    script = f"ctx\nreg\nctx 3\nb {storex}\nc\nreg 9\nreg r99\nreg x\nreg 1 0\nreg dest\nq\n"
    code, out, _ = cli(capsys, monkeypatch, *evmmax("debug"), stdin=script)
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith(("error", "no field"))] == [
        "no field contexts", "error: no active field context", "error: no field context 3",
        "error: r9 is past the 7 registers", "error: r99 is past the 7 registers",
        "error: register must be a number >= 0, not 'x'",
        "error: count must be a number >= 1, not '0'"]
    dest = out.split("reg dest")[1]          # STOREX's four registers, before it writes them
    assert [line.split()[0] for line in dest.splitlines() if line.startswith("r")] == \
        ["r0", "r1", "r2", "r3"] and dest.count(f"= {0:#098x}") == 4


@pytest.mark.parametrize("argv", [
    ["run", "00", "--opcodes", "evm385"], ["disasm", "00", "--opcodes", "max"],
    ["disasm", "contract:pairing", "--opcodes", "evmmax"]])
def test_bad_opcode_options_are_one_line_and_exit_2(capsys, monkeypatch, argv):
    code, out, err = cli(capsys, monkeypatch, *argv)
    assert code == 2 and out == ""
    assert err.startswith("evm384: error: ") and err.count("\n") == 1


def test_built_in_contracts_run_as_their_evmmax_builds(capsys, monkeypatch):
    calldata = encode_calldata("pairing_product_is_one", encode_pairs(PAIRS)).hex()
    code, out, _ = cli(capsys, monkeypatch, "run", "contract:pairing_product_is_one",
                       "--opcodes", "evmmax", "--engine", "fast", "--calldata", calldata,
                       "--json")
    expected = execute(build_contract("pairing_product_is_one", target="evmmax"),
                       bytes.fromhex(calldata), opcodes="evmmax", engine="fast")
    assert code == 0 and json.loads(out)["gas_used"] == expected.gas_used
    assert json.loads(out)["output"] == "0x" + (1).to_bytes(32, "big").hex() == \
        "0x" + expected.output.hex()
    assert blst_check(blst_points_of(PAIRS))


def test_help_names_the_opcode_sets(capsys, monkeypatch):
    for command in ("run", "trace", "debug", "disasm", "profile"):
        code, out, _ = cli(capsys, monkeypatch, command, "--help")
        assert code == 0 and "--opcodes {evm,evm384,evm768,evmmax}" in out, command


def test_debug_mem_takes_the_evmmax_memory_operands(capsys, monkeypatch):
    _, listing, _ = cli(capsys, monkeypatch, *evmmax("disasm"))
    setmodx, storex = pc_of("SETMODX", listing), pc_of("STOREX", listing)
    script = f"b {setmodx}\nb {storex}\nc\nmem modulus_offset\nc\nmem source\nstep\nmem source\nq\n"
    code, out, _ = cli(capsys, monkeypatch, *evmmax("debug"), stdin=script)
    answers = out.split("(evm384) mem ")[1:]

    def dumped(answer: str) -> bytes:
        return bytes.fromhex("".join(line.split(":")[1] for line in answer.splitlines()[1:]
                                     if line.startswith("0x")))
    assert code == 0 and dumped(answers[0]) == MODULUS.to_bytes(48, "big")
    assert dumped(answers[1]) == b"".join(v.to_bytes(48, "big") for v in VALUES)
    assert "error: not a memory offset: 'source'" in answers[2]     # past the STOREX


def test_a_pricing_option_that_does_not_apply_warns(capsys, monkeypatch, tmp_path):
    """Issue 42: --costs eip-7747 on an EVM384 run was accepted silently, changing nothing
    (a cost model prices EVMMAX's instructions: EvmmaxCosts.opcodes); so was --schedule on
    an EVMMAX run. Each now warns in one line on stderr, and the run goes on unchanged."""
    table = tmp_path / "mine.json"
    table.write_text(json.dumps({row: [7] * 12 for row in ("SETMODX", "ADDMODX", "MULMODX")}))
    plain = cli(capsys, monkeypatch, "run", "6001")
    for costs in ("eip-7747", str(table)):
        status, out, err = cli(capsys, monkeypatch, "run", "6001", "--costs", costs)
        assert (status, out) == plain[:2] and err == (
            f"evm384: warning: --costs {costs} does not apply to EVM384 runs (it prices "
            "EVMMAX's instructions); ignored\n")
    status, _, err = cli(capsys, monkeypatch, "run", "6001", "--opcodes", "evmmax", "--schedule",
                         "update5-A", "--costs", "eip-7747")
    assert status == 0 and err == ("evm384: warning: --schedule update5-A does not apply to "
                                   "EVMMAX runs (it prices EVM384's instructions); ignored\n")
    assert cli(capsys, monkeypatch, "run", "6001", "--schedule", "update5-A")[2] == ""
    status, _, err = cli(capsys, monkeypatch, "gas", "pairing", "--costs", "eip-7747")
    assert status == 0 and err == ("evm384: warning: --costs eip-7747 does not apply to EVM384 "
                                   "runs (it prices EVMMAX's instructions); ignored\n")
    assert cli(capsys, monkeypatch, "gas", "eip2537_g1add", "--costs", "eip-7747")[2] == ""


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_run_prices_with_the_cost_model(capsys, monkeypatch, tmp_path, engine):
    code = program()
    table = tmp_path / "mine.json"
    table.write_text(json.dumps({row: [7] * 12 for row in ("SETMODX", "ADDMODX", "MULMODX")}))
    for costs in ("eip-6690", "eip-7747", str(table)):
        status, out, _ = cli(capsys, monkeypatch, "run", code.hex(), "--opcodes", "evmmax",
                             "--engine", engine, "--costs", costs, "--json")
        expected = execute(code, opcodes="evmmax",
                           costs=json.loads(table.read_text()) if costs == str(table) else costs)
        assert status == 0 and json.loads(out)["gas_used"] == expected.gas_used
    status, _, err = cli(capsys, monkeypatch, "run", code.hex(), "--opcodes", "evmmax",
                         "--costs", "eip-1")
    assert status == 2 and err.count("\n") == 1 and "--costs: not one of" in err
