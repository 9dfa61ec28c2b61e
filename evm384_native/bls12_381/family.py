"""The BLS12-381 contract family: what :mod:`evm384_native.contracts` lists of it."""
from ..curves.bls12_381 import BLS12_381
from ..family import Family
from .calldata import encode_calldata
from .contracts import FAILURE_OF, TARGETS_OF, build
from .usage import USAGE

FAMILY = Family("bls12_381", BLS12_381, TARGETS_OF, build, encode_calldata, USAGE,
                failures=FAILURE_OF)
