"""The forks axis: Osaka's CLZ (EIP-7939) on every engine and backend, 0x1e undefined under
Cancun and Prague, EIP-7825's transaction gas cap as a report, and the tools' view."""
import inspect
import io
import json

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.asm import Assembler, disassemble
from evm384_native.cli.main import main
from evm384_native.evm import DEFAULT_FORK, FORKS, Eip3155Tracer, Fork, exceeds_transaction_cap
from evm384_native.evm.api import run
from evm384_native.evm.forks import OSAKA, resolve_fork
from evm384_native.evm.opcode_sets import OPCODE_SETS, resolve_opcodes
from evm384_native.evm.opcodes import lookup

from evm_helpers import RETURN_TOP, RETURN_TOP_GAS, asm, push, run_everywhere

CLZ = bytes([0x1E])
# The engines and backends: every one must give the same result.
ENGINES = [dict(engine="python", backend="native"), dict(engine="python", backend="reference"),
           dict(engine="fast", backend="native")]
ENGINE_IDS = ["python/native", "python/reference", "fast"]

# EIP-7939's "Test Cases" section (/work/shared/docs/eip-7939.md), as written there:
# PUSH32 operand, the word CLZ leaves. (The first operand has 63 hex digits in the EIP:
# zero all the same.)
EIP_7939_CASES = [
    ("0x000000000000000000000000000000000000000000000000000000000000000",
     "0x0000000000000000000000000000000000000000000000000000000000000100"),
    ("0x8000000000000000000000000000000000000000000000000000000000000000",
     "0x0000000000000000000000000000000000000000000000000000000000000000"),
    ("0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "0x0000000000000000000000000000000000000000000000000000000000000000"),
    ("0x4000000000000000000000000000000000000000000000000000000000000000",
     "0x0000000000000000000000000000000000000000000000000000000000000001"),
    ("0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "0x0000000000000000000000000000000000000000000000000000000000000001"),
    ("0x0000000000000000000000000000000000000000000000000000000000000001",
     "0x00000000000000000000000000000000000000000000000000000000000000ff"),
]


def clz_program(x: int) -> bytes:
    """PUSH32 x; CLZ; return the word."""
    return push(x) + CLZ + RETURN_TOP


def clz_everywhere(x: int, fork: str = "osaka"):
    results = [run(clz_program(x), gas=1000, fork=fork, **mode) for mode in ENGINES]
    for mode, result in zip(ENGINE_IDS, results):
        assert result == results[0], f"{mode} differs: {result} vs {results[0]}"
    return results[0]


# --- CLZ under Osaka ------------------------------------------------------------------------

@pytest.mark.parametrize("operand, expected", EIP_7939_CASES)
@pytest.mark.parametrize("mode", ENGINES, ids=ENGINE_IDS)
def test_eip_7939_cases_on_every_engine(mode, operand, expected):
    result = run(clz_program(int(operand, 16)), gas=1000, **mode)
    assert result.success, result.error
    assert result.output == int(expected, 16).to_bytes(32, "big")
    assert result.opcode_counts["CLZ"] == 1


@pytest.mark.parametrize("operand, expected", EIP_7939_CASES)
def test_eip_7939_cases_fused_unfused_and_traced(operand, expected):
    result = run_everywhere(clz_program(int(operand, 16)))
    assert result.output == int(expected, 16).to_bytes(32, "big")


words = st.one_of(st.integers(0, 2**256 - 1),
                  st.integers(0, 255).map(lambda n: 1 << n),
                  st.integers(0, 256).map(lambda n: (1 << n) - 1))


@settings(max_examples=200, deadline=None)
@given(x=words)
def test_clz_matches_bit_length_on_random_words(x):
    result = clz_everywhere(x)
    assert int.from_bytes(result.output, "big") == 256 - x.bit_length()


def test_clz_costs_five_gas():
    # PUSH32 3 + CLZ 5, then RETURN_TOP
    assert clz_everywhere(1).gas_used == 3 + 5 + RETURN_TOP_GAS
    assert lookup("CLZ").gas == 5 and OSAKA.instructions[0].gas == lookup("MUL").gas
    for mode in ENGINES:   # exactly its gas, and one less is out of gas
        assert run(push(0, 0) + CLZ, gas=7, **mode).gas_left == 0
        assert run(push(0, 0) + CLZ, gas=6, **mode).error == "out of gas"


def test_clz_on_an_empty_stack_underflows_everywhere():
    result = run_everywhere(CLZ, gas=100)
    assert (result.error, result.gas_used) == ("stack underflow", 100)


@pytest.mark.parametrize("opcodes", sorted(OPCODE_SETS))
def test_clz_under_every_opcode_set(opcodes):
    for mode in ENGINES:
        result = run(clz_program(1 << 200), gas=1000, opcodes=opcodes, **mode)
        assert int.from_bytes(result.output, "big") == 55


# --- before Osaka -----------------------------------------------------------------------------

@pytest.mark.parametrize("opcodes", sorted(OPCODE_SETS))
@pytest.mark.parametrize("fork", ["cancun", "prague"])
def test_0x1e_is_undefined_before_osaka(fork, opcodes):
    for code in (CLZ, push(7, 1) + CLZ + RETURN_TOP):
        result = run_everywhere(code, gas=500, fork=fork, opcodes=opcodes)  # every engine
        assert (result.success, result.error, result.gas_used) == \
            (False, "invalid opcode 0x1e", 500)
        assert result.opcode_counts.get("UNDEFINED_0x1e") == 1


def test_one_code_under_each_fork_in_turn():
    """The analysis caches key on the (set, fork) pair: the same bytes alternate meanings."""
    code = clz_program(1)
    for fork in ("osaka", "prague", "osaka", "cancun", "osaka"):
        for opcodes in sorted(OPCODE_SETS):
            for mode in ENGINES:
                result = run(code, gas=1000, fork=fork, opcodes=opcodes, **mode)
                assert result.success == (fork == "osaka"), (fork, opcodes, mode)


def test_the_default_fork_is_osaka():
    assert DEFAULT_FORK == "osaka" and list(FORKS) == ["cancun", "prague", "osaka"]
    for function in (execute, run):
        assert inspect.signature(function).parameters["fork"].default == "osaka"
    assert execute(clz_program(1)) == execute(clz_program(1), fork="osaka")
    assert execute(clz_program(1)).success


def test_forks_as_data():
    assert resolve_fork("prague") is FORKS["prague"] and resolve_fork(OSAKA) is OSAKA
    with pytest.raises(ValueError, match="unknown fork 'london'"):
        execute(CLZ, fork="london")
    # one opcode set per (set, fork); prague's table is the set's own
    assert resolve_opcodes("evm384", "osaka") is resolve_opcodes("evm384")
    assert 0x1E not in resolve_opcodes("evm384", "prague").table
    assert resolve_opcodes("evmmax", "osaka").table[0x1E].name == "CLZ"
    assert resolve_opcodes("evm", "osaka").table[0x1E].name == "CLZ"
    assert resolve_opcodes("evm", "osaka") is not resolve_opcodes("evm384", "osaka")
    # a fork of one's own: Osaka's instructions without its cap
    custom = Fork("osaka-uncapped", OSAKA.instructions)
    assert execute(clz_program(2), fork=custom).output[-1] == 254
    assert not custom.exceeds_cap(2**30)


# --- EIP-7825 ---------------------------------------------------------------------------------

def test_transaction_cap_is_reported_not_enforced():
    cap = 2**24
    assert OSAKA.transaction_gas_cap == cap == 16_777_216
    burn = execute(b"\xfe", gas=cap + 1)       # INVALID: an exceptional halt uses all the gas
    assert burn.gas_used == cap + 1            # ran with a limit above the cap
    assert exceeds_transaction_cap(burn) and exceeds_transaction_cap(burn, "osaka")
    assert not exceeds_transaction_cap(burn, "prague")
    assert not exceeds_transaction_cap(execute(b"\xfe", gas=cap))
    assert not exceeds_transaction_cap(execute(clz_program(1), gas=30_000_000))


def cli(capsys, *argv):
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


NOTE = "note: gas used 20,000,000 exceeds Osaka's per-transaction cap 16,777,216 (EIP-7825)"


def test_cli_run_notes_the_cap(capsys):
    code, out, err = cli(capsys, "run", "fe", "--gas", 20_000_000)
    assert code == 1 and out.splitlines()[-1] == NOTE and err == ""
    code, out, err = cli(capsys, "run", "fe", "--gas", 20_000_000, "--json")
    assert json.loads(out)["gas_used"] == 20_000_000 and err.strip() == NOTE
    for argv in (["--gas", 20_000_000, "--fork", "prague"], ["--gas", 2**24]):
        code, out, err = cli(capsys, "run", "fe", *argv)
        assert "note:" not in out + err


@pytest.mark.parametrize("opcodes", sorted(OPCODE_SETS))
def test_cli_fork_option(capsys, opcodes):
    program = clz_program(1).hex()
    code, out, _ = cli(capsys, "run", program, "--engine", "fast", "--opcodes", opcodes)
    assert code == 0 and "output:     0x" + "00" * 31 + "ff" in out
    code, out, _ = cli(capsys, "run", program, "--fork", "cancun", "--opcodes", opcodes)
    assert code == 1 and "error:      invalid opcode 0x1e" in out
    code, out, _ = cli(capsys, "disasm", program, "--fork", "prague", "--opcodes", opcodes)
    assert "UNKNOWN_0x1e" in out and "CLZ" not in out
    code, out, _ = cli(capsys, "disasm", program, "--opcodes", opcodes)
    assert "    33  CLZ" in out.splitlines()


# --- tools --------------------------------------------------------------------------------------

def test_eip3155_line_names_clz():
    out = io.StringIO()
    execute(push(1, 1) + CLZ, gas=100, tracer=Eip3155Tracer(out))
    line = json.loads(out.getvalue().splitlines()[1])
    assert (line["pc"], line["op"], line["opName"], line["gasCost"], line["stack"]) == \
        (2, 0x1E, "CLZ", "0x5", ["0x1"])
    out = io.StringIO()
    execute(push(1, 1) + CLZ, gas=100, fork="prague", tracer=Eip3155Tracer(out))
    line = json.loads(out.getvalue().splitlines()[1])
    assert (line["opName"], line["error"]) == ("UNDEFINED_0x1e", "invalid opcode 0x1e")


def test_disassembler_and_assembler():
    code = asm("PUSH0") + CLZ
    assert [ins.name for ins in disassemble(code)] == ["PUSH0", "CLZ"]
    assert [ins.name for ins in disassemble(code, fork="cancun")] == ["PUSH0", "UNKNOWN_0x1e"]
    a = Assembler()
    a.push(1)
    a.op("clz")
    assert a.assemble().code == push(1, 1) + CLZ


def test_fuzz_generators_emit_clz():
    from fuzz.programs import PURE_OPS
    assert 0x1E in PURE_OPS
