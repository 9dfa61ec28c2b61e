"""P-256 (secp256r1): a pure-Python reference (:mod:`.reference`) and EIP-7951's
P256VERIFY as the EVMMAX contract ``p256verify`` (:mod:`.contract`); the curve's numbers
are :mod:`evm384_native.curves.p256`."""
from .contract import CONTRACTS, build_contract, build_program
from .reference import verify

__all__ = ["CONTRACTS", "build_contract", "build_program", "verify"]
