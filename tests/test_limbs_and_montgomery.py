"""Encodings and Montgomery helpers against the BLS12-381 constants of the spec."""
import pytest
from hypothesis import given, strategies as st

from evm384_native.evm.kernels.limbs import (array_to_ints, bytes48_to_int, int_to_bytes48,
                                             int_to_limbs, ints_to_array, limbs_to_int)
from evm384_native.evm.kernels.montgomery import from_montgomery, montgomery_inv, to_montgomery

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab


def test_bls12_381_constants_from_the_spec():
    assert montgomery_inv(P) == 0x89f3fffcfffcfffd
    assert int_to_bytes48(P).hex() == ("abaafffffffffeb9ffff53b1feffab1e24f6b0f6a0d23067"
                                       "bf1285f3844b7764d7ac4b43b6a71b4b9ae67f39ea11011a")
    assert int_to_bytes48(to_montgomery(1, P)).hex() == (
        "fdff02000000097602000cc40b00f4ebba58c7535798485f455752705358ce776dec56a2971a075c93e480fac35ef615")
    assert int_to_bytes48(to_montgomery(to_montgomery(1, P), P)).hex() == (
        "4617341c341fdff4f104d109a6e6760ad5b6954c6c47e58dc0839d93a988eb672d9519b5853e799aaae3ca92e58f9811")


@given(st.integers(0, (1 << 384) - 1))
def test_encodings_round_trip(value):
    assert bytes48_to_int(int_to_bytes48(value)) == value
    assert limbs_to_int(int_to_limbs(value)) == value
    assert array_to_ints(ints_to_array([value, value ^ 1])) == [value, value ^ 1]


@given(st.integers(0, P - 1))
def test_montgomery_round_trip(value):
    assert from_montgomery(to_montgomery(value, P), P) == value


@pytest.mark.parametrize("call, message", [
    (lambda: int_to_bytes48(-1), r"\[0, 2\*\*384\)"),
    (lambda: int_to_bytes48(1 << 384), r"\[0, 2\*\*384\)"),
    (lambda: bytes48_to_int(b"\0" * 47), "expected 48 bytes"),
    (lambda: limbs_to_int([0] * 5), "expected 6 limbs"),
    (lambda: montgomery_inv(P + 1), "odd"),
    (lambda: to_montgomery(1, 1), "odd"),
])
def test_helpers_reject_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_helpers_reject_non_ints():
    with pytest.raises(TypeError):
        int_to_bytes48(1.5)
    with pytest.raises(TypeError):
        montgomery_inv("7")
