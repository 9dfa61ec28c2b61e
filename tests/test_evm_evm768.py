"""EVM768: ADDMOD768, SUBMOD768 and MULMODMONT768 (EVM384's interface v7 at 96-byte values).

The kernels (the C one, EVMMAX's 12-limb kernels under both implementations, and the
pure-Python reference) against formulas on Python integers written here; the
instructions on both engines, both backends, traced, and in py-evm through the
integration (whose memory growth and gas are py-evm's own); every halt; the per-limb gas
of every schedule; the tools (disassembler, debugger, command line)."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.errors import MemoryRangeError
from evm384_native.evm.api import run
from evm384_native.evm.gas import MAX_GAS, SCHEDULES, resolve_schedule
from evm384_native.evm.kernels import kernel, reference
from evm384_native.evm.kernels.montgomery import from_montgomery, montgomery_inv, to_montgomery
from evm384_native.evm.opcode_sets import resolve_opcodes
from evm384_native.evm.opcodes import EVM768_BY_NAME

from evm_helpers import asm, assert_matches_pyevm, evm384_word, memory_gas, push, run_everywhere

BITS = 768
SIZE = 96
MASK = (1 << BITS) - 1
R = 1 << BITS
NAMES = ("ADDMOD768", "SUBMOD768", "MULMODMONT768")

def op768(name: str) -> bytes:
    return bytes([EVM768_BY_NAME[name].code])


# --- the formulas, on Python integers ---------------------------------------------------

def add_formula(x, y, mod):
    t = x + y
    return (t - mod if t >= mod else t) & MASK


def sub_formula(x, y, mod):
    t = x - y
    return (t + mod if t < 0 else t) & MASK


def check_mulmont(result, x, y, mod):
    """For an odd modulus and its true inv: x * y / R mod m, below 2 * m, and below m when
    the inputs are (the final subtraction)."""
    assert result < R and result % mod == x * y * pow(R, -1, mod) % mod
    if x < mod and y < mod:
        assert result < mod


def memory_of(x, y, mod, inv):
    return bytearray(x.to_bytes(SIZE, "little") + y.to_bytes(SIZE, "little")
                     + mod.to_bytes(SIZE, "little") + inv.to_bytes(8, "little"))


KERNELS = [getattr(module, name.lower()) for module in (kernel, reference) for name in NAMES]
values768 = st.one_of(st.integers(0, MASK), st.sampled_from([0, 1, MASK, MASK - 1, 1 << 767]))


IMPLEMENTATIONS = ["portable"] + (["mulx"] if kernel.mulx_available() else [])


def under_each_implementation(check) -> None:
    """``check()`` with the native kernels' Montgomery product portable, then MULX."""
    try:
        for name in IMPLEMENTATIONS:
            kernel.use_implementation(name)
            check()
    finally:
        kernel.use_implementation("auto")


@settings(max_examples=300, deadline=None)
@given(x=values768, y=values768, mod=values768)
def test_add_and_sub_follow_the_formulas_for_any_inputs(x, y, mod):
    for module in (kernel, reference):
        memory = memory_of(x, y, mod, 0)
        module.addmod768(memory, 0, 0, SIZE, 2 * SIZE)
        assert int.from_bytes(memory[:SIZE], "little") == add_formula(x, y, mod)
        memory = memory_of(x, y, mod, 0)
        module.submod768(memory, 0, 0, SIZE, 2 * SIZE)
        assert int.from_bytes(memory[:SIZE], "little") == sub_formula(x, y, mod)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), bits=st.integers(3, BITS))
def test_mulmont_is_the_montgomery_product_for_odd_moduli(data, bits):
    mod = data.draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1
    x = data.draw(st.integers(0, min(MASK, 2 * mod)))    # unreduced inputs too
    y = data.draw(st.integers(0, mod - 1))
    def check():
        for module in (kernel, reference):
            memory = memory_of(x, y, mod, montgomery_inv(mod, 12)) + bytes(SIZE)
            module.mulmodmont768(memory, SIZE * 3 + 8, 0, SIZE, 2 * SIZE)  # out past inv
            check_mulmont(int.from_bytes(memory[-SIZE:], "little"), x, y, mod)
    under_each_implementation(check)


def test_mulmont_round_trips_montgomery_form():
    rng = random.Random(5)
    mod = rng.getrandbits(BITS) | 1 | 1 << 767
    a, b = rng.randrange(mod), rng.randrange(mod)
    memory = memory_of(to_montgomery(a, mod, 12), to_montgomery(b, mod, 12), mod,
                       montgomery_inv(mod, 12))
    kernel.mulmodmont768(memory, 0, 0, SIZE, 2 * SIZE)
    assert from_montgomery(int.from_bytes(memory[:SIZE], "little"), mod, 12) == a * b % mod


@settings(max_examples=150, deadline=None)
@given(x=values768, y=values768, mod=values768, inv=st.integers(0, 2**64 - 1))
def test_native_and_reference_agree_on_anything(x, y, mod, inv):
    """Even moduli, garbage inv, unreduced inputs: the spec's CIOS formula fixes the bytes,
    and two implementations of it (the C through EVMMAX's kernels, portable and MULX,
    and the Python reference) must agree."""
    def check():
        for name in NAMES:
            native, ref = memory_of(x, y, mod, inv), memory_of(x, y, mod, inv)
            getattr(kernel, name.lower())(native, 0, 0, SIZE, 2 * SIZE)
            getattr(reference, name.lower())(ref, 0, 0, SIZE, 2 * SIZE)
            assert native == ref, name
    under_each_implementation(check)


@settings(max_examples=100, deadline=None)
@given(offsets=st.lists(st.integers(0, 300), min_size=4, max_size=4),
       seed=st.integers(0, 2**32))
def test_aliasing_operands_anywhere(offsets, seed):
    memory = bytearray(random.Random(seed).randbytes(420))
    under_each_implementation(lambda: _same_on_memory(memory, offsets))


def _same_on_memory(memory, offsets):
    for name in NAMES:
        native, ref = bytearray(memory), bytearray(memory)
        errors = []
        for function, buffer in ((getattr(kernel, name.lower()), native),
                                 (getattr(reference, name.lower()), ref)):
            try:
                function(buffer, *offsets)
                errors.append(None)
            except MemoryRangeError as error:
                errors.append(str(error))
        assert errors[0] == errors[1] and native == ref, name


@pytest.mark.parametrize("function", KERNELS, ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_operands_outside_memory_are_named(function):
    memory = bytearray(300)
    with pytest.raises(MemoryRangeError, match="out"):
        function(memory, 205, 0, 0, 0)
    with pytest.raises(MemoryRangeError, match="y"):
        function(memory, 0, 0, 250, 0)
    # the modulus needs 96 bytes, and 104 for the product (its inv after it)
    extra = 8 if function.__name__ == "mulmodmont768" else 0
    function(memory, 0, 0, 0, 300 - SIZE - extra)
    with pytest.raises(MemoryRangeError, match="mod"):
        function(memory, 0, 0, 0, 300 - SIZE - extra + 1)


# --- the instructions --------------------------------------------------------------------

def program(name: str, out=0, x=0, y=SIZE, mod=2 * SIZE) -> bytes:
    """Calldata to memory 0, the op, return 96 bytes at out."""
    return asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY",
               push(evm384_word(out, x, y, mod), 16), op768(name),
               push(SIZE, 1), push(out, 2), "RETURN")


def everywhere(code, calldata=b"", gas=1_000_000, schedule="evmone-v7"):
    return run_everywhere(code, calldata, gas, schedule, opcodes="evm768")


def matches_pyevm(code, calldata=b"", gas=1_000_000, schedule="evmone-v7"):
    return assert_matches_pyevm(code, calldata, gas, schedule,
                                evm384_gas=tuple(resolve_schedule(schedule).by_opcode().values()),
                                opcodes="evm768")


def test_each_op_on_every_engine_and_in_pyevm():
    rng = random.Random(11)
    mod = rng.getrandbits(761) | 1 | 1 << 760
    x, y = rng.randrange(2 * mod), rng.randrange(mod)
    calldata = bytes(memory_of(x, y, mod, montgomery_inv(mod, 12)))
    add = matches_pyevm(program("ADDMOD768"), calldata)
    assert int.from_bytes(add.output, "little") == add_formula(x, y, mod)
    sub = matches_pyevm(program("SUBMOD768"), calldata)
    assert int.from_bytes(sub.output, "little") == sub_formula(x, y, mod)
    mul = matches_pyevm(program("MULMODMONT768"), calldata)
    check_mulmont(int.from_bytes(mul.output, "little"), x, y, mod)
    assert mul.opcode_counts["MULMODMONT768"] == 1


def _gas_by_hand(static: int, calldata_size: int, memory_end: int) -> int:
    """CALLDATASIZE, three PUSH1, CALLDATACOPY (3 + copy + memory to the calldata), PUSH16,
    the op (static + growth to memory_end), PUSH1, PUSH2, RETURN."""
    words = (calldata_size + 31) // 32
    copy = 3 + 3 * words + memory_gas(calldata_size)
    return (2 + 3 + 3 + copy + 3 + static + memory_gas(max(memory_end, calldata_size))
            - memory_gas(calldata_size) + 3 + 3)


@pytest.mark.parametrize("schedule", sorted(SCHEDULES))
def test_gas_is_the_per_limb_model_of_each_schedule(schedule):
    """ceil(add * 12 / 6), ceil(mul * 144 / 36): update5-A's 2/2/6 is 4/4/24."""
    named = SCHEDULES[schedule]
    static = {"ADDMOD768": 2 * named.addmod384, "SUBMOD768": 2 * named.submod384,
              "MULMODMONT768": 4 * named.mulmodmont384}
    calldata = bytes(memory_of(3, 5, 7, 1))          # 296 bytes
    for name in NAMES:
        result = everywhere(program(name), calldata, schedule=schedule)
        assert result.success and result.gas_used == _gas_by_hand(static[name], 296, 296)
    assert {name: resolve_opcodes("evm768").table[code].gas
            for code, name in zip((0xC0, 0xC1, 0xC2), NAMES)} == \
        dict(zip(NAMES, resolve_schedule("evmone-v7").by_opcode(12).values()))


def test_the_per_limb_model_rounds_up_and_caps():
    schedule = resolve_schedule({"ADDMOD384": 1, "SUBMOD384": 5, "MULMODMONT384": 7})
    assert schedule.by_opcode(12) == {0xC0: 2, 0xC1: 10, 0xC2: 28}
    assert schedule.by_opcode(4) == {0xC0: 1, 0xC1: 4, 0xC2: 4}     # ceil(2/3), ceil(20/6), ceil(112/36)
    huge = resolve_schedule({"ADDMOD384": MAX_GAS, "SUBMOD384": 0, "MULMODMONT384": MAX_GAS})
    assert huge.by_opcode(12) == {0xC0: MAX_GAS + 1, 0xC1: 0, 0xC2: MAX_GAS + 1}
    # no engine can pay it: out of gas, whatever the gas, on every engine
    result = everywhere(program("ADDMOD768"), gas=MAX_GAS, schedule=huge)
    assert result.error == "out of gas" and result.gas_used == MAX_GAS
    assert everywhere(program("SUBMOD768"), schedule=huge).success


@pytest.mark.parametrize("name, mod_size", [("ADDMOD768", 96), ("SUBMOD768", 96),
                                             ("MULMODMONT768", 104)])
def test_memory_grows_to_the_furthest_operand_like_mload(name, mod_size):
    # out = x = y = 0, mod = 16: mod + 96 = 112 (4 words), mod + 104 = 120 (4 words);
    # mod = 32: 128 (4 words) or 136 (5 words)
    code = asm(push(evm384_word(0, 0, 0, 32), 16), op768(name), "MSIZE", push(0, 1), "MSTORE",
               push(32, 1), push(0, 1), "RETURN")
    result = matches_pyevm(code)
    size = 32 + mod_size + (-(32 + mod_size)) % 32
    assert int.from_bytes(result.output, "big") == size
    static = resolve_opcodes("evm768").table[EVM768_BY_NAME[name].code].gas
    assert result.gas_used == 3 + static + memory_gas(size) + 2 + 3 + 3 + 3 + 3


@pytest.mark.parametrize("operand", range(4))
def test_each_operand_offset_counts_for_expansion(operand):
    offsets = [0, 0, 0, 0]
    offsets[operand] = 1000
    code = asm(push(evm384_word(*offsets), 16), op768("ADDMOD768"), "MSIZE", push(0, 1),
               "MSTORE", push(32, 1), push(0, 1), "RETURN")
    result = matches_pyevm(code)
    assert int.from_bytes(result.output, "big") == 1120      # 1096 rounded up to words
    assert result.gas_used == 3 + 16 + memory_gas(1096) + 2 + 3 + 3 + 3 + 3


def test_reads_past_the_old_end_see_zeros_and_high_bits_are_ignored():
    word = (0xDEADBEEF << 200) | evm384_word(200, 0, 300, 400)
    code = asm(push(5 << 248), push(0, 1), "MSTORE", push(word), op768("ADDMOD768"),
               push(SIZE, 1), push(200, 2), "RETURN")
    assert matches_pyevm(code).output == (5).to_bytes(SIZE, "little")


@pytest.mark.parametrize("name", NAMES)
def test_huge_offsets_run_out_of_gas(name):
    code = asm(push(evm384_word(0, 0, 0xFFFFFFFF, 0), 16), op768(name))
    result = matches_pyevm(code, gas=10**9)
    assert (result.success, result.error, result.gas_used) == (False, "out of gas", 10**9)


@pytest.mark.parametrize("name", NAMES)
def test_gas_one_short_halts_at_the_op(name):
    calldata = bytes(memory_of(3, 5, 7, 1))
    code = program(name)
    needed = everywhere(code, calldata).gas_used
    short = everywhere(code, calldata, gas=needed - 1)
    assert (short.success, short.error, short.gas_used) == (False, "out of gas", needed - 1)
    # one short for the op itself (static gas and growth): it halts there, counted
    before_op = 2 + 3 + 3 + 3 + 3 * 10 + memory_gas(296) + 3
    at_op = everywhere(code, calldata, gas=before_op + 1)
    assert at_op.error == "out of gas" and at_op.opcode_counts.get(name) == 1
    assert at_op.steps == 6           # CALLDATASIZE, PUSH1, PUSH1, CALLDATACOPY, PUSH16, op


def test_an_empty_stack_underflows():
    result = matches_pyevm(op768("MULMODMONT768"))
    assert (result.success, result.error) == (False, "stack underflow")


def test_evm384_code_is_not_evm768_code():
    """The same bytes, other operations: ADDMOD768 reads 96 bytes, ADDMOD384 48."""
    x, y = (1 << 500) + 3, (1 << 600) + 5
    calldata = x.to_bytes(SIZE, "little") + y.to_bytes(SIZE, "little") + bytes(SIZE)
    code = program("ADDMOD768")
    wide = everywhere(code, calldata)
    narrow = run_everywhere(code, calldata)          # EVM384
    assert int.from_bytes(wide.output, "little") == x + y
    assert wide.output != narrow.output and "ADDMOD384" in narrow.opcode_counts


# --- generated programs -------------------------------------------------------------------

offsets = st.one_of(st.integers(0, 420), st.sampled_from([0, 96, 192, 288, 1000, 4096]))
evm768_ops = st.tuples(st.sampled_from(NAMES), offsets, offsets, offsets, offsets)
fillers = st.sampled_from([asm("MSIZE", "POP"), asm(push(7, 1), push(300, 2), "MSTORE8"),
                           asm("JUMPDEST"), asm(push(0, 1), "MLOAD", "POP"), b""])


def _check_generated(ops, calldata, gas, schedule):
    body = b"".join(asm(push(evm384_word(*operands), 16), op768(name), filler)
                    for (name, *operands), filler in ops)
    code = asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY", body,
               "MSIZE", push(0, 1), "RETURN")
    matches_pyevm(code, calldata, gas, schedule)


@settings(max_examples=80, deadline=None)
@given(ops=st.lists(st.tuples(evm768_ops, fillers), min_size=1, max_size=10),
       calldata=st.binary(min_size=0, max_size=500),
       gas=st.one_of(st.integers(0, 3000), st.just(1_000_000)),
       schedule=st.sampled_from(sorted(SCHEDULES)))
def test_generated_evm768_programs_agree_everywhere_and_with_pyevm(ops, calldata, gas, schedule):
    _check_generated(ops, calldata, gas, schedule)


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(ops=st.lists(st.tuples(evm768_ops, fillers), min_size=1, max_size=30),
       calldata=st.binary(min_size=0, max_size=500),
       gas=st.one_of(st.integers(0, 6000), st.just(1_000_000)),
       schedule=st.sampled_from(sorted(SCHEDULES)))
def test_many_generated_evm768_programs(ops, calldata, gas, schedule):
    _check_generated(ops, calldata, gas, schedule)


# --- the tools ------------------------------------------------------------------------------

def _tool_run():
    rng = random.Random(13)
    mod = rng.getrandbits(BITS) | 1 | 1 << 767
    x, y = rng.randrange(mod), rng.randrange(mod)
    calldata = bytes(memory_of(x, y, mod, montgomery_inv(mod, 12)))
    return program("MULMODMONT768"), calldata, mod, x, y


def test_cli_runs_disassembles_traces_and_profiles_evm768(capsys, monkeypatch):
    from test_cli import cli
    code, calldata, mod, x, y = _tool_run()
    expected = run(code, calldata, opcodes="evm768", schedule="update5-A")
    status, out, err = cli(capsys, monkeypatch, "run", code.hex(), "--calldata", calldata.hex(),
                           "--opcodes", "evm768", "--engine", "fast", "--schedule", "update5-A",
                           "--json")
    fields = json.loads(out)
    assert status == 0 and err == "" and fields["gas_used"] == expected.gas_used
    assert fields["evm768_ops"] == {"ADDMOD768": 0, "SUBMOD768": 0, "MULMODMONT768": 1}
    assert bytes.fromhex(fields["output"][2:]) == expected.output
    _, listing, _ = cli(capsys, monkeypatch, "disasm", code.hex(), "--opcodes", "evm768")
    assert "MULMODMONT768 out=0x0 x=0x0 y=0x60 mod=0xc0" in listing
    _, profile, _ = cli(capsys, monkeypatch, "profile", code.hex(), "--calldata", calldata.hex(),
                        "--opcodes", "evm768")
    assert "MULMODMONT768" in profile and "EVM768 ops" in profile
    _, trace, _ = cli(capsys, monkeypatch, "trace", code.hex(), "--calldata", calldata.hex(),
                      "--opcodes", "evm768")
    assert '"opName":"MULMODMONT768"' in trace


def test_debugger_shows_96_byte_values_out_of_montgomery_form(capsys, monkeypatch):
    from test_cli import cli
    code, calldata, mod, x, y = _tool_run()
    script = "step\n" * 5 + "fp x\nfp y\nmem mod\nq\n"
    status, out, _ = cli(capsys, monkeypatch, "debug", code.hex(), "--calldata", calldata.hex(),
                         "--opcodes", "evm768", f"--montgomery={mod:#x}", stdin=script)
    assert status == 0 and "MULMODMONT768 out=0x0 x=0x0 y=0x60 mod=0xc0" in out
    assert f"x @0x0: {x:#0194x}  from Montgomery: {x * pow(R, -1, mod) % mod:#x}" in out
    assert f"y @0x60: {y:#0194x}" in out
    mem = out.split("(evm384) mem mod")[1].split("(evm384)")[0]
    assert bytes.fromhex("".join(line.split(":")[1] for line in mem.splitlines()
                                 if line.startswith("0x"))) == mod.to_bytes(SIZE, "little")
    # a modulus too wide for EVM384's values is refused there, in one line
    status, _, err = cli(capsys, monkeypatch, "debug", code.hex(), f"--montgomery={mod:#x}",
                         stdin="q\n")
    assert status == 2 and "does not fit the 48-byte values of --opcodes evm384" in err


# --- the conformance fixtures ----------------------------------------------------------------

def test_the_evm768_fixtures_compute_the_formulas():
    """tests/fixtures/evm768 is generated on the reference backend: its arithmetic cases
    checked here against the formulas on Python integers (the product by its Montgomery
    property, for the odd modulus with its true inv)."""
    from pathlib import Path
    cases = json.loads((Path(__file__).parent / "fixtures/evm768/evm768.json").read_text())
    checked = 0
    for name, case in cases.items():
        parts = name.split("/")
        if parts[1] not in ("addmod768", "submod768", "mulmodmont768") or \
                parts[2] in ("memory-expansion", "modulus-past-memory", "even-modulus"):
            continue
        data = bytes.fromhex(case["calldata"][2:])
        mod, inv = int.from_bytes(data[:SIZE], "little"), data[SIZE:SIZE + 8]
        x = int.from_bytes(data[SIZE + 16:2 * SIZE + 16], "little")
        y = int.from_bytes(data[2 * SIZE + 16:3 * SIZE + 16], "little")
        if parts[2] == "in-place":
            y = x
        out = int.from_bytes(bytes.fromhex(case["expected"]["output"][2:]), "little")
        if parts[1] == "addmod768":
            assert out == add_formula(x, y, mod), name
        elif parts[1] == "submod768":
            assert out == sub_formula(x, y, mod), name
        else:
            assert int.from_bytes(inv, "little") == montgomery_inv(mod, 12)
            check_mulmont(out, x, y, mod)
        checked += 1
    assert checked == 3 * 8
