"""The Poseidon contracts' :class:`~evm384_native.usage.Usage` (their calldata is
:mod:`.calldata`'s). No precompile does the job (the Usage's price is None: ``evm384 gas``
prints "-" for it)."""
from __future__ import annotations

from typing import Dict, List

from ..usage import Usage
from .calldata import encode_calldata, input_count
from .contracts import CONTRACTS, WIDTH_OF
from .params import R

WORD = 32


def _from_words(name: str):
    def from_points(words: List[bytes]) -> bytes:
        if len(words) != input_count(name) or any(len(w) != WORD for w in words):
            raise ValueError(f"{input_count(name)} words of {WORD} bytes; got "
                             f"{', '.join(str(len(w)) for w in words) or 'none'}")
        return encode_calldata(name, [int.from_bytes(w, "big") for w in words])
    return from_points


def _random(name: str):
    """One input, the contract's t - 1 values, whatever ``k`` (the Usage's ``one_input``)."""
    return lambda rng, k, true: encode_calldata(
        name, [rng.randrange(R) for _ in range(input_count(name))])


USAGE: Dict[str, Usage] = {
    name: Usage(f"{WIDTH_OF[name] - 1} x INPUT (32-byte big-endian, each < r)",
                _from_words(name), _random(name), example_k=1, one_input=True,
                relation=False)
    for name in CONTRACTS
}
