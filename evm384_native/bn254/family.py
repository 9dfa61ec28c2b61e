"""The BN254 contract family: what :mod:`evm384_native.contracts` lists of it."""
from ..curves.bn254 import BN254
from ..family import Family
from .calldata import encode_calldata
from .contracts import FAILURE_OF, TARGETS_OF, build
from .usage import USAGE

FAMILY = Family("bn254", BN254, TARGETS_OF, build, encode_calldata, USAGE,
                failures=FAILURE_OF)
