"""Independent answers for the CLI, benchmarks and tests: random points made by blst
(pyblst scalar multiplication, read back into affine coordinates by py_ecc), the API's
big-endian encodings, and blst's pairing results (chia_rs, pyblst).

Needs the test extras (``pip install -e '.[test]'``); the contracts themselves do not.
"""
from __future__ import annotations

import random
from typing import List, Optional, Sequence, Tuple


def _generator(kind):
    import chia_rs
    import pyblst
    if kind == 1:
        return pyblst.BlstP1Element.uncompress(bytes(chia_rs.G1Element.generator()))
    return pyblst.BlstP2Element.uncompress(bytes(chia_rs.G2Element.generator()))


def g1_point(scalar: int):
    """Affine (x, y) of scalar * G1 as py_ecc FQ values."""
    from py_ecc.bls.point_compression import decompress_G1
    from py_ecc.optimized_bls12_381 import normalize
    return normalize(decompress_G1(int.from_bytes(
        _generator(1).scalar_mul(scalar).compress(), "big")))


def g2_point(scalar: int):
    from py_ecc.bls.point_compression import decompress_G2
    from py_ecc.optimized_bls12_381 import normalize
    data = _generator(2).scalar_mul(scalar).compress()
    return normalize(decompress_G2((int.from_bytes(data[:48], "big"),
                                    int.from_bytes(data[48:], "big"))))


def be_g1(point) -> bytes:
    """x‖y, 48-byte big-endian each (the API's input format)."""
    return b"".join(int(c).to_bytes(48, "big") for c in point)


def be_g2(point) -> bytes:
    """x.c0‖x.c1‖y.c0‖y.c1, 48-byte big-endian each."""
    return b"".join(int(c).to_bytes(48, "big") for coord in point for c in coord.coeffs)


def compressed_g1(point) -> bytes:
    from py_ecc.bls.point_compression import compress_G1
    return compress_G1(_jacobian(point)).to_bytes(48, "big")


def compressed_g2(point) -> bytes:
    from py_ecc.bls.point_compression import compress_G2
    z1, z2 = compress_G2(_jacobian(point))
    return z1.to_bytes(48, "big") + z2.to_bytes(48, "big")


def _jacobian(point):
    return (point[0], point[1], type(point[0]).one())


def blst_pairing(g1_points, g2_points) -> bytes:
    """blst's product of pairings (chia_rs), 576 raw bytes."""
    import chia_rs
    product = None
    for p, q in zip(g1_points, g2_points):
        gt = chia_rs.G1Element.from_bytes(compressed_g1(p)).pair(
            chia_rs.G2Element.from_bytes(compressed_g2(q)))
        product = gt if product is None else product * gt
    return bytes(product)


def blst_points_of(pairs) -> list:
    """The pairs as pyblst points (decompressed and subgroup-checked by blst)."""
    import pyblst
    return [(pyblst.BlstP1Element.uncompress(compressed_g1(p)),
             pyblst.BlstP2Element.uncompress(compressed_g2(q))) for p, q in pairs]


def blst_check(blst_points) -> bool:
    """blst's pairing product check alone: Miller loops, their product, final_verify."""
    import pyblst
    acc = pyblst.BlstFP12Element()
    for p, q in blst_points:
        acc = acc * pyblst.miller_loop(p, q)
    return pyblst.final_verify(acc, pyblst.BlstFP12Element())


def blst_product_is_one(g1_points, g2_points) -> bool:
    """pyblst.final_verify of the product of Miller loops against one."""
    return blst_check(blst_points_of(zip(g1_points, g2_points)))


def random_product_case(rng: random.Random, k: int, true: bool) -> List[Tuple[tuple, tuple]]:
    """k random (G1, G2) affine pairs; when ``true`` the last pair cancels the others, so
    the product of the pairings is one."""
    from py_ecc.bls12_381 import curve_order
    if k < 1 or (true and k == 1):
        raise ValueError("a product of pairings of finite points can be one only for k >= 2"
                         if k == 1 else "k must be at least 1")
    scalars = [(rng.randrange(1, curve_order), rng.randrange(1, curve_order)) for _ in range(k)]
    if true:
        rest = sum(a * b for a, b in scalars[:-1])
        scalars[-1] = ((-rest) % curve_order, 1)
    return [(g1_point(a), g2_point(b)) for a, b in scalars]


def g1_off_subgroup(rng: random.Random):
    """A random point of y^2 = x^3 + 4 over Fp, projective (x, y, 1), not multiplied by the
    cofactor (so almost surely outside the r-order subgroup)."""
    from py_ecc.optimized_bls12_381 import FQ, b
    while True:
        x = FQ(rng.randrange(FQ.field_modulus))
        y = (x ** 3 + b) ** ((FQ.field_modulus + 1) // 4)
        if y * y == x ** 3 + b:
            return x, y, FQ.one()


def g2_off_subgroup(rng: random.Random):
    """The same on the twist y^2 = x^3 + 4(u + 1) over Fp2."""
    from py_ecc.bls.point_compression import modular_squareroot_in_FQ2
    from py_ecc.optimized_bls12_381 import FQ, FQ2, b2
    while True:
        x = FQ2([rng.randrange(FQ.field_modulus), rng.randrange(FQ.field_modulus)])
        y = modular_squareroot_in_FQ2(x ** 3 + b2)
        if y is not None:
            return x, y, FQ2.one()


def encode_pairs(pairs: Sequence[Tuple[tuple, tuple]]) -> List[Tuple[bytes, bytes]]:
    """Affine points -> the API's (g1 bytes, g2 bytes) tuples."""
    return [(be_g1(p), be_g2(q)) for p, q in pairs]


def eip2537_input(pairs: Sequence[Tuple[Optional[tuple], Optional[tuple]]]) -> bytes:
    """The EIP-2537 pairing-check input of affine (G1, G2) pairs, None for infinity:
    every Fp as 16 zero bytes then 48 bytes big-endian."""
    def fields(values: Sequence[int], count: int) -> bytes:
        return b"".join(int(v).to_bytes(64, "big") for v in values) if values else bytes(64 * count)
    out = b""
    for p, q in pairs:
        out += fields([] if p is None else list(p), 2)
        out += fields([] if q is None else [c for coord in q for c in coord.coeffs], 4)
    return out
