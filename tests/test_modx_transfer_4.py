"""STOREX and LOADX on 4-limb moduli (csrc/evmmax.c runs their element loops inlined with 4
limbs): secp256k1's p (registers in plain form: copies), P-256 and another odd modulus
(Montgomery form: products by R^2 and by 1), a power of two (copies). Against Python
integers and the reference backend: values round-trip at several register offsets and
counts, the registers' internal form matches the reference's, and a value at or above the
modulus, in any element and differing from it in any limb, is refused with its index and
nothing written."""
import pytest
from hypothesis import given, settings, strategies as st

from evm384_native.errors import UnreducedValueError
from evm384_native.evm.kernels import kernel, modx, modx_reference

from test_modx import IMPLEMENTATIONS

SECP256K1 = 2**256 - 2**32 - 977
P256 = 2**256 - 2**224 + 2**192 + 2**96 - 1
MODULI = [SECP256K1, P256, 2**256 - 189, 2**192 + 2**64 + 1, 2**255, 2**193]
SIZE = 32
REGISTERS = 8


@pytest.fixture(params=IMPLEMENTATIONS)
def implementation(request):
    kernel.use_implementation(request.param)
    yield request.param
    kernel.use_implementation("auto")


def _bytes(values):
    return b"".join(v.to_bytes(SIZE, "big") for v in values)


def _ints(data):
    return [int.from_bytes(data[i:i + SIZE], "big") for i in range(0, len(data), SIZE)]


def _files(m):
    return [backend.RegisterFile(backend.FieldContext(m), REGISTERS)
            for backend in (modx, modx_reference)]


def _edges(m):
    """Values below m that differ from m - 1 in each limb, and small ones."""
    return sorted({0, 1, 2, m - 1, m - 2, m // 2, 2**64 - 1, m - 2**64, m - 2**128,
                   m - 2**192})


@pytest.mark.parametrize("m", MODULI, ids=hex)
def test_values_round_trip_in_every_form(implementation, m):
    native, reference = _files(m)
    assert native.context.limbs == 4
    edges = _edges(m)
    for first in range(REGISTERS):
        for count in range(0, REGISTERS - first + 1):
            values = [edges[(first + i * 3) % len(edges)] for i in range(count)]
            native.storex(first, _bytes(values))
            reference.storex(first, _bytes(values))
            assert _ints(native.loadx(first, count)) == values
            assert [native.internal(first + i) for i in range(count)] == \
                [reference.internal(first + i) for i in range(count)]


def _unreduced(m):
    """Values at or above m: m itself, m + 1, and m with one limb raised (each limb)."""
    above = [m, m + 1] + [m + (1 << (64 * i)) for i in range(4)]
    return [v for v in above if v < 2**256]


@pytest.mark.parametrize("m", MODULI, ids=hex)
def test_storex_refuses_a_value_not_below_the_modulus(implementation, m):
    native, _ = _files(m)
    kept = [5, 6, 7, 8]
    native.storex(0, _bytes(kept))
    for bad in _unreduced(m):
        for index in range(4):
            values = [1, 2, 3, 4]
            values[index] = bad
            with pytest.raises(UnreducedValueError) as caught:
                native.storex(0, _bytes(values))
            assert caught.value.index == index
            assert _ints(native.loadx(0, 4)) == kept


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MODULI), st.integers(0, REGISTERS - 1), st.data())
def test_any_values(m, first, data):
    count = data.draw(st.integers(0, REGISTERS - first))
    values = data.draw(st.lists(st.integers(0, 2**256 - 1), min_size=count, max_size=count))
    native, reference = _files(m)
    if all(v < m for v in values):
        native.storex(first, _bytes(values))
        reference.storex(first, _bytes(values))
        assert _ints(native.loadx(first, count)) == values
        assert _ints(reference.loadx(first, count)) == values
        return
    index = next(i for i, v in enumerate(values) if v >= m)
    for file in (native, reference):
        with pytest.raises(UnreducedValueError) as caught:
            file.storex(first, _bytes(values))
        assert caught.value.index == index
        assert _ints(file.loadx(first, count)) == [0] * count
