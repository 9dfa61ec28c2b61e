"""The 4-limb product by xi = k + u where k stands for a small integer s (BN254's xi = 9 + u):
csrc/evmmax_kernels.h computes c0 = (s a0 - a1) mod m and c1 = (s a1 + a0) mod m with one
quotient estimate (small_product_sum_4) instead of two Montgomery products, for moduli in
[2^253, 2^254) and s < 2^16, learning s once per run while k's register keeps its value.
Checked against those definitions in Python integers (on the register values, Montgomery
form, which the step computes on), on every implementation: s at 0, 1, 9 and the bound's edges (2^16 - 1 takes
the quotient estimate, 2^16 and large s the products), inputs at 0 and m - 1, remainders
just above and below a multiple of m (where the estimate is one short), moduli at both
ends of the range and outside it, and a run whose k changes between two products."""
from __future__ import annotations

from typing import List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import IMPLEMENTATIONS
from evm384_native.curves.bn254 import BN254
from evm384_native.evm.kernels import kernel, modx, modx_common

A0, A1, C0, C1, K, SPARE = range(6)
REGISTERS = 8   # two past SPARE: the EIP's bound leaves the last register out of reach
SMALL = 2**16           # s below it takes the estimate (XI_SMALL_BITS)
R = 2**256


def one(operation: str, out: int, x: int, y: int) -> tuple:
    return operation, (out, 1, x, 1, y, 1, 1)


def xi_product(k: int = K) -> list:
    """``tower.fp2.mul_by_xi``'s records: (c0, c1) = (a0, a1) k, c0 -= a1, c1 += a0."""
    return [("mul", (C0, 1, A0, 1, k, 0, 2)), one("sub", C0, C0, A1), one("add", C1, C1, A0)]


def xi_definition(m: int, a0: int, a1: int, s: int) -> tuple:
    return (s * a0 - a1) % m, (s * a1 + a0) % m


def _run(implementation: str, m: int, values: List[int], program: list,
         flagged: List[int]) -> List[int]:
    """The registers after ``program`` on ``values``, both in Montgomery form (what the step
    computes on: the definitions hold there too, s being an integer); the records at
    ``flagged`` must be the steps' first."""
    context = modx.FieldContext(m)
    registers = modx.RegisterFile(context, REGISTERS)
    r_inverse = pow(R, -1, m)
    registers.storex(0, b"".join((v * r_inverse % m).to_bytes(context.element_size, "big")
                                 for v in values))
    encoded = modx_common.VectorProgram(program)
    assert [i for i in range(len(program))
            if encoded.encoded[8 * i] & modx_common.XI_PRODUCT_FLAG] == flagged
    kernel.use_implementation(implementation)
    try:
        registers.run(encoded)
    finally:
        kernel.use_implementation("auto")
    return [registers.internal(i) for i in range(REGISTERS)]


def _check(implementation: str, m: int, a0: int, a1: int, s: int) -> None:
    """a0, a1 as register values, k the register holding s (s R mod m)."""
    values = [a0, a1, 3, 4, s * R % m, 5, 6, 7]
    got = _run(implementation, m, values, xi_product(), [0])
    assert (got[C0], got[C1]) == xi_definition(m, a0, a1, s % m), (m, a0, a1, s)
    assert got[:2] + got[K:] == values[:2] + values[K:]


# the estimate's range (2^253 <= m < 2^254) at both ends and inside, and moduli outside it
IN_RANGE = [BN254.p, 2**253 + 1, 2**254 - 1, 2**253 + 2**192 - 1, 2**254 - 2**192 + 1]
OUTSIDE = [2**253 - 1, 2**192 + 1, 2**254 + 1, 2**255 - 19]
moduli = st.one_of(st.sampled_from(IN_RANGE + OUTSIDE),
                   st.integers(2**253, 2**254 - 1).map(lambda m: m | 1),
                   st.integers(2**192, 2**256 - 1).map(lambda m: m | 1))


@st.composite
def edge_values(draw, m: int) -> int:
    return draw(st.one_of(st.sampled_from([0, 1, 2, m - 1, m - 2, m // 2]),
                          st.integers(0, m - 1)))


@st.composite
def multipliers(draw, m: int) -> int:
    return draw(st.one_of(st.sampled_from([0, 1, 2, 9, SMALL - 1, SMALL, SMALL + 1, m - 1]),
                          st.integers(0, SMALL - 1), st.integers(0, m - 1)))


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_step_equals_the_definition(implementation, data):
    m = data.draw(moduli)
    s = data.draw(multipliers(m))
    _check(implementation, m, data.draw(edge_values(m)), data.draw(edge_values(m)), s)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_remainders_next_to_a_multiple_of_m(implementation, data):
    """c0's sum s a0 + (m - a1) (the step's t) made j m + d for d just above 0 or just
    below m: the quotient estimate is exact or one short there, and both must come out
    canonical."""
    m = data.draw(st.sampled_from(IN_RANGE) | st.integers(2**253, 2**254 - 1).map(
        lambda m: m | 1))
    s = data.draw(st.sampled_from([1, 2, 9, SMALL - 1]) | st.integers(1, SMALL - 1))
    a0 = data.draw(edge_values(m))
    d = data.draw(st.sampled_from([0, 1, 2, m - 1, m - 2]) | st.integers(0, 2**64)
                  | st.integers(m - 2**64, m - 1))
    minus_a1 = (d - s * a0) % m or m          # in (0, m]
    _check(implementation, m, a0, m - minus_a1, s)


LARGEST = {
    "sums at their largest": lambda m: (m - 1, 0),          # t = s (m - 1) + m
    "both m - 1": lambda m: (m - 1, m - 1),
    "zeros": lambda m: (0, 0),
    "a1 at m - 1": lambda m: (0, m - 1),
}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("m", IN_RANGE + OUTSIDE)
@pytest.mark.parametrize("s", [0, 1, 9, SMALL - 1, SMALL])
@pytest.mark.parametrize("case", sorted(LARGEST))
def test_the_step_at_its_bounds(implementation, m, s, case):
    _check(implementation, m, *LARGEST[case](m), s)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("m", [BN254.p, 2**254 - 1])
def test_a_run_relearns_k_when_its_register_changes(implementation, m):
    """Three products by xi in one run, k's register changed between the first two (s = 9
    -> 12, both small) and then made large (the products' path): each product by its own
    k. A step that kept the run's first s gets the second and third wrong."""
    a0, a1 = m - 3, 7
    values = [a0, a1, 0, 0, 9 * R % m, 3 * R % m, 0, 0]
    change = [one("add", K, K, SPARE)]              # s = 9 + 3
    enlarge = [one("mul", K, K, A0)]                # k = 12 R a0 / R: s = 12 a0 / R, large
    first = _run(implementation, m, values, xi_product() + change + xi_product(), [0, 4])
    assert (first[C0], first[C1]) == xi_definition(m, a0, a1, 12)
    program = xi_product() + change + xi_product() + enlarge + xi_product()
    got = _run(implementation, m, values, program, [0, 4, 8])
    assert (got[C0], got[C1]) == xi_definition(m, a0, a1, 12 * a0 * pow(R, -1, m) % m)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_k_may_be_an_output_of_the_step(implementation):
    """k in c1's register: read before the step writes (the records' product reads it
    first too)."""
    m = BN254.p
    values = [5, m - 1, 0, 9 * R % m, 0, 0, 0, 0]
    got = _run(implementation, m, values, xi_product(k=C1), [0])
    assert (got[C0], got[C1]) == xi_definition(m, 5, m - 1, 9)
