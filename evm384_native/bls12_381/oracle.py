"""Independent answers for the CLI, benchmarks and tests: random points made by blst
(pyblst scalar multiplication, read back into affine coordinates by :mod:`.points`), the
API's big-endian encodings, and blst's pairing results (pyblst; chia_rs for GT values).

Points are affine, as in :mod:`.points`: Fp coordinates as ints, Fp2 ones as (c0, c1).
The encoders also take py_ecc's affine points (FQ coordinates, FQ2 ones with ``coeffs``).
pyblst is a dependency of the package; :func:`blst_pairing` needs chia_rs (test extra).
"""
from __future__ import annotations

import random
from typing import List, Optional, Sequence, Tuple

from ..curves.bls12_381 import BLS12_381
from ..curves.fields import sqrt
from .points import (B_G1, P, G1Point, G2Point, compress_g1, compress_g2, decompress_g1,
                     decompress_g2)

# The standard generators, compressed (as blst's blst_p1_generator / blst_p2_generator).
G1_GENERATOR = bytes.fromhex(
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb")
G2_GENERATOR = bytes.fromhex(
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8")


def _generator(kind: int):
    """The generator of G1 (``kind`` 1) or G2 (2) as a pyblst point."""
    import pyblst
    if kind == 1:
        return pyblst.BlstP1Element.uncompress(G1_GENERATOR)
    return pyblst.BlstP2Element.uncompress(G2_GENERATOR)


def g1_point(scalar: int) -> G1Point:
    """Affine (x, y) of scalar * G1, computed by blst."""
    return decompress_g1(_generator(1).scalar_mul(scalar).compress())


def g2_point(scalar: int) -> G2Point:
    """Affine ((x0, x1), (y0, y1)) of scalar * G2, computed by blst."""
    return decompress_g2(_generator(2).scalar_mul(scalar).compress())


def fp2_ints(coordinate) -> Tuple[int, int]:
    """An Fp2 coordinate as (c0, c1) ints: from a pair, or from py_ecc's FQ2."""
    c0, c1 = getattr(coordinate, "coeffs", coordinate)
    return int(c0), int(c1)


def be_g1(point) -> bytes:
    """x‖y, 48-byte big-endian each (the API's input format)."""
    return b"".join(int(c).to_bytes(48, "big") for c in point)


def be_g2(point) -> bytes:
    """x.c0‖x.c1‖y.c0‖y.c1, 48-byte big-endian each."""
    return b"".join(c.to_bytes(48, "big") for coord in point for c in fp2_ints(coord))


def compressed_g1(point) -> bytes:
    return compress_g1((int(point[0]), int(point[1])))


def compressed_g2(point) -> bytes:
    return compress_g2((fp2_ints(point[0]), fp2_ints(point[1])))


def blst_pairing(g1_points, g2_points) -> bytes:
    """blst's product of pairings (chia_rs), 576 raw bytes."""
    try:
        import chia_rs
    except ImportError as exc:
        raise ImportError("blst_pairing needs chia_rs: pip install 'evm384_native[test]'") from exc
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
    if k < 1 or (true and k == 1):
        raise ValueError("a product of pairings of finite points can be one only for k >= 2"
                         if k == 1 else "k must be at least 1")
    scalars = [(rng.randrange(1, BLS12_381.r), rng.randrange(1, BLS12_381.r)) for _ in range(k)]
    if true:
        rest = sum(a * b for a, b in scalars[:-1])
        scalars[-1] = ((-rest) % BLS12_381.r, 1)
    return [(g1_point(a), g2_point(b)) for a, b in scalars]


def g1_off_subgroup(rng: random.Random):
    """A random point of y^2 = x^3 + 4 over Fp, projective (x, y, 1), not multiplied by the
    cofactor (so almost surely outside the r-order subgroup)."""
    from py_ecc.optimized_bls12_381 import FQ
    while True:
        x = rng.randrange(P)
        y = sqrt(x ** 3 + B_G1, P)
        if y is not None:
            return FQ(x), FQ(y), FQ.one()


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
        out += fields([] if q is None else [c for coord in q for c in fp2_ints(coord)], 4)
    return out
