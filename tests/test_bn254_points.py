"""The pure-Python BN254 points (evm384_native.bn254.points, what makes random inputs on the
plain wheel) against py_ecc's optimized_bn128 through tests/bn254_cases.py."""
import random

import pytest

import bn254_cases as cases
from evm384_native.bn254.points import G1, G2, R, encode_g1, encode_g2

SCALARS = [0, 1, 2, 3, R - 1, R, R + 5] + [random.Random(7).randrange(1 << 256) for _ in range(4)]


def test_the_generators_are_the_eips_and_on_their_curves():
    assert G1.generator == cases.G1_GENERATOR and G2.generator == cases.G2_GENERATOR
    assert G1.is_on_curve(G1.generator) and G2.is_on_curve(G2.generator)
    assert not G1.is_on_curve((1, 3))


@pytest.mark.parametrize("scalar", SCALARS)
def test_generator_multiples_match_py_ecc(scalar):
    assert encode_g1(G1.generator_multiple(scalar)) == cases.encode_g1(cases.g1_multiple(scalar))
    assert encode_g2(G2.generator_multiple(scalar)) == cases.encode_g2(cases.g2_multiple(scalar))


@pytest.mark.parametrize("group, multiple, encode, reference_encode",
                         [(G1, cases.g1_multiple, encode_g1, cases.encode_g1),
                          (G2, cases.g2_multiple, encode_g2, cases.encode_g2)])
def test_sums_doubles_and_opposites_match_py_ecc(group, multiple, encode, reference_encode):
    rng = random.Random(3)
    for _ in range(4):
        a, b = rng.randrange(1, R), rng.randrange(1, R)
        pa, pb = group.generator_multiple(a), group.generator_multiple(b)
        assert encode(group.add(pa, pb)) == reference_encode(multiple(a + b))
        assert encode(group.add(pa, pa)) == reference_encode(multiple(2 * a))
        assert group.add(pa, group.negate(pa)) is None
        assert group.add(pa, None) == pa == group.add(None, pa)
        assert encode(group.multiply(pa, b)) == reference_encode(multiple(a * b))
        assert group.is_on_curve(group.add(pa, pb))


def test_infinity_encodes_as_zeros_and_negative_scalars_are_refused():
    assert encode_g1(None) == bytes(64) and encode_g2(None) == bytes(128)
    assert G1.multiply(None, 5) is None and G2.generator_multiple(R) is None
    with pytest.raises(ValueError, match="negative"):
        G1.multiply(G1.generator, -1)
