"""Gas a transaction pays beyond the execution of its code: its calldata (EIP-2028: 16
gas a non-zero byte, 4 a zero byte), so that a contract taking a hint in calldata and a
precompile taking its own input can be compared as a caller pays for them."""
from __future__ import annotations

CALLDATA_ZERO_BYTE_GAS = 4
CALLDATA_NONZERO_BYTE_GAS = 16


def calldata_gas(data: bytes) -> int:
    """EIP-2028's price of sending ``data`` as calldata."""
    zeros = bytes(data).count(0)
    return CALLDATA_ZERO_BYTE_GAS * zeros + CALLDATA_NONZERO_BYTE_GAS * (len(data) - zeros)
