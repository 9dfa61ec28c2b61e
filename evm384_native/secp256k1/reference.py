"""ECRECOVER (precompile 0x01) in pure Python from go-ethereum's definition
(core/vm/contracts.go ``ecrecover.Run``: the input right-padded with zeros to 128 bytes
and cut there; v a full word 27 or 28; ``ValidateSignatureValues``: 1 <= r, s < n, high s
allowed; libsecp256k1's recovery with recovery id v - 27: R = (r, y), y's parity the
id's bit 0, r itself the x (bit 1, x = r + n, is never set); Q = r^-1 (s R - h G); the
address the last 20 bytes of keccak256(Q.x || Q.y), left-padded to a word). Every failure
is the empty output."""
from __future__ import annotations

from typing import Tuple

from ..curves import weierstrass
from ..curves.fields import sqrt
from ..curves.secp256k1 import SECP256K1
from ..evm.keccak import keccak256

P, N = SECP256K1.p, SECP256K1.r
CURVE = SECP256K1.affine
INPUT_BYTES = 128                       # h, v, r, s: 32-byte big-endian words
PRECOMPILE_PRICE = 3_000                # ECRECOVER's price since Frontier
WORD = 32


def words(data: bytes) -> Tuple[int, ...]:
    """(h, v, r, s) of an input as the precompile reads it: padded or cut to 128 bytes."""
    data = data[:INPUT_BYTES].ljust(INPUT_BYTES, b"\0")
    return tuple(int.from_bytes(data[i:i + WORD], "big") for i in range(0, INPUT_BYTES, WORD))


def address(x: int, y: int) -> bytes:
    """The 32-byte word of the address of the public key (x, y)."""
    digest = keccak256(x.to_bytes(WORD, "big") + y.to_bytes(WORD, "big"))
    return bytes(12) + digest[12:]


def recover(data: bytes) -> bytes:
    """ECRECOVER's output on ``data``: the address word, or b"" on any failure."""
    h, v, r, s = words(data)
    if v not in (27, 28) or not (0 < r < N and 0 < s < N):
        return b""
    y = sqrt(r * r * r + SECP256K1.b, P)
    if y is None:
        return b""                               # r is no point's x
    if y & 1 != v - 27:
        y = P - y
    w = pow(r, -1, N)
    q = weierstrass.add(CURVE, weierstrass.multiply(CURVE, CURVE.g, -h * w % N),
                        weierstrass.multiply(CURVE, (r, y), s * w % N))
    return b"" if q is None else address(*q)


def encode(h: int, v: int, r: int, s: int) -> bytes:
    """The 128-byte input: four 32-byte big-endian words."""
    return b"".join(value.to_bytes(WORD, "big") for value in (h, v, r, s))


def sign(d: int, h: int, k: int) -> bytes:
    """The input of a signature of ``h`` by the key ``d`` with the nonce ``k``."""
    r, s, parity = weierstrass.sign(CURVE, d, h, k)
    return encode(h, 27 + parity, r, s)
