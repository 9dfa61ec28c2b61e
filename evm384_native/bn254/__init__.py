"""BN254 (alt_bn128): the precompiles 0x06-0x08 of EIP-196/197 as contracts for EVM384 and
EVMMAX (:mod:`.contracts`), their hint prover (:mod:`.hint`) and a Python API (:mod:`.api`)."""
from .api import (bn254_add, bn254_mul, bn254_pairing_check, bn254_pairing_check_hinted,
                  run_contract)
from .contracts import CONTRACTS
from .family import FAMILY
from .hint import pairing_hint
from .hinted import HINT_BYTES

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "HINT_BYTES", "bn254_add", "bn254_mul", "bn254_pairing_check",
           "bn254_pairing_check_hinted", "build_contract", "build_program", "pairing_hint",
           "run_contract"]
