"""Gas a transaction pays beyond the execution of the code it calls, so that a contract
(taking, say, a hint in its calldata) and a precompile (taking its own input) compare as a
caller pays for them. Not counted: the 21,000 every transaction pays.

- calldata (EIP-2028): 16 gas a non-zero byte, 4 a zero byte (EIP-7623's standard token
  cost 4 per token, a non-zero byte being 4 tokens);
- EIP-7623's floor: a transaction pays at least 10 gas per calldata token in all;
- access (EIP-2929): a contract called from another one is a cold account the first time
  (2,600); a precompile is always warm (100).
"""
from __future__ import annotations

from dataclasses import dataclass

STANDARD_TOKEN_COST = 4            # EIP-7623
TOTAL_COST_FLOOR_PER_TOKEN = 10    # EIP-7623
COLD_ACCOUNT_ACCESS_GAS = 2_600    # EIP-2929
WARM_ACCESS_GAS = 100              # EIP-2929: precompiles are always warm


def calldata_tokens(data: bytes) -> int:
    """EIP-7623's tokens: a zero byte 1, a non-zero byte 4."""
    zeros = bytes(data).count(0)
    return zeros + 4 * (len(data) - zeros)


def calldata_gas(data: bytes) -> int:
    """EIP-2028's price of sending ``data`` as calldata (4 gas a zero byte, 16 a non-zero
    one): EIP-7623's standard cost of its tokens."""
    return STANDARD_TOKEN_COST * calldata_tokens(data)


@dataclass(frozen=True)
class CallCost:
    """What a transaction pays to call code once with ``calldata`` (past the 21,000)."""
    execution: int
    calldata: int        # EIP-2028
    access: int          # EIP-2929
    floor: int           # EIP-7623: the least the transaction pays for its calldata

    @property
    def total(self) -> int:
        return max(self.calldata + self.access + self.execution, self.floor)


def call_cost(execution: int, calldata: bytes, precompile: bool = False) -> CallCost:
    """The cost of a call that executes ``execution`` gas on ``calldata``: of a contract
    (cold) or of a precompile (warm)."""
    return CallCost(execution, calldata_gas(calldata),
                    WARM_ACCESS_GAS if precompile else COLD_ACCOUNT_ACCESS_GAS,
                    TOTAL_COST_FLOOR_PER_TOKEN * calldata_tokens(calldata))
