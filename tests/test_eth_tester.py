"""EVM384 through eth-tester: eth_call and a real transaction against a genesis contract;
plain EVM (``opcodes="evm"``) through the same backend."""
from optional import require

require("eth_tester", "test", since=(3, 10))

import pytest
from eth_tester import EthereumTester
from eth_tester.exceptions import TransactionFailed
from eth_utils import to_checksum_address

from evm384_native.integrations.eth_tester import evm384_backend

from test_pyevm_integration import ADD_OUT, MOD, X, Y, spec_program

ADDMOD_CONTRACT = b"\x38" * 20
RECORDER = b"\x39" * 20


def recorder_code(target: bytes) -> bytes:
    """Forward calldata to ``target``; store its success flag in slot 1, the first
    32 bytes it returned in slot 0 (so a transaction's answer can be read back)."""
    return (bytes.fromhex("365f5f37")                   # CALLDATACOPY(0, 0, CALLDATASIZE)
            + bytes.fromhex("60205f365f5f73") + target  # retSize retOffset argsSize argsOffset value addr
            + bytes.fromhex("5af1")                     # GAS CALL
            + bytes.fromhex("600155")                   # SSTORE(1, success)
            + bytes.fromhex("5f515f5500"))              # SSTORE(0, MLOAD(0)); STOP


def make_tester() -> EthereumTester:
    return EthereumTester(evm384_backend({ADDMOD_CONTRACT: spec_program(0xC0),
                                          RECORDER: recorder_code(ADDMOD_CONTRACT)}))


def test_eth_call_reaches_evm384():
    tester = make_tester()
    output = tester.call({"from": tester.get_accounts()[0], "to": to_checksum_address(ADDMOD_CONTRACT),
                          "data": "0x" + (X + Y + MOD).hex()})
    assert bytes.fromhex(output[2:]) == ADD_OUT


def test_transaction_runs_evm384():
    tester = make_tester()
    tx_hash = tester.send_transaction({
        "from": tester.get_accounts()[0], "to": to_checksum_address(RECORDER),
        "gas": 1_000_000, "value": 0, "data": "0x" + (X + Y + MOD).hex()})
    assert tester.get_transaction_receipt(tx_hash)["status"] == 1
    recorder = to_checksum_address(RECORDER)
    assert tester.get_storage_at(recorder, "0x1") == "0x" + "00" * 31 + "01"
    assert bytes.fromhex(tester.get_storage_at(recorder, "0x0")[2:]) == ADD_OUT[:32]


def test_plain_evm_backend_runs_mainnet_code_only():
    """evm384_backend(opcodes="evm"): py-evm's own VM, so plain code answers and EVM384's
    0xc0 is an invalid opcode."""
    plain = bytes.fromhex("5f35602035015f5260205ff3")      # return word 0 + word 1 of calldata
    tester = EthereumTester(evm384_backend({ADDMOD_CONTRACT: spec_program(0xC0),
                                            RECORDER: plain}, opcodes="evm"))
    sender = tester.get_accounts()[0]
    words = (7).to_bytes(32, "big") + (5).to_bytes(32, "big")
    output = tester.call({"from": sender, "to": to_checksum_address(RECORDER),
                          "data": "0x" + words.hex()})
    assert int(output, 16) == 12
    with pytest.raises(TransactionFailed):
        tester.call({"from": sender, "to": to_checksum_address(ADDMOD_CONTRACT),
                     "data": "0x" + (X + Y + MOD).hex()})
