"""The EVMMAX (EIP-6690) kernels: native and pure-Python reference against
Python-integer oracles at every limb count 1..12, against each other, MULX
against portable, vectors with strides and overlap, and bad input."""
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evm384_native.evm.kernels import kernel, modx, modx_reference
from evm384_native._native import ffi, lib
from evm384_native.errors import (ModulusError, RegisterAllocationError, RegisterRangeError,
                                  UnreducedValueError, VectorError)
from evm384_native.evm.kernels.modx_common import (ints_to_rows, modulus_error, rows_to_ints,
                                                   vector_error)

IMPLEMENTATIONS = ["portable"] + (["mulx"] if kernel.mulx_available() else [])
BACKENDS = {"native": modx, "reference": modx_reference}
P381 = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
OPS = ("add", "sub", "mul")


BACKEND_PARAMS = [f"native-{name}" for name in IMPLEMENTATIONS] + ["reference"]


# The fixtures only pick the implementation: sharing them across examples is intended.
FIXTURE_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


@pytest.fixture(params=BACKEND_PARAMS)
def backend(request):
    """The reference, and the native kernels under each Montgomery implementation."""
    name, _, implementation = request.param.partition("-")
    kernel.use_implementation(implementation or "auto")
    yield BACKENDS[name]
    kernel.use_implementation("auto")



# --- oracles: canonical values, straight from the EIP's definitions --------------------

def op_oracle(op, x, y, m):
    """The canonical result: Montgomery form is invisible through STOREX/LOADX."""
    return {"add": x + y, "sub": x - y, "mul": x * y}[op] % m


def limbs_oracle(m):
    return -(-m.bit_length() // 64)


def internal_oracle(value, m):
    """Register contents: x * 2**(64 limbs) mod m (odd), x itself (powers of two)."""
    return value if m & (m - 1) == 0 else value * (1 << (64 * limbs_oracle(m))) % m


# --- moduli of every kind at every limb count -------------------------------------------

@st.composite
def moduli(draw, limbs=None):
    k = draw(st.integers(1, 12)) if limbs is None else limbs
    kind = draw(st.sampled_from(["top", "any", "tiny", "pow2"]))
    if kind == "top":    # 2**(64k-1)+1 .. 2**(64k)-1: the top bit of the top limb set
        m = draw(st.integers(1 << (64 * k - 1), (1 << (64 * k)) - 1)) | 1
    elif kind == "any":  # any odd modulus that needs k limbs
        m = draw(st.integers(max(3, 1 << (64 * (k - 1))), (1 << (64 * k)) - 1)) | 1
    elif kind == "tiny":
        m = draw(st.sampled_from([3, 5, 7, 9, 11, 13, 255, 257]))
    else:                # 2**j needs j + 1 bits: j from 64(k-1) to 64k-1, 2**2 at least
        m = 1 << draw(st.integers(max(2, 64 * (k - 1)), 64 * k - 1))
    return m


@st.composite
def values(draw, m):
    return draw(st.one_of(st.sampled_from([0, 1, m - 1, m // 2, (m + 1) // 2]),
                          st.integers(0, m - 1)))


def store(backend, m, xs, registers=None):
    context = backend.FieldContext(m)
    count = registers or len(xs) + 2
    file = backend.RegisterFile(context, count)
    file.storex(0, b"".join(x.to_bytes(context.element_size, "big") for x in xs))
    return context, file


def run_mulmodx(backend, file, immediates, entry: str) -> None:
    """One MULMODX on ``file`` through the fast engine's path (``entry`` "program": a
    VectorProgram) or the one-operation entry ("operation")."""
    if entry == "program":
        file.run(backend.VectorProgram([("mul", immediates)]))
    else:
        file.mulmodx(*immediates)


def load_ints(file, first, count):
    data = file.loadx(first, count)
    size = file.context.element_size
    return [int.from_bytes(data[i * size:(i + 1) * size], "big") for i in range(count)]


# --- SETMODX ------------------------------------------------------------------------------

@given(data=st.data())
@settings(max_examples=30, suppress_health_check=FIXTURE_OK)
def test_context_constants_match_oracles(backend, data):
    m = data.draw(moduli())
    context = backend.FieldContext(m)
    assert context.limbs == limbs_oracle(m)
    assert context.element_size == 8 * limbs_oracle(m)
    assert context.is_power_of_two == (m & (m - 1) == 0)
    if context.is_power_of_two:
        assert (context.inv, context.r_squared) == (0, 0)
    else:
        assert context.inv * m % (1 << 64) == (1 << 64) - 1
        assert context.r_squared == pow(2, 128 * limbs_oracle(m), m)


@pytest.mark.parametrize("limbs", range(1, 13))
def test_context_constants_at_each_limb_count_edge(limbs):
    for m in ((1 << (64 * limbs)) - 1, (1 << (64 * limbs - 1)) + 1, (1 << (64 * limbs - 64)) + 1
              if limbs > 1 else 3):
        native, reference = modx.FieldContext(m), modx_reference.FieldContext(m)
        assert (native.limbs, native.inv, native.r_squared) == \
            (reference.limbs, reference.inv, reference.r_squared)
        assert native.limbs == limbs


@pytest.mark.parametrize("modulus_be, reason", [
    (b"\x00" * 97, "too long"), (b"\x01" * 97, "too long"), (b"", "too small"),
    (b"\x00", "too small"), (b"\x01", "too small"), (b"\x00\x02", "too small"),
    (b"\x06", "even"), (b"\x01\x02", "even"), ((3 << 760).to_bytes(96, "big"), "even"),
])
def test_setmodx_refuses(backend, modulus_be, reason):
    with pytest.raises(ModulusError) as caught:
        backend.FieldContext.from_bytes(modulus_be)
    assert caught.value.reason == reason


def test_setmodx_accepts_the_extremes(backend):
    assert backend.FieldContext(3).limbs == 1
    assert backend.FieldContext(4).is_power_of_two
    assert backend.FieldContext((1 << 768) - 1).limbs == 12
    assert backend.FieldContext(1 << 767).limbs == 12
    # Leading zero bytes (up to 96 in all) do not widen the registers.
    assert backend.FieldContext.from_bytes(b"\x00" * 95 + b"\x07").limbs == 1
    with pytest.raises(ModulusError):
        backend.FieldContext(1 << 768)
    with pytest.raises(TypeError):
        backend.FieldContext("7")


@given(modulus_be=st.one_of(st.binary(max_size=100),
                            st.integers(0, 1 << 800).map(lambda v: v.to_bytes(101, "big")
                                                         .lstrip(b"\0"))))
@settings(max_examples=150)
def test_c_setup_status_agrees_with_python_checks(modulus_be):
    context = ffi.new("struct evmmax_context *")
    status = lib.evmmax_setup(context, modulus_be, len(modulus_be))
    error = modulus_error(modulus_be)
    expected = {None: lib.EVMMAX_OK, "too long": lib.EVMMAX_MODULUS_TOO_LONG,
                "too small": lib.EVMMAX_MODULUS_TOO_SMALL, "even": lib.EVMMAX_MODULUS_EVEN}
    assert status == expected[error.reason if error else None]


# --- arithmetic against the oracles --------------------------------------------------------

@pytest.mark.parametrize("limbs", range(1, 13))
@given(data=st.data())
@settings(max_examples=15, deadline=None, suppress_health_check=FIXTURE_OK)
def test_arithmetic_matches_oracle(backend, limbs, data):
    m = data.draw(moduli(limbs))
    x, y = data.draw(values(m)), data.draw(values(m))
    context, file = store(backend, m, [x, y], registers=6)
    for index, op in enumerate(OPS):
        getattr(file, f"{op}modx")(2 + index, 1, 0, 1, 1, 1, 1)
    assert load_ints(file, 0, 5) == [x, y] + [op_oracle(op, x, y, m) for op in OPS]
    assert [file.internal(i) for i in range(5)] == \
        [internal_oracle(v, m) for v in load_ints(file, 0, 5)]


@given(data=st.data())
@settings(max_examples=80, deadline=None)
def test_native_equals_reference_and_mulx_equals_portable(data):
    m = data.draw(moduli())
    xs = data.draw(st.lists(values(m), min_size=1, max_size=8))
    immediates = data.draw(vector_immediates(len(xs) + 3))
    results = {}
    for name in IMPLEMENTATIONS:
        kernel.use_implementation(name)
        for backend_name, backend in BACKENDS.items():
            _, file = store(backend, m, xs, registers=len(xs) + 3)
            for op in OPS:
                getattr(file, f"{op}modx")(*immediates)
            results[name, backend_name] = [file.internal(i) for i in range(file.count)]
    assert len(set(map(tuple, results.values()))) == 1, results


# --- vectors: strides, overlap, counts ------------------------------------------------------

@st.composite
def vector_immediates(draw, registers):
    """Immediates that pass the EIP's bound: idx + stride * count < registers."""
    count = draw(st.integers(1, registers - 1))
    out_stride = draw(st.integers(1, (registers - 1) // count))
    chosen = [draw(st.integers(0, registers - 1 - out_stride * count)), out_stride]
    for _ in range(2):
        stride = draw(st.integers(0, (registers - 1) // count))
        chosen += [draw(st.integers(0, registers - 1 - stride * count)), stride]
    return tuple(chosen) + (count,)


def vector_oracle(op, registers, immediates, m):
    """The EIP's loop on canonical values, with every write after every read."""
    out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count = immediates
    results = [op_oracle(op, registers[x_idx + i * x_stride], registers[y_idx + i * y_stride], m)
               for i in range(count)]
    registers = list(registers)
    for i, result in enumerate(results):
        registers[out_idx + i * out_stride] = result
    return registers


def _drawn_file(backend, data):
    """(modulus, register count, values, a register file holding them), drawn."""
    m = data.draw(moduli())
    registers = data.draw(st.integers(2, 24))
    xs = data.draw(st.lists(values(m), min_size=registers, max_size=registers))
    return m, registers, xs, store(backend, m, xs, registers=registers)[1]


@given(data=st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURE_OK)
def test_vectors_with_strides_and_overlap(backend, data):
    m, registers, xs, file = _drawn_file(backend, data)
    op = data.draw(st.sampled_from(OPS))
    immediates = data.draw(vector_immediates(registers))
    getattr(file, f"{op}modx")(*immediates)
    assert load_ints(file, 0, registers) == vector_oracle(op, xs, immediates, m)


@given(data=st.data())
@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURE_OK)
def test_a_vector_program_runs_its_operations_in_order(backend, data):
    """VectorProgram (what an engine runs as one step): the oracle applied op by op."""
    m, registers, xs, file = _drawn_file(backend, data)
    ops = data.draw(st.lists(st.tuples(st.sampled_from(OPS), vector_immediates(registers)),
                             min_size=1, max_size=6))
    program = backend.VectorProgram(ops)
    assert len(program) == len(ops) and program.register_end < registers
    file.run(program)
    expected = xs
    for op, immediates in ops:
        expected = vector_oracle(op, expected, immediates, m)
    assert load_ints(file, 0, registers) == expected


def test_a_vector_program_checks_its_operations(backend):
    with pytest.raises(VectorError, match="count must not be 0"):
        backend.VectorProgram([("add", (0, 1, 0, 1, 0, 1, 1)), ("mul", (0, 1, 0, 1, 0, 1, 0))])
    with pytest.raises(ValueError, match="operation must be one of add, sub, mul"):
        backend.VectorProgram([("div", (0, 1, 0, 1, 0, 1, 1))])
    _, file = store(backend, P381, [1, 2, 3, 4], registers=4)
    program = backend.VectorProgram([("add", (0, 1, 0, 1, 0, 1, 1)),
                                     ("sub", (0, 1, 0, 1, 2, 1, 2))])   # y ends at 4
    assert program.register_end == 4
    with pytest.raises(RegisterRangeError, match="y: y_idx"):
        file.run(program)
    assert load_ints(file, 0, 4) == [1, 2, 3, 4]          # nothing ran


def test_overlapping_vector_reads_old_values(backend):
    """out runs over x one register behind: a write-as-you-go loop would read its own results."""
    m = P381
    xs = [3, 5, 7, 11, 13, 0]
    _, file = store(backend, m, xs, registers=6)
    file.addmodx(1, 1, 0, 1, 0, 1, 4)  # r[i+1] = 2 * r[i] for i < 4, all from the old values
    assert load_ints(file, 0, 6) == [3, 6, 10, 14, 22, 0]
    file.mulmodx(0, 1, 4, 0, 0, 1, 5)  # x broadcast from r4, which the loop overwrites
    assert load_ints(file, 0, 6) == [66, 132, 220, 308, 484, 0]


def test_longest_vector_on_the_largest_register_file(backend):
    m = (1 << 127) - 1                       # two limbs: 256 registers fit in 24,576 bytes
    rng = random.Random(6690)
    xs = [rng.randrange(m) for _ in range(256)]
    _, file = store(backend, m, xs, registers=256)
    file.mulmodx(0, 1, 0, 1, 1, 1, 254)      # out overlaps y by one: scratch buffer path
    expected = vector_oracle("mul", xs, (0, 1, 0, 1, 1, 1, 254), m)
    assert load_ints(file, 0, 256) == expected


# --- bad immediates and bounds ---------------------------------------------------------------

@pytest.mark.parametrize("immediates, error, attribute", [
    ((0, 1, 0, 1, 0, 1, 0), VectorError, ("reason", "count")),
    ((0, 0, 0, 1, 0, 1, 1), VectorError, ("reason", "out_stride")),
    ((256, 1, 0, 1, 0, 1, 1), VectorError, ("reason", "immediate")),
    ((0, 1, -1, 1, 0, 1, 1), VectorError, ("reason", "immediate")),
    ((7, 1, 0, 1, 0, 1, 1), RegisterRangeError, ("operand", "out")),  # 7 + 1 == 8 registers
    ((0, 1, 0, 1, 0, 1, 8), RegisterRangeError, ("operand", "out")),
    ((0, 1, 6, 2, 0, 1, 1), RegisterRangeError, ("operand", "x")),
    ((0, 1, 0, 0, 8, 0, 1), RegisterRangeError, ("operand", "y")),
    ((0, 255, 0, 255, 0, 255, 255), RegisterRangeError, ("operand", "out")),
])
def test_vector_errors(backend, immediates, error, attribute):
    _, file = store(backend, P381, [1, 2, 3], registers=8)
    before = [file.internal(i) for i in range(8)]
    with pytest.raises(error) as caught:
        file.mulmodx(*immediates)
    assert getattr(caught.value, attribute[0]) == attribute[1]
    assert [file.internal(i) for i in range(8)] == before


def test_vector_immediates_must_be_ints(backend):
    _, file = store(backend, P381, [1], registers=4)
    with pytest.raises(TypeError):
        file.addmodx(0, 1, 0, 1, 0, 1, 1.0)
    with pytest.raises(TypeError):
        file.addmodx(True, 1, 0, 1, 0, 1, 1)


@given(registers=st.integers(0, 300),
       immediates=st.tuples(*[st.integers(0, 255)] * 7), op=st.sampled_from([0, 1, 2]))
@settings(max_examples=200)
def test_c_vector_status_agrees_with_python_checks(registers, immediates, op):
    """The C's own checks: it never touches a register outside the file it was given."""
    context = ffi.new("struct evmmax_context *")
    assert lib.evmmax_setup(context, b"\x07", 1) == lib.EVMMAX_OK
    regs = ffi.new("uint64_t[]", max(registers, 1))
    status = lib.evmmax_vector_op(context, op, regs, registers, *immediates)
    error = vector_error(registers, immediates)
    if error is None:
        expected = lib.EVMMAX_OK
    elif isinstance(error, VectorError):
        expected = {"count": lib.EVMMAX_COUNT_ZERO,
                    "out_stride": lib.EVMMAX_OUT_STRIDE_ZERO}[error.reason]
    else:
        expected = {"out": lib.EVMMAX_RANGE_OUT, "x": lib.EVMMAX_RANGE_X,
                    "y": lib.EVMMAX_RANGE_Y}[error.operand]
    assert status == expected


def test_c_refuses_missing_context_and_unknown_op():
    regs = ffi.new("uint64_t[]", 4)
    assert lib.evmmax_vector_op(ffi.NULL, 0, regs, 4, 0, 1, 0, 1, 0, 1, 1) == lib.EVMMAX_NO_CONTEXT
    assert lib.evmmax_storex(ffi.NULL, regs, 4, 0, b"", 0, 0) == lib.EVMMAX_NO_CONTEXT
    assert lib.evmmax_loadx(ffi.NULL, regs, 4, 0, ffi.NULL, 0, 0) == lib.EVMMAX_NO_CONTEXT
    bad_row = ffi.new("size_t *")
    assert lib.evmmax_batch(ffi.NULL, 0, regs, regs, regs, 1, bad_row) == lib.EVMMAX_NO_CONTEXT
    context = ffi.new("struct evmmax_context *")
    assert lib.evmmax_setup(context, b"\x07", 1) == lib.EVMMAX_OK
    assert lib.evmmax_vector_op(context, 3, regs, 4, 0, 1, 0, 1, 0, 1, 1) == lib.EVMMAX_UNKNOWN_OP
    assert lib.evmmax_batch(context, -1, regs, regs, regs, 1, bad_row) == lib.EVMMAX_UNKNOWN_OP


@pytest.mark.parametrize("limbs", range(1, 13))
def test_c_element_kernel_is_the_batch_kernel(implementation, limbs):
    """evmmax_element_kernel (what the benchmarks time alone) is the kernel the batches run:
    the same results on internal-form rows, at every size, under each implementation;
    NULL without a context or for an unknown op."""
    rng = random.Random(limbs)
    context = modx.FieldContext(rng.randrange(1 << (64 * limbs - 1), 1 << (64 * limbs)) | 1)
    x, y = (ints_to_rows([rng.randrange(context.modulus) for _ in range(8)], limbs)
            for _ in range(2))
    def limbs_of(row):
        return ffi.from_buffer("uint64_t[]", row)

    for op in OPS:
        code = getattr(lib, f"EVMMAX_OP_{op.upper()}")
        element = lib.evmmax_element_kernel(context.c_context, code)
        out = np.zeros_like(x)
        for row in range(len(x)):
            element(limbs_of(out[row]), limbs_of(x[row]), limbs_of(y[row]), context.c_context)
        expected = {"add": modx.addmodx_batch, "sub": modx.submodx_batch,
                    "mul": modx.mulmodx_batch}[op](context, x, y)
        assert rows_to_ints(out) == rows_to_ints(expected)
    assert lib.evmmax_element_kernel(ffi.NULL, lib.EVMMAX_OP_MUL) == ffi.NULL
    assert lib.evmmax_element_kernel(context.c_context, 3) == ffi.NULL


def test_c_transfers_check_registers_and_memory():
    context = ffi.new("struct evmmax_context *")
    assert lib.evmmax_setup(context, b"\x07", 1) == lib.EVMMAX_OK
    regs = ffi.new("uint64_t[]", 4)
    memory = ffi.new("uint8_t[]", 16)
    assert lib.evmmax_storex(context, regs, 4, 3, memory, 16, 2) == lib.EVMMAX_RANGE_REGISTERS
    assert lib.evmmax_storex(context, regs, 4, 2 ** 63, memory, 16, 2 ** 63) == \
        lib.EVMMAX_RANGE_REGISTERS
    assert lib.evmmax_loadx(context, regs, 4, 0, memory, 15, 2) == lib.EVMMAX_MEMORY_TOO_SHORT
    memory[7] = 7
    assert lib.evmmax_storex(context, regs, 4, 0, memory, 16, 2) == lib.EVMMAX_NOT_REDUCED
    assert list(regs) == [0, 0, 0, 0]


# --- LOADX / STOREX and register files ------------------------------------------------------

def test_storex_refuses_unreduced_values_and_writes_nothing(backend):
    m = (1 << 89) - 1
    context, file = store(backend, m, [5, 6])
    data = b"".join(v.to_bytes(16, "big") for v in (1, m - 1, m, 2))
    with pytest.raises(UnreducedValueError) as caught:
        file.storex(0, data)
    assert (caught.value.operand, caught.value.index) == ("data", 2)
    assert load_ints(file, 0, 2) == [5, 6]


def test_transfer_errors(backend):
    _, file = store(backend, 1 << 100, [5], registers=4)
    with pytest.raises(RegisterRangeError):
        file.storex(3, bytes(32))
    with pytest.raises(RegisterRangeError):
        file.loadx(2, 3)
    with pytest.raises(RegisterRangeError):
        file.loadx(-1, 1)
    with pytest.raises(RegisterRangeError):
        file.internal(4)
    with pytest.raises(ValueError):
        file.storex(0, bytes(17))
    with pytest.raises(TypeError):
        file.storex(0, [0] * 16)
    assert file.loadx(4, 0) == b""
    file.storex(4, b"")


def test_register_allocation_limits(backend):
    small, large = backend.FieldContext(7), backend.FieldContext((1 << 768) - 1)
    backend.RegisterFile(small, 256)
    backend.RegisterFile(large, 256)   # 256 * 96 bytes = 24,576: exactly the cap
    with pytest.raises(RegisterAllocationError):
        backend.RegisterFile(small, 0)
    with pytest.raises(RegisterAllocationError):
        backend.RegisterFile(small, 257)
    with pytest.raises(RegisterAllocationError):
        backend.RegisterFile(backend.FieldContext((1 << 768) - 1), 257)


# --- batches --------------------------------------------------------------------------------

@pytest.mark.parametrize("limbs", range(1, 13))
@given(data=st.data())
@settings(max_examples=10, deadline=None, suppress_health_check=FIXTURE_OK)
def test_batches_match_oracle_and_reference(implementation, limbs, data):
    m = data.draw(moduli(limbs))
    n = data.draw(st.integers(0, 6))
    xs = [data.draw(values(m)) for _ in range(n)]
    ys = [data.draw(values(m)) for _ in range(n)]
    context = modx.FieldContext(m)
    x = ints_to_rows([internal_oracle(v, m) for v in xs], context.limbs)
    y = ints_to_rows([internal_oracle(v, m) for v in ys], context.limbs)
    for op in OPS:
        native = getattr(modx, f"{op}modx_batch")(context, x, y)
        reference = getattr(modx_reference, f"{op}modx_batch")(modx_reference.FieldContext(m), x, y)
        assert np.array_equal(native, reference)
        assert rows_to_ints(native) == [internal_oracle(op_oracle(op, a, b, m), m)
                                        for a, b in zip(xs, ys)]


def test_batch_errors(backend):
    context = backend.FieldContext(P381)
    good = ints_to_rows([1, 2], 6)
    with pytest.raises(UnreducedValueError) as caught:
        backend.mulmodx_batch(context, good, ints_to_rows([1, P381], 6))
    assert (caught.value.operand, caught.value.index) == ("y", 1)
    with pytest.raises(UnreducedValueError) as caught:  # the first bad row, x before y
        backend.mulmodx_batch(context, ints_to_rows([1, P381 + 1, P381], 6),
                              ints_to_rows([1, P381, 0], 6))
    assert (caught.value.operand, caught.value.index) == ("x", 1)
    with pytest.raises(ValueError):
        backend.addmodx_batch(context, good, ints_to_rows([1, 2], 7))
    with pytest.raises(ValueError):
        backend.addmodx_batch(context, good, good[:1])
    with pytest.raises(TypeError):
        backend.addmodx_batch(context, good.astype(np.int64), good)
    with pytest.raises(TypeError):
        backend.addmodx_batch(context, [[1] * 6], good)
    with pytest.raises(ValueError):
        backend.addmodx_batch(context, np.zeros((6, 2), np.uint64).T, good)  # not C-contiguous


def test_six_limb_path_is_the_evm384_kernel(implementation):
    """At 6 limbs MULMODX is MULMODMONT384 on the same limbs (R = 2**384 either way)."""
    context = modx.FieldContext(P381)
    rng = random.Random(381)
    x = ints_to_rows([rng.randrange(P381) for _ in range(50)], 6)
    y = ints_to_rows([rng.randrange(P381) for _ in range(50)], 6)
    assert np.array_equal(modx.mulmodx_batch(context, x, y),
                          kernel.mulmont384_batch(x, y, P381, context.inv))
    assert np.array_equal(modx.addmodx_batch(context, x, y), kernel.addmod384_batch(x, y, P381))
