"""The P-256 contract family (``p256verify``): what :mod:`evm384_native.contracts` lists of
it."""
from typing import Optional

from ..curves.p256 import P256
from ..family import Family
from .calldata import encode_calldata
from .contracts import TARGETS_OF, build
from .reference import verify
from .usage import USAGE

VALID = (1).to_bytes(32, "big")


def reference(name: str, data: bytes) -> Optional[bytes]:
    """P256VERIFY's output (EIP-7951): the word 1 for a valid signature, else empty."""
    return VALID if verify(data) else b""


FAMILY = Family("p256", P256, TARGETS_OF, build, encode_calldata, USAGE, reference)
