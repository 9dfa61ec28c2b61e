"""Gas by run-time call path (``evm384_native.asm.flamegraph``): folded stacks that add up
to the gas used, subroutines under each of their callers, the SVG, ``evm384 profile
--flamegraph / --folded``."""
import random
import xml.etree.ElementTree as ET

import pytest

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.asm.flamegraph import WIDTH, CallPathGas, folded, svg
from evm384_native.bls12_381 import build_program
from evm384_native.bls12_381.usage import USAGE
from evm384_native.cli.main import main

SVG = "{http://www.w3.org/2000/svg}"
CONTRACT = "pairing_check_hinted"


def nested_program():
    """demo calls mid from two scopes, mid calls leaf, demo calls leaf too, and a chain is
    entered at its second step (``call(sub, at=label)``)."""
    asm = Assembler("demo")

    def leaf_body(a):
        with a.scope("work"):
            a.push(1)
            a.op("POP")
    leaf = asm.subroutine("leaf", leaf_body)

    def mid_body(a):
        a.call(leaf)
        a.push(2)
        a.op("POP")
    mid = asm.subroutine("mid", mid_body)
    second_step = asm.new_label("second_step")

    def chain_body(a):
        a.push(3)
        a.op("POP")
        a.place(second_step)
        a.push(4)
        a.op("POP")
    chain = asm.subroutine("chain", chain_body)
    with asm.scope("first"):
        asm.call(mid)
    with asm.scope("second"):
        asm.call(mid)
        asm.call(leaf)
    asm.call(chain, at=second_step)
    asm.op("STOP")
    return asm.assemble()


def traced(program, calldata=b"", opcodes="evm384"):
    tracer = CallPathGas(program)
    result = execute(program.code, calldata, tracer=tracer, opcodes=opcodes)
    assert result.success
    return result, tracer.stacks()


def parse(folded_text):
    """{path: gas} from folded lines."""
    stacks = {}
    for line in folded_text.splitlines():
        frames, gas = line.rsplit(" ", 1)
        stacks[tuple(frames.split(";"))] = int(gas)
    return stacks


def test_nested_calls_follow_the_run_time_stack():
    result, stacks = traced(nested_program())
    call = 3 + 3 + 8 + 1              # PUSH ret, PUSH entry, JUMP; the return JUMPDEST
    body = 1 + 3 + 2                  # JUMPDEST, PUSH, POP
    assert stacks == {
        ("demo", "first"): call,
        ("demo", "first", "mid"): body + 8 + call,       # its own code, the return JUMP
        ("demo", "first", "mid", "leaf"): 1 + 8,         # entry JUMPDEST, return JUMP
        ("demo", "first", "mid", "leaf", "work"): 3 + 2,
        ("demo", "second"): 2 * call,
        ("demo", "second", "mid"): body + 8 + call,
        ("demo", "second", "mid", "leaf"): 1 + 8,
        ("demo", "second", "mid", "leaf", "work"): 3 + 2,
        ("demo", "second", "leaf"): 1 + 8,
        ("demo", "second", "leaf", "work"): 3 + 2,
        ("demo",): call,
        ("demo", "chain"): 1 + 3 + 2 + 8,                # entered at second_step
    }
    assert sum(stacks.values()) == result.gas_used
    assert parse(folded(stacks)) == stacks


def test_code_without_a_program_is_one_frame():
    tracer = CallPathGas()
    result = execute(bytes.fromhex("6001600201600056"), tracer=tracer)   # a bad JUMP
    assert not result.success
    assert tracer.stacks() == {("code",): result.gas_used}


@pytest.fixture(scope="module", params=["evm384", "evmmax"])
def contract_run(request):
    """The hinted pairing check of 2 pairs, traced once per opcode set (a fraction of a
    second each: the run is the python engine's step loop)."""
    program = build_program(CONTRACT, target=request.param)
    calldata = USAGE[CONTRACT].example(random.Random(1), 2, True)
    result, stacks = traced(program, calldata, request.param)
    return request.param, result, stacks


def test_contract_gas_adds_up_to_gas_used(contract_run):
    _, result, stacks = contract_run
    assert sum(parse(folded(stacks)).values()) == result.gas_used
    assert {path[0] for path in stacks} == {CONTRACT}


# a subroutine of each build and the routines that call it (EVM384: the line product from
# both the doubling and the addition steps; EVMMAX inlines it)
CALLERS = {"evm384": ("ml_mul_by_line", {"ml_dbl_all", "ml_add_all"}),
           "evmmax": ("bswap256", {"load_pairs"})}


def test_a_subroutine_shows_under_each_caller(contract_run):
    opcodes, _, stacks = contract_run
    routine, expected = CALLERS[opcodes]
    callers = {path[path.index(routine) - 1] for path in stacks if routine in path}
    assert callers == expected


def test_svg_parses_and_its_top_level_is_the_run(contract_run):
    _, result, stacks = contract_run
    root = ET.fromstring(svg(stacks))
    assert root.tag == SVG + "svg"
    rects = {depth: [r for r in root.iter(SVG + "rect") if r.get("data-depth") == str(depth)]
             for depth in (0, 1)}
    scale = WIDTH / result.gas_used
    assert sum(float(r.get("width")) for r in rects[0]) / scale == pytest.approx(
        result.gas_used, rel=1e-9)
    assert sum(int(r.get("data-gas")) for r in rects[0]) == result.gas_used
    assert sum(float(r.get("width")) for r in rects[1]) <= WIDTH + 1e-6
    titles = [g.find(SVG + "title").text for g in root.iter(SVG + "g")]
    assert f"{CONTRACT} ({result.gas_used:,} gas, 100.00%)" in titles


def cli(capsys, *argv):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("opcodes", ["evm384", "evmmax"])
def test_cli_writes_the_flame_graph_and_the_folded_stacks(capsys, tmp_path, opcodes):
    calldata = USAGE[CONTRACT].example(random.Random(1), 2, True).hex()
    result = execute(build_program(CONTRACT, target=opcodes).code, bytes.fromhex(calldata),
                     engine="fast", opcodes=opcodes)
    code, out, err = cli(capsys, "profile", f"contract:{CONTRACT}", "--calldata", calldata,
                         "--opcodes", opcodes, "--flamegraph", tmp_path / "f.svg",
                         "--folded", tmp_path / "f.txt")
    assert (code, err) == (0, "") and "by opcode:" in out
    assert sum(parse((tmp_path / "f.txt").read_text()).values()) == result.gas_used
    assert ET.parse(tmp_path / "f.svg").getroot().tag == SVG + "svg"


def test_cli_plain_code(capsys, tmp_path):
    code, _, err = cli(capsys, "profile", "6001600201", "--flamegraph", tmp_path / "g.svg",
                       "--folded", tmp_path / "g.txt")
    assert (code, err) == (0, "")
    assert (tmp_path / "g.txt").read_text() == "code 9\n"
    ET.parse(tmp_path / "g.svg")


@pytest.mark.parametrize("option", ["--flamegraph", "--folded"])
def test_cli_unwritable_path_is_one_line_and_exit_2(capsys, option):
    code, out, err = cli(capsys, "profile", "6001600201", option, "/no/such/dir/f")
    assert code == 2 and out == ""
    assert err.startswith("evm384: error: cannot write '/no/such/dir/f'") and err.count("\n") == 1
