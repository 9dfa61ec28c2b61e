"""The ``evm384`` command line, run through ``main(argv)`` (and once as processes)."""
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from evm384_native import execute
from evm384_native.asm import pack_offsets
from evm384_native.contracts import build_contract, encode_calldata
from evm384_native.curves import BLS12_381
from evm384_native.evm.kernels.montgomery import to_montgomery

R = (1 << 384) % BLS12_381.p          # the Montgomery constants of EVM384's BLS12-381 code
R2 = R * R % BLS12_381.p


def to_mont(value: int) -> int:
    return to_montgomery(value, BLS12_381.p)
from evm384_native.bls12_381.oracle import be_g1, be_g2
from evm384_native.bls12_381.usage import USAGE
from evm384_native.cli.main import main
from evm384_native.evm import SCHEDULES, Eip3155Tracer

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


def test_files_hex_text_with_at_raw_bytes_with_file_options(capsys, monkeypatch, tmp_path):
    (tmp_path / "code.bin").write_bytes(ADD_PROGRAM)
    (tmp_path / "data.bin").write_bytes(ADD_DATA)
    (tmp_path / "data.hex").write_text("0x" + ADD_DATA.hex() + "\n")
    code, out, _ = cli(capsys, monkeypatch, "run", "--code-file", tmp_path / "code.bin",
                       "--calldata", f"@{tmp_path / 'data.hex'}", "--json")
    assert code == 0 and json.loads(out)["output"] == "0x" + ADD_OUT.hex()
    code, out, _ = cli(capsys, monkeypatch, "run", ADD_PROGRAM.hex(), "--calldata-file",
                       tmp_path / "data.bin", "--json")
    assert code == 0 and json.loads(out)["output"] == "0x" + ADD_OUT.hex()
    (tmp_path / "typo.hex").write_text("6001 60zz")
    code, out, err = cli(capsys, monkeypatch, "run", f"@{tmp_path / 'typo.hex'}")
    assert code == 2 and "typo.hex' is not hex text: b'6001 60zz' (@FILE reads hex; for " \
                         "raw bytes use --code-file FILE)" in err
    # a one-byte binary file (PUSH1): not hex text, said so, and read with --code-file
    (tmp_path / "push1.bin").write_bytes(b"\x60")
    code, out, err = cli(capsys, monkeypatch, "disasm", f"@{tmp_path / 'push1.bin'}")
    assert code == 2 and "is not hex text: b'`'" in err
    code, out, _ = cli(capsys, monkeypatch, "disasm", "--code-file", tmp_path / "push1.bin")
    assert code == 0 and out.startswith("     0  PUSH1 0x0  (truncated: 1 byte past the end")
    # the bytes "ab" in a file are hex text: one byte 0xab, never two opcodes
    (tmp_path / "ab").write_bytes(b"ab")
    code, out, _ = cli(capsys, monkeypatch, "disasm", f"@{tmp_path / 'ab'}")
    assert (code, out) == (0, "     0  UNKNOWN_0xab\n")
    code, out, err = cli(capsys, monkeypatch, "run", ADD_PROGRAM.hex(), "--calldata", "00",
                         "--calldata-file", tmp_path / "data.bin")
    assert code == 2 and "not both" in err


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


# MSTORE8 at 0xfffff: 1 MiB of memory, then JUMPDEST, PUSH1 6, JUMP until the gas runs out
MIB_OF_MEMORY_THEN_LOOP = "5f620fffff53" "5b600656"


def test_trace_too_big_is_refused(capsys, monkeypatch):
    from evm384_native.cli import trace
    assert trace.SIZE_LIMIT == 10**9
    # 639 steps at 1 MiB of memory each: 1.3 GB of hex (to /dev/null, should it be written)
    argv = ["trace", MIB_OF_MEMORY_THEN_LOOP, "--gas", 2_198_000, "--out", os.devnull]
    code, out, err = cli(capsys, monkeypatch, *argv, "--memory")
    assert (code, out) == (2, "")
    assert re.fullmatch(r"evm384: error: the trace would be 1\.3 GB \([\d,]+ bytes\), over "
                        r"the limit of 1\.0 GB: pass --force to write it anyway \(or leave "
                        r"out --memory\)\n", err), err
    code, out, err = cli(capsys, monkeypatch, *argv)                 # no memory: small
    assert (code, err) == (1, "")


def test_trace_size_is_estimated_exactly_and_force_writes_it(capsys, monkeypatch, tmp_path):
    from evm384_native.cli import trace
    monkeypatch.setattr(trace, "SIZE_LIMIT", 1000)
    argv = ["trace", ADD_PROGRAM.hex(), "--calldata", ADD_DATA.hex(), "--memory"]
    path = tmp_path / "trace.jsonl"
    code, out, err = cli(capsys, monkeypatch, *argv, "--out", path)
    assert (code, out) == (2, "") and not path.exists()             # refused before writing
    estimate = int(re.search(r"\(([\d,]+) bytes\)", err).group(1).replace(",", ""))
    code, out, err = cli(capsys, monkeypatch, *argv, "--force")
    assert (code, err) == (0, "") and len(out) == estimate > 1000


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
    # the README's way: evm384 calldata makes pair.hex, profile reads it
    code, _, _ = cli(capsys, monkeypatch, "calldata", "pairing", be_g1(G1).hex(),
                     be_g2(G2).hex(), "--out", tmp_path / "pair.hex")
    assert code == 0 and (tmp_path / "pair.hex").read_text() == calldata.hex() + "\n"
    code, out, _ = cli(capsys, monkeypatch, "profile", "contract:pairing", "--calldata",
                       f"@{tmp_path / 'pair.hex'}", "--schedule", "update5-A", "--top", 100)
    result = execute(build_contract("pairing"), calldata, schedule="update5-A")
    assert code == 0 and result.success
    by_opcode, hottest, routines, _ = out.split("\n\n")[1:]
    table = {name: (int(count.replace(",", "")), int(gas.replace(",", ""))) for name, count, gas in
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


def test_profile_says_when_the_run_ran_out_of_gas(capsys, monkeypatch):
    """Issue 42: the per-opcode gas of a run that ran out of gas adds up to the limit, not
    to what the contract costs; the profile says which limit applied and that it was hit."""
    calldata = USAGE["pairing_product_is_one"].example(random.Random(1), 2, True)
    code, out, _ = cli(capsys, monkeypatch, "profile", "contract:pairing_product_is_one",
                       "--calldata", calldata.hex(), "--gas", 100_000, "--top", 1)
    assert code == 1
    assert "error:      out of gas\n" in out and "gas limit:  100,000\n" in out
    assert "the run failed: out of gas at the gas limit 100,000 (--gas); what follows " \
           "counts the instructions it ran, not the whole job\n" in out


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
    assert out.endswith("gas used:   58\ngas left:   29,999,942\ngas limit:  30,000,000\n"
                        "steps:      9\n"
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
    assert "error: not a pc, label or scope: 'nowhere' (labels lists them)" in out
    assert "unknown command 'bogus'; try help" in out
    assert out.endswith("(evm384) quit\nquit\n")


def debug_piped(script: str, *argv) -> str:
    """What ``printf SCRIPT | evm384 debug ARGV...`` prints: a session scripted on stdin."""
    done = subprocess.run([sys.executable, "-m", "evm384_native.cli", "debug",
                           *(str(arg) for arg in argv)], input=script, capture_output=True,
                          text=True, timeout=120)
    assert done.stderr == ""
    return done.stdout


def example_calldata_hex(name: str) -> str:
    from evm384_native.contracts import USAGE as ALL_USAGE
    return ALL_USAGE[name].example(random.Random(1), 1, True).hex()


def test_debug_lists_labels_and_breaks_on_every_entry_of_a_scope(capsys, monkeypatch):
    calldata = example_calldata_hex("bn254_mul")
    code, profile, _ = cli(capsys, monkeypatch, "profile", "contract:bn254_mul", "--calldata",
                           calldata)
    assert code == 0 and re.search(r"%  point_madd in scalar_mul in bn254_mul$", profile, re.M)
    out = debug_piped("labels point_\nbreak point_madd\ncontinue\nwhere\ncontinue\nwhere\n"
                      "delete point_madd\ncontinue\n", "contract:bn254_mul",
                      "--calldata", calldata)
    listed = dict(re.findall(r"^(\w+) +scope +([\d ]+)$", out, re.M))
    assert sorted(listed) == ["point_dbl_halved", "point_madd"]    # the filter's
    entries = [int(pc) for pc in listed["point_madd"].split()]
    assert len(entries) > 1                                         # inlined: several pcs
    assert f"breakpoints set at {len(entries)} pcs where point_madd starts: " \
           f"{', '.join(map(str, entries))}\n" in out
    stops = [int(pc) for pc in re.findall(r"^breakpoint at pc (\d+) \(point_madd\)$", out, re.M)]
    assert len(stops) == 2 and set(stops) <= set(entries)
    assert len(re.findall(r"^pc \d+: point_madd in scalar_mul in bn254_mul", out, re.M)) == 2
    assert f"(evm384) delete point_madd\ndeleted {len(entries)} breakpoints (point_madd)\n" in out
    assert "success:    true\n" in out                               # ran to the end


def _profile_names(profile: str) -> set:
    """The scope and label names a profile prints: in its rows of routines and innermost
    code ("inner in ... in outer") and its hottest instructions ("; ... (after LABEL)")."""
    names = set()
    for path, label in re.findall(r"(?:%  |  ; )(\w+(?: in \w+)*)(?: \(after (\w+)\))?$",
                                  profile, re.M):
        names.update(path.split(" in "))
        names.update([label] if label else [])
    return names


@pytest.mark.parametrize("name, opcodes", [("bn254_mul", "evm384"), ("ecrecover", "evmmax")])
def test_debug_breaks_on_every_name_the_profiler_prints(capsys, monkeypatch, name, opcodes):
    calldata = example_calldata_hex(name)
    argv = [f"contract:{name}", "--calldata", calldata, "--opcodes", opcodes]
    code, profile, _ = cli(capsys, monkeypatch, "profile", *argv, "--top", 1000)
    names = _profile_names(profile)
    assert code == 0 and {name, "point_madd"} <= names
    out = debug_piped("".join(f"break {each}\n" for each in sorted(names)) + "quit\n", *argv)
    assert "error" not in out
    assert out.count("(evm384) break ") == len(names)
    listing = debug_piped("labels\nquit\n", *argv)
    assert names <= set(re.findall(r"^(\w+) +(?:label|scope)", listing, re.M))


def test_debug_labels_of_plain_code_and_a_filter_that_matches_nothing(capsys, monkeypatch):
    out = debug_piped("labels\nbreak x\nhelp\nquit\n", "600100")
    assert "(evm384) labels\nerror: no labels or scopes: CODE is not a contract\n" in out
    assert "(evm384) break x\nerror: not a pc: 'x'\n" in out
    assert "\nlabels [TEXT] " in out                                 # the help lists it
    out = debug_piped("labels nowhere\nquit\n", "contract:bn254_add")
    assert "(evm384) labels nowhere\nno label or scope name contains 'nowhere'\n" in out


# --- pairing, errors, entry points ----------------------------------------------------

def test_pairing_runs_the_main_job(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "pairing", "--runs", 1, "--seed", 7)
    assert code == 0
    assert out.splitlines()[0] == ("EVM384 pairing product check: 2 random pairs (seed 7); gas "
                                   "limit 3,000,000 a run (the default for the pairs, --gas "
                                   "sets one)")
    assert "instance built to be one: EVM384 says True, blst says True" in out
    assert "instance built to be not one: EVM384 says False, blst says False" in out


def test_pairing_names_the_original_it_compares_with(capsys, monkeypatch):
    """Issue 42: the job printed "original 60,230" without saying what the original is: the
    seed's EVMcurves bytecode. One line says it; the figures beside carry its name."""
    code, out, _ = cli(capsys, monkeypatch, "pairing", "--runs", 1, "--seed", 1)
    assert code == 0 and out.splitlines()[1] == (
        "EVMcurves: the original EVM384 two-pairing check (EVM384 Update 4's bytecode from the "
        "EVMcurves repository; inputs hard-coded, no validation), whose figures follow its "
        "name in parentheses")
    assert "contract pairing_product_is_one: 23,904 bytes (limit 24,576; EVMcurves 60,230)\n" \
        in out and "instructions: 183,511 (EVMcurves 249,528)\n" in out
    assert "instructions: 95,080 (unhinted EVMcurves 249,528)\n" in out
    assert "original" not in out.split("\n", 2)[2]       # below the legend, only the name


def test_pairing_times_after_a_warm_up_run(capsys, monkeypatch):
    """Issue 42: with --runs 1 the fast engine's time was its first run's, the analysis of
    the code included (14.45 ms against 1.26 ms with --runs 2). The job runs each timed
    thing once untimed first, and says so."""
    from evm384_native.bls12_381.__main__ import best_time
    calls = []
    assert best_time(lambda: calls.append(None), 3) >= 0 and len(calls) == 4
    code, out, _ = cli(capsys, monkeypatch, "pairing", "--runs", 1, "--seed", 1)
    timed = [line for line in out.splitlines() if " engine: " in line]
    assert code == 0 and len(timed) == 4        # two engines, the check and its hinted one
    assert all(line.endswith("; best of 1 after a warm-up run)") for line in timed)


def test_pairing_out_of_gas_is_a_failure_not_a_cost(capsys, monkeypatch):
    """Issue 42: a run that ran out of gas printed the limit as its gas and exited 0. Two
    pairs under evmone-v7 cost 1,381,763, more than --gas 1,000,000; update5-A (584,051),
    which answers, and the hinted check (754,808) fit."""
    code, out, _ = cli(capsys, monkeypatch, "pairing", "--runs", 1, "--seed", 1,
                       "--gas", 1_000_000)
    assert code == 1
    assert out.splitlines()[0].endswith("; gas limit 1,000,000 a run (--gas)")
    assert "instance built to be one: EVM384 says True, blst says True; runs that failed: " \
           "evmone-v7\n" in out
    assert out.count("gas evmone-v7  failed: out of gas at the gas limit 1,000,000 (--gas)\n") \
        == 1
    assert not re.search(r"^gas \S+ +1,000,000\b", out, re.M)       # never the limit as a cost
    assert re.search(r"^gas evmone-v7 +754,808\b", out, re.M)        # the hinted check's


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


# --- build, gas, calldata, --version ----------------------------------------------------

def test_build_hex_binary_and_json(capsys, monkeypatch, tmp_path):
    from evm384_native.bls12_381 import build_program
    program = build_program("final_exponentiation")
    code, out, _ = cli(capsys, monkeypatch, "build", "final_exponentiation")
    assert (code, out) == (0, program.code.hex() + "\n")
    code, _, _ = cli(capsys, monkeypatch, "build", "contract:final_exponentiation", "--binary",
                     "--out", tmp_path / "fe.bin")
    assert code == 0 and (tmp_path / "fe.bin").read_bytes() == program.code
    code, out, _ = cli(capsys, monkeypatch, "build", "final_exponentiation", "--json")
    fields = json.loads(out)
    assert code == 0 and bytes.fromhex(fields["bytecode"][2:]) == program.code
    assert fields["size"] == len(program.code) and fields["code_size"] == program.code_size
    assert fields["labels"] == program.labels
    assert [entry["pc"] for entry in fields["source_map"]] == program.source_map.starts
    assert all(str(program.source_map[entry["pc"]]).startswith(entry["path"][-1])
               for entry in fields["source_map"])
    slots = {slot["name"]: slot for region in fields["memory"] for slot in region["slots"]}
    from evm384_native.cli.names import find_slot
    for name in ("const.one", "result.f"):                  # what the debugger resolves
        assert slots[name]["offset"] == find_slot(program, name).offset
    assert ["result.f.c0.c0.c0", find_slot(program, "result.f").offset] == \
        slots["result.f"]["fps"][0]


def test_build_inline_is_bigger(capsys, monkeypatch):
    _, compact, _ = cli(capsys, monkeypatch, "build", "pairing")
    _, inline, _ = cli(capsys, monkeypatch, "build", "pairing", "--inline")
    assert len(inline) > len(compact) > 2 * 20_000


def test_gas_table_and_json(capsys, monkeypatch):
    from evm384_native.contracts import BUILT_FOR   # BLS12-381's first
    code, out, _ = cli(capsys, monkeypatch, "gas", "--json", "--seed", 3, "--target", "evm384")
    rows = json.loads(out)
    assert code == 0 and {row["target"] for row in rows} == {"evm384"}
    assert [(row["contract"], row["schedule"]) for row in rows] == \
        [(name, schedule) for name in BUILT_FOR["evm384"] for schedule in SCHEDULES]
    calldata = USAGE["pairing_product_is_one"].example(random.Random(3), 2, True)
    for row in rows:
        if row["contract"] == "pairing_product_is_one":
            result = execute(build_contract("pairing_product_is_one"), calldata,
                             schedule=row["schedule"])
            evm384 = sum(result.opcode_counts[op] for op in ("ADDMOD384", "SUBMOD384",
                                                            "MULMODMONT384"))
            assert (row["gas"], row["instructions"], row["evm384_ops"], row["success"]) == \
                (result.gas_used, result.steps, evm384, True)
            assert row["precompile_gas"] == 32_600 * 2 + 37_700
        assert row["bytes"] == len(build_contract(row["contract"]))
    by_schedule = {row["schedule"]: row["gas"] for row in rows
                   if row["contract"] == "eip2537_pairing_check"}
    assert by_schedule["update5-B"] < by_schedule["update5-A"] < by_schedule["evmone-v7"]
    code, out, _ = cli(capsys, monkeypatch, "gas", "pairing", "--seed", 3)
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:3] == ["contract", "k", "schedule"]
    rows_shown, notes = lines[1:1 + len(SCHEDULES)], lines[1 + len(SCHEDULES):]
    assert all(line.startswith("pairing ") for line in rows_shown)
    assert [note.split(":")[0] for note in notes] == ["arith ops", "schedule", "gas",
                                                     "its gas / its calldata / its access / "
                                                     "its total", "its EIP-7904 gas", "*",
                                                     "gas limit"]


def test_gas_out_of_gas_rows_say_so(capsys, monkeypatch):
    """Issue 42: a run out of gas shows "failed" and no gas (its gas used is the limit),
    the table says which limit applied, and the command exits 1."""
    code, out, err = cli(capsys, monkeypatch, "gas", "pairing_check_hinted", "--target",
                         "evmmax", "--gas", 80_000, "--json")
    assert code == 1 and err == ("evm384: error: 2 of 2 example runs failed, first "
                                 "pairing_check_hinted (eip-6690): out of gas at the gas "
                                 "limit 80,000 (--gas)\n")
    assert [(row["success"], row["error"], row["gas"], row["total_gas"], row["gas_limit"])
            for row in json.loads(out)] == [(False, "out of gas", None, None, 80_000)] * 2
    code, out, _ = cli(capsys, monkeypatch, "gas", "pairing_product_is_one", "--target",
                       "evm384", "--gas", 1_000_000)
    assert code == 1
    rows = {line.split()[2]: line for line in out.splitlines()[1:4]}
    assert "failed: out of gas" in rows["evmone-v7"] and "1,000,000" not in rows["evmone-v7"]
    assert " 584,051 " in rows["update5-A"]
    assert "gas limit: 1,000,000 a run (--gas)" in out


def test_gas_evmmax_rows(capsys, monkeypatch, tmp_path):
    """One row per EVMMAX cost model (and a user's table from --costs FILE), with the
    transaction view: calldata (EIP-2028), access (EIP-2929), total, beside the precompile
    called with its own input."""
    code, out, _ = cli(capsys, monkeypatch, "gas", "pairing_check_hinted", "--json",
                       "--target", "evmmax")
    rows = json.loads(out)
    assert code == 0 and [(row["target"], row["schedule"], row["success"]) for row in rows] == \
        [("evmmax", "eip-6690", True), ("evmmax", "eip-7747", True)]
    six, seven = rows
    calldata = USAGE["pairing_check_hinted"].example(random.Random(1), 2, True)
    for row in rows:
        assert row["bytes"] == len(build_contract("pairing_check_hinted", target="evmmax"))
        result = execute(build_contract("pairing_check_hinted", target="evmmax"), calldata,
                         opcodes="evmmax", costs=row["schedule"])
        assert row["gas"] == result.gas_used and row["evm384_ops"] > 10_000
        zeros = calldata.count(0)
        assert row["calldata_gas"] == 4 * zeros + 16 * (len(calldata) - zeros)
        assert row["access_gas"] == 2_600 and row["total_gas"] == \
            row["gas"] + row["calldata_gas"] + 2_600
        assert row["precompile_gas"] == 102_900 and row["precompile_access_gas"] == 100
        assert row["precompile_total_gas"] == 102_900 + row["precompile_calldata_gas"] + 100
    assert six["gas"] + six["calldata_gas"] <= 102_900 < seven["gas"]      # issue 26
    table = tmp_path / "flat.json"
    table.write_text(json.dumps({row: [1] * 12 for row in ("SETMODX", "ADDMODX", "MULMODX")}))
    code, out, _ = cli(capsys, monkeypatch, "gas", "pairing_check_hinted", "--json",
                       "--target", "evmmax", "--costs", "eip-6690", "--costs", str(table))
    assert code == 0 and [row["schedule"] for row in json.loads(out)] == ["eip-6690", "flat"]
    code, _, err = cli(capsys, monkeypatch, "gas", "pairing", "--costs", str(tmp_path / "no"))
    assert code == 2 and err.startswith("evm384: error: --costs: not one of eip-6690")


ROW = "a list of 12 integers in [0, 4294967295] (the gas at 1..12 limbs)"
GOOD_ROW = [1] * 12
GOOD_TABLE = {"SETMODX": GOOD_ROW, "ADDMODX": GOOD_ROW, "MULMODX": GOOD_ROW}


@pytest.mark.parametrize("command", [["run", "00", "--opcodes", "evmmax"],
                                     ["gas", "bn254_add", "--target", "evmmax"]],
                         ids=["run", "gas"])
@pytest.mark.parametrize("text, expected", [
    (json.dumps({**GOOD_TABLE, "SETMODX": [1, 2]}), f"SETMODX must be {ROW}; got 2 values"),
    (json.dumps({**GOOD_TABLE, "ADDMODX": "cheap"}), f'ADDMODX must be {ROW}; got "cheap"'),
    (json.dumps({**GOOD_TABLE, "MULMODX": 7}), f"MULMODX must be {ROW}; got 7"),
    (json.dumps({**GOOD_TABLE, "MULMODX": [1] * 11 + [1.5]}),
     f"MULMODX must be {ROW}; got 1.5 for 12 limbs"),
    (json.dumps({**GOOD_TABLE, "SETMODX": [-1] + [1] * 11}),
     f"SETMODX must be {ROW}; got -1 for 1 limb"),
    (json.dumps({**GOOD_TABLE, "SUBMODX": [2] * 12}),
     "SUBMODX must cost what ADDMODX costs (one row prices both, as in EIP-6690 and "
     "EIP-7747), or be left out"),
    (json.dumps({"setmodx": GOOD_ROW, "ADDMODX": GOOD_ROW, "MULMODX": GOOD_ROW}),
     f"unknown key setmodx; missing SETMODX (a cost table is an object of SETMODX, ADDMODX, "
     f"MULMODX and optionally SUBMODX (equal to ADDMODX), each {ROW})"),
    (json.dumps([GOOD_ROW] * 3),
     f"a cost table must be an object of SETMODX, ADDMODX, MULMODX and optionally SUBMODX "
     f"(equal to ADDMODX), each {ROW}; got [[1, "),
    ('{"SETMODX": [1,', "not JSON: Expecting value: line 1 column 16 (char 15)"),
], ids=["short", "string", "number", "float", "negative", "submodx", "keys", "list", "json"])
def test_bad_costs_file_is_one_line_naming_the_file_key_and_shape(capsys, monkeypatch, tmp_path,
                                                                  command, text, expected):
    """Issue 42: a bad --costs file is one error line that names the file, the key as the
    file spells it and what it must hold; exit 2, nothing on stdout, no traceback."""
    path = tmp_path / "mine.json"
    path.write_text(text)
    code, out, err = cli(capsys, monkeypatch, *command, "--costs", path)
    assert (code, out) == (2, "")
    assert err.startswith(f"evm384: error: --costs: cost table {str(path)!r}: {expected}")
    assert err.endswith("\n") and err.count("\n") == 1


def test_costs_neither_a_model_nor_a_file(capsys, monkeypatch, tmp_path):
    code, out, err = cli(capsys, monkeypatch, "run", "00", "--opcodes", "evmmax", "--costs",
                         tmp_path / "none.json")
    assert (code, out) == (2, "")
    assert err == (f"evm384: error: --costs: not one of eip-6690, eip-7747, nor a file: "
                   f"{str(tmp_path / 'none.json')!r}\n")


@pytest.mark.parametrize("name", ["pairing_product_is_one", "eip2537_pairing_check"])
@pytest.mark.parametrize("true", [True, False])
def test_calldata_random_relations(capsys, monkeypatch, name, true):
    argv = ["calldata", name, "--random", 3, "--seed", 5] + ([] if true else ["--false"])
    code, out, _ = cli(capsys, monkeypatch, *argv)
    result = execute(build_contract(name), bytes.fromhex(out.strip()))
    assert code == 0 and result.success
    assert int.from_bytes(result.output, "big") == int(true)


# The contracts that take one input whatever K (a pair, two points to add, a point and a
# scalar, values to map or hash, a signature): --random K > 1 would silently make one.
ONE_INPUT = ["pairing", "eip2537_g1add", "eip2537_g2add", "eip2537_g1add_hinted",
             "eip2537_g2add_hinted", "eip2537_map_fp_to_g1", "eip2537_map_fp2_to_g2",
             "bn254_add", "bn254_mul", "poseidon_t2", "poseidon_t3", "poseidon_t4",
             "poseidon_t5", "p256verify", "ecrecover", "modexp"]


@pytest.mark.parametrize("name", ONE_INPUT)
def test_calldata_random_k_above_one_is_refused_for_one_input_contracts(capsys, monkeypatch,
                                                                        name):
    code, out, err = cli(capsys, monkeypatch, "calldata", name, "--random", 3, "--seed", 1)
    assert (code, out) == (2, "")
    assert re.fullmatch(f"evm384: error: {name} takes one input \\(.+\\), so --random 3 "
                        "would still make one: give --random 1\n", err), err
    code, out, _ = cli(capsys, monkeypatch, "calldata", name, "--random", 1, "--seed", 1)
    assert code == 0 and len(bytes.fromhex(out.strip())) > 0


def test_calldata_random_k_above_one_is_taken_by_every_other_contract(capsys, monkeypatch):
    from evm384_native.contracts import USAGE as ALL_USAGE
    for name in sorted(set(ALL_USAGE) - set(ONE_INPUT)):
        code, _, err = cli(capsys, monkeypatch, "calldata", name, "--random", 2, "--seed", 1,
                           "--out", os.devnull)
        assert (code, err) == (0, ""), name


def test_calldata_from_points_matches_encode_calldata(capsys, monkeypatch, tmp_path):
    from py_ecc.bls12_381 import G1, G2, multiply
    pairs = [(be_g1(multiply(G1, 3)), be_g2(G2)), (be_g1(G1), be_g2(multiply(G2, 5)))]
    points = [value.hex() for pair in pairs for value in pair]
    code, out, _ = cli(capsys, monkeypatch, "calldata", "miller_loop", *points)
    assert (code, out) == (0, encode_calldata("miller_loop", pairs).hex() + "\n")
    (tmp_path / "g1.hex").write_text(points[0])
    code, out, _ = cli(capsys, monkeypatch, "calldata", "pairing", f"@{tmp_path / 'g1.hex'}",
                       points[1], "--binary", "--out", tmp_path / "pair.bin")
    assert (code, out) == (0, "")
    assert (tmp_path / "pair.bin").read_bytes() == encode_calldata("pairing", *pairs[0])
    code, out, _ = cli(capsys, monkeypatch, "calldata", "eip2537_pairing_check", *points)
    expected = b"".join(bytes(16) + value[i:i + 48] for pair in pairs for value in pair
                        for i in range(0, len(value), 48))
    assert (code, out) == (0, expected.hex() + "\n")


def test_encode_calldata_says_what_it_takes():
    from py_ecc.bls12_381 import G1, G2
    pair = (be_g1(G1), be_g2(G2))
    with pytest.raises(ValueError, match=r"'pairing', \.\.\.\) takes 2 arguments after the "
                                         r"name \(g1, g2\), got 1"):
        encode_calldata("pairing", [pair])
    with pytest.raises(ValueError, match="takes 1 argument after the name \\(pairs\\), got 2"):
        encode_calldata("pairing_product_is_one", *pair)
    with pytest.raises(ValueError, match="pairs must be a list of \\(g1 bytes, g2 bytes\\)"):
        encode_calldata("miller_loop", pair[0])


def test_version(capsys, monkeypatch):
    from evm384_native import __version__
    code, out, _ = cli(capsys, monkeypatch, "--version")
    assert (code, out) == (0, f"evm384 {__version__}\n")


# --- every failure one line; help texts ----------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["calldata", "pairing"], ["calldata", "pairing", "00", "--random", 1],
    ["calldata", "pairing_product_is_one", "--random", 0],
    ["calldata", "pairing_product_is_one", "--random", 1],      # no true relation for k = 1
    ["calldata", "pairing", "00"], ["calldata", "miller_loop", "00", "11"],
    ["calldata", "pairing", "--random", 2], ["calldata", "miller_loop", "--random", 2, "--false"],
    ["calldata", "nope", "--random", 2], ["build", "nope"], ["gas", "nope"],
    ["pairing", "--runs", 0], ["pairing", "--pairs", 0], ["run"],
    ["run", "00", "--code-file", "/dev/null"], ["disasm", "--code-file", "/no/such/file"],
    ["build", "pairing", "--out", "/dev/full"], ["trace", "6001", "--out", "/dev/full"],
    ["calldata", "pairing_product_is_one", "--random", 2, "--seed", 1, "--out", "/dev/full"]])
def test_more_bad_input_is_one_line_and_exit_2(capsys, monkeypatch, argv):
    code, out, err = cli(capsys, monkeypatch, *argv)
    assert code == 2 and out == ""
    assert err.startswith("evm384: error: ") and err.count("\n") == 1


def _process(*argv, env=None, **options):
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                          env=env, **options)


def test_bad_implementation_variable_is_one_line():
    env = dict(os.environ, EVM384_NATIVE_IMPL="foo")
    done = _process("-m", "evm384_native.cli", "run", "6001", env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "evm384: error: environment variable EVM384_NATIVE_IMPL='foo': " \
                          "unknown implementation 'foo'; choose one of " \
                          "['auto', 'mulx', 'portable']\n"


def test_broken_pipe_exits_141_quietly():
    reader = subprocess.Popen([sys.executable, "-m", "evm384_native.cli", "disasm",
                               "contract:pairing"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    reader.stdout.readline()
    reader.stdout.close()                           # like `| head -1`
    assert reader.wait(timeout=60) == 141
    assert reader.stderr.read() == b""


def test_help_texts_name_the_command_and_show_defaults():
    assert _process("-m", "evm384_native", "--help").stdout.startswith(
        "usage: python -m evm384_native ")
    assert _process("-m", "evm384_native.cli", "pairing", "--help").stdout.startswith(
        "usage: evm384 pairing ")
    run_help = " ".join(_process("-m", "evm384_native.cli", "run", "--help").stdout.split())
    assert "(default python)" in run_help and "--code-file FILE" in run_help
    disasm_help = " ".join(_process("-m", "evm384_native.cli", "disasm", "--help").stdout.split())
    assert "Contracts: miller_loop, final_exponentiation, pairing," in disasm_help
    assert "@FILE reads a file of hex text" in disasm_help
    main_help = _process("-m", "evm384_native.cli", "--help").stdout
    assert "141  stdout was closed early" in main_help


def test_debugger_argument_errors(capsys, monkeypatch):
    script = "mem -1\nfp -0x30\nstep 0\nstep x\nmem 0 -1\nstep 1\ninfo\n"
    code, out, _ = cli(capsys, monkeypatch, "debug", "600160020100", stdin=script)
    assert "(evm384) mem -1\nerror: a memory offset is not negative: '-1'\n" in out
    assert "(evm384) fp -0x30\nerror: a memory offset is not negative: '-0x30'\n" in out
    assert "(evm384) step 0\nerror: step count must be a number >= 1, not '0'\n" in out
    assert "(evm384) step x\nerror: step count must be a number >= 1, not 'x'\n" in out
    assert "(evm384) mem 0 -1\nerror: length must be a number >= 0, not '-1'\n" in out
    assert "steps run 1" in out                     # only step 1 ran


def test_stdout_that_cannot_be_written_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "evm384_native.cli", "disasm", "6001"],
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2
    assert done.stderr == "evm384: error: cannot write output: No space left on device\n"


def test_gas_lists_a_contract_without_a_declared_input(capsys, monkeypatch):
    from evm384_native.bls12_381 import usage
    monkeypatch.delitem(usage.USAGE, "miller_loop")   # as a newly added contract
    code, out, _ = cli(capsys, monkeypatch, "gas", "miller_loop", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == len(SCHEDULES)
    assert all(row["bytes"] == len(build_contract("miller_loop")) and row["gas"] is None
               for row in rows)
    code, _, err = cli(capsys, monkeypatch, "calldata", "miller_loop", "--random", 2)
    assert code == 2 and "declares no input encoding" in err


def test_every_contract_declares_its_usage():
    from evm384_native.bls12_381 import CONTRACTS
    from evm384_native.bls12_381.usage import USAGE
    assert set(USAGE) == set(CONTRACTS)


def test_gas_and_random_calldata_need_no_test_extra():
    """From the plain wheel (pyblst, no py_ecc, no chia_rs): the whole gas table on both
    targets and every contract's random calldata (issue 20)."""
    script = """
import sys
sys.modules.update(py_ecc=None, chia_rs=None)        # importing either raises ImportError
from evm384_native.bls12_381.usage import USAGE
from evm384_native.cli.main import main
assert main(["gas", "--out", "/dev/null"]) == 0
for name, usage in USAGE.items():
    assert main(["calldata", name, "--random", str(min(usage.example_k, 2)), "--seed", "1",
                 "--out", "/dev/null"]) == 0, name
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr


# --- plain EVM (--opcodes evm) ----------------------------------------------------------

# CALLDATALOAD 0 + CALLDATALOAD 32, returned
PLAIN_PROGRAM = bytes.fromhex("5f35" "602035" "01" "5f52" "60205ff3")
PLAIN_DATA = (7).to_bytes(32, "big") + (5).to_bytes(32, "big")


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_run_plain_evm(capsys, monkeypatch, engine):
    expected = execute(PLAIN_PROGRAM, PLAIN_DATA, opcodes="evm")
    code, out, err = cli(capsys, monkeypatch, "run", PLAIN_PROGRAM.hex(), "--calldata",
                         PLAIN_DATA.hex(), "--opcodes", "evm", "--engine", engine)
    assert (code, err) == (0, "") and expected.output == (12).to_bytes(32, "big")
    assert expected.gas_used == 27
    assert out == (f"success:    true\nerror:      -\noutput:     0x{expected.output.hex()}\n"
                   "gas used:   27\ngas left:   29,999,973\ngas limit:  30,000,000\n"
                   "steps:      10\n")                    # no line of the set's own ops
    code, out, _ = cli(capsys, monkeypatch, "run", PLAIN_PROGRAM.hex(), "--calldata",
                       PLAIN_DATA.hex(), "--opcodes", "evm", "--engine", engine, "--json")
    assert json.loads(out) == {"success": True, "error": None,
                               "output": "0x" + expected.output.hex(),
                               "gas_used": expected.gas_used,
                               "gas_left": 30_000_000 - expected.gas_used, "steps": 10,
                               "opcode_counts": expected.opcode_counts}
    # EVM384 code: 0xc0 is undefined there
    code, out, _ = cli(capsys, monkeypatch, "run", ADD_PROGRAM.hex(), "--calldata",
                       ADD_DATA.hex(), "--opcodes", "evm", "--engine", engine, "--gas", 1000)
    assert code == 1 and "error:      invalid opcode 0xc0\n" in out and "gas used:   1,000\n" in out


def test_trace_plain_evm(capsys, monkeypatch):
    expected = io.StringIO()
    execute(ADD_PROGRAM, ADD_DATA, gas=1000, opcodes="evm", tracer=Eip3155Tracer(expected))
    code, out, _ = cli(capsys, monkeypatch, "trace", ADD_PROGRAM.hex(), "--calldata",
                       ADD_DATA.hex(), "--opcodes", "evm", "--gas", 1000)
    assert code == 1 and out == expected.getvalue()
    halt = json.loads(out.splitlines()[-2])
    assert (halt["pc"], halt["opName"], halt["error"]) == (23, "UNDEFINED_0xc0",
                                                           "invalid opcode 0xc0")


def test_profile_plain_evm(capsys, monkeypatch, tmp_path):
    folded = tmp_path / "gas.folded"
    code, out, _ = cli(capsys, monkeypatch, "profile", PLAIN_PROGRAM.hex(), "--calldata",
                       PLAIN_DATA.hex(), "--opcodes", "evm", "--folded", folded,
                       "--flamegraph", tmp_path / "gas.svg")
    gas = execute(PLAIN_PROGRAM, PLAIN_DATA, opcodes="evm").gas_used
    assert code == 0 and "\nby opcode:\n" in out and "ops:" not in out
    assert re.search(r"^CALLDATALOAD +2 +6$", out, re.M)
    assert "hottest instructions" in out and "     2  CALLDATALOAD" not in out
    assert folded.read_text() == f"code {gas}\n"
    assert "gas by call path (EVM)" in (tmp_path / "gas.svg").read_text()


def test_disasm_plain_evm(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "disasm", ADD_PROGRAM.hex(), "--opcodes", "evm")
    assert code == 0
    assert out.splitlines()[4:6] == [f"     6  PUSH16 {pack_offsets(0, 0, 48, 96):#x}",
                                     "    23  UNKNOWN_0xc0"]


def test_debug_plain_evm(capsys, monkeypatch):
    code, out, _ = cli(capsys, monkeypatch, "debug", PLAIN_PROGRAM.hex(), "--calldata",
                       PLAIN_DATA.hex(), "--opcodes", "evm", stdin="step 4\nstack\nctx\nc\n")
    assert code == 0
    assert "     5  ADD\n(evm384) stack\n   0: 0x5\n   1: 0x7\n" in out
    assert "error: field contexts exist under --opcodes evmmax only\n" in out
    assert out.endswith("steps:      10\n")


def test_pricing_options_do_not_apply_to_plain_evm(capsys, monkeypatch):
    code, _, err = cli(capsys, monkeypatch, "run", "00", "--opcodes", "evm",
                       "--schedule", "update5-A", "--costs", "eip-7747")
    assert code == 0 and err == (
        "evm384: warning: --costs eip-7747 does not apply to EVM runs (it prices EVMMAX's "
        "instructions); ignored\n"
        "evm384: warning: --schedule update5-A does not apply to EVM runs (it prices "
        "EVM384's instructions); ignored\n")


def test_gas_prices_each_opcode_set_from_its_data():
    """`evm384 gas` prices a target's runs as its opcode set says, not by name: a set
    neither schedule nor cost model prices (plain EVM) runs once, at mainnet's gas."""
    from evm384_native.cli.gas import _pricings
    from evm384_native.evm.costs import COST_MODELS
    models = list(COST_MODELS.values())
    assert _pricings("evm", models) == [("-", {})]
    assert _pricings("evm384", models) == [(name, {"schedule": name}) for name in SCHEDULES]
    assert _pricings("evmmax", models) == [(model.name, {"costs": model}) for model in models]
