"""The Poseidon contracts' calldata: the t - 1 inputs as 32-byte big-endian words, each
below r."""
from typing import Sequence

from .contracts import CONTRACTS, WIDTH_OF, hash_words
from .params import R


def input_count(name: str) -> int:
    """t - 1, the inputs ``poseidon_t<t>`` hashes."""
    t = WIDTH_OF.get(name)
    if t is None:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    return t - 1


def encode_calldata(name: str, inputs: Sequence[int]) -> bytes:
    """Calldata for ``poseidon_t<t>(inputs)``: t - 1 field elements (ints below r)."""
    count = input_count(name)
    if len(inputs) != count or any(not 0 <= x < R for x in inputs):
        raise ValueError(f"{name} hashes {count} input{'s' if count > 1 else ''}, "
                         f"each an int in [0, r)")
    return hash_words(list(inputs))
