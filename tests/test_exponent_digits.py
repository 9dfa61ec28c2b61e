"""Signed digit forms for square-and-multiply (tower/families.py's width-w NAF,
tower/pairing.py's choice of digits for the powers by x), against their definitions."""
from __future__ import annotations

from hypothesis import given, strategies as st

from evm384_native.curves import BN254, BLS12_381
from evm384_native.tower.families import non_adjacent_form
from evm384_native.tower.pairing import chain_cost, exponent_digits


def value(digits):
    total = 0
    for digit in digits:
        total = 2 * total + digit
    return total


@given(st.integers(1, 2**300), st.integers(2, 6))
def test_the_width_w_naf(n, width):
    """The value, odd digits below 2^(w - 1) in magnitude, at most one non-zero digit in
    any w consecutive ones, a positive leading digit."""
    digits = non_adjacent_form(n, width)
    assert value(digits) == n
    assert digits[0] > 0
    assert all(d == 0 or (d % 2 == 1 and abs(d) < 2 ** (width - 1)) for d in digits)
    for i in range(len(digits)):
        assert sum(1 for d in digits[i:i + width] if d) <= 1


def test_the_naf_is_width_two():
    assert non_adjacent_form(7) == [1, 0, 0, -1]
    assert non_adjacent_form(7, 3) == [1, 0, 0, -1]
    assert non_adjacent_form(11, 3) == [1, 0, 0, 3]


@given(st.integers(1, 2**200), st.sampled_from([1, 3, 5, 7, 15]))
def test_exponent_digits_are_the_cheapest_allowed_form(n, largest):
    digits = exponent_digits(n, largest)
    assert value(digits) == n
    assert max(map(abs, digits)) <= largest
    allowed = [[int(b) for b in bin(n)[2:]]] + [
        non_adjacent_form(n, w) for w in range(2, 6)
        if max(map(abs, non_adjacent_form(n, w))) <= largest]
    assert chain_cost(digits) == min(map(chain_cost, allowed))


def test_the_curves_powers():
    """BN254's x: 23 products by its NAF, 17 + 1 by its width-3 NAF with a^3 made first
    (and one squaring); BLS12-381's |x| / 2 keeps its bits or NAF, wider digits allowed."""
    x = BN254.x
    assert sum(1 for d in exponent_digits(x)[1:] if d) == 23
    wide = exponent_digits(x, 3)
    assert max(map(abs, wide)) == 3 and sum(1 for d in wide[1:] if d) == 17
    half = abs(BLS12_381.x) >> 1
    assert max(map(abs, exponent_digits(half, 7))) == 1
