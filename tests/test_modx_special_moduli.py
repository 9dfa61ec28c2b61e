"""MULMODX on the 4-limb kernels of csrc/mont256_mulx.h, chosen by SETMODX where MULX runs:
P-256's own Montgomery product and squaring, secp256k1's product and squaring of registers in
plain form (csrc/secp256k1_plain.h; the portable implementation's plain product too), and the
squaring of any other 4-limb odd modulus. Against Python integers, through the entries the
engines use (VectorProgram, as the fast engine's runs, and the one-operation entry), on edge
values of the registers' internal form (Montgomery, or secp256k1's plain values), products
and squarings (x and y one register) alike, each implementation. Moduli one limb away from
the two take the generic product."""
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native._native import ffi, lib
from evm384_native.evm.kernels import kernel, modx, modx_reference

from test_modx import FIXTURE_OK, IMPLEMENTATIONS, load_ints, run_mulmodx, store, vector_oracle

P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
SECP256K1 = 2**256 - 2**32 - 977
SECP256K1_C = 2**256 - SECP256K1
SPECIAL = [P256, SECP256K1]
NEAR = [P256 + 2**128, SECP256K1 - 2**64]   # same limb count and top, generic kernels
BN254 = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
R = 1 << 256


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request):
    kernel.use_implementation(request.param)
    yield request.param
    kernel.use_implementation("auto")


def internal_edges(m):
    """Register contents (x R mod m, or x for secp256k1's plain form) at the kernels' edges: 0, 1, 2, m - 1, m - 2, the
    largest limbs below m, R mod m (2^256 - m's small complement), and 2^64 - 1, 2^192."""
    return sorted({0, 1, 2, m - 1, m - 2, m // 2, R % m, (R - 1) % m, 2**64 - 1, 2**192,
                   m - 2**64, m - 2**192})


@st.composite
def residues(draw, m):
    """A value below m: one whose register holds an internal edge, or any."""
    edge = st.sampled_from(internal_edges(m)).map(modx.FieldContext(m).from_internal)
    return draw(st.one_of(edge, st.sampled_from([0, 1, m - 1, R % m]), st.integers(0, m - 1)))


@pytest.mark.parametrize("m", SPECIAL + NEAR, ids=["p256", "secp256k1", "near-p256",
                                                   "near-secp256k1"])
@given(data=st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=FIXTURE_OK)
def test_products_and_squarings_match_python_integers(implementation, m, data):
    xs = data.draw(st.lists(residues(m), min_size=3, max_size=3))
    out_idx, x_idx, y_idx = data.draw(st.tuples(*[st.integers(0, 2)] * 3))
    _, file = store(modx, m, xs, registers=5)   # the EIP's bound: idx + stride < 5
    file.run(modx.VectorProgram([("mul", (out_idx, 1, x_idx, 1, y_idx, 1, 1)),
                                 ("mul", (3, 1, out_idx, 1, out_idx, 1, 1))]))
    expected = list(xs) + [0]
    expected[out_idx] = xs[x_idx] * xs[y_idx] % m
    expected[3] = expected[out_idx] ** 2 % m
    assert load_ints(file, 0, 4) == expected


@st.composite
def four_limb_moduli(draw):
    """Odd moduli of four limbs for the generic squaring: BN254's p, P-256's group order,
    near 2^256 (the reduction's carries), just above 2^192, any."""
    kind = draw(st.sampled_from(["bn254", "p256_order", "top", "just_above_192", "any"]))
    if kind == "bn254":
        return BN254
    if kind == "p256_order":
        return P256_ORDER
    if kind == "top":
        return R - 1 - 2 * draw(st.integers(0, 1 << 20))
    if kind == "just_above_192":
        return (1 << 192) + 1 + 2 * draw(st.integers(0, 1 << 20))
    return draw(st.integers((1 << 192) + 1, R - 1)) | 1


@given(data=st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=FIXTURE_OK)
def test_squarings_of_any_four_limb_modulus(implementation, data):
    m = data.draw(four_limb_moduli())
    xs = data.draw(st.lists(residues(m), min_size=3, max_size=3))
    out_idx, x_idx = data.draw(st.tuples(st.integers(0, 2), st.integers(0, 2)))
    _, file = store(modx, m, xs, registers=4)   # the EIP's bound: idx + stride < 4
    file.run(modx.VectorProgram([("mul", (out_idx, 1, x_idx, 1, x_idx, 1, 1))]))
    expected = list(xs)
    expected[out_idx] = xs[x_idx] ** 2 % m
    assert load_ints(file, 0, 3) == expected


@pytest.mark.parametrize("m", SPECIAL + [BN254, R - 189], ids=["p256", "secp256k1", "bn254",
                                                                 "2^256-189"])
@pytest.mark.parametrize("entry", ["program", "operation"])
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
def test_vectors_of_products_and_squarings(implementation, m, entry, data):
    registers = data.draw(st.integers(2, 12))
    xs = data.draw(st.lists(residues(m), min_size=registers, max_size=registers))
    count = data.draw(st.integers(1, registers - 1))
    square = data.draw(st.booleans())

    def operand():
        stride = data.draw(st.integers(0, (registers - 1) // count))
        return data.draw(st.integers(0, registers - 1 - stride * count)), stride

    out_stride = data.draw(st.integers(1, (registers - 1) // count))
    out_idx = data.draw(st.integers(0, registers - 1 - out_stride * count))
    x = operand()
    y = x if square else operand()
    immediates = (out_idx, out_stride, *x, *y, count)
    _, file = store(modx, m, xs, registers=registers)
    run_mulmodx(modx, file, immediates, entry)
    assert load_ints(file, 0, registers) == vector_oracle("mul", xs, immediates, m)


@pytest.mark.parametrize("m", SPECIAL + [BN254], ids=["p256", "secp256k1", "bn254"])
def test_chains_of_squarings_and_products_are_powers(implementation, m):
    """x <- x^2 a hundred times, then x <- x y a hundred times, in one program."""
    x, y = 0x1234567890abcdef ** 5 % m, m - 3
    _, file = store(modx, m, [x, y], registers=3)   # idx + stride < 3
    file.run(modx.VectorProgram([("mul", (0, 1, 0, 1, 0, 1, 1))] * 100
                                + [("mul", (0, 1, 0, 1, 1, 1, 1))] * 100))
    assert load_ints(file, 0, 2) == [pow(x, 1 << 100, m) * pow(y, 100, m) % m, y]


# secp256k1's fold (secp256k1_plain.h): x = p - a, y = p - b make t = x y fold to a top
# limb T = c - 1 and v = 2^256 - c + ab, so ab >= c carries v out of 2^256 (the result ab
# is then v - 2^256 + c), p <= v < 2^256 for ab < c; a, b also 0 (v = 0), 1 and any.
FOLD_EDGES = [0, 1, 2, 3, 2**16, 2**17, SECP256K1_C - 1, SECP256K1_C, SECP256K1_C + 1, 2**33,
              2**64, 2**64 + 1, 2**128, SECP256K1 // 2]


@pytest.mark.parametrize("a", FOLD_EDGES)
def test_secp256k1_products_at_the_folds_edges(implementation, a):
    xs = [(SECP256K1 - a) % SECP256K1] + [(SECP256K1 - b) % SECP256K1 for b in FOLD_EDGES]
    _, file = store(modx, SECP256K1, xs, registers=2 * len(xs) + 2)
    count = len(FOLD_EDGES)
    program = [("mul", (len(xs) + i, 1, 0, 0, 1 + i, 1, 1)) for i in range(count)]
    file.run(modx.VectorProgram(program + [("mul", (2 * len(xs), 1, 0, 1, 0, 1, 1))]))
    assert load_ints(file, len(xs), count) == [xs[0] * x % SECP256K1 for x in xs[1:]]
    assert load_ints(file, 2 * len(xs), 1) == [xs[0] ** 2 % SECP256K1]


@pytest.mark.parametrize("backend", [modx, modx_reference], ids=["native", "reference"])
def test_secp256k1_registers_hold_plain_values(implementation, backend):
    """The register form follows the modulus alone: plain for secp256k1's p (in both
    backends, whichever implementation runs), Montgomery for a modulus one limb away."""
    values = [0, 1, 2, NEAR[1] - 1, 2**255]   # below both moduli
    _, file = store(backend, SECP256K1, values)
    assert [file.internal(i) for i in range(len(values))] == values
    _, file = store(backend, NEAR[1], values)
    assert [file.internal(i) for i in range(len(values))] == [v * R % NEAR[1] for v in values]


@pytest.mark.parametrize("m", SPECIAL, ids=["p256", "secp256k1"])
def test_storex_and_loadx_round_trip_the_edges(implementation, m):
    """STOREX (a product by R^2 mod m) and LOADX (a product by 1) run the kernels too
    (P-256); secp256k1's plain registers are copied."""
    values = sorted({0, 1, m - 1, R % m, (R - 1) % m, 2**255 % m})
    _, file = store(modx, m, values)
    assert load_ints(file, 0, len(values)) == values


@pytest.mark.skipif("mulx" not in IMPLEMENTATIONS, reason="no MULX/ADX on this CPU")
@pytest.mark.parametrize("m, special", [(P256, True), (SECP256K1, True), (NEAR[0], False),
                                        (NEAR[1], False), (2**255 - 19, False), (BN254, False)])
def test_setmodx_selects_the_kernels_by_the_modulus(m, special):
    """The tests above only test the kernels if SETMODX chose them: the products exactly for
    the two moduli (the MULX implementation's product kernel is then the context's), a
    squaring for every 4-limb odd modulus, nothing for other sizes; plain form exactly for
    secp256k1's p."""
    kernel.use_implementation("mulx")
    try:
        context = modx.FieldContext(m).c_context
        assert (context.mulx_mul != ffi.NULL) == special
        assert context.plain_form == (m == SECP256K1)
        assert context.mulx_square != ffi.NULL
        assert modx.FieldContext(2**255 + 1 + 2**192).c_context.mulx_square != ffi.NULL
        assert modx.FieldContext(2**192 - 237).c_context.mulx_square == ffi.NULL   # 3 limbs
        assert modx.FieldContext(2**256 + 297).c_context.mulx_square == ffi.NULL   # 5 limbs
        if special:
            assert lib.evmmax_element_kernel(context, lib.EVMMAX_OP_MUL) == context.mulx_mul
        kernel.use_implementation("portable")
        assert lib.evmmax_element_kernel(context, lib.EVMMAX_OP_MUL) != context.mulx_mul
    finally:
        kernel.use_implementation("auto")
