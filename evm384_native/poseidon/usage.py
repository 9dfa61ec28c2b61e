"""The Poseidon contracts' :class:`~evm384_native.usage.Usage` and calldata: the t - 1
inputs as 32-byte big-endian words, each below r. No precompile does the job (the
Usage's price is None: ``evm384 gas`` prints "-" for it)."""
from __future__ import annotations

from typing import Dict, List, Sequence

from ..usage import Usage
from .contract import CONTRACTS, WIDTH_OF, hash_words
from .params import R

WORD = 32


def _inputs(name: str) -> int:
    t = WIDTH_OF.get(name)
    if t is None:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    return t - 1


def encode_calldata(name: str, inputs: Sequence[int]) -> bytes:
    """Calldata for ``poseidon_t<t>(inputs)``: t - 1 field elements (ints below r)."""
    count = _inputs(name)
    if len(inputs) != count or any(not 0 <= x < R for x in inputs):
        raise ValueError(f"{name} hashes {count} input{'s' if count > 1 else ''}, "
                         f"each an int in [0, r)")
    return hash_words(list(inputs))


def _from_words(name: str):
    def from_points(words: List[bytes]) -> bytes:
        if len(words) != _inputs(name) or any(len(w) != WORD for w in words):
            raise ValueError(f"{_inputs(name)} words of {WORD} bytes; got "
                             f"{', '.join(str(len(w)) for w in words) or 'none'}")
        return encode_calldata(name, [int.from_bytes(w, "big") for w in words])
    return from_points


def _random(name: str):
    """One input, the contract's t - 1 values, whatever ``k`` (the Usage's ``one_input``)."""
    return lambda rng, k, true: encode_calldata(
        name, [rng.randrange(R) for _ in range(_inputs(name))])


USAGE: Dict[str, Usage] = {
    name: Usage(f"{WIDTH_OF[name] - 1} x INPUT (32-byte big-endian, each < r)",
                _from_words(name), _random(name), example_k=1, one_input=True,
                relation=False)
    for name in CONTRACTS
}
