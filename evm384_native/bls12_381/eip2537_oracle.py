"""Independent answers for EIP-2537's point operations (tests and benchmarks): inputs in
the precompiles' encoding made from py_ecc affine points, and results computed by blst
(pyblst scalar multiplication, chia_rs addition) or py_ecc.

Needs the test extras (``pip install -e '.[test]'``); the contracts themselves do not.
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

from .oracle import _generator, compressed_g1, compressed_g2

FIELD_BYTES = 64
SCALAR_BYTES = 32


def _fields(values: Sequence[int]) -> bytes:
    return b"".join(int(v).to_bytes(FIELD_BYTES, "big") for v in values)


def encode_point(kind: int, point: Optional[tuple]) -> bytes:
    """A py_ecc affine point (or None for infinity) of G1 (``kind`` 1) or G2 (2) in the
    precompiles' encoding."""
    if point is None:
        return bytes(FIELD_BYTES * 2 * kind)
    if kind == 1:
        return _fields(point)
    return _fields([c for coordinate in point for c in coordinate.coeffs])


def msm_input(kind: int, pairs: Sequence[Tuple[Optional[tuple], int]]) -> bytes:
    """The MSM precompile's input for (point, scalar) pairs."""
    return b"".join(encode_point(kind, p) + s.to_bytes(SCALAR_BYTES, "big") for p, s in pairs)


def _decompress(kind: int, data: bytes) -> Optional[tuple]:
    from py_ecc.bls.point_compression import decompress_G1, decompress_G2
    from py_ecc.optimized_bls12_381 import is_inf, normalize
    point = (decompress_G1(int.from_bytes(data, "big")) if kind == 1 else
             decompress_G2((int.from_bytes(data[:48], "big"), int.from_bytes(data[48:], "big"))))
    return None if is_inf(point) else normalize(point)


def blst_msm(kind: int, pairs: Sequence[Tuple[Optional[tuple], int]]) -> bytes:
    """The MSM precompile's output, computed by blst: each [s] P by pyblst, summed by
    chia_rs (both blst). Points must be in the subgroup (blst checks on decompression)."""
    import chia_rs
    import pyblst
    element, compressed, total = (
        (pyblst.BlstP1Element, compressed_g1, chia_rs.G1Element()) if kind == 1 else
        (pyblst.BlstP2Element, compressed_g2, chia_rs.G2Element()))
    chia = chia_rs.G1Element if kind == 1 else chia_rs.G2Element
    for point, scalar in pairs:
        if point is not None:
            term = element.uncompress(compressed(point)).scalar_mul(scalar).compress()
            total = total + chia.from_bytes(term)
    return encode_point(kind, _decompress(kind, bytes(total)))


def blst_point(kind: int, scalar: int) -> Optional[tuple]:
    """[scalar] G (blst), as a py_ecc affine point, None for infinity."""
    return _decompress(kind, _generator(kind).scalar_mul(scalar).compress())


def py_ecc_sum(kind: int, terms: Sequence[Tuple[Optional[tuple], int]]) -> bytes:
    """sum [s] P by py_ecc's own arithmetic (any points on the curve, in the subgroup or
    not), in the precompiles' encoding."""
    from py_ecc.optimized_bls12_381 import FQ, FQ2, Z1, Z2, add, is_inf, multiply, normalize
    one, total = (FQ.one(), Z1) if kind == 1 else (FQ2.one(), Z2)
    for point, scalar in terms:
        if point is not None:
            total = add(total, multiply((point[0], point[1], one), scalar))
    return encode_point(kind, None if is_inf(total) else normalize(total))


def py_ecc_map(kind: int, u) -> bytes:
    """The map precompile's output by py_ecc for u (an int for G1, a pair for G2): RFC
    9380's map_to_curve, then cofactor clearing by multiplication with h_eff."""
    from py_ecc.bls import hash_to_curve as h2c
    from py_ecc.optimized_bls12_381 import FQ, FQ2, is_inf, normalize
    point = (h2c.clear_cofactor_G1(h2c.map_to_curve_G1(FQ(u))) if kind == 1 else
             h2c.clear_cofactor_G2(h2c.map_to_curve_G2(FQ2(list(u)))))
    return encode_point(kind, None if is_inf(point) else normalize(point))


def arkworks_encode(point) -> bytes:
    """A py_arkworks_bls12381 point in the precompiles' encoding (arkworks writes infinity
    as zeros, coordinates as 48 bytes big-endian, c0 before c1)."""
    raw = point.to_xy_bytes_be()
    return b"".join(bytes(FIELD_BYTES - 48) + raw[i:i + 48] for i in range(0, len(raw), 48))


def arkworks_map(kind: int, u) -> bytes:
    """The map precompile's output by arkworks (u: an int for G1, a pair for G2)."""
    import py_arkworks_bls12381 as ark
    if kind == 1:
        return arkworks_encode(ark.G1Point.map_from_fp_be(u.to_bytes(48, "big")))
    return arkworks_encode(ark.G2Point.map_from_fp2_be(b"".join(c.to_bytes(48, "big") for c in u)))
