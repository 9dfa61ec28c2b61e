"""The BLS12-381 contracts' :class:`~evm384_native.usage.Usage`: their calldata from points
or from random inputs (pyblst makes the points), and the price of the EIP-2537 precompile
doing the same job. ``evm384 calldata`` and ``evm384 gas`` read these through
:mod:`evm384_native.contracts`, so a contract added to :mod:`.contracts` appears there once
it registers a Usage in ``USAGE``.
"""
from __future__ import annotations

import random
from typing import Callable, Dict, List

from ..curves.bls12_381 import BLS12_381
from ..tower.targets import TARGETS
from ..usage import Usage
from .calldata import EIP2537_FP_BYTES, EIP2537_PAIR_BYTES, Pair, encode_calldata
from .contracts import build
from ..ec.bls12_hinted import HINT_BYTES

USAGE: Dict[str, Usage] = {}


def _point_pairs(points: List[bytes]) -> List[Pair]:
    if not points or len(points) % 2:
        raise ValueError(f"points come in (G1, G2) pairs; got {len(points)} point(s)")
    return [(points[i], points[i + 1]) for i in range(0, len(points), 2)]


def _random_pairs(rng: random.Random, k: int, true: bool) -> List[Pair]:
    from .oracle import encode_pairs, random_product_case
    return encode_pairs(random_product_case(rng, k, true))


def _pairing_check_gas(data: bytes) -> int:
    """EIP-2537's PAIRING_CHECK price, 32600 k + 37700, for k pairs of its input."""
    return 32_600 * (len(data) // EIP2537_PAIR_BYTES) + 37_700


def _raw_pairs_as_eip2537(calldata: bytes) -> bytes:
    """Pairs as ``pairing_product_is_one`` takes them (48-byte LE values) as EIP-2537's
    input (each value 64 bytes big-endian)."""
    return b"".join(calldata[i:i + 48][::-1].rjust(EIP2537_FP_BYTES, b"\0")
                    for i in range(0, len(calldata), 48))


def _eip2537_input(pairs: List[Pair]) -> bytes:
    return b"".join(value.rjust(EIP2537_FP_BYTES, b"\0") for g1, g2 in pairs
                    for point in (g1, g2) for value in _be_chunks(point))


def _be_chunks(point: bytes) -> List[bytes]:
    return [point[i:i + 48] for i in range(0, len(point), 48)]


def _fe_input(pairs: List[Pair]) -> bytes:
    """The Miller loop of the pairs, as this package's own miller_loop contract makes it."""
    from ..evm import execute
    loop = execute(build("miller_loop", None, TARGETS["evm384"]).code,
                   encode_calldata("miller_loop", pairs))
    return encode_calldata("final_exponentiation", loop.output)


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
        example_k=1, one_input=True, relation=False),
    "pairing_product_is_one": Usage(
        _PAIRS, lambda points: encode_calldata("pairing_product_is_one", _point_pairs(points)),
        lambda rng, k, true: encode_calldata("pairing_product_is_one",
                                             _random_pairs(rng, k, true)),
        precompile=_PRODUCT_CHECK, precompile_input=_raw_pairs_as_eip2537,
        precompile_price=_pairing_check_gas),
    "eip2537_pairing_check": Usage(
        _PAIRS + "; encoded as EIP-2537 input",
        lambda points: _eip2537_input(_point_pairs(points)),
        lambda rng, k, true: _eip2537_input(_random_pairs(rng, k, true)),
        precompile=_PRODUCT_CHECK, precompile_price=_pairing_check_gas),
})


def _one_pair(pairs: List[Pair]) -> Pair:
    if len(pairs) != 1:
        raise ValueError(f"pairing takes one pair (G1 G2), got {len(pairs)}")
    return pairs[0]



# --- the hinted checks and EIP-2537's other precompiles -----------------------------------

def _hinted(encode: Callable[[List[Pair]], bytes]) -> Callable[[List[Pair]], bytes]:
    """Calldata of a hinted check: the unhinted input, then the hint the caller computes."""
    from .hint import pairing_hint
    return lambda pairs: encode(pairs) + pairing_hint(pairs)


def _without_hint(calldata: bytes) -> bytes:
    return calldata[:len(calldata) - HINT_BYTES]


# EIP-2537's MSM discounts (per mille) for k = 1..128; larger k take the last one.
_G1_MSM_DISCOUNT = (1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677,
                    673, 669, 665, 661, 658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627,
                    625, 623, 621, 619, 617, 615, 613, 611, 609, 608, 606, 604, 603, 601, 599, 598,
                    596, 595, 593, 592, 591, 589, 588, 586, 585, 584, 582, 581, 580, 579, 577, 576,
                    575, 574, 573, 572, 570, 569, 568, 567, 566, 565, 564, 563, 562, 561, 560, 559,
                    558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545, 544,
                    543, 542, 541, 540, 540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531,
                    530, 529, 528, 528, 527, 526, 525, 525, 524, 523, 522, 522, 521, 520, 520, 519)
_G2_MSM_DISCOUNT = (1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717,
                    711, 704, 699, 693, 688, 683, 679, 674, 670, 666, 663, 659, 655, 652, 649, 646,
                    643, 640, 637, 634, 632, 629, 627, 624, 622, 620, 618, 615, 613, 611, 609, 607,
                    606, 604, 602, 600, 598, 597, 595, 593, 592, 590, 589, 587, 586, 584, 583, 582,
                    580, 579, 578, 576, 575, 574, 573, 571, 570, 569, 568, 567, 566, 565, 563, 562,
                    561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548, 547,
                    546, 545, 545, 544, 543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535,
                    534, 533, 532, 532, 531, 530, 530, 529, 528, 528, 527, 526, 526, 525, 524, 524)
_MSM = {1: (12_000, _G1_MSM_DISCOUNT, 160), 2: (22_500, _G2_MSM_DISCOUNT, 288)}


def _msm_gas(kind: int) -> Callable[[bytes], int]:
    """EIP-2537's MSM price: k * multiplication cost * discount(k) // 1000."""
    cost, discount, pair_bytes = _MSM[kind]
    def price(calldata: bytes) -> int:
        k = len(calldata) // pair_bytes
        return k * cost * discount[min(k, len(discount)) - 1] // 1000 if k else 0
    return price


def _eip2537_points(kind: int, count: int) -> Callable[[List[bytes]], bytes]:
    """Points (G1: 96 bytes x||y, G2: 192 bytes, big-endian) in the precompiles' encoding."""
    size = 96 * kind
    def encode(points: List[bytes]) -> bytes:
        if len(points) != count or any(len(point) != size for point in points):
            raise ValueError(f"{count} point(s) of {size} bytes")
        return b"".join(value.rjust(EIP2537_FP_BYTES, b"\0") for point in points
                        for value in _be_chunks(point))
    return encode


def _msm_points(kind: int) -> Callable[[List[bytes]], bytes]:
    """(point, 32-byte scalar) pairs in the MSM precompile's encoding."""
    point = _eip2537_points(kind, 1)
    def encode(points: List[bytes]) -> bytes:
        if not points or len(points) % 2 or any(len(s) != 32 for s in points[1::2]):
            raise ValueError("(point, 32-byte scalar) pairs")
        return b"".join(point([p]) + s for p, s in zip(points[::2], points[1::2]))
    return encode


def _random_point(kind: int, rng: random.Random) -> bytes:
    """[s] G for a random s in [1, r), made by blst (pyblst, a dependency), in the
    precompiles' encoding."""
    from .oracle import be_g1, be_g2, g1_point, g2_point
    scalar = rng.randrange(1, BLS12_381.r)
    point = be_g1(g1_point(scalar)) if kind == 1 else be_g2(g2_point(scalar))
    return _eip2537_points(kind, 1)([point])


def _random_points(kind: int, count: int) -> Callable[[random.Random, int, bool], bytes]:
    return lambda rng, k, true: b"".join(_random_point(kind, rng) for _ in range(count))


def _random_msm(kind: int) -> Callable[[random.Random, int, bool], bytes]:
    def make(rng: random.Random, k: int, true: bool) -> bytes:
        return b"".join(_random_point(kind, rng)
                        + rng.randrange(BLS12_381.r).to_bytes(32, "big") for _ in range(k))
    return make


def _random_field(kind: int) -> Callable[[random.Random, int, bool], bytes]:
    P = BLS12_381.p
    return lambda rng, k, true: b"".join(rng.randrange(P).to_bytes(EIP2537_FP_BYTES, "big")
                                         for _ in range(kind))


def _fields(kind: int) -> Callable[[List[bytes]], bytes]:
    def encode(points: List[bytes]) -> bytes:
        if len(points) != kind or any(len(value) != 48 for value in points):
            raise ValueError(f"{kind} field value(s) of 48 bytes")
        return b"".join(value.rjust(EIP2537_FP_BYTES, b"\0") for value in points)
    return encode


def _with_add_hint(kind: int, encode: Callable[..., bytes]) -> Callable[..., bytes]:
    """An addition's calldata maker, then the slope the caller computes appended."""
    from .add_hint import add_hint
    def make(*args: object) -> bytes:
        data = encode(*args)
        return data + add_hint(kind, data)
    return make


def _without_add_hint(name: str, calldata: bytes) -> bytes:
    from .hinted_add import split_calldata
    return split_calldata(name, calldata)[0]


# EIP-2537's additions: the precompile, its price and EIP-7904's measured gas per group
_ADDITION_PRECOMPILES = {1: ("BLS12_G1ADD (0x0b)", 375, 236), 2: ("BLS12_G2ADD (0x0d)", 600, 277)}


def _addition(kind: int) -> Usage:
    """eip2537_g1add / eip2537_g2add: two points of G1 (kind 1) or G2 (kind 2)."""
    precompile, price, measured = _ADDITION_PRECOMPILES[kind]
    return Usage(f"{_G[kind - 1]} {_G[kind - 1]}", _eip2537_points(kind, 2),
                 _random_points(kind, 2), example_k=1, one_input=True, relation=False,
                 precompile=precompile,
                 precompile_price=lambda calldata: price,
                 measured_price=lambda calldata: measured)


def _hinted_addition(kind: int) -> Usage:
    """The hinted addition of G1 or G2: the unhinted input, then the slope."""
    name = f"eip2537_g{kind}add_hinted"
    precompile, price, measured = _ADDITION_PRECOMPILES[kind]
    return Usage(f"{_G[kind - 1]} {_G[kind - 1]}; the slope hint is computed and appended",
                 _with_add_hint(kind, _eip2537_points(kind, 2)),
                 _with_add_hint(kind, _random_points(kind, 2)), example_k=1,
                 one_input=True, relation=False, precompile=precompile,
                 precompile_input=lambda calldata: _without_add_hint(name, calldata),
                 precompile_price=lambda calldata: price,
                 measured_price=lambda calldata: measured)


def _raw_pairs(pairs: List[Pair]) -> bytes:
    return encode_calldata("pairing_product_is_one", pairs)


_G = ("G1 (96-byte x||y)", "G2 (192-byte x.c0||x.c1||y.c0||y.c1)")
USAGE.update({
    "pairing_check_hinted": Usage(
        _PAIRS + "; the hint is computed and appended",
        lambda points: _hinted(_raw_pairs)(_point_pairs(points)),
        lambda rng, k, true: _hinted(_raw_pairs)(_random_pairs(rng, k, true)),
        precompile=_PRODUCT_CHECK,
        precompile_input=lambda calldata: _raw_pairs_as_eip2537(_without_hint(calldata)),
        precompile_price=_pairing_check_gas),
    "eip2537_pairing_check_hinted": Usage(
        _PAIRS + "; encoded as EIP-2537 input, the hint computed and appended",
        lambda points: _hinted(_eip2537_input)(_point_pairs(points)),
        lambda rng, k, true: _hinted(_eip2537_input)(_random_pairs(rng, k, true)),
        precompile=_PRODUCT_CHECK, precompile_input=_without_hint,
        precompile_price=_pairing_check_gas),
    "eip2537_g1add": _addition(1),
    "eip2537_g2add": _addition(2),
    "eip2537_g1add_hinted": _hinted_addition(1),
    "eip2537_g2add_hinted": _hinted_addition(2),
    "eip2537_g1msm": Usage(f"{_G[0]} SCALAR [...] (32-byte big-endian scalars)",
                           _msm_points(1), _random_msm(1), relation=False,
                           precompile="BLS12_G1MSM (0x0c)", precompile_price=_msm_gas(1)),
    "eip2537_g2msm": Usage(f"{_G[1]} SCALAR [...] (32-byte big-endian scalars)",
                           _msm_points(2), _random_msm(2), relation=False,
                           precompile="BLS12_G2MSM (0x0e)", precompile_price=_msm_gas(2)),
    "eip2537_map_fp_to_g1": Usage("U (48-byte big-endian Fp value)", _fields(1),
                                  _random_field(1), example_k=1, one_input=True,
                                  relation=False,
                                  precompile="BLS12_MAP_FP_TO_G1 (0x10)",
                                  precompile_price=lambda calldata: 5_500),
    "eip2537_map_fp2_to_g2": Usage("U.c0 U.c1 (48-byte big-endian Fp values)", _fields(2),
                                   _random_field(2), example_k=1, one_input=True,
                                   relation=False,
                                   precompile="BLS12_MAP_FP2_TO_G2 (0x11)",
                                   precompile_price=lambda calldata: 23_800),
})
