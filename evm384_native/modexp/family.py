"""The MODEXP contract family (``modexp``): what :mod:`evm384_native.contracts` lists of
it. Its field is the modulus of each call, so it has none of its own."""
from typing import Optional

from ..family import Family
from .calldata import encode_calldata
from ..asm.failure import HALT
from .contracts import NAME, TARGETS_OF, build
from .reference import modexp
from .usage import USAGE


def reference(name: str, data: bytes) -> Optional[bytes]:
    """MODEXP's output; None where it fails (a length above 1,024 bytes)."""
    return modexp(data)


FAMILY = Family("modexp", None, TARGETS_OF, build, encode_calldata, USAGE, reference,
                failures={NAME: HALT})
