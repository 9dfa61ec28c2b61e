"""P-256 (secp256r1): a pure-Python reference (:mod:`.reference`) and EIP-7951's
P256VERIFY as the EVMMAX contract ``p256verify`` (:mod:`.contracts`); the curve's numbers
are :mod:`evm384_native.curves.p256`."""
from .contracts import CONTRACTS
from .family import FAMILY
from .reference import verify

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "build_contract", "build_program", "verify"]
