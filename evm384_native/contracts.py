"""Every built-in contract by name, whatever its curve, derived from the list of contract
families (:class:`~.family.Family`, one per package): BLS12-381's, BN254's, the Poseidon
hashes over BN254's scalar field, P-256's P256VERIFY, secp256k1's ECRECOVER and MODEXP. The
command line looks contracts up here only, so a contract a family adds appears in every
``evm384`` subcommand; which targets each is built for is its family's data."""
from __future__ import annotations

from collections import ChainMap
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from .asm import Program
from .asm.failure import Failure
from .bls12_377.family import FAMILY as BLS12_377
from .bls12_381.family import FAMILY as BLS12_381
from .bn254.family import FAMILY as BN254
from .bw6_761.family import FAMILY as BW6_761
from .curves.model import Field
from .family import Family
from .modexp.family import FAMILY as MODEXP
from .p256.family import FAMILY as P256
from .poseidon.family import FAMILY as POSEIDON
from .secp256k1.family import FAMILY as SECP256K1
from .tower.targets import TARGETS as TARGET_OBJECTS
from .tower.target import Target
from .usage import Usage

FAMILIES: Tuple[Family, ...] = (BLS12_381, BN254, POSEIDON, P256, SECP256K1, BLS12_377,
                                BW6_761, MODEXP)
_FAMILY_OF: Dict[str, Family] = {name: family for family in FAMILIES
                                 for name in family.contracts}
CONTRACTS = tuple(_FAMILY_OF)
TARGETS = tuple(TARGET_OBJECTS)
# The contracts built for each target, in CONTRACTS' order.
BUILT_FOR: Dict[str, Tuple[str, ...]] = {
    target: tuple(name for name in CONTRACTS if target in _FAMILY_OF[name].targets_of(name))
    for target in TARGETS}
EVMMAX_CONTRACTS = BUILT_FOR["evmmax"]
# A live view of each family's Usage registry, not a copy: a Usage a family adds (or a test
# removes) shows here too. A ChainMap iterates its last map first, so the maps go in
# reverse: BLS12-381's contracts come first.
USAGE: Mapping[str, Usage] = ChainMap(*(family.usage for family in reversed(FAMILIES)))


def family_of(name: str) -> Family:
    """The family that builds contract ``name``."""
    family = _FAMILY_OF.get(name)
    if family is None:
        raise ValueError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    return family


def failure_of(name: str) -> Failure:
    """How contract ``name`` fails on invalid input (:mod:`.asm.failure`): an exceptional
    halt where it has a precompile's interface (as the precompile fails), else REVERT."""
    return family_of(name).failure_of(name)


def targets_of(name: str) -> Tuple[str, ...]:
    """The targets (of TARGETS, in its order) contract ``name`` is built for."""
    return family_of(name).targets_of(name)


def build_program(name: str, compact: Optional[bool] = None,
                  target: Union[str, Target, None] = None) -> Program:
    """The assembled contract ``name`` (one of CONTRACTS) for ``target`` (a name of TARGETS
    or a target; None: the first it is built for), with its source map and memory layout;
    ``compact`` as its family takes it (None: the target's)."""
    return family_of(name).build_program(name, compact, target)


def build_contract(name: str, **options: Any) -> bytes:
    """Bytecode of contract ``name``; options ``compact`` and ``target`` (see
    :func:`build_program`)."""
    return family_of(name).build_contract(name, **options)


def encode_calldata(name: str, *args: Any) -> bytes:
    """Calldata for contract ``name`` from the arguments its family's ``encode_calldata``
    takes (BLS12-381: :func:`.bls12_381.calldata.encode_calldata`; BN254: the precompile's
    input, and for the hinted check the hint: :mod:`.bn254.calldata`; Poseidon: the inputs,
    ints: :func:`.poseidon.calldata.encode_calldata`; P-256: h, r, s, qx, qy:
    :func:`.p256.calldata.encode_calldata`; secp256k1's ECRECOVER: h, v, r, s:
    :func:`.secp256k1.calldata.encode_calldata`)."""
    return family_of(name).encode_calldata(name, *args)


def run_contract(name: str, *args: Any, target: Union[str, Target, None] = None,
                 **execute_options: Any) -> Any:
    """``execute`` of contract ``name`` (for ``target``, None: the first it is built for) on
    ``encode_calldata(name, *args)``; RuntimeError if the execution fails."""
    return family_of(name).run(name, *args, target=target, **execute_options)


def curve_of(name: str) -> Field:
    """The curve (or for Poseidon the field) whose arithmetic contract ``name`` does (its
    field's modulus is what the debugger's ``fp`` converts values out of Montgomery form
    with); ValueError for a contract whose modulus comes with each call (``modexp``)."""
    field = family_of(name).field
    if field is None:
        raise ValueError(f"{name} has no field of its own: its modulus comes with each call")
    return field
