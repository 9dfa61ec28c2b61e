"""Groth16 verifiers: a contract per verifying key from the hinted pairing check, below
the precompile-based verifier's gas (:mod:`.verifier`), with its calldata and hint
(:mod:`.calldata`)."""
from .calldata import encode_calldata, hint
from .keys import Proof, VerifyingKey, public_inputs_from_snarkjs
from .verifier import MAX_INPUTS, ContractTooLarge, build_program, build_verifier

__all__ = ["ContractTooLarge", "MAX_INPUTS", "Proof", "VerifyingKey", "build_program",
           "build_verifier", "encode_calldata", "hint", "public_inputs_from_snarkjs"]
