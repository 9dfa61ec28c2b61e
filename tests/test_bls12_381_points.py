"""Point generation without py_ecc or chia_rs (pyblst + evm384_native.bls12_381.points),
against py_ecc's curve arithmetic and point compression, and blst's decoder."""
import random

import pyblst
import pytest
from hypothesis import given, settings, strategies as st
from py_ecc.bls.point_compression import compress_G1, compress_G2
from py_ecc.optimized_bls12_381 import G1, G2, multiply, neg, normalize

from evm384_native.bls12_381 import oracle
from evm384_native.bls12_381.points import (compress_g1, compress_g2, decompress_g1,
                                            decompress_g2)
from evm384_native.curves import BLS12_381

P = BLS12_381.p

scalars = st.integers(1, BLS12_381.r - 1)


def ints_g1(point):
    return tuple(int(c) for c in normalize(point))


def ints_g2(point):
    return tuple(tuple(int(c) for c in coordinate.coeffs) for coordinate in normalize(point))


def test_generators_are_py_eccs():
    assert oracle.g1_point(1) == ints_g1(G1)
    assert oracle.g2_point(1) == ints_g2(G2)


def py_ecc_compress_g2(point):
    z1, z2 = compress_G2(point)
    return z1.to_bytes(48, "big") + z2.to_bytes(48, "big")


GROUPS = {  # generator, blst's multiple, to ints, compress, decompress, py_ecc's compress,
           # pyblst's point class
    "G1": (G1, oracle.g1_point, ints_g1, compress_g1, decompress_g1,
           lambda point: compress_G1(point).to_bytes(48, "big"), pyblst.BlstP1Element),
    "G2": (G2, oracle.g2_point, ints_g2, compress_g2, decompress_g2, py_ecc_compress_g2,
           pyblst.BlstP2Element),
}


@pytest.mark.parametrize("group", GROUPS)
@settings(max_examples=5)
@given(scalar=scalars)
def test_multiples_are_py_eccs_and_compress_alike(group, scalar):
    generator, blst_multiple, ints, compress, decompress, py_ecc_compress, blst_point = GROUPS[group]
    point = blst_multiple(scalar)
    expected = multiply(generator, scalar)
    assert point == ints(expected)
    compressed = compress(point)
    assert compressed == py_ecc_compress(expected)
    assert decompress(compressed) == point
    assert blst_point.uncompress(compressed).compress() == compressed


def test_both_roots_of_y():
    """The sign flag picks -y: both roots decode, to negated points."""
    for point, negated, compress, decompress in (
            (oracle.g1_point(5), ints_g1(neg(multiply(G1, 5))), compress_g1, decompress_g1),
            (oracle.g2_point(5), ints_g2(neg(multiply(G2, 5))), compress_g2, decompress_g2)):
        assert decompress(compress(negated)) == negated != point
        assert compress(negated)[0] ^ compress(point)[0] == 0x20


def g1_x_off_the_curve():
    """An x for which x^3 + 4 is not a square in Fp (Euler's criterion)."""
    x = 1
    while pow(x ** 3 + 4, (P - 1) // 2, P) != P - 1:
        x += 1
    return x


def test_g2_x_with_a_zero_imaginary_part_takes_the_sign_of_c0():
    """y with y.c1 = 0: the flag compares y.c0 (the case the c1-first rule leaves)."""
    rng = random.Random(3)
    while True:                          # x in Fp with x^3 + 4(1 + u) a square
        x = (rng.randrange(P), 0)
        try:
            point = decompress_g2(bytes([0x80]) + bytes(47) + x[0].to_bytes(48, "big"))
        except ValueError:
            continue
        break
    assert decompress_g2(compress_g2(point)) == point


@pytest.mark.parametrize("data, message", [
    (bytes(47), "48 bytes"),
    (bytes(48), "compression flag"),
    (bytes([0xC0]) + bytes(47), "infinity"),
    ((0x80 << 376 | g1_x_off_the_curve()).to_bytes(48, "big"), "not a point"),
    (bytes([0x9f]) + b"\xff" * 47, "not a point"),             # x >= p
])
def test_g1_decoding_errors(data, message):
    with pytest.raises(ValueError, match=message):
        decompress_g1(data)


@pytest.mark.parametrize("data, message", [
    (bytes(95), "96 bytes"),
    (bytes([0xC0]) + bytes(95), "infinity"),
    (bytes([0x9f]) + b"\xff" * 95, "not a point"),
])
def test_g2_decoding_errors(data, message):
    with pytest.raises(ValueError, match=message):
        decompress_g2(data)


def test_encoders_take_ints_and_py_ecc_points_alike():
    p, q = oracle.g1_point(7), oracle.g2_point(9)
    py_p, py_q = normalize(multiply(G1, 7)), normalize(multiply(G2, 9))
    assert oracle.be_g1(p) == oracle.be_g1(py_p)
    assert oracle.be_g2(q) == oracle.be_g2(py_q)
    assert oracle.compressed_g1(p) == oracle.compressed_g1(py_p)
    assert oracle.compressed_g2(q) == oracle.compressed_g2(py_q)
    assert oracle.eip2537_input([(p, q)]) == oracle.eip2537_input([(py_p, py_q)])
