"""The instruction-set targets by name: what ``target=`` and ``--target`` accept."""
from __future__ import annotations

from typing import Dict, Union

from .target import EVM384, EVMMAX, Target
from .target_evm768 import EVM768
from .target_words import Words

TARGETS: Dict[str, Target] = {"evm384": EVM384(), "evmmax": EVMMAX(), "evm": Words(),
                             "evm768": EVM768()}


def resolve_target(name: Union[str, Target]) -> Target:
    """The target named ``name`` (one of :data:`TARGETS`); a target object as it is."""
    if isinstance(name, (EVM384, EVMMAX, Words)):
        return name
    found = TARGETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown target {name!r}; choose one of {', '.join(sorted(TARGETS))}")
    return found
