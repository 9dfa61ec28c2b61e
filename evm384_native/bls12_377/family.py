"""The BLS12-377 contract family: what :mod:`evm384_native.contracts` lists of it."""
from ..curves.bls12_377 import BLS12_377
from ..family import Family
from .calldata import encode_calldata
from .contracts import FAILURE_OF, TARGETS_OF, build
from .usage import USAGE

FAMILY = Family("bls12_377", BLS12_377, TARGETS_OF, build, encode_calldata, USAGE,
                failures=FAILURE_OF)
