"""What tools need to know about a contract beyond its code, whatever its curve: how to
make its calldata from points or from random inputs, and the price of the precompile doing
the same job. Each curve registers one :class:`Usage` per contract in its own ``USAGE``
(:mod:`.bls12_381.usage`, :mod:`.bn254.usage`); :mod:`.contracts` merges them for
``evm384 calldata`` and ``evm384 gas``."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple


@dataclass(frozen=True)
class Usage:
    """How tools (``evm384 calldata``, ``evm384 gas``) make a contract's input and price it.

    ``from_points`` makes calldata from the points a user gives, in the contract's order
    (``points`` says what they are, for messages); ``example`` makes calldata from ``k``
    random inputs, a true relation (a pairing product that is one) or a false one, with
    ``rng``; ``example_k`` is the size ``evm384 gas`` uses. ``one_input``: the contract
    takes one input whatever ``k`` (a signature, two points to add), so ``example`` makes
    one and ``evm384 calldata`` refuses ``--random K`` above 1. ``precompile`` names the
    precompile doing the same job, ``precompile_input`` turns the contract's calldata into
    that precompile's input for the same job (a hint dropped, values re-encoded),
    ``precompile_price`` prices such an input, and ``measured_price`` gives EIP-7904's
    measured gas for it (the slowest client's time at 100 Mgas/s), where EIP-7904 has it."""
    points: str                                      # what from_points takes, for messages
    from_points: Callable[[List[bytes]], bytes]
    example: Callable[[random.Random, int, bool], bytes]
    example_k: int = 2
    one_input: bool = False
    relation: bool = True                            # does the true/false choice matter
    precompile: Optional[str] = None
    precompile_input: Callable[[bytes], bytes] = bytes
    precompile_price: Optional[Callable[[bytes], int]] = None
    measured_price: Optional[Callable[[bytes], int]] = None

    def __post_init__(self) -> None:
        if self.one_input and self.example_k != 1:
            raise ValueError(f"a contract of one input has an example of k = 1, not "
                             f"{self.example_k}")

    def precompile_gas(self, calldata: bytes) -> Optional[int]:
        """The precompile's price for the job of the contract's ``calldata`` (None
        without a precompile)."""
        if self.precompile_price is None:
            return None
        return self.precompile_price(self.precompile_input(calldata))

    def measured_gas(self, calldata: bytes) -> Optional[int]:
        """EIP-7904's measured gas for the precompile's job of ``calldata`` (None where it
        has no figure)."""
        if self.measured_price is None:
            return None
        return self.measured_price(self.precompile_input(calldata))


def words_input(names: Sequence[str], word: int = 32) -> Callable[[List[bytes]], bytes]:
    """A ``from_points`` for a contract whose input is one ``word``-byte value per name
    (P256VERIFY's h, r, s, qx, qy; ECRECOVER's h, v, r, s): their concatenation, checked."""
    def join(words: List[bytes]) -> bytes:
        if len(words) != len(names) or any(len(w) != word for w in words):
            raise ValueError(f"{len(names)} words of {word} bytes ({', '.join(names)}); got "
                             f"{', '.join(str(len(w)) for w in words) or 'none'}")
        return b"".join(words)
    return join


def concatenated_pairs(points: List[bytes], g1_bytes: int, g2_bytes: int) -> bytes:
    """A pairing check's input from its points (G1, G2, G1, G2, ...), each checked for its
    encoding's size."""
    if not points or len(points) % 2:
        raise ValueError(f"points come in (G1, G2) pairs; got {len(points)} point(s)")
    sizes = [g1_bytes, g2_bytes] * (len(points) // 2)
    if [len(point) for point in points] != sizes:
        raise ValueError(f"points of {', '.join(map(str, sizes))} bytes; got "
                         f"{', '.join(str(len(point)) for point in points)}")
    return b"".join(points)


def pairing_scalars(rng: random.Random, k: int, true: bool, r: int
                    ) -> List[Tuple[int, int]]:
    """k scalar pairs (a, b) for pairs ([a] G1, [b] G2) of a random pairing check: the last
    is (-(sum of the others' a b), 1) when ``true``, so that the product of the pairings is
    one, else that scalar off by one."""
    if k < 1 or (true and k == 1):
        raise ValueError("a product of pairings of finite points can be one only for k >= 2"
                         if k >= 1 else f"k must be at least 1, got {k}")
    scalars = [(rng.randrange(1, r), rng.randrange(1, r)) for _ in range(k - 1)]
    last = -sum(a * b for a, b in scalars) % r
    if not true:
        last = (last + 1) % r or 1
    return scalars + [(last, 1)]


def pairing_calldata(name: str, args: Sequence[Any], arguments: Mapping[str, Tuple[str, ...]],
                     contracts: Sequence[str], hint_bytes: int) -> bytes:
    """A pairing family's ``encode_calldata(name, *args)``: ``arguments`` names each
    contract's arguments (the precompile's input ``data``, then a ``hint`` of
    ``hint_bytes`` for a hinted check), concatenated after checking their count and the
    hint's size."""
    expected = arguments.get(name)
    if expected is None:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(contracts)}")
    if len(args) != len(expected):
        raise ValueError(f"encode_calldata({name!r}, ...) takes {len(expected)} argument"
                         f"{'s' if len(expected) > 1 else ''} after the name "
                         f"({', '.join(expected)}), got {len(args)}")
    if "hint" in expected and len(args[-1]) != hint_bytes:
        raise ValueError(f"a hint is {hint_bytes} bytes (pairing_hint computes it)")
    return b"".join(bytes(arg) for arg in args)


def pairing_check_usages(name: str, points: str, from_points: Callable[[List[bytes]], bytes],
                         example: Callable[[random.Random, int, bool], bytes], *,
                         encode_calldata: Callable[..., bytes],
                         pairing_hint: Callable[[bytes], bytes], hint_bytes: int,
                         precompile: str, precompile_price: Callable[[bytes], int],
                         measured_price: Optional[Callable[[bytes], int]] = None
                         ) -> Dict[str, Usage]:
    """A pairing family's two entries: the check ``name`` (its input the precompile's) and
    ``name_hinted`` (the same input, then the hint ``pairing_hint`` computes, which the
    precompile's job drops)."""
    hinted = f"{name}_hinted"

    def with_hint(data: bytes) -> bytes:
        return encode_calldata(hinted, data, pairing_hint(data))

    def without_hint(calldata: bytes) -> bytes:
        return calldata[:len(calldata) - hint_bytes]

    return {
        name: Usage(points, from_points, example, precompile=precompile,
                    precompile_price=precompile_price, measured_price=measured_price),
        hinted: Usage(points + "; the hint is computed and appended",
                      lambda pairs: with_hint(from_points(pairs)),
                      lambda rng, k, true: with_hint(example(rng, k, true)),
                      precompile=precompile, precompile_input=without_hint,
                      precompile_price=precompile_price, measured_price=measured_price),
    }
