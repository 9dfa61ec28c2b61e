"""Forks (mainnet revisions): what differs between them for standalone code, as data.

As evmone passes a revision, an execution is handed one :class:`Fork`: the instructions
it adds to the opcode set's table and the gas one transaction may use. For code run
without accounts, Cancun and Prague are alike (Prague's changes are accounts,
precompiles and calldata pricing); Osaka (the Fusaka upgrade) adds EIP-7939's CLZ at
0x1e and caps a transaction's gas at 2**24 (EIP-7825). Nothing else tests which fork
runs: :func:`.opcode_sets.resolve_opcodes` builds an execution's table from this data.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple, Union

from .opcodes import CLZ, OpcodeInfo
from .result import ExecutionResult

OSAKA_TRANSACTION_GAS_CAP = 2**24      # EIP-7825: 16,777,216


@dataclass(frozen=True)
class Fork:
    name: str
    # what the fork defines beyond the opcode set's table (bytes undefined before it)
    instructions: Tuple[OpcodeInfo, ...] = ()
    # the most gas one transaction may use (EIP-7825); None: only the block's limit
    transaction_gas_cap: Optional[int] = None

    def exceeds_cap(self, gas: int) -> bool:
        """Whether ``gas`` is more than one transaction of this fork may use."""
        return self.transaction_gas_cap is not None and gas > self.transaction_gas_cap


CANCUN = Fork("cancun")
PRAGUE = Fork("prague")
OSAKA = Fork("osaka", instructions=(CLZ,), transaction_gas_cap=OSAKA_TRANSACTION_GAS_CAP)
FORKS: Dict[str, Fork] = {fork.name: fork for fork in (CANCUN, PRAGUE, OSAKA)}
DEFAULT_FORK = "osaka"                 # today's mainnet
ForkLike = Union[str, Fork]


def resolve_fork(fork: object) -> Fork:
    """The fork named ``fork`` ("cancun", "prague" or "osaka"), or a :class:`Fork` as is."""
    if isinstance(fork, Fork):
        return fork
    found = FORKS.get(fork) if isinstance(fork, str) else None
    if found is None:
        raise ValueError(f"unknown fork {fork!r}; choose one of {', '.join(FORKS)}")
    return found


def exceeds_transaction_cap(result: ExecutionResult, fork: ForkLike = DEFAULT_FORK) -> bool:
    """Whether the gas ``result`` used is more than one transaction of ``fork`` may use
    (Osaka: 16,777,216, EIP-7825), so that no single transaction could run it there.
    Judged on the gas used, not the run's limit: execute's default limit (30M) is above
    the cap, and a run is never refused for it."""
    return resolve_fork(fork).exceeds_cap(result.gas_used)
