"""The run loop's 4-limb additions and subtractions (one element: addmod_n / submod_n; a
vector record: csrc/evmmax.c's add_sub_vector_4 over csrc/evmmax_kernels.h's asm addmod_4 and
submod_4) against
Python integers on the register values (Montgomery form, or secp256k1's plain form), at
the edges: sums just below, at and above m, a carry out of 2^256 for moduli near 2^256,
differences zero and wrapping; vectors of one to four elements with strides, in place or
not, through the bounded run the fast engine takes, on every implementation."""
from __future__ import annotations

from typing import List

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import IMPLEMENTATIONS
from evm384_native.curves.bn254 import BN254
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.evm.kernels import kernel, modx, modx_common

P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
MODULI = [BN254.p, SECP256K1.p, P256, 2**256 - 1, 2**256 - 2**192 + 1, 2**192 + 1]
REGISTERS = 16
OPERATIONS = {"add": lambda x, y, m: (x + y) % m, "sub": lambda x, y, m: (x - y) % m}


@st.composite
def edge_values(draw, m: int) -> int:
    return draw(st.one_of(st.sampled_from([0, 1, 2, m - 1, m - 2, m // 2, m // 2 + 1,
                                           m - 2**64, 2**64 - 1]),
                          st.integers(0, m - 1), st.integers(m - 2**128, m - 1)))


@st.composite
def records(draw):
    """One ADDMODX/SUBMODX record whose elements read nothing an earlier one wrote (in
    place, or out apart from both inputs), all below REGISTERS - 1."""
    operation = draw(st.sampled_from(sorted(OPERATIONS)))
    count = draw(st.integers(1, 4))
    stride = draw(st.integers(1, 2)) if count > 1 else 1
    span = stride * (count - 1) + 1
    x, y = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    x_stride = draw(st.sampled_from([0, stride]))   # 0: one register for every element
    if draw(st.booleans()):
        out = x                                      # in place
        x_stride = stride
    else:
        out = 5 + draw(st.integers(0, REGISTERS - 2 - 5 - span))
    return operation, (out, stride, x, x_stride, y, stride, count)


def _run(implementation: str, m: int, values: List[int], operation: str,
         immediates: tuple) -> List[int]:
    context = modx.FieldContext(m)
    registers = modx.RegisterFile(context, REGISTERS)
    registers.storex(0, b"".join(context.from_internal(v).to_bytes(context.element_size, "big")
                                 for v in values))
    kernel.use_implementation(implementation)
    try:
        registers.run(modx_common.VectorProgram([(operation, immediates)]))
    finally:
        kernel.use_implementation("auto")
    return [registers.internal(i) for i in range(REGISTERS)]


def _expected(m: int, values: List[int], operation: str, immediates: tuple) -> List[int]:
    out, out_stride, x, x_stride, y, y_stride, count = immediates
    results = [OPERATIONS[operation](values[x + k * x_stride], values[y + k * y_stride], m)
               for k in range(count)]
    expected = list(values)
    for k, result in enumerate(results):
        expected[out + k * out_stride] = result
    return expected


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_records_equal_the_definition(implementation, data):
    m = data.draw(st.sampled_from(MODULI))
    values = [data.draw(edge_values(m)) for _ in range(REGISTERS)]
    operation, immediates = data.draw(records())
    assert (_run(implementation, m, values, operation, immediates)
            == _expected(m, values, operation, immediates))


EDGES = {   # (x, y) as functions of m
    "sum m - 1": lambda m: (m - 2, 1),
    "sum m": lambda m: (m - 1, 1),
    "sum 2m - 2": lambda m: (m - 1, m - 1),
    "zeros": lambda m: (0, 0),
    "difference 0": lambda m: (m - 1, m - 1),
    "difference -1": lambda m: (0, 1),
    "difference -(m - 1)": lambda m: (0, m - 1),
    "difference m - 1": lambda m: (m - 1, 0),
}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("m", MODULI)
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@pytest.mark.parametrize("count", [1, 3])
@pytest.mark.parametrize("edge", sorted(EDGES))
def test_records_at_the_edges(implementation, m, operation, count, edge):
    x, y = EDGES[edge](m)
    values = [x] * 4 + [y] * 4 + [7] * (REGISTERS - 8)
    immediates = (8, 1, 0, 1, 4, 1, count)
    assert (_run(implementation, m, values, operation, immediates)
            == _expected(m, values, operation, immediates))
