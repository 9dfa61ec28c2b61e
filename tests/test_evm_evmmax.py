"""EVMMAX (EIP-6690) in both engines: semantics against Python integers, every assert
of the EIP as an exceptional halt, gas at every row of the EIP's tables; every program
runs on the Python engine with the native and reference backends and on the fast
engine, which must all agree. Programs use PUSH32 only (3 gas each), so the
gas of an instruction is the difference between a program with and without it."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evm384_native.evm import execute

SETMODX, LOADX, STOREX, ADDMODX, SUBMODX, MULMODX = range(0xC0, 0xC6)
MSTORE, JUMP, JUMPDEST, STOP, RETURN = 0x52, 0x56, 0x5B, 0x00, 0xF3
PUSH_GAS, MSTORE_GAS = 3, 3
VALUES_AT = 256          # values are written from here; the modulus at 0
BACKENDS = ("native", "reference")
# every way a program runs: (engine, backend); the first one's result is checked
RUNNERS = (("python", "native"), ("python", "reference"), ("fast", "native"))


# --- the EIP's cost models, as written there (independent of the engine's tables) -------

def eip_setmodx_gas(limbs: int) -> int:
    return round(limbs * 3.13 + 19.94)


def eip_add_sub_gas(limbs: int) -> int:
    return round(limbs * 0.12 + 0.58)


def eip_mul_gas(limbs: int) -> int:
    return round(0.08 * limbs**2 - 0.06 * limbs + 0.75)


def memory_gas(size: int) -> int:
    words = (size + 31) // 32
    return 3 * words + words * words // 512


# --- program building -------------------------------------------------------------------

def push(value: int) -> bytes:
    return b"\x7f" + value.to_bytes(32, "big")


def mstore_bytes(offset: int, data: bytes) -> bytes:
    data = data.ljust(-(-len(data) // 32) * 32, b"\0")
    return b"".join(push(int.from_bytes(data[i:i + 32], "big")) + push(offset + i) + bytes([MSTORE])
                    for i in range(0, len(data), 32))


def setmodx(context_id: int, offset: int, size: int, alloc: int) -> bytes:
    return push(alloc) + push(size) + push(offset) + push(context_id) + bytes([SETMODX])


def transfer(opcode: int, dest: int, source: int, count: int) -> bytes:
    return push(count) + push(source) + push(dest) + bytes([opcode])


def vector(opcode: int, *immediates: int) -> bytes:
    return bytes([opcode, *immediates])


def returning(offset: int, size: int) -> bytes:
    return push(size) + push(offset) + bytes([RETURN])


def limbs_of(modulus: int) -> int:
    return -(-modulus.bit_length() // 64)


def encode(values, size: int) -> bytes:
    return b"".join(v.to_bytes(size, "big") for v in values)


def context_prefix(modulus: int, registers: int, memory_end: int = 1024) -> bytes:
    """Memory grown to memory_end, the modulus (minimal bytes) at 0, context 0 active."""
    modulus_be = modulus.to_bytes(max(1, (modulus.bit_length() + 7) // 8), "big")
    return (push(0) + push(memory_end - 32) + bytes([MSTORE]) + mstore_bytes(0, modulus_be)
            + setmodx(0, 0, len(modulus_be), registers))


def run_both(code: bytes, gas: int = 10_000_000):
    """The result every engine and backend agrees on."""
    results = [execute(code, gas=gas, opcodes="evmmax", engine=engine, backend=backend)
               for engine, backend in RUNNERS]
    for (engine, backend), result in zip(RUNNERS[1:], results[1:]):
        assert result == results[0], (engine, backend)
        assert result.opcode_counts == results[0].opcode_counts, (engine, backend)
    return results[0]


def halts_with(code: bytes, reason: str, gas: int = 1_000_000) -> None:
    result = run_both(code, gas)
    assert not result.success and reason in result.error, result.error
    assert result.gas_used == gas and result.output == b""


def odd_modulus(limbs: int, rng: random.Random) -> int:
    return rng.randrange(2**(64 * limbs - 1), 2**(64 * limbs)) | 1


def moduli(limbs: int):
    """An odd modulus filling the limbs, an odd one just over the limb below, a power of two."""
    low = max(3, 2**(64 * (limbs - 1)) + 1)
    return [2**(64 * limbs) - 59 if limbs > 1 else 2**64 - 59, low | 1, 2**(64 * limbs - 1)]


# --- results against Python integers ----------------------------------------------------

OPERATIONS = {ADDMODX: lambda x, y, m: (x + y) % m, SUBMODX: lambda x, y, m: (x - y) % m,
              MULMODX: lambda x, y, m: x * y % m}


@settings(max_examples=60, deadline=None)
@given(limbs=st.integers(1, 12), kind=st.sampled_from(["odd", "pow2", "tiny"]),
       opcode=st.sampled_from(sorted(OPERATIONS)), data=st.data())
def test_operations_against_python_integers(limbs, kind, opcode, data):
    if kind == "odd":
        modulus = data.draw(st.integers(2**(64 * limbs - 64), 2**(64 * limbs) - 1)) | 1
        modulus = max(modulus, 3)
    elif kind == "pow2":
        modulus = 2**data.draw(st.integers(max(2, 64 * limbs - 64), 64 * limbs - 1))
    else:
        modulus = data.draw(st.integers(3, 257).filter(lambda m: m % 2 or m & (m - 1) == 0))
    size = 8 * limbs_of(modulus)
    edge = st.sampled_from([0, 1, modulus - 1])
    x = data.draw(st.one_of(edge, st.integers(0, modulus - 1)))
    y = data.draw(st.one_of(edge, st.integers(0, modulus - 1)))
    code = (context_prefix(modulus, 4) + mstore_bytes(VALUES_AT, encode([x, y], size))
            + transfer(STOREX, 0, VALUES_AT, 2) + vector(opcode, 2, 1, 0, 1, 1, 1, 1)
            + transfer(LOADX, VALUES_AT, 0, 3) + returning(VALUES_AT, 3 * size))
    result = run_both(code)
    assert result.success, result.error
    assert result.output == encode([x, y, OPERATIONS[opcode](x, y, modulus)], size)


def random_vector(rng: random.Random, registers: int) -> tuple:
    """Immediates inside the EIP's bound (idx + stride * count < registers)."""
    while True:
        count = rng.randint(1, 8)
        strides = (rng.randint(1, 3), rng.randint(0, 3), rng.randint(0, 3))
        indices = [rng.randint(0, registers - 1) for _ in range(3)]
        if all(idx + stride * count < registers for idx, stride in zip(indices, strides)):
            return (indices[0], strides[0], indices[1], strides[1], indices[2], strides[2], count)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_programs_against_the_eips_loop(seed):
    """Vector operands overlap in every way (x, y and out spans share registers, strides
    of 0 broadcast); the EIP's loop writes registers only after all its operations."""
    rng = random.Random(seed)
    limbs = rng.randint(1, 12)
    modulus = rng.choice([odd_modulus(limbs, rng), 2**rng.randint(max(2, 64 * limbs - 64),
                                                                   64 * limbs - 1)])
    size, registers = 8 * limbs_of(modulus), 24
    values = [rng.randrange(modulus) for _ in range(registers)]
    code = (context_prefix(modulus, registers, 4096) + mstore_bytes(VALUES_AT, encode(values, size))
            + transfer(STOREX, 0, VALUES_AT, registers))
    for _ in range(rng.randint(1, 12)):
        opcode = rng.choice(sorted(OPERATIONS))
        out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count = random_vector(rng, registers)
        code += vector(opcode, out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count)
        results = [OPERATIONS[opcode](values[x_idx + i * x_stride], values[y_idx + i * y_stride],
                                      modulus) for i in range(count)]
        for i, value in enumerate(results):  # written after the whole loop
            values[out_idx + i * out_stride] = value
    code += transfer(LOADX, VALUES_AT, 0, registers) + returning(VALUES_AT, registers * size)
    result = run_both(code)
    assert result.success, result.error
    assert result.output == encode(values, size)


def test_contexts_switch_by_id_and_keep_their_registers():
    small, large = 97, 2**381 - 3
    code = (context_prefix(small, 3) + mstore_bytes(VALUES_AT, encode([5], 8))
            + transfer(STOREX, 0, VALUES_AT, 1)
            + mstore_bytes(64, large.to_bytes(48, "big")) + setmodx(7, 64, 48, 3)
            + mstore_bytes(VALUES_AT, encode([large - 1], 48)) + transfer(STOREX, 1, VALUES_AT, 1)
            + setmodx(0, 2**200, 2**200, 0)        # id 0 exists: only activated
            + vector(ADDMODX, 1, 1, 0, 1, 0, 1, 1) + transfer(LOADX, VALUES_AT, 1, 1)
            + setmodx(7, 0, 0, 0) + vector(ADDMODX, 0, 1, 1, 1, 1, 1, 1)
            + transfer(LOADX, VALUES_AT + 8, 0, 1) + returning(VALUES_AT, 56))
    result = run_both(code)
    assert result.success, result.error
    assert result.output == encode([10], 8) + encode([(2 * (large - 1)) % large], 48)


# --- every assert -----------------------------------------------------------------------

M = 2**255 - 19


@pytest.mark.parametrize("code,reason", [
    (setmodx(257, 0, 32, 1), "id 257"),
    (setmodx(2**255, 0, 32, 1), "id"),
    (setmodx(0, 0, 97, 1), "modulus_size 97"),
    (setmodx(0, 1024 - 31, 32, 1), "outside the 1024-byte memory"),
    (setmodx(0, 2**256 - 1, 32, 1), "outside"),
    (setmodx(0, 0, 0, 1), "at least 3"),                    # empty: modulus 0
    (mstore_bytes(0, (6).to_bytes(32, "big")) + setmodx(0, 0, 32, 1), "odd or a power of two"),
    (mstore_bytes(0, (2).to_bytes(32, "big")) + setmodx(0, 0, 32, 1), "at least 3"),
    (mstore_bytes(0, (1).to_bytes(32, "big")) + setmodx(0, 0, 32, 1), "at least 3"),
    (mstore_bytes(0, M.to_bytes(32, "big")) + setmodx(0, 0, 32, 0), "alloc_count 0"),
    (mstore_bytes(0, M.to_bytes(32, "big")) + setmodx(0, 0, 32, 257), "alloc_count 257"),
    # the 24,576-byte cap over all contexts of the frame: 256 x 96 fill it exactly
    (mstore_bytes(0, (2**768 - 1).to_bytes(96, "big")) + setmodx(0, 0, 96, 256)
     + mstore_bytes(128, (7).to_bytes(32, "big")) + setmodx(1, 128, 32, 1), "exceed"),
])
def test_setmodx_asserts(code, reason):
    halts_with(push(0) + push(1024 - 32) + bytes([MSTORE]) + code, reason)


def test_register_cap_is_reachable_exactly():
    code = (push(0) + push(1024 - 32) + bytes([MSTORE])
            + mstore_bytes(0, (2**768 - 1).to_bytes(96, "big")) + setmodx(0, 0, 96, 256)
            + mstore_bytes(128, (7).to_bytes(32, "big")) + setmodx(1, 128, 32, 1))
    assert "exceed" in run_both(code).error
    assert run_both(code[:-len(setmodx(1, 128, 32, 1))]).success   # 24,576 bytes: allowed


@pytest.mark.parametrize("opcode", sorted(OPERATIONS))
@pytest.mark.parametrize("immediates,reason", [
    ((0, 1, 0, 1, 0, 1, 0), "count must not be 0"),
    ((0, 0, 0, 1, 0, 1, 1), "out_stride must not be 0"),
    ((7, 1, 0, 1, 0, 1, 1), "out:"),             # 7 + 1 * 1 = 8 registers: the EIP's bound
    ((0, 1, 4, 1, 0, 1, 4), "x:"),
    ((0, 1, 0, 0, 2, 3, 2), "y:"),
    ((255, 255, 255, 255, 255, 255, 255), "out:"),
])
def test_vector_asserts(opcode, immediates, reason):
    halts_with(context_prefix(M, 8) + vector(opcode, *immediates), reason)


@pytest.mark.parametrize("immediates", [(6, 1, 0, 1, 0, 1, 1), (0, 1, 3, 1, 0, 0, 4),
                                        (0, 7, 0, 0, 0, 0, 1)])
def test_vector_bounds_just_inside(immediates):
    assert run_both(context_prefix(M, 8) + vector(MULMODX, *immediates)).success


@pytest.mark.parametrize("code,reason", [
    (vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1), "ADDMODX: no active field context"),
    (vector(MULMODX, 0, 1, 0, 1, 0, 1, 1), "MULMODX: no active field context"),
    (transfer(LOADX, 0, 0, 1), "LOADX: no active field context"),
    (transfer(STOREX, 0, 0, 1), "STOREX: no active field context"),
])
def test_no_active_context(code, reason):
    halts_with(code, reason)


@pytest.mark.parametrize("code,reason", [
    (transfer(LOADX, 0, 7, 2), "LOADX: registers [7, 7+2)"),
    (transfer(LOADX, 0, 2**256 - 1, 1), "LOADX: registers"),
    (transfer(LOADX, 1024 - 63, 0, 2), "LOADX: memory"),
    (transfer(LOADX, 2**256 - 1, 0, 1), "LOADX: memory"),
    (transfer(STOREX, 7, 0, 2), "STOREX: registers [7, 7+2)"),
    (transfer(STOREX, 0, 1024 - 63, 2), "STOREX: memory"),
    (mstore_bytes(VALUES_AT, encode([1, M], 32)) + transfer(STOREX, 0, VALUES_AT, 2),
     "STOREX: value 1 is not below the modulus"),
])
def test_transfer_asserts(code, reason):
    halts_with(context_prefix(M, 8) + code, reason)


def test_failed_storex_changes_no_register_and_count_zero_transfers_nothing():
    code = (context_prefix(M, 8) + mstore_bytes(VALUES_AT, encode([M - 1], 32))
            + transfer(STOREX, 0, VALUES_AT, 1) + transfer(STOREX, 0, 2**256 - 1, 0)
            + transfer(LOADX, 2**256 - 1, 8, 0) + transfer(LOADX, 0, 0, 1) + returning(0, 32))
    result = run_both(code)
    assert result.success and result.output == encode([M - 1], 32)


def test_truncated_immediate_reads_zeros():
    code = context_prefix(M, 8) + vector(ADDMODX, 0, 1, 0, 1, 0, 1)   # count cut off
    halts_with(code, "count must not be 0")


def test_immediates_are_not_jump_destinations():
    # the immediate byte 0x5b after ADDMODX is not a JUMPDEST; the one after it is
    body = context_prefix(M, 200)
    target = len(body) + 33 + 1 + 1
    code = body + push(target) + bytes([JUMP]) + vector(ADDMODX, JUMPDEST, 1, 0, 1, 0, 1, 1) \
        + bytes([JUMPDEST, STOP])
    result = run_both(code)
    assert result.error == "invalid jump destination"
    assert run_both(body + push(target + 7) + bytes([JUMP]) + code[len(body) + 34:]).success


def test_opcode_sets_are_exclusive():
    vector_code = context_prefix(M, 8) + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1)
    assert execute(vector_code).error == "invalid opcode 0xc3"
    assert run_both(vector_code).success
    with pytest.raises(ValueError, match="opcode set"):
        execute(b"", opcodes="evm385")
    assert execute(vector_code, engine="fast").error == "invalid opcode 0xc3"


# --- gas: every row of the EIP's tables -------------------------------------------------

def gas_of(prefix: bytes, instruction: bytes) -> int:
    """Gas of ``instruction`` (and its pushes) run after ``prefix``."""
    before, after = run_both(prefix + bytes([STOP])), run_both(prefix + instruction + bytes([STOP]))
    assert before.success and after.success, (before.error, after.error)
    return after.gas_used - before.gas_used


def test_cost_tables_follow_the_eip_models():
    from evm384_native.evm.costs import EIP_6690
    rows = range(1, 13)
    assert EIP_6690.setmodx == tuple(map(eip_setmodx_gas, rows)) == \
        (23, 26, 29, 32, 36, 39, 42, 45, 48, 51, 54, 58)
    assert EIP_6690.add_sub == tuple(map(eip_add_sub_gas, rows))
    assert EIP_6690.mul == tuple(map(eip_mul_gas, rows)) == (1, 1, 1, 2, 2, 3, 4, 5, 7, 8, 10, 12)


@pytest.mark.parametrize("limbs", range(1, 13))
def test_gas_at_every_table_row(limbs):
    for modulus in moduli(limbs):
        assert limbs_of(modulus) == limbs
        odd = modulus % 2 == 1
        size, registers, memory = 8 * limbs, 16, 2048
        modulus_be = modulus.to_bytes(size, "big")
        grown = push(0) + push(memory - 32) + bytes([MSTORE]) + mstore_bytes(0, modulus_be)
        new_bytes = registers * size
        assert gas_of(grown, setmodx(0, 0, size, registers)) == \
            4 * PUSH_GAS + 1 + memory_gas(memory + new_bytes) - memory_gas(memory) \
            + (eip_setmodx_gas(limbs) if odd else 0)
        ready = grown + setmodx(0, 0, size, registers)
        assert gas_of(ready, setmodx(0, 5, 5, 5)) == 4 * PUSH_GAS + 1   # existing id
        for count in (1, 3, 15):
            assert gas_of(ready, vector(ADDMODX, 0, 1, 0, 1, 0, 0, count)) == \
                count * eip_add_sub_gas(limbs)
            assert gas_of(ready, vector(SUBMODX, 0, 1, 0, 0, 0, 1, count)) == \
                count * eip_add_sub_gas(limbs)
            assert gas_of(ready, vector(MULMODX, 0, 1, 0, 1, 0, 1, count)) == \
                count * eip_mul_gas(limbs)
            transfer_gas = 3 * -(-count * size // 32) if not odd else count * eip_mul_gas(limbs)
            for code in (transfer(LOADX, VALUES_AT, 0, count), transfer(STOREX, 0, VALUES_AT, count)):
                assert gas_of(ready, code) == 3 * PUSH_GAS + 1 + transfer_gas
        # memory expansion counts the register bytes after memory
        assert gas_of(ready, push(0) + push(memory) + bytes([MSTORE])) == \
            2 * PUSH_GAS + MSTORE_GAS + memory_gas(memory + 32 + new_bytes) \
            - memory_gas(memory + new_bytes)


def test_out_of_gas_in_vector_op():
    code = context_prefix(2**767 + 1, 200) + vector(MULMODX, 0, 1, 0, 1, 0, 1, 100)
    needed = run_both(code).gas_used
    assert run_both(code, needed).success
    result = run_both(code, needed - 1)
    assert result.error == "out of gas" and result.gas_used == needed - 1


# --- runs of vector operations: one step of the block loop, or the steps ----------------

def _every_loop(code: bytes, gas: int):
    """The result of the block loop (runs as one step), the step loop (a tracer) and the
    loop that runs each instruction alone, which must agree (and run_both's)."""
    from evm384_native.evm.api import run
    plain = run_both(code, gas)
    for backend in BACKENDS:
        traced = execute(code, gas=gas, opcodes="evmmax", backend=backend,
                         tracer=lambda step: None)
        unfused = run(code, gas=gas, opcodes="evmmax", backend=backend, fuse_evm384=False)
        assert traced == plain == unfused
        assert traced.opcode_counts == plain.opcode_counts == unfused.opcode_counts
    return plain


def _run_of_vector_ops(failing: tuple = (1, 1, 0, 1, 1, 1, 1)) -> bytes:
    """Five operations in a row on 6 registers, the fourth with ``failing``'s immediates."""
    modulus = 2**64 - 59
    return (context_prefix(modulus, 6) + mstore_bytes(VALUES_AT, encode([3, 5], 8))
            + transfer(STOREX, 0, VALUES_AT, 2) + vector(MULMODX, 2, 1, 0, 1, 1, 1, 1)
            + vector(ADDMODX, 3, 1, 2, 1, 0, 0, 1) + vector(SUBMODX, 0, 1, 3, 1, 1, 1, 1)
            + vector(MULMODX, *failing) + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 2)
            + transfer(LOADX, VALUES_AT, 0, 4) + returning(VALUES_AT, 32))


def test_a_run_of_vector_operations_is_one_step_and_exact_where_it_halts():
    result = _every_loop(_run_of_vector_ops(), 10**6)
    # r2 = 3 * 5; r3 = r2 + r0; r0 = r3 - r1; r1 = r0 * r1; then r0, r1 doubled
    assert result.success and result.output == encode([26, 130, 15, 18], 8)
    assert result.opcode_counts["MULMODX"] == 2 and result.opcode_counts["ADDMODX"] == 2
    # the fourth operation's out (5 + 1 * 1) reaches the 6 registers, just past the EIP's
    # bound: the halt is there, after three operations ran, whatever the gas
    for gas in (10**6, 2000):
        halted = _every_loop(_run_of_vector_ops((5, 1, 0, 1, 1, 1, 1)), gas)
        assert not halted.success and "out" in halted.error and "registers" in halted.error
        assert halted.opcode_counts["MULMODX"] == 2 and halted.opcode_counts["SUBMODX"] == 1
        assert "LOADX" not in halted.opcode_counts
    # out of gas partway through the run: at every limit around it
    needed = result.gas_used
    for gas in range(needed - 60, needed + 1):
        _every_loop(_run_of_vector_ops(), gas)


def test_a_run_without_an_active_context_halts_at_its_first_operation():
    code = vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1) + vector(MULMODX, 0, 1, 0, 1, 0, 1, 1)
    result = _every_loop(code, 1000)
    assert result.error == "ADDMODX: no active field context"
    assert result.opcode_counts == {"ADDMODX": 1}


def test_a_run_stops_before_an_operation_whose_immediates_fail():
    """count 0 fails whatever the registers: that operation runs alone, and halts."""
    modulus = 2**64 - 59
    code = (context_prefix(modulus, 4) + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1)
            + vector(SUBMODX, 0, 1, 0, 1, 0, 1, 0) + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1))
    result = _every_loop(code, 10**6)
    assert result.error == "SUBMODX: count must not be 0"
    assert result.opcode_counts["ADDMODX"] == 1 and result.opcode_counts["SUBMODX"] == 1


# --- the step loop (tracers) and the disassembler ---------------------------------------

def test_traced_run_equals_the_block_loop():
    from evm384_native.evm import Profiler
    from evm384_native.evm.api import run
    rng = random.Random(5)
    modulus = odd_modulus(6, rng)
    values = [rng.randrange(modulus) for _ in range(4)]
    code = (context_prefix(modulus, 8) + mstore_bytes(VALUES_AT, encode(values, 48))
            + transfer(STOREX, 0, VALUES_AT, 4) + vector(MULMODX, 4, 1, 0, 1, 2, 1, 2)
            + vector(SUBMODX, 0, 2, 4, 1, 1, 0, 2) + transfer(LOADX, VALUES_AT, 0, 6)
            + returning(VALUES_AT, 6 * 48))
    steps = []
    for backend in BACKENDS:
        plain = execute(code, opcodes="evmmax", backend=backend)
        traced = execute(code, opcodes="evmmax", backend=backend,
                         tracer=[lambda step: steps.append(step.name), Profiler()])
        unfused = run(code, opcodes="evmmax", backend=backend, fuse_evm384=False)
        assert plain == traced == unfused and plain.success
    assert steps.count("MULMODX") == 2 and steps.count("STOREX") == 2
    assert plain.output[4 * 48:5 * 48] == (values[0] * values[2] % modulus).to_bytes(48, "big")
    assert plain.output[:48] == ((values[0] * values[2] - values[1]) % modulus).to_bytes(48, "big")


def test_disassembler_decodes_evmmax_immediates():
    from evm384_native.asm.disasm import disassemble
    code = push(1) + vector(MULMODX, 2, 1, 0, 1, 1, 3, 9) + bytes([JUMPDEST, LOADX]) \
        + vector(ADDMODX, 1, 2)
    texts = [ins.text() for ins in disassemble(code, opcodes="evmmax")]
    assert texts == ["PUSH32 0x1",
                     "MULMODX out_idx=2 out_stride=1 x_idx=0 x_stride=1 y_idx=1 y_stride=3 count=9",
                     "JUMPDEST", "LOADX",
                     "ADDMODX out_idx=1 out_stride=2 x_idx=0 x_stride=0 y_idx=0 y_stride=0 count=0"
                     "  (truncated: 5 bytes past the end of the code, read as zeros)"]
    assert [ins.name for ins in disassemble(code)][1] == "UNKNOWN_0xc5"
