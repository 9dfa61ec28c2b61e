"""MULMODX elements whose two operands are one register (a squaring): on 6-limb odd moduli
the MULX build runs a dedicated Montgomery squaring (csrc/sqr384_mulx.h) there, the others
the product. Each implementation and the pure-Python reference against Python integers,
single elements (out the same register or another) and vector runs with strides and counts
through VectorProgram (the fast engine's path) and through the one-operation entry."""
import pytest
from hypothesis import given, settings, strategies as st

from test_modx import (  # noqa: F401 (backend: a fixture)
    backend, FIXTURE_OK, run_mulmodx, load_ints, P381, store, vector_oracle)

R = 1 << 384


@st.composite
def six_limb_moduli(draw):
    """Odd moduli of six limbs: BLS12-381's p, near 2^384, just above 2^320, any."""
    kind = draw(st.sampled_from(["p381", "top", "just_above_320", "any"]))
    if kind == "p381":
        return P381
    if kind == "top":
        return (1 << 384) - 1 - 2 * draw(st.integers(0, 1 << 20))
    if kind == "just_above_320":
        return (1 << 320) + 1 + 2 * draw(st.integers(0, 1 << 20))
    return draw(st.integers((1 << 320) + 1, (1 << 384) - 1)) | 1


@st.composite
def residues(draw, m):
    """0, 1, m - 1, R - 1 mod m (all limbs set before the reduction) and any value below m."""
    return draw(st.one_of(st.sampled_from([0, 1, m - 1, (R - 1) % m, m // 2]),
                          st.integers(0, m - 1)))


@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE_OK)
def test_a_squaring_element_matches_python_integers(backend, data):
    m = data.draw(six_limb_moduli())
    xs = data.draw(st.lists(residues(m), min_size=3, max_size=3))
    x_idx, out_idx = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    _, file = store(backend, m, xs, registers=4)   # the EIP's bound: idx + stride < 4
    file.run(backend.VectorProgram([("mul", (out_idx, 1, x_idx, 1, x_idx, 1, 1))]))
    expected = list(xs)
    expected[out_idx] = xs[x_idx] * xs[x_idx] % m
    assert load_ints(file, 0, 3) == expected


@st.composite
def square_immediates(draw, registers):
    """MULMODX immediates with x and y the same registers (same index and stride)."""
    count = draw(st.integers(1, registers - 1))
    out_stride = draw(st.integers(1, (registers - 1) // count))
    out_idx = draw(st.integers(0, registers - 1 - out_stride * count))
    stride = draw(st.integers(0, (registers - 1) // count))
    x_idx = draw(st.integers(0, registers - 1 - stride * count))
    return (out_idx, out_stride, x_idx, stride, x_idx, stride, count)


@pytest.mark.parametrize("entry", ["program", "operation"])
@given(data=st.data())
@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE_OK)
def test_squaring_vectors_with_strides_and_overlap(backend, entry, data):
    m = data.draw(six_limb_moduli())
    registers = data.draw(st.integers(2, 16))
    xs = data.draw(st.lists(residues(m), min_size=registers, max_size=registers))
    immediates = data.draw(square_immediates(registers))
    _, file = store(backend, m, xs, registers=registers)
    run_mulmodx(backend, file, immediates, entry)
    assert load_ints(file, 0, registers) == vector_oracle("mul", xs, immediates, m)


def test_repeated_squaring_in_place_is_an_exponentiation(backend):
    """x <- x^2 a hundred times in one program (out = x = y): x^(2^100) mod p."""
    x = 0x1234567890abcdef ** 5 % P381
    _, file = store(backend, P381, [x], registers=2)
    file.run(backend.VectorProgram([("mul", (0, 1, 0, 1, 0, 1, 1))] * 100))
    assert load_ints(file, 0, 1) == [pow(x, 1 << 100, P381)]
