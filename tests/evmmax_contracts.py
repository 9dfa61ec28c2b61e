"""Small EVMMAX contracts for the integration tests (eth-tester, titanoboa): a modular
multiplication, a deployer for it, and a caller whose field context must survive its
calls into contracts that have (or lack) their own."""
from __future__ import annotations

from test_evm_evmmax import (ADDMODX, LOADX, MSTORE, MULMODX, STOP, STOREX, mstore_bytes, push,
                             returning, setmodx, transfer, vector)

CALLDATACOPY, CODECOPY, GAS, CALL = 0x37, 0x39, 0x5A, 0xF1
FIELD_BYTES = 48                 # the contracts' moduli and values: 48 bytes, big-endian
RESULT_AT, FLAGS_AT = 0, 160     # where the caller leaves the product and the call flags


def multiply(rounds: int = 1) -> bytes:
    """Calldata modulus||x||y (48 bytes each): returns x * y**rounds mod modulus, computed
    with SETMODX, STOREX, ``rounds`` MULMODX and LOADX (four registers: the EIP's bound for
    out_idx 2, count 1 is 2 + 1 < registers)."""
    return (push(3 * FIELD_BYTES) + push(0) + push(0) + bytes([CALLDATACOPY])
            + setmodx(0, 0, FIELD_BYTES, 4) + transfer(STOREX, 0, FIELD_BYTES, 2)
            + vector(MULMODX, 2, 1, 0, 1, 1, 1, 1)
            + vector(MULMODX, 2, 1, 2, 1, 1, 1, 1) * (rounds - 1)
            + transfer(LOADX, RESULT_AT, 2, 1)
            + returning(RESULT_AT, FIELD_BYTES))


def deployer(runtime: bytes) -> bytes:
    """Init code that returns ``runtime``."""
    head_size = 3 * 33 + 1 + 2 * 33 + 1
    return (push(len(runtime)) + push(head_size) + push(0) + bytes([CODECOPY])
            + push(len(runtime)) + push(0) + bytes([0xF3]) + runtime)


def without_context() -> bytes:
    """ADDMODX with no SETMODX of its own: halts (no active field context)."""
    return vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1) + bytes([STOP])


def with_own_context() -> bytes:
    """Its own context 0 (modulus 97, two registers), then an ADDMODX on it: succeeds."""
    return mstore_bytes(0, (97).to_bytes(32, "big")) + setmodx(0, 0, 32, 2) \
        + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1) + bytes([STOP])


def _call(address: bytes, flag_at: int) -> bytes:
    """CALL address with no data and no value; the success flag stored at ``flag_at``."""
    return (push(0) * 5 + push(int.from_bytes(address, "big")) + bytes([GAS, CALL])
            + push(flag_at) + bytes([MSTORE]))


def caller(first: bytes, second: bytes) -> bytes:
    """:func:`multiply`'s calldata and result, with calls to ``first`` and ``second``
    between its STOREX and its MULMODX; returns product||flag1||flag2 (48 + 32 + 32 bytes
    from memory 0, 160, 192)."""
    return (push(3 * FIELD_BYTES) + push(0) + push(0) + bytes([CALLDATACOPY])
            + setmodx(0, 0, FIELD_BYTES, 4) + transfer(STOREX, 0, FIELD_BYTES, 2)
            + _call(first, FLAGS_AT) + _call(second, FLAGS_AT + 32)
            + vector(MULMODX, 2, 1, 0, 1, 1, 1, 1) + transfer(LOADX, RESULT_AT, 2, 1)
            + returning(0, FLAGS_AT + 64))
