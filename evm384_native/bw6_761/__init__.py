"""BW6-761 (EIP-3026): its pairing check as a contract for EVMMAX (:mod:`.contracts`), its
points and encodings in Python (:mod:`.points`)."""
from .calldata import encode_calldata
from .contracts import CONTRACTS
from .family import FAMILY

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "build_contract", "build_program", "encode_calldata"]
