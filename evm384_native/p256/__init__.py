"""P-256 (secp256r1): the curve's numbers (:mod:`.params`), a pure-Python reference
(:mod:`.reference`) and EIP-7951's P256VERIFY as the EVMMAX contract ``p256verify``
(:mod:`.contract`)."""
from .contract import CONTRACTS, build_contract, build_program
from .reference import verify

__all__ = ["CONTRACTS", "build_contract", "build_program", "verify"]
