"""The secp256k1 contract family (``ecrecover``): what :mod:`evm384_native.contracts` lists
of it."""
from typing import Optional

from ..family import Family
from .calldata import encode_calldata
from .contracts import CURVE, TARGETS_OF, build
from .reference import recover
from .usage import USAGE


def reference(name: str, data: bytes) -> Optional[bytes]:
    """ECRECOVER's output: the signer's address word, else empty."""
    return recover(data)


FAMILY = Family("secp256k1", CURVE, TARGETS_OF, build, encode_calldata, USAGE, reference)
