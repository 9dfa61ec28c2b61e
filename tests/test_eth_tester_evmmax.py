"""EVMMAX through eth-tester (``evm384_backend(opcodes="evmmax")``): an EVMMAX contract
deployed by a transaction and called, with the python engine's gas; field contexts that
belong to their call frame."""
import random

import pytest

from optional import require

require("eth_tester", "test", since=(3, 10))

from eth_tester import EthereumTester
from eth_tester.exceptions import TransactionFailed
from eth_utils import to_checksum_address

from evm384_native.evm import execute
from evm384_native.integrations.eth_tester import evm384_backend

from evmmax_contracts import FIELD_BYTES, caller, deployer, multiply, with_own_context, without_context

HALTING, FRESH, CALLER = b"\x51" * 20, b"\x52" * 20, b"\x53" * 20


def _operands(seed: int):
    rng = random.Random(seed)
    modulus = rng.randrange(2**380, 2**381) | 1
    x, y = rng.randrange(modulus), rng.randrange(modulus)
    calldata = b"".join(v.to_bytes(FIELD_BYTES, "big") for v in (modulus, x, y))
    return calldata, (x * y % modulus).to_bytes(FIELD_BYTES, "big")


def _call(tester, address: bytes, calldata: bytes) -> bytes:
    output = tester.call({"from": tester.get_accounts()[0], "to": to_checksum_address(address),
                          "data": "0x" + calldata.hex(), "gas": 1_000_000})
    return bytes.fromhex(output[2:])


def test_deploy_and_call_an_evmmax_contract():
    tester = EthereumTester(evm384_backend(opcodes="evmmax"))
    sender = tester.get_accounts()[0]
    tx_hash = tester.send_transaction({"from": sender, "gas": 1_000_000, "value": 0,
                                       "data": "0x" + deployer(multiply()).hex()})
    receipt = tester.get_transaction_receipt(tx_hash)
    assert receipt["status"] == 1
    address = bytes.fromhex(receipt["contract_address"][2:])
    assert bytes.fromhex(tester.get_code(receipt["contract_address"])[2:]) == multiply()
    for seed in range(3):
        calldata, product = _operands(seed)
        assert _call(tester, address, calldata) == product


def test_transaction_gas_is_the_engines():
    """A transaction to a heavier EVMMAX contract (2,000 MULMODX) costs its intrinsic gas
    plus what the python engine charges (above EIP-7623's calldata floor)."""
    runtime = multiply(rounds=2000)
    tester = EthereumTester(evm384_backend({CALLER: runtime}, opcodes="evmmax"))
    calldata, _ = _operands(3)
    tx_hash = tester.send_transaction({"from": tester.get_accounts()[0],
                                       "to": to_checksum_address(CALLER), "gas": 1_000_000,
                                       "value": 0, "data": "0x" + calldata.hex()})
    receipt = tester.get_transaction_receipt(tx_hash)
    zeros = calldata.count(0)
    intrinsic = 21_000 + 4 * zeros + 16 * (len(calldata) - zeros)
    floor = 21_000 + 10 * (zeros + 4 * (len(calldata) - zeros))
    engine = execute(runtime, calldata, opcodes="evmmax")
    assert engine.success and engine.gas_used > 6000 and intrinsic + engine.gas_used > floor
    assert receipt["status"] == 1 and receipt["gas_used"] == intrinsic + engine.gas_used


def test_field_contexts_belong_to_the_call_frame():
    """A callee starts with no field context (the first halts), makes its own id 0 without
    touching the caller's (the second), and the caller's context survives both calls."""
    tester = EthereumTester(evm384_backend({HALTING: without_context(), FRESH: with_own_context(),
                                            CALLER: caller(HALTING, FRESH)}, opcodes="evmmax"))
    calldata, product = _operands(11)
    output = _call(tester, CALLER, calldata)
    assert output[:FIELD_BYTES] == product
    assert output[160:] == (0).to_bytes(32, "big") + (1).to_bytes(32, "big")


def test_evm384_backend_stays_evm384_by_default():
    """0xc0-0xc2 run as EVM384 ops on whatever the stack holds; MULMODX (0xc5) is no
    EVM384 instruction."""
    tester = EthereumTester(evm384_backend({CALLER: multiply()}))
    calldata, _ = _operands(0)
    with pytest.raises(TransactionFailed, match="Invalid opcode 0xc5"):
        _call(tester, CALLER, calldata)
