"""secp256k1's ECRECOVER (precompile 0x01): a pure-Python reference
(:mod:`.reference`) and the EVMMAX contract ``ecrecover`` (:mod:`.contract`); the curve's
numbers are :mod:`evm384_native.curves.secp256k1`."""
from .contract import CONTRACTS, build_contract, build_program
from .reference import recover

__all__ = ["CONTRACTS", "build_contract", "build_program", "recover"]
