"""The 4-limb Fp2 product and squaring steps (csrc/evmmax_kernels.h: the product at double
width, wide256.h's three 512-bit products and two Montgomery reductions; the squaring with
its doubling and sum unreduced) against Python integers, at the bounds their comments
prove: register values (Montgomery form, as the steps read them) drawn from the edges (0,
1, m - 1, m - 2, values that make a0 b0 - a1 b1 zero or its most negative) and moduli up
to 2^254 - 1, on every implementation. The expected registers come from the definitions
(R = 2^256), c1 = (a0 b1 + a1 b0) / R and c0 = (a0 b0 - a1 b1) / R mod m for the product,
c1 = 2 a0 a1 / R and c0 = (a0 + a1)(a0 - a1) / R mod m for the squaring, not from the
engines."""
from __future__ import annotations

from typing import Callable, List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import IMPLEMENTATIONS
from evm384_native.curves.bn254 import BN254
from evm384_native.evm.kernels import kernel, modx, modx_common

R = 2**256
A0, A1, B0, B1, T0, T1, T2, C1, C0 = range(9)
REGISTERS = 10   # one more than the groups': the EIP's bound leaves the last out of reach


def one(operation: str, out: int, x: int, y: int) -> tuple:
    return operation, (out, 1, x, 1, y, 1, 1)


KILL = [one("add", t, A0, A1) for t in (T0, T1, T2)]   # the temporaries overwritten
# the six records of an Fp2 product and the five of a squaring (of a0 + a1 u), then KILL:
# the host flags each group
PRODUCT = [one("mul", T0, A0, B0), one("mul", T1, A1, B1), one("mul", T2, A0, B1),
           one("mul", C1, A1, B0), one("add", C1, C1, T2), one("sub", C0, T0, T1)] + KILL
SQUARE = [one("add", T0, A0, A1), one("sub", T1, A0, A1), one("mul", C1, A0, A1),
          one("add", C1, C1, C1), one("mul", C0, T0, T1)] + KILL


def product_definition(m: int, a0: int, a1: int, b0: int, b1: int) -> tuple:
    r_inverse = pow(R, -1, m)
    return (a0 * b1 + a1 * b0) * r_inverse % m, (a0 * b0 - a1 * b1) * r_inverse % m


def square_definition(m: int, a0: int, a1: int, *_: int) -> tuple:
    r_inverse = pow(R, -1, m)
    return 2 * a0 * a1 * r_inverse % m, (a0 + a1) * (a0 - a1) * r_inverse % m


STEPS = {"product": (PRODUCT, product_definition), "square": (SQUARE, square_definition)}

odd_4_limb_moduli = st.one_of(
    st.sampled_from([BN254.p, 2**254 - 1, 2**192 + 1, 2**253 + 2**192 - 1]),
    st.integers(2**192, 2**254 - 1).map(lambda m: m | 1))


@st.composite
def edge_values(draw, m: int) -> int:
    return draw(st.one_of(st.sampled_from([0, 1, 2, m - 1, m - 2, m // 2, m // 2 + 1]),
                          st.integers(0, m - 1), st.integers(m - 2**64, m - 1)))


def _run(implementation: str, m: int, internal: List[int], program: list) -> List[int]:
    """The native registers after the flagged group, the given values (Montgomery form)
    in a0, a1, b0, b1 and nine elsewhere."""
    context = modx.FieldContext(m)
    registers = modx.RegisterFile(context, REGISTERS)
    r_inverse = pow(R, -1, m)
    normal = [x * r_inverse % m for x in internal + [9] * (REGISTERS - 4)]
    registers.storex(0, b"".join(v.to_bytes(context.element_size, "big") for v in normal))
    encoded = modx_common.VectorProgram(program)
    assert encoded.encoded[0] & modx_common.FP2_PRODUCT_FLAG   # the step runs, not records
    kernel.use_implementation(implementation)
    try:
        registers.run(encoded)
    finally:
        kernel.use_implementation("auto")
    return [registers.internal(i) for i in range(REGISTERS)]


def _check(implementation: str, step: str, m: int, values: List[int]) -> None:
    program, definition = STEPS[step]
    got = _run(implementation, m, values, program)
    assert (got[C1], got[C0]) == definition(m, *values)
    assert got[:4] == values


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_step_equals_the_definition(step, implementation, data):
    m = data.draw(odd_4_limb_moduli)
    _check(implementation, step, m, [data.draw(edge_values(m)) for _ in range(4)])


BOUNDS: dict = {
    # the sums at 2m - 2 (their product's bound 4 m^2), the doubling at 2m - 2
    "largest": lambda m: [m - 1] * 4,
    "cross largest": lambda m: [m - 1, m - 2, m - 2, m - 1],
    # a0 b0 - a1 b1 at 0, near -m^2 (m R added) and near m^2 (not added)
    "real zero": lambda m: [m - 1, 5, 5, m - 1],
    "real most negative": lambda m: [0, m - 1, 0, m - 1],
    "real largest": lambda m: [m - 1, 0, m - 1, 0],
    "zeros": lambda m: [0, 0, 0, 0],
}


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("m", [BN254.p, 2**254 - 1, 2**192 + 1])
@pytest.mark.parametrize("case", sorted(BOUNDS))
def test_the_step_at_its_bounds(step, implementation, m, case):
    values: Callable[[int], List[int]] = BOUNDS[case]
    _check(implementation, step, m, values(m))
