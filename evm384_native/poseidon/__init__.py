"""Poseidon over BN254's scalar field as circomlib defines it: the parameters and
constants (:mod:`.params`), a reference written from the definition (:mod:`.reference`)
and the EVMMAX contracts ``poseidon_t2`` .. ``poseidon_t6`` (:mod:`.contract`)."""
from .contract import CONTRACTS, build_contract, build_program
from .reference import poseidon

__all__ = ["CONTRACTS", "build_contract", "build_program", "poseidon"]
