"""BLS12-377 (EIP-2539): its pairing check and hinted pairing check as contracts for EVMMAX
and EVM384 (:mod:`.contracts`), the hint's prover (:mod:`.hint`), its points and encodings
in Python (:mod:`.points`)."""
from .calldata import encode_calldata
from .contracts import CONTRACTS
from .family import FAMILY
from .hint import pairing_hint

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "build_contract", "build_program", "encode_calldata",
           "pairing_hint"]
