"""The BN254 contracts' :class:`~evm384_native.usage.Usage`: their calldata from points or
from random inputs (made by :mod:`.points`, pure Python: the plain wheel has no py_ecc),
and the price of the precompile doing the same job (EIP-1108: ECADD 150, ECMUL 6,000,
ECPAIRING 34,000 k + 45,000)."""
from __future__ import annotations

import random
from typing import Callable, Dict, List

from ..usage import Usage, concatenated_pairs, pairing_check_usages
from .calldata import encode_calldata
from .hint import pairing_hint
from .hinted import HINT_BYTES
from .io import G1_BYTES, G2_BYTES, PAIR_BYTES, WORD
from .points import G1, G2, R, encode_g1, encode_g2

_G1 = f"G1 ({G1_BYTES}-byte x||y)"
_G2 = f"G2 ({G2_BYTES}-byte x.im||x.re||y.im||y.re)"
_PAIRS = f"{_G1} {_G2} [G1 G2 ...] (big-endian, as EIP-197)"


def _sized(points: List[bytes], sizes: List[int]) -> bytes:
    """The points one after the other, each checked to be of its size."""
    if [len(point) for point in points] != sizes:
        raise ValueError(f"points of {', '.join(map(str, sizes))} bytes; got "
                         f"{', '.join(str(len(point)) for point in points) or 'none'}")
    return b"".join(points)


def _pairs(points: List[bytes]) -> bytes:
    return concatenated_pairs(points, G1_BYTES, G2_BYTES)


def _random_g1(rng: random.Random) -> bytes:
    return encode_g1(G1.generator_multiple(rng.randrange(1, R)))


def _random_add(rng: random.Random, k: int, true: bool) -> bytes:
    return _random_g1(rng) + _random_g1(rng)


def _random_mul(rng: random.Random, k: int, true: bool) -> bytes:
    return _random_g1(rng) + rng.randrange(R).to_bytes(WORD, "big")


def _random_pairs(rng: random.Random, k: int, true: bool) -> bytes:
    """k pairs ([a] P1, [b] P2); when ``true`` the last is ([-(sum of the others' a b)] P1,
    P2), so that the product of the pairings is one."""
    if k < 1 or (true and k == 1):
        raise ValueError("a product of pairings of finite points can be one only for k >= 2"
                         if k == 1 else "k must be at least 1")
    scalars = [(rng.randrange(1, R), rng.randrange(1, R)) for _ in range(k)]
    if true:
        scalars[-1] = (-sum(a * b for a, b in scalars[:-1]) % R, 1)
    return b"".join(encode_g1(G1.generator_multiple(a)) + encode_g2(G2.generator_multiple(b))
                    for a, b in scalars)


def _pairing_gas(data: bytes) -> int:
    """EIP-1108's ECPAIRING price, 34,000 k + 45,000, for k pairs of its input."""
    return 34_000 * (len(data) // PAIR_BYTES) + 45_000


def _measured_pairing_gas(data: bytes) -> int:
    """EIP-7904's measured ECPAIRING gas at 100 Mgas/s, 11,712 k + 8,247."""
    return 11_712 * (len(data) // PAIR_BYTES) + 8_247


def _flat(price: int) -> Callable[[bytes], int]:
    return lambda data: price


USAGE: Dict[str, Usage] = {
    "bn254_add": Usage(f"{_G1} {_G1}", lambda points: _sized(points, [G1_BYTES, G1_BYTES]),
                       _random_add, example_k=1, one_input=True, relation=False,
                       precompile="ECADD (0x06)", precompile_price=_flat(150),
                       measured_price=_flat(108)),       # EIP-7904; ECMUL: not measured
    "bn254_mul": Usage(f"{_G1} SCALAR (32-byte big-endian)",
                       lambda points: _sized(points, [G1_BYTES, WORD]),
                       _random_mul, example_k=1, one_input=True, relation=False,
                       precompile="ECMUL (0x07)", precompile_price=_flat(6_000)),
    **pairing_check_usages(
        "bn254_pairing_check", _PAIRS, _pairs, _random_pairs, encode_calldata=encode_calldata,
        pairing_hint=pairing_hint, hint_bytes=HINT_BYTES, precompile="ECPAIRING (0x08)",
        precompile_price=_pairing_gas, measured_price=_measured_pairing_gas),
}
