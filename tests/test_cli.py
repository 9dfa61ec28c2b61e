"""The ``evm384`` command line, run through ``main(argv)`` (and once as processes)."""
import io
import json
import re
import shutil
import subprocess
import sys

import pytest

from evm384_native import execute
from evm384_native.asm import pack_offsets
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.fp import R, R2, to_mont
from evm384_native.bls12_381.oracle import be_g1, be_g2
from evm384_native.cli.main import main
from evm384_native.evm import Eip3155Tracer

from test_pyevm_integration import ADD_OUT, MOD, X, Y, spec_program

ADD_PROGRAM = spec_program(0xC0)
ADD_DATA = X + Y + MOD


def cli(capsys, monkeypatch, *argv, stdin=""):
    """Exit code, stdout and stderr of ``evm384 argv...`` with ``stdin`` as input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def le(data: bytes) -> int:
    return int.from_bytes(data, "little")


# --- run ----------------------------------------------------------------------------

def test_run_spec_vector(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "run", ADD_PROGRAM.hex(), "--calldata",
                         ADD_DATA.hex())
    assert (code, err) == (0, "")
    assert f"output:     0x{ADD_OUT.hex()}\n" in out
    assert "gas used:   58\n" in out and "steps:      9\n" in out
    assert "ADDMOD384 1, SUBMOD384 0, MULMODMONT384 0" in out


@pytest.mark.parametrize("engine, backend, schedule, gas",
                         [("python", "native", "evmone-v7", 58), ("fast", "native", "update5-A", 52),
                          ("python", "reference", "update5-B", 51)])
def test_run_json_options(capsys, monkeypatch, engine, backend, schedule, gas):
    code, out, _ = cli(capsys, monkeypatch, "run", "0x" + ADD_PROGRAM.hex(), "--calldata",
                       ADD_DATA.hex(), "--json", "--engine", engine, "--backend", backend,
                       "--schedule", schedule, "--gas", 1000)
    fields = json.loads(out)
    expected = execute(ADD_PROGRAM, ADD_DATA, gas=1000, schedule=schedule)
    assert code == 0
    assert fields == {"success": True, "error": None, "output": "0x" + ADD_OUT.hex(),
                      "gas_used": gas, "gas_left": 1000 - gas, "steps": 9,
                      "evm384_ops": {"ADDMOD384": 1, "SUBMOD384": 0, "MULMODMONT384": 0},
                      "opcode_counts": expected.opcode_counts}


def test_run_reads_files_hex_or_binary(capsys, monkeypatch, tmp_path):
    (tmp_path / "code.bin").write_bytes(ADD_PROGRAM)
    (tmp_path / "data.hex").write_text("0x" + ADD_DATA.hex() + "\n")
    code, out, _ = cli(capsys, monkeypatch, "run", f"@{tmp_path / 'code.bin'}", "--calldata",
                       f"@{tmp_path / 'data.hex'}", "--json")
    assert code == 0 and json.loads(out)["output"] == "0x" + ADD_OUT.hex()
    (tmp_path / "typo.hex").write_text("6001 60zz")
    code, out, err = cli(capsys, monkeypatch, "run", f"@{tmp_path / 'typo.hex'}")
    assert code == 2 and "typo.hex' is not valid hex: '6001 60zz'" in err


def test_failed_execution_exits_1(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "run", "fe", "--gas", 100)
    assert code == 1
    assert "success:    false\nerror:      invalid opcode: INVALID\noutput:     0x\ngas used:   100\n" in out
    code, out, _ = cli(capsys, monkeypatch, "run", "contract:pairing", "--json")
    assert code == 1 and json.loads(out)["error"] == "revert"      # no calldata


# --- trace --------------------------------------------------------------------------

def test_trace_is_the_eip3155_tracer(capsys, monkeypatch, tmp_path):
    expected = io.StringIO()
    execute(ADD_PROGRAM, ADD_DATA, tracer=Eip3155Tracer(expected, memory=True))
    code, out, _ = cli(capsys, monkeypatch, "trace", ADD_PROGRAM.hex(), "--calldata",
                       ADD_DATA.hex(), "--memory")
    assert code == 0 and out == expected.getvalue()
    assert json.loads(out.splitlines()[-1]) == {"output": "0x" + ADD_OUT.hex(),
                                                "gasUsed": "0x3a", "pass": True}
    path = tmp_path / "trace.jsonl"
    code, out, _ = cli(capsys, monkeypatch, "trace", ADD_PROGRAM.hex(), "--calldata",
                       ADD_DATA.hex(), "--out", path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert code == 0 and out == ""
    assert [line["opName"] for line in lines[:-1]] == [
        "CALLDATASIZE", "PUSH1", "PUSH1", "CALLDATACOPY", "PUSH16", "ADDMOD384", "PUSH1",
        "PUSH1", "RETURN"]
    assert "memory" not in lines[0]


# --- disasm -------------------------------------------------------------------------

def test_disasm_small_program(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "disasm", ADD_PROGRAM.hex())
    assert code == 0
    assert out.splitlines() == [
        "     0  CALLDATASIZE", "     1  PUSH1 0x0", "     3  PUSH1 0x0", "     5  CALLDATACOPY",
        "     6  ADDMOD384 out=0x0 x=0x0 y=0x30 mod=0x60", "    24  PUSH1 0x30",
        "    26  PUSH1 0x0", "    28  RETURN"]


def test_disasm_contract_names_routines_and_slots(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "disasm", "contract:final_exponentiation")
    assert code == 0
    assert out.startswith("; final_exponentiation\n     0  PUSH")
    assert re.search(r"^; fp2_mul in ", out, re.M)
    assert re.search(r"^ +\d+  MULMODMONT384 out=\S+ x=\S+ y=\S+ mod=const\.p$", out, re.M)


# --- profile ------------------------------------------------------------------------

def test_profile_of_the_pairing_contract(capsys, monkeypatch, tmp_path):
    from py_ecc.bls12_381 import G1, G2
    calldata = encode_calldata("pairing", be_g1(G1), be_g2(G2))
    (tmp_path / "pair.bin").write_bytes(calldata)
    code, out, _ = cli(capsys, monkeypatch, "profile", "contract:pairing", "--calldata",
                       f"@{tmp_path / 'pair.bin'}", "--schedule", "update5-A", "--top", 100)
    result = execute(build_contract("pairing"), calldata, schedule="update5-A")
    assert code == 0 and result.success
    by_opcode, hottest, routines, _ = out.split("\n\n")[1:]
    table = {name: (int(count), int(gas)) for name, count, gas in
             (line.split() for line in by_opcode.splitlines()[2:])}
    assert {name: count for name, (count, _) in table.items()} == result.opcode_counts
    assert sum(gas for _, gas in table.values()) == result.gas_used
    assert table["MULMODMONT384"][1] == 6 * result.opcode_counts["MULMODMONT384"]
    assert len(hottest.splitlines()) == 101
    evm384_ops = sum(result.opcode_counts[op] for op in
                     ("ADDMOD384", "SUBMOD384", "MULMODMONT384"))
    per_routine = [line.split() for line in routines.splitlines()[1:]]
    assert sum(int(row[0]) for row in per_routine) == evm384_ops
    assert {"ml_sqr", "fe_cyclotomic_sqr", "ml_dbl_all"} <= {row[2] for row in per_routine}


# --- debug --------------------------------------------------------------------------

def test_scripted_debug_session(capsys, monkeypatch):
    script = "\n".join(["break 23", "continue", "stack", "fp x", "fp y", "step", "fp 0",
                        "mem 0 48", "info", "continue"]) + "\n"
    code, out, _ = cli(capsys, monkeypatch, "debug", ADD_PROGRAM.hex(), "--calldata",
                       ADD_DATA.hex(), stdin=script)
    assert code == 0
    stops = re.findall(r"^ +(\d+)  (.*)$", out, re.M)
    assert stops[0] == ("0", "CALLDATASIZE")                  # stops before the first step
    assert ("23", "ADDMOD384 out=0x0 x=0x0 y=0x30 mod=0x60") in stops
    assert f"   0: {pack_offsets(0, 0, 48, 96):#x}\n" in out   # the packed operand word
    assert f"x @0x0: {le(X):#098x}\n" in out                   # before the ADDMOD384
    assert f"y @0x30: {le(Y):#098x}\n" in out
    assert stops[-1] == ("24", "PUSH1 0x30")
    assert f"0 @0x0: {le(ADD_OUT):#098x}\n" in out             # after it
    dump = re.findall(r"^0x0000[0-2]0: (.*)$", out, re.M)
    assert bytes.fromhex("".join(dump)) == ADD_OUT
    assert "pc 24  gas left 29,999,948  gas used 52  memory 160 bytes  stack 0 items  " \
           "steps run 6" in out
    assert out.endswith("gas used:   58\ngas left:   29,999,942\nsteps:      9\n"
                        "EVM384 ops: ADDMOD384 1, SUBMOD384 0, MULMODMONT384 0; total 1\n")


def test_debug_next_steps_over_a_call(capsys, monkeypatch):
    # PUSH1 ret, PUSH1 sub, JUMP, ret: JUMPDEST, STOP, sub: JUMPDEST, PUSH1 1, POP, JUMP
    program = "6005600756" "5b00" "5b60015056"
    code, out, _ = cli(capsys, monkeypatch, "debug", program, stdin="step 2\nnext\ninfo\n")
    assert code == 0
    assert "     4  JUMP\n(evm384) next\n     5  JUMPDEST\n" in out
    assert "steps run 7" in out
    assert out.endswith("quit\n")                              # end of input quits


def test_debug_reports_a_halt(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "debug", "600101", "--gas", 10, stdin="continue\n")
    assert code == 1
    assert "(evm384) continue\nhalted at pc 2 (ADD): stack underflow\nfinished\n" in out
    assert "error:      stack underflow\n" in out


def test_debug_contract_names_and_montgomery(capsys, monkeypatch):
    script = "where\nstep 4\nfp const.one\nfp const.r2\nmem const.zero\nbreak calldata_ok\n" \
             "break nowhere\nbogus\nquit\n"
    code, out, _ = cli(capsys, monkeypatch, "debug", "contract:pairing", "--montgomery",
                       stdin=script)
    assert code == 0
    assert "(evm384) where\npc 0: pairing\n" in out
    assert re.search(f"^const.one @0x[0-9a-f]+: {to_mont(1):#098x}  from Montgomery: 0x1$",
                     out, re.M)
    assert re.search(f"^const.r2 @0x[0-9a-f]+: {R2:#098x}  from Montgomery: {R:#x}$",  # raw R^2
                     out, re.M)
    assert "(evm384) mem const.zero\n0x000" in out
    assert re.search(r"breakpoint set: \d+  JUMPDEST  ; load_pairs in pairing "
                     r"\(after calldata_ok\)", out)
    assert "error: not a pc or label: 'nowhere'" in out
    assert "unknown command 'bogus'; try help" in out
    assert out.endswith("(evm384) quit\nquit\n")


# --- pairing, errors, entry points ----------------------------------------------------

def test_pairing_runs_the_main_job(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "pairing", "--runs", 1, "--seed", 7)
    assert code == 0
    assert "instance built to be one: EVM384 says True, blst says True" in out
    assert "instance built to be not one: EVM384 says False, blst says False" in out


@pytest.mark.parametrize("argv", [
    ["run", "xyz"], ["run", "contract:nope"], ["disasm", "@/no/such/file"],
    ["run", "00", "--calldata", "0g"], ["run", "00", "--gas", "-1"], ["run", "00", "--gas", "x"],
    ["run", "00", "--schedule", "v9"], ["run", "00", "--bogus"], ["trace", "00", "--engine", "fast"],
    ["debug", "00", "--montgomery", "10"], ["trace", "00", "--out", "/no/such/dir/t"],
    ["frobnicate"], []])
def test_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, argv):
    code, out, err = cli(capsys, monkeypatch, *argv)
    assert code == 2 and out == ""
    assert err.startswith("evm384: error: ") and err.count("\n") == 1


def test_console_script_and_python_m():
    args = ["run", ADD_PROGRAM.hex(), "--calldata", ADD_DATA.hex(), "--json"]
    commands = [[sys.executable, "-m", "evm384_native.cli"]]
    if shutil.which("evm384"):
        commands.append([shutil.which("evm384")])
    for command in commands:
        done = subprocess.run(command + args, capture_output=True, text=True, check=True)
        assert json.loads(done.stdout)["gas_used"] == 58
    done = subprocess.run([sys.executable, "-m", "evm384_native.cli", "run", "zz"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == "evm384: error: CODE is not valid hex: 'zz'\n"
