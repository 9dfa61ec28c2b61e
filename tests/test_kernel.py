"""The three EVM384 operations: native kernel and pure-Python reference
against independent integer oracles, against each other, and on bad input."""
import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

from evm384_native import MemoryRangeError
from evm384_native.evm.kernels import kernel, reference
from evm384_native.evm.kernels.limbs import array_to_ints, ints_to_array, int_to_limbs

from kernel_oracles import MASK64, add_oracle, mulmont_oracle, sub_oracle

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
P_INV = 0x89f3fffcfffcfffd
MAX384 = (1 << 384) - 1

IMPLEMENTATIONS = ["portable"] + (["mulx"] if kernel.mulx_available() else [])
BACKENDS = {"native": kernel, "reference": reference}


@pytest.fixture(autouse=True)
def every_implementation(implementation):
    """Every test here runs with each implementation (conftest's fixture)."""
    yield implementation


def test_mulx_path_is_tested_on_capable_cpus():
    import platform
    if platform.machine() in ("x86_64", "AMD64"):
        with open("/proc/cpuinfo") as cpuinfo:
            flags = cpuinfo.read()
        if " bmi2" in flags and " adx" in flags:
            assert "mulx" in IMPLEMENTATIONS


# --- the spec's known-answer vectors (results; gas is tested with the EVM) -----------

KAT_X = bytes.fromhex("3c119b3934156e9d9a495378725bb6c7fdcd12784743919063f5a383d2d2af117e025fdb0fb03fa723a62a4d6d968d2b")
KAT_Y = bytes.fromhex("f1562b8a749c87046d34a6d1101226508bb99a91982faeac365505dc7d9366404d9808a02531e3e80c82cdbab995821e")
KAT_MOD = bytes.fromhex("ec1e91ae1c738c60602becdaa2c68049efc48e8efa17054cdfb487bd3ccf137fe7e517dbee90eef07123d231ea794fa5")
KAT_ADD = bytes.fromhex("2d68c6c3a8b1f5a1077ef949836ddc178987ad09e0723f3d9a4aa95f50661652cb9a677b35e122903028f807272c104a")
KAT_MUL = bytes.fromhex("b0f9fdbafea7416d7d306f04e96da1f87f72296a25bdb9263fbd57a66982d129208bf5683e3191274250b21744c12997")


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_known_answer_vectors(backend):
    mem = bytearray(KAT_X + KAT_Y + KAT_MOD)
    backend.addmod384(mem, 0, 0, 48, 96)
    assert bytes(mem[:48]) == KAT_ADD
    backend.submod384(mem, 0, 0, 48, 96)
    assert bytes(mem[:48]) == KAT_X
    mem = bytearray(KAT_ADD + KAT_Y + KAT_MOD + b"\xff" * 8)
    backend.mulmodmont384(mem, 0, 0, 48, 96)
    assert bytes(mem[:48]) == KAT_MUL


# --- property tests against the integer oracles ---------------------------------------

@st.composite
def moduli(draw):
    bits = draw(st.integers(1, 384))
    return draw(st.integers(1 << (bits - 1), (1 << bits) - 1))


@st.composite
def operand(draw, mod):
    """Edge values around mod and 2**384 as well as uniform ones; not reduced."""
    return draw(st.one_of(
        st.sampled_from([0, 1, 2, mod - 1, mod, mod + 1, MAX384, MAX384 - 1, 1 << 383]),
        st.integers(0, MAX384),
        st.integers(0, mod - 1) if mod > 1 else st.just(0),
    ).filter(lambda v: 0 <= v <= MAX384))


@st.composite
def op_inputs(draw):
    mod = draw(st.one_of(moduli(), st.just(P), st.just(MAX384)))
    x = draw(operand(mod))
    relation = draw(st.sampled_from(["free", "sum_is_mod", "equal"]))
    if relation == "sum_is_mod" and x <= mod:
        y = mod - x
    elif relation == "equal":
        y = x
    else:
        y = draw(operand(mod))
    inv = draw(st.one_of(st.integers(0, MASK64),
                         st.just((-pow(mod, -1, 1 << 64)) % (1 << 64)) if mod % 2 else st.just(MASK64)))
    return x, y, mod, inv


def run_op(backend, name, x, y, mod, inv=None):
    layout = x.to_bytes(48, "little") + y.to_bytes(48, "little") + mod.to_bytes(48, "little")
    if inv is not None:
        layout += inv.to_bytes(8, "little")
    mem = bytearray(layout)
    getattr(backend, name)(mem, 0, 0, 48, 96)
    return int.from_bytes(mem[:48], "little")


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
@given(op_inputs())
def test_addmod384_matches_integers(backend, inputs):
    x, y, mod, _ = inputs
    assert run_op(backend, "addmod384", x, y, mod) == add_oracle(x, y, mod)


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
@given(op_inputs())
def test_submod384_matches_integers(backend, inputs):
    x, y, mod, _ = inputs
    assert run_op(backend, "submod384", x, y, mod) == sub_oracle(x, y, mod)


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
@given(op_inputs())
def test_mulmodmont384_matches_integers(backend, inputs):
    x, y, mod, inv = inputs
    assert run_op(backend, "mulmodmont384", x, y, mod, inv) == mulmont_oracle(x, y, mod, inv)


EXTREME_OPERANDS = [0, 1, P - 1, 1 << 383, MAX384 - 1, MAX384]
EXTREME_MODULI = [P, MAX384, MAX384 - 1, 1 << 383, 3]


@pytest.mark.parametrize("mod", EXTREME_MODULI)
def test_mulmodmont384_extremes(mod):
    """Every pair of extreme operands, with the right inv (when there is one) and garbage
    ones: the largest intermediate sums, where the MULX path needs its ninth limb."""
    right_inv = (-pow(mod, -1, 1 << 64)) % (1 << 64) if mod % 2 else 7
    for inv in (right_inv, 0, 1, MASK64):
        for x in EXTREME_OPERANDS:
            for y in EXTREME_OPERANDS:
                assert run_op(kernel, "mulmodmont384", x, y, mod, inv) == \
                    mulmont_oracle(x, y, mod, inv), (hex(x), hex(y), hex(mod), hex(inv))


@given(st.integers(0, P - 1), st.integers(0, P - 1))
def test_mulmont_is_the_montgomery_product_for_reduced_inputs(x, y):
    expected = x * y * pow(1 << 384, -1, P) % P
    assert run_op(kernel, "mulmodmont384", x, y, P, P_INV) == expected


# --- native against reference on the same memory images -------------------------------

OPS = ["addmod384", "submod384", "mulmodmont384"]


@pytest.mark.parametrize("op", OPS)
@given(st.binary(min_size=56, max_size=400), st.data())
def test_native_equals_reference_on_memory_images(op, image, data):
    """Arbitrary bytes and offsets, overlapping and unaligned ranges included."""
    last = len(image) - (56 if op == "mulmodmont384" else 48)
    offsets = [data.draw(st.integers(0, len(image) - 48)) for _ in range(3)]
    offsets.append(data.draw(st.integers(0, last)))
    native_mem, reference_mem = bytearray(image), bytearray(image)
    getattr(kernel, op)(native_mem, *offsets)
    getattr(reference, op)(reference_mem, *offsets)
    assert native_mem == reference_mem


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
@pytest.mark.parametrize("op", OPS)
def test_out_aliasing_x_and_y(backend, op):
    rng = random.Random(op)
    x = rng.randrange(P)
    mem = bytearray(x.to_bytes(48, "little") + P.to_bytes(48, "little") + P_INV.to_bytes(8, "little"))
    getattr(backend, op)(mem, 0, 0, 0, 48)  # x == y == out: squaring, doubling
    got = int.from_bytes(mem[:48], "little")
    expected = {"addmod384": add_oracle(x, x, P), "submod384": 0,
                "mulmodmont384": mulmont_oracle(x, x, P, P_INV)}[op]
    assert got == expected


def test_untouched_bytes_stay_untouched():
    mem = bytearray(range(256)) * 2
    before = bytes(mem)
    kernel.mulmodmont384(mem, 300, 7, 101, 203)
    assert mem[:300] == before[:300] and mem[348:] == before[348:]


# --- bad input ----------------------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("position", range(4))
@pytest.mark.parametrize("bad_offset", [-1, 1000, 953, 2**64, 2**70])
def test_range_outside_memory_names_the_operand(backend, op, position, bad_offset):
    mem = bytearray(1000)
    offsets = [0, 48, 96, 144]
    offsets[position] = bad_offset
    before = bytes(mem)
    with pytest.raises(MemoryRangeError) as info:
        getattr(backend, op)(mem, *offsets)
    assert info.value.operand == ("out", "x", "y", "mod")[position]
    assert f"[{bad_offset}," in str(info.value)
    assert mem == before


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_modulus_needs_room_for_inv(backend):
    mem = bytearray(200)
    backend.addmod384(mem, 0, 0, 0, 152)  # 48 bytes at 152 fit
    with pytest.raises(MemoryRangeError, match=r"mod range \[152, 208\)"):
        backend.mulmodmont384(mem, 0, 0, 0, 152)


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_readonly_memory_is_rejected(backend):
    with pytest.raises(TypeError, match="writable"):
        backend.addmod384(bytes(200), 0, 0, 0, 0)


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
@pytest.mark.parametrize("bad", ["0", 1.0, None])
def test_non_int_offset_is_rejected(backend, bad):
    with pytest.raises(TypeError, match="x offset must be an int"):
        backend.addmod384(bytearray(200), 0, bad, 0, 0)


# --- batches ------------------------------------------------------------------------

@given(st.lists(op_inputs(), min_size=1, max_size=20), op_inputs())
def test_batches_match_integers(rows, shared):
    _, _, mod, inv = shared
    xs = [x for x, _, _, _ in rows]
    ys = [y for _, y, _, _ in rows]
    x, y = ints_to_array(xs), ints_to_array(ys)
    assert array_to_ints(kernel.addmod384_batch(x, y, mod)) == [add_oracle(a, b, mod) for a, b in zip(xs, ys)]
    assert array_to_ints(kernel.submod384_batch(x, y, mod)) == [sub_oracle(a, b, mod) for a, b in zip(xs, ys)]
    assert array_to_ints(kernel.mulmont384_batch(x, y, int_to_limbs(mod), inv)) == \
        [mulmont_oracle(a, b, mod, inv) for a, b in zip(xs, ys)]


def test_empty_batch():
    empty = np.zeros((0, 6), dtype=np.uint64)
    assert kernel.mulmont384_batch(empty, empty, P, P_INV).shape == (0, 6)


@pytest.mark.parametrize("array, error, message", [
    (np.zeros((4, 6), dtype=np.int64), TypeError, "dtype uint64"),
    (np.zeros((4, 5), dtype=np.uint64), ValueError, r"shape \(n, 6\)"),
    (np.zeros(24, dtype=np.uint64), ValueError, r"shape \(n, 6\)"),
    (np.zeros((6, 4), dtype=np.uint64).T, ValueError, "C-contiguous"),
    ([[0] * 6], TypeError, "numpy array"),
])
def test_batch_rejects_bad_arrays(array, error, message):
    good = np.zeros((4, 6), dtype=np.uint64)
    with pytest.raises(error, match=message):
        kernel.addmod384_batch(array, good, P)
    with pytest.raises(error, match=message):
        kernel.mulmont384_batch(good, array, P, P_INV)


def test_batch_rejects_bad_scalars():
    good = np.zeros((4, 6), dtype=np.uint64)
    with pytest.raises(ValueError, match="same shape"):
        kernel.submod384_batch(good, good[:2], P)
    with pytest.raises(ValueError, match=r"mod must be in \[0, 2\*\*384\)"):
        kernel.addmod384_batch(good, good, 1 << 384)
    with pytest.raises(ValueError, match="mod array"):
        kernel.addmod384_batch(good, good, np.zeros(5, dtype=np.uint64))
    with pytest.raises(ValueError, match=r"inv must be in \[0, 2\*\*64\)"):
        kernel.mulmont384_batch(good, good, P, -1)
    with pytest.raises(TypeError, match="inv must be an int"):
        kernel.mulmont384_batch(good, good, P, "1")


def test_unknown_implementation_is_rejected():
    with pytest.raises(ValueError, match="unknown implementation"):
        kernel.use_implementation("avx512")


def test_the_kernel_modules_are_public_names_of_the_package():
    """``from evm384_native import kernel`` (the README's import before the kernels moved to
    evm/kernels/) gives the same modules."""
    import importlib

    import evm384_native
    for name in evm384_native.KERNEL_MODULES:
        assert getattr(evm384_native, name) is \
            importlib.import_module(f"evm384_native.evm.kernels.{name}")
    from evm384_native import kernel, modx  # noqa: F401
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        evm384_native.nothing
