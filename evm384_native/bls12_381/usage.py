"""What tools need to know about each contract beyond its code: how to make its calldata
from points or from random inputs, and the price of the EIP-2537 precompile doing the same
job. ``evm384 calldata`` and ``evm384 gas`` read only this registry, so a contract added to
:mod:`.contracts` appears there once it registers a :class:`Usage` in ``USAGE``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional

from .contracts import (EIP2537_FP_BYTES, EIP2537_PAIR_BYTES, Pair, encode_calldata,
                        miller_loop)


@dataclass(frozen=True)
class Usage:
    """How tools (``evm384 calldata``, ``evm384 gas``) make a contract's input and price it.

    ``from_points`` makes calldata from the points a user gives, in the contract's order
    (for the pairing contracts: G1 x‖y (96 bytes), G2 x.c0‖x.c1‖y.c0‖y.c1 (192 bytes),
    ...; big-endian); ``example`` makes calldata from ``k`` random inputs, a true relation
    (a pairing product that is one) or a false one, with ``rng`` (needs the test extras);
    ``example_k`` is the size ``evm384 gas`` uses. ``precompile`` names the EIP-2537
    precompile doing the same job, and ``precompile_gas`` gives its price for a calldata."""
    points: str                                      # what from_points takes, for messages
    from_points: Callable[[List[bytes]], bytes]
    example: Callable[[random.Random, int, bool], bytes]
    example_k: int = 2
    relation: bool = True                            # does the true/false choice matter
    precompile: Optional[str] = None
    precompile_gas: Optional[Callable[[bytes], int]] = None


USAGE: Dict[str, Usage] = {}


def _point_pairs(points: List[bytes]) -> List[Pair]:
    if not points or len(points) % 2:
        raise ValueError(f"points come in (G1, G2) pairs; got {len(points)} point(s)")
    return [(points[i], points[i + 1]) for i in range(0, len(points), 2)]


def _random_pairs(rng: random.Random, k: int, true: bool) -> List[Pair]:
    from .oracle import encode_pairs, random_product_case
    return encode_pairs(random_product_case(rng, k, true))


def _pairing_check_gas(pair_bytes: int) -> Callable[[bytes], int]:
    """EIP-2537's PAIRING_CHECK price, 32600 k + 37700, for k pairs of ``pair_bytes``."""
    return lambda calldata: 32_600 * (len(calldata) // pair_bytes) + 37_700


def _eip2537_input(pairs: List[Pair]) -> bytes:
    return b"".join(value.rjust(EIP2537_FP_BYTES, b"\0") for g1, g2 in pairs
                    for point in (g1, g2) for value in _be_chunks(point))


def _be_chunks(point: bytes) -> List[bytes]:
    return [point[i:i + 48] for i in range(0, len(point), 48)]


def _fe_input(pairs: List[Pair]) -> bytes:
    """The Miller loop of the pairs, as this package's own miller_loop contract makes it."""
    return encode_calldata("final_exponentiation", miller_loop(pairs))


_PAIRS = "G1 G2 [G1 G2 ...] (96-byte G1 x||y, 192-byte G2 x.c0||x.c1||y.c0||y.c1, big-endian)"
_PRODUCT_CHECK = "BLS12_PAIRING_CHECK (0x0f)"
USAGE.update({
    "miller_loop": Usage(
        _PAIRS, lambda points: encode_calldata("miller_loop", _point_pairs(points)),
        lambda rng, k, true: encode_calldata("miller_loop", _random_pairs(rng, k, true)),
        relation=False),
    "final_exponentiation": Usage(
        _PAIRS + "; the calldata is their Miller loop",
        lambda points: _fe_input(_point_pairs(points)),
        lambda rng, k, true: _fe_input(_random_pairs(rng, k, true))),
    "pairing": Usage(
        "G1 G2 (one pair; 96-byte G1 x||y, 192-byte G2 x.c0||x.c1||y.c0||y.c1, big-endian)",
        lambda points: encode_calldata("pairing", *_one_pair(_point_pairs(points))),
        lambda rng, k, true: encode_calldata("pairing", *_one_pair(_random_pairs(rng, k, False))),
        example_k=1, relation=False),
    "pairing_product_is_one": Usage(
        _PAIRS, lambda points: encode_calldata("pairing_product_is_one", _point_pairs(points)),
        lambda rng, k, true: encode_calldata("pairing_product_is_one",
                                             _random_pairs(rng, k, true)),
        precompile=_PRODUCT_CHECK, precompile_gas=_pairing_check_gas(288)),
    "eip2537_pairing_check": Usage(
        _PAIRS + "; encoded as EIP-2537 input",
        lambda points: _eip2537_input(_point_pairs(points)),
        lambda rng, k, true: _eip2537_input(_random_pairs(rng, k, true)),
        precompile=_PRODUCT_CHECK, precompile_gas=_pairing_check_gas(EIP2537_PAIR_BYTES)),
})


def _one_pair(pairs: List[Pair]) -> Pair:
    if len(pairs) != 1:
        raise ValueError(f"pairing takes one pair (G1 G2), got {len(pairs)}")
    return pairs[0]
