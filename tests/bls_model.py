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
