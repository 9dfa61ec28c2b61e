"""MULMODX on 12-limb odd moduli (705..768 bits), where the MULX build runs the register
kernel of csrc/mont768_mulx.h (the generic rows in the sanitizer build) and the portable
build mont_cios.h: each implementation and the pure-Python reference against Python
integers, for BW6-761's p, moduli at both ends of the 12-limb range (whose accumulator's
top bit is often set, and never), any; edge values; out aliasing x, y or both; vector runs
with strides and overlap through VectorProgram (the fast engine's path) and through the
one-operation entry; long dependent chains. And the same kernel under EVM768's
MULMODMONT768, which runs it on any operands (unreduced, even or 768-bit moduli, any inv):
textbook CIOS exactly, with the accumulator's top at its largest."""
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.evm.kernels import kernel, reference

from bw6_761_reference import P as P761
from test_modx import (  # noqa: F401 (backend: a fixture)
    backend, FIXTURE_OK, run_mulmodx, IMPLEMENTATIONS, load_ints, store, vector_immediates, vector_oracle)

R = 1 << 768


@st.composite
def twelve_limb_moduli(draw):
    """Odd moduli of twelve limbs: BW6-761's p, near 2^768 (the kernel's top bit in use),
    just above 2^704, below 2^767 (top bit never set), any bit length 705..768."""
    kind = draw(st.sampled_from(["p761", "top", "just_above_704", "below_767", "any"]))
    if kind == "p761":
        return P761
    if kind == "top":
        return R - 1 - 2 * draw(st.integers(0, 1 << 20))
    if kind == "just_above_704":
        return (1 << 704) + 1 + 2 * draw(st.integers(0, 1 << 20))
    if kind == "below_767":
        return (1 << 767) - 1 - 2 * draw(st.integers(0, 1 << 20))
    bits = draw(st.integers(705, 768))
    return draw(st.integers(1 << (bits - 1), (1 << bits) - 1)) | 1


@st.composite
def residues(draw, m):
    """0, 1, 2, m - 1, m - 2, R - 1 mod m, m // 2 and any value below m."""
    return draw(st.one_of(st.sampled_from([0, 1, 2, m - 1, m - 2, (R - 1) % m, m // 2]),
                          st.integers(0, m - 1)))


@pytest.mark.parametrize("entry", ["program", "operation"])
@given(data=st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=FIXTURE_OK)
def test_a_product_element_matches_python_integers(backend, entry, data):
    """One element; out is x, y, both (a squaring in place) or another register."""
    m = data.draw(twelve_limb_moduli())
    xs = data.draw(st.lists(residues(m), min_size=3, max_size=3))
    out_idx, x_idx, y_idx = (data.draw(st.integers(0, 2)) for _ in range(3))
    immediates = (out_idx, 1, x_idx, 1, y_idx, 1, 1)
    _, file = store(backend, m, xs, registers=4)   # the EIP's bound: idx + stride < 4
    run_mulmodx(backend, file, immediates, entry)
    expected = list(xs)
    expected[out_idx] = xs[x_idx] * xs[y_idx] % m
    assert load_ints(file, 0, 3) == expected


@pytest.mark.parametrize("entry", ["program", "operation"])
@given(data=st.data())
@settings(max_examples=50, deadline=None, suppress_health_check=FIXTURE_OK)
def test_product_vectors_with_strides_and_overlap(backend, entry, data):
    m = data.draw(twelve_limb_moduli())
    registers = data.draw(st.integers(2, 16))
    xs = data.draw(st.lists(residues(m), min_size=registers, max_size=registers))
    immediates = data.draw(vector_immediates(registers))
    _, file = store(backend, m, xs, registers=registers)
    run_mulmodx(backend, file, immediates, entry)
    assert load_ints(file, 0, registers) == vector_oracle("mul", xs, immediates, m)


@given(data=st.data())
@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURE_OK)
def test_a_dependent_chain_is_a_power(backend, data):
    """x <- x * y two hundred times in one program, then x <- x * x fifty times:
    x * y^200, squared fifty times, mod m; every intermediate feeds the next product."""
    m = data.draw(twelve_limb_moduli())
    x, y = data.draw(residues(m)), data.draw(residues(m))
    _, file = store(backend, m, [x, y], registers=3)
    file.run(backend.VectorProgram([("mul", (0, 1, 0, 1, 1, 1, 1))] * 200
                                   + [("mul", (0, 1, 0, 1, 0, 1, 1))] * 50))
    assert load_ints(file, 0, 2) == [pow(x * pow(y, 200, m), 1 << 50, m), y]


SIZE = 96
near_r = st.one_of(st.integers(R - (1 << 80), R - 1), st.sampled_from([R - 1, 1 << 767, 0, 1]))


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@given(x=near_r, y=near_r, mod=st.one_of(near_r, st.integers(0, R - 1)),
       inv=st.integers(0, (1 << 64) - 1))
@settings(max_examples=200, deadline=None)
def test_mulmodmont768_is_textbook_cios_for_any_operands(implementation, x, y, mod, inv):
    """Operands near 2^768 keep the accumulator's top (above its twelve limbs) at 1 or 2
    through the rounds; the result is the spec's integer (reference.mulmont_int)."""
    memory = bytearray(x.to_bytes(SIZE, "little") + y.to_bytes(SIZE, "little")
                       + mod.to_bytes(SIZE, "little") + inv.to_bytes(8, "little"))
    kernel.use_implementation(implementation)
    try:
        kernel.mulmodmont768(memory, 0, 0, SIZE, 2 * SIZE)
    finally:
        kernel.use_implementation("auto")
    assert int.from_bytes(memory[:SIZE], "little") == reference.mulmont_int(x, y, mod, inv, 12)
