"""The 4-limb Fp2 product step at double width (csrc/wide256.h, evmmax_kernels.h's
evmmax_fp2_product_4: three 512-bit products, two Montgomery reductions) against Python
integers, at the bounds its comment proves: register values (Montgomery form, as the step
reads them) drawn from the edges (0, 1, m - 1, m - 2, values whose products make
a0 b0 - a1 b1 zero or its most negative) and moduli up to 2^254 - 1, on every
implementation. The expected registers come from the definition, c1 = (a0 b1 + a1 b0) / R
and c0 = (a0 b0 - a1 b1) / R mod m with R = 2^256, not from the engines."""
from __future__ import annotations

from typing import List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import IMPLEMENTATIONS
from evm384_native.curves.bn254 import BN254
from evm384_native.evm.kernels import kernel, modx, modx_common

R = 2**256
A0, A1, B0, B1, T0, T1, T2, C1, C0 = range(9)
REGISTERS = 10   # one more than the group's: the EIP's bound leaves the last out of reach


def one(operation: str, out: int, x: int, y: int) -> tuple:
    return operation, (out, 1, x, 1, y, 1, 1)


# the six records of an Fp2 product, then t0, t1, t2 overwritten: the host flags the group
PRODUCT = [one("mul", T0, A0, B0), one("mul", T1, A1, B1), one("mul", T2, A0, B1),
           one("mul", C1, A1, B0), one("add", C1, C1, T2), one("sub", C0, T0, T1)]
KILL = [one("add", t, A0, A1) for t in (T0, T1, T2)]

odd_4_limb_moduli = st.one_of(
    st.sampled_from([BN254.p, 2**254 - 1, 2**192 + 1, 2**253 + 2**192 - 1]),
    st.integers(2**192, 2**254 - 1).map(lambda m: m | 1))


@st.composite
def edge_values(draw, m: int) -> int:
    return draw(st.one_of(st.sampled_from([0, 1, 2, m - 1, m - 2, m // 2, m // 2 + 1]),
                          st.integers(0, m - 1), st.integers(m - 2**64, m - 1)))


def _run(m: int, internal: List[int]) -> List[int]:
    """The native registers after the flagged product, the given values (Montgomery form)
    in a0, a1, b0, b1 and nine elsewhere."""
    context = modx.FieldContext(m)
    registers = modx.RegisterFile(context, REGISTERS)
    r_inverse = pow(R, -1, m)
    normal = [x * r_inverse % m for x in internal + [9] * (REGISTERS - 4)]
    registers.storex(0, b"".join(v.to_bytes(context.element_size, "big") for v in normal))
    program = modx_common.VectorProgram(PRODUCT + KILL)
    assert program.encoded[0] & modx_common.FP2_PRODUCT_FLAG   # the step runs, not the records
    registers.run(program)
    return [registers.internal(i) for i in range(REGISTERS)]


def _expect(m: int, a0: int, a1: int, b0: int, b1: int) -> tuple:
    r_inverse = pow(R, -1, m)
    return (a0 * b1 + a1 * b0) * r_inverse % m, (a0 * b0 - a1 * b1) * r_inverse % m


@pytest.mark.parametrize("implementation_name", IMPLEMENTATIONS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_step_equals_the_definition(implementation_name, data):
    m = data.draw(odd_4_limb_moduli)
    values = [data.draw(edge_values(m)) for _ in range(4)]
    kernel.use_implementation(implementation_name)
    try:
        got = _run(m, values)
    finally:
        kernel.use_implementation("auto")
    assert (got[C1], got[C0]) == _expect(m, *values)
    assert got[:4] == values


@pytest.mark.parametrize("implementation_name", IMPLEMENTATIONS)
@pytest.mark.parametrize("m", [BN254.p, 2**254 - 1, 2**192 + 1])
@pytest.mark.parametrize("case", [
    "largest", "cross largest", "real zero", "real most negative", "real largest", "zeros"])
def test_the_step_at_its_bounds(implementation_name, m, case):
    """The sums at 2m - 2 (their product's bound 4 m^2), a0 b0 - a1 b1 at 0, near -m^2
    (m R added) and near m^2 (not added)."""
    values = {"largest": [m - 1] * 4, "cross largest": [m - 1, m - 2, m - 2, m - 1],
              "real zero": [m - 1, 5, 5, m - 1],
              "real most negative": [0, m - 1, 0, m - 1],
              "real largest": [m - 1, 0, m - 1, 0], "zeros": [0, 0, 0, 0]}[case]
    kernel.use_implementation(implementation_name)
    try:
        got = _run(m, values)
    finally:
        kernel.use_implementation("auto")
    assert (got[C1], got[C0]) == _expect(m, *values)
