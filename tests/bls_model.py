"""Independent oracles for the BLS12-381 tests: py_ecc's FQ12 through the spec's mapping,
and encoders for EVM384 memory (48-byte LE Montgomery values). Test-only."""
from __future__ import annotations

import random
from typing import List, Sequence

from py_ecc.bls12_381 import FQ12, field_modulus as P

R = (1 << 384) % P


def mont_bytes(values: Sequence[int]) -> bytes:
    return b"".join((v * R % P).to_bytes(48, "little") for v in values)


def from_mont_bytes(data: bytes) -> List[int]:
    r_inv = pow(R, -1, P)
    return [int.from_bytes(data[i:i + 48], "little") * r_inv % P for i in range(0, len(data), 48)]


def tower_to_fq12(c: Sequence[int]) -> FQ12:
    """12 Fp values in blst tower order (c0.c0.c0, c0.c0.c1, ..., c1.c2.c1) -> py_ecc.

    Tower coefficient c_j.c_i = a + b u multiplies w^(2i+j); u = w^6 - 1 in py_ecc's basis.
    Fewer than 12 values embed a subfield element (Fp2: 2 values, Fp6: 6 values).
    """
    flat = [0] * 12
    for index in range(0, len(c), 2):
        j, i = divmod(index // 2, 3)
        a, b = c[index], c[index + 1]
        e = 2 * i + j
        flat[e] += a - b
        flat[e + 6] += b
    return FQ12(flat)


def fq12_to_tower(x: FQ12, size: int = 12) -> List[int]:
    flat = [int(v) for v in x.coeffs]
    out = []
    for index in range(0, 12, 2):
        j, i = divmod(index // 2, 3)
        e = 2 * i + j
        out += [(flat[e] + flat[e + 6]) % P, flat[e + 6] % P]
    assert all(v == 0 for v in out[size:]), "value is not in the expected subfield"
    return out[:size]


def random_fp(rng: random.Random, count: int) -> List[int]:
    return [rng.randrange(P) for _ in range(count)]


# --- points: scalar multiples made by blst (pyblst), read back into affine coordinates by py_ecc --

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


def blst_product_is_one(g1_points, g2_points) -> bool:
    """pyblst.final_verify of the product of Miller loops against one."""
    import pyblst
    acc = pyblst.BlstFP12Element()
    for p, q in zip(g1_points, g2_points):
        acc = acc * pyblst.miller_loop(pyblst.BlstP1Element.uncompress(compressed_g1(p)),
                                       pyblst.BlstP2Element.uncompress(compressed_g2(q)))
    return pyblst.final_verify(acc, pyblst.BlstFP12Element())
