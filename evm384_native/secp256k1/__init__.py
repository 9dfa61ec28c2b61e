"""secp256k1's ECRECOVER (precompile 0x01): a pure-Python reference
(:mod:`.reference`) and the EVMMAX contract ``ecrecover`` (:mod:`.contracts`); the curve's
numbers are :mod:`evm384_native.curves.secp256k1`."""
from .contracts import CONTRACTS
from .family import FAMILY
from .reference import recover

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "build_contract", "build_program", "recover"]
