"""What tools need to know about a contract beyond its code, whatever its curve: how to
make its calldata from points or from random inputs, and the price of the precompile doing
the same job. Each curve registers one :class:`Usage` per contract in its own ``USAGE``
(:mod:`.bls12_381.usage`, :mod:`.bn254.usage`); :mod:`.contracts` merges them for
``evm384 calldata`` and ``evm384 gas``."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple


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
