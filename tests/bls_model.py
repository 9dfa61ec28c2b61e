"""Independent oracles for the BLS12-381 tests: py_ecc's FQ12 through the spec's mapping,
and encoders for EVM384 memory (48-byte LE Montgomery values). Test-only.

The field classes are py_ecc's ``optimized_bls12_381`` ones: the tests raise FQ12 values to
powers of thousands of bits (Frobenius maps, the final exponentiation), which the plain
``bls12_381`` classes compute with one recursive call per exponent bit, past Python's
recursion limit (a RecursionError on 3.12); the optimized ``__pow__`` is a loop.
"""
from __future__ import annotations

import random
from typing import List, Sequence

from py_ecc.optimized_bls12_381 import FQ, FQ2, FQ12, field_modulus as P

from evm384_native.bls12_381 import oracle

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


def g1_point(scalar: int):
    """scalar * G1 (made by blst) as a py_ecc affine point, for py_ecc arithmetic."""
    x, y = oracle.g1_point(scalar)
    return FQ(x), FQ(y)


def g2_point(scalar: int):
    x, y = oracle.g2_point(scalar)
    return FQ2(x), FQ2(y)


def random_fp(rng: random.Random, count: int) -> List[int]:
    return [rng.randrange(P) for _ in range(count)]


# --- blst's Miller loop, written with py_ecc field arithmetic ---------------------------------

X_ABS = 0xD201000000010000


def _line_fq12(l0, l1, l2) -> FQ12:
    """The sparse element (l0 + l1 v) + (l2 v) w."""
    c = [int(v) for v in (*l0.coeffs, *l1.coeffs, 0, 0, 0, 0, *l2.coeffs, 0, 0)]
    return tower_to_fq12(c)


def _dbl(t):
    """Jacobian doubling and tangent line (dbl-2009-alnr with blst's line)."""
    x, y, z = t
    a, b, zz = x * x, y * y, z * z
    c = b * b
    d = 2 * ((x + b) ** 2 - a - c)
    e = 3 * a
    f = e * e
    x3 = f - 2 * d
    z3 = (y + z) ** 2 - b - zz
    y3 = e * (d - x3) - 8 * c
    l0 = (e + x) ** 2 - a - f - 4 * b
    return (x3, y3, z3), (l0, e * zz, z3 * zz)


def _add(t, q):
    """Mixed addition and chord line (madd-2007-bl with blst's line)."""
    x, y, z = t
    qx, qy = q
    z1z1 = z * z
    u2, s2 = qx * z1z1, qy * z * z1z1
    h = u2 - x
    hh = h * h
    i = 4 * hh
    j = h * i
    r = 2 * (s2 - y)
    v = x * i
    x3 = r * r - j - 2 * v
    y3 = r * (v - x3) - 2 * y * j
    z3 = (z + h) ** 2 - z1z1 - hh
    return (x3, y3, z3), (2 * (r * qx - qy * z3), r, z3)


def blst_miller_loop(pairs) -> List[int]:
    """blst's Miller loop value of affine (P, Q) pairs (ints or py_ecc points), in tower order."""
    points = [(FQ2(oracle.fp2_ints(q[0])), FQ2(oracle.fp2_ints(q[1]))) for _, q in pairs]
    px2 = [(-2 * int(p[0]), 2 * int(p[1])) for p, _ in pairs]
    ts = [(qx, qy, FQ2.one()) for qx, qy in points]
    f = FQ12.one()

    def absorb(line, scale):
        l0, l1, l2 = line
        return _line_fq12(l0, l1 * scale[0], l2 * scale[1])
    for i, bit in enumerate(bin(X_ABS)[3:]):
        if i:
            f = f * f
        for k in range(len(pairs)):
            ts[k], line = _dbl(ts[k])
            f = f * absorb(line, px2[k])
        if bit == "1":
            for k in range(len(pairs)):
                ts[k], line = _add(ts[k], points[k])
                f = f * absorb(line, px2[k])
    tower = fq12_to_tower(f)
    return tower[:6] + [-v % P for v in tower[6:]]          # conjugate: x is negative
