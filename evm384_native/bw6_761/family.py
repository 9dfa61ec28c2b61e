"""The BW6-761 contract family: what :mod:`evm384_native.contracts` lists of it."""
from ..curves.bw6_761 import BW6_761
from ..family import Family
from .calldata import encode_calldata
from .contracts import FAILURE_OF, TARGETS_OF, build
from .usage import USAGE

FAMILY = Family("bw6_761", BW6_761, TARGETS_OF, build, encode_calldata, USAGE,
                failures=FAILURE_OF)
