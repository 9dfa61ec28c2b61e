"""The Poseidon contract family: what :mod:`evm384_native.contracts` lists of it."""
from typing import Optional

from ..family import Family
from .calldata import encode_calldata
from .contracts import TARGETS_OF, WIDTH_OF, build
from .params import FIELD, R
from .reference import poseidon
from .usage import USAGE

WORD = 32


def reference(name: str, data: bytes) -> Optional[bytes]:
    """The hash word of ``poseidon_t<t>``'s calldata; None where the contract reverts (not
    t - 1 words, or a word of r or more)."""
    count = WIDTH_OF[name] - 1
    if len(data) != WORD * count:
        return None
    inputs = [int.from_bytes(data[i:i + WORD], "big") for i in range(0, len(data), WORD)]
    if any(x >= R for x in inputs):
        return None
    return poseidon(inputs).to_bytes(WORD, "big")


FAMILY = Family("poseidon", FIELD, TARGETS_OF, build, encode_calldata, USAGE, reference)
