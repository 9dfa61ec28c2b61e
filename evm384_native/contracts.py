"""Every built-in contract by name, whatever its curve: BLS12-381's
(:mod:`.bls12_381.contracts`), BN254's (:mod:`.bn254.contracts`), then the Poseidon hashes
over BN254's scalar field (:mod:`.poseidon.contract`, EVMMAX only), P-256's
P256VERIFY (:mod:`.p256.contract`, EVMMAX only) and secp256k1's ECRECOVER
(:mod:`.secp256k1.contract`, EVMMAX only), with what the tools
need to use each (:data:`USAGE`). The command line looks contracts up here only, so a
contract a curve adds appears in every ``evm384`` subcommand."""
from __future__ import annotations

from collections import ChainMap
from types import ModuleType
from typing import Any, Mapping, Optional, Tuple

from .asm import Program
from .bls12_381 import contracts as bls12_381_contracts
from .bls12_381.usage import USAGE as BLS12_381_USAGE
from .bn254 import calldata as bn254_calldata
from .bn254 import contracts as bn254_contracts
from .bn254.usage import USAGE as BN254_USAGE
from .curves.bls12_381 import BLS12_381
from .curves.bn254 import BN254
from .curves.model import Field
from .curves.p256 import P256 as P256_FIELD
from .p256 import contract as p256_contracts
from .p256.usage import USAGE as P256_USAGE
from .p256.usage import encode_calldata as p256_calldata
from .poseidon import contract as poseidon_contracts
from .poseidon.params import FIELD as POSEIDON_FIELD
from .poseidon.usage import USAGE as POSEIDON_USAGE
from .poseidon.usage import encode_calldata as poseidon_calldata
from .secp256k1 import contract as secp256k1_contracts
from .secp256k1.contract import CURVE as SECP256K1
from .secp256k1.usage import USAGE as SECP256K1_USAGE
from .secp256k1.usage import encode_calldata as secp256k1_calldata
from .tower.target import resolve_target
from .usage import Usage

CONTRACTS = (bls12_381_contracts.CONTRACTS + bn254_contracts.CONTRACTS
             + poseidon_contracts.CONTRACTS + p256_contracts.CONTRACTS
             + secp256k1_contracts.CONTRACTS)
# The contracts built for EVMMAX (EIP-6690) as well as EVM384: every BN254 one.
EVMMAX_CONTRACTS = (bls12_381_contracts.EVMMAX_CONTRACTS + bn254_contracts.CONTRACTS
                    + poseidon_contracts.CONTRACTS + p256_contracts.CONTRACTS
                    + secp256k1_contracts.CONTRACTS)
# The contracts built for EVMMAX only (no EVM384 build).
EVMMAX_ONLY = (bls12_381_contracts.EVMMAX_ONLY + poseidon_contracts.CONTRACTS
               + p256_contracts.CONTRACTS + secp256k1_contracts.CONTRACTS)
TARGETS = bls12_381_contracts.TARGETS
assert TARGETS == bn254_contracts.TARGETS
# A live view of each curve's registry, not a copy: a Usage a curve adds (or a test
# removes) shows here too. A ChainMap iterates its last map first: BLS12-381's, BN254's,
# Poseidon's, P-256's, then secp256k1's.
USAGE: Mapping[str, Usage] = ChainMap(SECP256K1_USAGE, P256_USAGE, POSEIDON_USAGE,
                                      BN254_USAGE, BLS12_381_USAGE)

_CURVE_OF = {**{name: bls12_381_contracts for name in bls12_381_contracts.CONTRACTS},
             **{name: bn254_contracts for name in bn254_contracts.CONTRACTS},
             **{name: poseidon_contracts for name in poseidon_contracts.CONTRACTS},
             **{name: p256_contracts for name in p256_contracts.CONTRACTS},
             **{name: secp256k1_contracts for name in secp256k1_contracts.CONTRACTS}}
_CALLDATA_OF = {bls12_381_contracts: bls12_381_contracts.encode_calldata,
                bn254_contracts: bn254_calldata.encode_calldata,
                poseidon_contracts: poseidon_calldata, p256_contracts: p256_calldata,
                secp256k1_contracts: secp256k1_calldata}
_FIELD_OF = {bls12_381_contracts: BLS12_381, bn254_contracts: BN254,
             poseidon_contracts: POSEIDON_FIELD, p256_contracts: P256_FIELD,
             secp256k1_contracts: SECP256K1}


def _curve(name: str) -> ModuleType:
    """The contracts module that builds ``name``."""
    module = _CURVE_OF.get(name)
    if module is None:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    return module


def targets_of(name: str) -> Tuple[str, ...]:
    """The targets (of TARGETS, in its order) contract ``name`` is built for: EVM384 unless
    it is EVMMAX_ONLY, EVMMAX if it is one of EVMMAX_CONTRACTS."""
    _curve(name)
    built = {"evm384": name not in EVMMAX_ONLY, "evmmax": name in EVMMAX_CONTRACTS}
    return tuple(target for target in TARGETS if built[target])


def build_program(name: str, compact: Optional[bool] = None, target: str = "evm384"
                  ) -> Program:
    """The assembled contract ``name`` (one of CONTRACTS) for ``target`` ("evm384", or
    "evmmax" for EVMMAX_CONTRACTS), with its source map and memory layout; ``compact`` as
    the curve's ``build_program`` takes it (default: the target's)."""
    module = _curve(name)
    isa = resolve_target(target).name
    if isa != "evm384" and name not in EVMMAX_CONTRACTS:
        raise ValueError(f"{name} is built for EVM384 only; target {target!r} builds "
                         f"{', '.join(EVMMAX_CONTRACTS)}")
    if isa == "evm384" and name in EVMMAX_ONLY:
        raise ValueError(f"{name} is built for EVMMAX only: use target='evmmax' "
                         "(--target evmmax, --opcodes evmmax)")
    return module.build_program(name, compact=compact, target=target)


def build_contract(name: str, **options: Any) -> bytes:
    """Bytecode of contract ``name``; options ``compact`` and ``target`` (see
    :func:`build_program`)."""
    return build_program(name, **options).code


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name`` from the arguments its curve's ``encode_calldata``
    takes (BLS12-381: :func:`.bls12_381.contracts.encode_calldata`; BN254: the
    precompile's input, and for the hinted check the hint: :mod:`.bn254.calldata`;
    Poseidon: the inputs, ints: :func:`.poseidon.usage.encode_calldata`; P-256: h, r, s,
    qx, qy: :func:`.p256.usage.encode_calldata`; secp256k1's ECRECOVER: h, v, r, s:
    :func:`.secp256k1.usage.encode_calldata`)."""
    return _CALLDATA_OF[_curve(name)](name, *args)


def curve_of(name: str) -> Field:
    """The curve (or for Poseidon the field) whose arithmetic contract ``name`` does (its
    field's modulus is what the debugger's ``fp`` converts values out of Montgomery form
    with)."""
    return _FIELD_OF[_curve(name)]
