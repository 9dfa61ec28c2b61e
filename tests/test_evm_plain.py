"""The plain opcode set (``opcodes="evm"``): today's mainnet EVM on both engines.

Every instruction it defines runs with py-evm's and revm's semantics and gas (both at
Prague: neither has Osaka's CLZ, which is checked against EIP-7939 in test_forks.py), on
operands that reach the edges, and at one gas less than a run used; random programs over
all 256 bytes agree with both; EVM384's and EVMMAX's bytes 0xc0..0xc5 are undefined (an
exceptional halt) on every engine; the fast engine's C loop runs the set itself.
"""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evm384_native import execute
from evm384_native._native import ffi
from evm384_native.asm import disassemble
from evm384_native.evm.api import run
from evm384_native.evm.fast import _opcode_table
from evm384_native.evm.gas import DEFAULT_SCHEDULE, resolve_schedule
from evm384_native.evm.opcode_sets import OPCODE_SETS, resolve_opcodes
from evm384_native.evm.opcodes import FORK_OPCODES, MAINNET_OPCODES

from evm_helpers import PYEVM_FORK, asm, push, pyevm_run, run_everywhere
from revm_oracle import require_revm, revm_run

PLAIN = "evm"
EXTENSION_BYTES = range(0xC0, 0xC6)    # EVM384's 0xc0..0xc2, EVMMAX's 0xc0..0xc5
U = 2**256
GAS = 100_000                          # at most ~180 KB of memory
ENGINES = [dict(engine="python", backend="native"), dict(engine="python", backend="reference"),
           dict(engine="fast", backend="native")]
ENGINE_IDS = ["python/native", "python/reference", "fast"]
# What the oracles run: the set under Prague (0x1e undefined there, as for them)
AT_PRAGUE = resolve_opcodes(PLAIN, PYEVM_FORK).table
RUNNABLE = sorted(code for code, info in AT_PRAGUE.items() if not info.needs_state)


def pyevm_oracle(code: bytes, calldata: bytes, gas: int):
    return pyevm_run(code, calldata, gas, opcodes=PLAIN)


def revm_oracle(code: bytes, calldata: bytes, gas: int):
    assert calldata == b"", "revm's runs take no calldata (revm_oracle.py)"
    return revm_run(code, gas)


ORACLES = {"py-evm": pyevm_oracle, "revm": revm_oracle}


@pytest.fixture(params=sorted(ORACLES))
def oracle(request):
    """(name, run(code, calldata, gas) -> (success, output, gas used))."""
    if request.param == "revm":
        require_revm()
    return request.param, ORACLES[request.param]


def assert_agrees(oracle, code: bytes, calldata: bytes, gas: int):
    """Every engine, backend and loop alike under the plain set at Prague, and the oracle's
    (success, output, gas used) the same."""
    name, runner = oracle
    ours = run_everywhere(code, calldata, gas, fork=PYEVM_FORK, opcodes=PLAIN)
    if (ours.error or "").startswith("unsupported opcode"):
        return ours                  # world state: the oracles run it, this project does not
    theirs = runner(code, calldata, gas)
    assert (ours.success, ours.output, ours.gas_used) == theirs, (name, code.hex(), ours, theirs)
    return ours


# --- the set -------------------------------------------------------------------------------

def test_the_plain_set_is_mainnets_table_and_nothing_else():
    plain = OPCODE_SETS[PLAIN]
    assert plain.table == MAINNET_OPCODES and plain.own_mnemonics == ()
    assert not (plain.fuses_evm384 or plain.scheduled or plain.fast_extension
                or plain.new_frame_state or plain.run_entry)
    assert not set(EXTENSION_BYTES) & set(resolve_opcodes(PLAIN).table)
    # Osaka (the default) adds CLZ, the earlier forks nothing
    assert resolve_opcodes(PLAIN).table == {**MAINNET_OPCODES, **FORK_OPCODES}
    assert resolve_opcodes(PLAIN, "cancun").table == MAINNET_OPCODES
    # the other sets are this table plus their own instructions
    for opcode_set in OPCODE_SETS.values():
        assert {code: opcode_set.table[code] for code in MAINNET_OPCODES} == MAINNET_OPCODES
        assert len(opcode_set.table) == len(MAINNET_OPCODES) + len(opcode_set.own_mnemonics)


def test_the_fast_engines_c_loop_runs_every_stateless_instruction_itself():
    """No extension; every instruction native to the C loop but INVALID and the state
    opcodes (which halt in the host), so plain code runs in C to its end."""
    for fork in ("osaka", "prague"):
        opcode_set = resolve_opcodes(PLAIN, fork)
        table = _opcode_table(resolve_schedule(DEFAULT_SCHEDULE), opcode_set)
        assert table.extension == ffi.NULL
        for code in range(256):
            info = opcode_set.table.get(code)
            native = info is not None and not info.needs_state and info.name != "INVALID"
            assert (table.op[code].native, table.op[code].extended) == (native, False), hex(code)


# --- every instruction against py-evm and revm ------------------------------------------------

LANDING = 3        # the JUMPDEST of the prefix below: the one valid jump destination
PREFIX_END = 12
# PUSH1 12; JUMP; JUMPDEST (pc 3): return the byte 0xaa; JUMPDEST (pc 12): the case
PREFIX = asm(push(PREFIX_END, 1), "JUMP", "JUMPDEST", push(0xAA, 1), "PUSH0", "MSTORE8",
             push(1, 1), "PUSH0", "RETURN", "JUMPDEST")
assert len(PREFIX) == PREFIX_END + 1 and PREFIX[LANDING] == 0x5B
EDGES = [0, 1, 2, LANDING, 31, 32, 33, 255, 256, 2**32, 2**64 - 1, 2**64, 2**128, 2**255 - 1,
         2**255, U - 2, U - 1]


def operand(rng: random.Random) -> int:
    """Mostly a small number (offsets and sizes that work) or the landing (a jump that
    does), else an edge or any word."""
    kind = rng.random()
    if kind < 0.15:
        return LANDING
    if kind < 0.5:
        return rng.randrange(130)
    return rng.choice(EDGES) if kind < 0.8 else rng.randrange(U)


def returning_stack(items: int) -> bytes:
    """Store the top ``items`` stack items at 0, 32, ... and return them."""
    stores = b"".join(push(32 * i, 2) + asm("MSTORE") for i in range(items))
    return stores + push(32 * items, 2) + asm("PUSH0", "RETURN")


def opcode_case(opcode: int, rng: random.Random) -> bytes:
    """The instruction on random operands (its immediate data random), then its results
    returned."""
    info = AT_PRAGUE[opcode]
    operands = [operand(rng) for _ in range(info.inputs)]
    return (PREFIX + b"".join(push(value) for value in reversed(operands)) + bytes([opcode])
            + rng.randbytes(info.immediate) + returning_stack(info.outputs))


@pytest.mark.parametrize("opcode", RUNNABLE, ids=[AT_PRAGUE[code].name for code in RUNNABLE])
def test_every_instruction_agrees_on_semantics_and_gas(oracle, opcode):
    for index in range(12):
        rng = random.Random(f"{opcode}:{index}")
        code = opcode_case(opcode, rng)
        calldata = rng.randbytes(rng.randrange(70)) if oracle[0] == "py-evm" else b""
        ours = assert_agrees(oracle, code, calldata, GAS)
        if ours.success and ours.gas_used:      # the exact gas: one less runs out
            assert_agrees(oracle, code, calldata, ours.gas_used - 1)


def test_the_state_opcodes_halt_as_unsupported_on_every_engine():
    for code, info in MAINNET_OPCODES.items():
        if info.needs_state:
            result = run_everywhere(push(0, 0) * info.inputs + bytes([code]), gas=5000,
                                    opcodes=PLAIN)
            assert (result.error, result.gas_used) == (f"unsupported opcode: {info.name}", 5000)


# --- random programs ---------------------------------------------------------------------------

words = st.one_of(st.sampled_from(EDGES), st.integers(0, U - 1))
instruction = st.one_of(
    st.integers(0, 255).map(lambda v: push(v, 1)),                 # offsets, sizes, jumps
    words.map(push),
    st.sampled_from(RUNNABLE).map(lambda code: bytes([code])),   # PUSHn: the next bytes
    st.sampled_from(list(EXTENSION_BYTES)).map(lambda code: bytes([code])),
    st.integers(0, 255).map(lambda code: bytes([code])),         # any byte at all
    st.just(asm("JUMPDEST")),
)
programs = st.tuples(st.lists(words.map(push), min_size=2, max_size=6),
                     st.lists(instruction, min_size=1, max_size=40)).map(
    lambda parts: b"".join(parts[0] + parts[1]))
gas_limits = st.one_of(st.integers(0, 30_000), st.sampled_from([0, 21, GAS]))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow,
                                                   HealthCheck.function_scoped_fixture],
          deadline=None)
@given(code=programs, data=st.binary(max_size=80), gas=gas_limits)
def test_random_programs_agree(oracle, code, data, gas):
    assert_agrees(oracle, code, data if oracle[0] == "py-evm" else b"", gas)


# --- EVM384's and EVMMAX's bytes are undefined ---------------------------------------------------

@pytest.mark.parametrize("byte", EXTENSION_BYTES, ids=[f"0x{b:02x}" for b in EXTENSION_BYTES])
@pytest.mark.parametrize("mode", ENGINES, ids=ENGINE_IDS)
def test_the_extension_bytes_halt_as_undefined(mode, byte):
    # as an EVM384 pair (PUSH16 of offsets), with an EVMMAX immediate after, and alone
    for code in (push(0x40, 16) + bytes([byte]), bytes([byte]) + bytes(7),
                 push(3, 1) * 4 + bytes([byte])):
        result = run(code, gas=10_000, opcodes=PLAIN, **mode)
        assert (result.success, result.error, result.gas_used, result.output) == \
            (False, f"invalid opcode 0x{byte:02x}", 10_000, b"")
        assert result.opcode_counts[f"UNDEFINED_0x{byte:02x}"] == 1
    # while the set that has the byte runs it
    for name, opcode_set in OPCODE_SETS.items():
        if byte in opcode_set.table:
            assert run(push(0x40, 16) + bytes([byte]), gas=10_000, opcodes=name, **mode).error \
                != f"invalid opcode 0x{byte:02x}"


def test_the_extension_bytes_halt_like_pyevm_and_revm(oracle):
    for byte in EXTENSION_BYTES:
        result = assert_agrees(oracle, push(0x40, 16) + bytes([byte]) + asm("STOP"), b"", 5000)
        assert result.error == f"invalid opcode 0x{byte:02x}"


def test_an_evmmax_immediate_is_code_under_plain_evm(oracle):
    """0xc3 has seven immediate bytes under EVMMAX only: a JUMPDEST among them is a jump
    destination under plain EVM and not under EVMMAX."""
    code = asm(push(4, 1), "JUMP", bytes([0xC3]), "JUMPDEST") + returning_stack(0) + bytes(6)
    assert code[4] == 0x5B
    assert assert_agrees(oracle, code, b"", 1000).success
    assert execute(code, gas=1000, opcodes="evmmax").error == "invalid jump destination"


def test_the_disassembler_knows_no_extension_bytes():
    code = push(0x40, 16) + bytes([0xC0]) + bytes([0xC5]) + bytes(7) + asm("PUSH0")
    names = [ins.name for ins in disassemble(code, opcodes=PLAIN)]
    assert names == ["PUSH16", "UNKNOWN_0xc0", "UNKNOWN_0xc5"] + ["STOP"] * 7 + ["PUSH0"]
    assert [ins.name for ins in disassemble(code)][:2] == ["ADDMOD384", "UNKNOWN_0xc5"]


# --- forks and gas -------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ENGINES, ids=ENGINE_IDS)
def test_clz_is_defined_only_under_osaka(mode):
    code = push(1 << 200) + bytes([0x1E]) + returning_stack(1)
    result = run(code, gas=1000, opcodes=PLAIN, **mode)
    assert int.from_bytes(result.output, "big") == 55 and result.opcode_counts["CLZ"] == 1
    for fork in ("prague", "cancun"):
        assert run(code, gas=1000, opcodes=PLAIN, fork=fork, **mode).error == "invalid opcode 0x1e"


@pytest.mark.parametrize("mode", ENGINES, ids=ENGINE_IDS)
def test_huge_gas_costs_no_time_past_the_memory_cap(mode):
    """Time and memory follow gas: an access past 4 GiB is out of gas at once, whatever
    the limit, and a gas-bounded loop stops where its gas does."""
    for offset in (2**32, 2**64, U - 1):
        result = run(push(offset) + asm("MLOAD"), gas=2**62, opcodes=PLAIN, **mode)
        assert (result.error, result.gas_used) == ("out of gas", 2**62)
    loop = asm("JUMPDEST", "PUSH0", "JUMP")          # 1 + 2 + 8 gas a turn
    result = run(loop, gas=11 * 5000 + 5, opcodes=PLAIN, **mode)
    # 5000 turns, then JUMPDEST and PUSH0, and the JUMP halts (a halt counts as a step)
    assert (result.error, result.steps) == ("out of gas", 3 * 5000 + 3)
