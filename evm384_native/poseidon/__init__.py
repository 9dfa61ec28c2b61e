"""Poseidon over BN254's scalar field as circomlib defines it: the parameters and
constants (:mod:`.params`), a reference written from the definition (:mod:`.reference`)
and the EVMMAX contracts ``poseidon_t2`` .. ``poseidon_t6`` (:mod:`.contracts`)."""
from .contracts import CONTRACTS
from .family import FAMILY
from .reference import poseidon

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "build_contract", "build_program", "poseidon"]
