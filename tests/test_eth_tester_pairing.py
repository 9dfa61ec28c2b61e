"""The EVM384 pairing product contract inside an eth-tester chain (py-evm with our opcodes),
answering the official EIP-2537 pairing-check vectors through eth_call and through a real
transaction: the six without a point at infinity, and the others too (the contract skips
all-zero points, EIP-2537's encoding of infinity)."""
import json
import pathlib

import pytest

from optional import require

require("eth_tester", "test", since=(3, 10))

from eth_tester import EthereumTester
from eth_utils import to_checksum_address

from evm384_native.bls12_381 import build_contract, encode_calldata, pairs_from_eip2537
from evm384_native.integrations.eth_tester import evm384_backend

from test_eth_tester import recorder_code

# The official vectors (CC0), copied from ../shared/vectors/eip2537 (see SOURCE.md there).
VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537" / "pairing_check_bls.json"
PAIRING = b"\x0b" * 20
RECORDER = b"\x0c" * 20
G1_EIP2537_BYTES = 128


def _has_infinity(data: bytes) -> bool:
    return any(not any(data[i:i + G1_EIP2537_BYTES]) for i in range(0, len(data), G1_EIP2537_BYTES))


CASES = [(bytes.fromhex(case["Input"]), bytes.fromhex(case["Expected"]), case["Name"])
         for case in json.loads(VECTORS.read_text())]
FINITE = [pytest.param(data, expected, id=name) for data, expected, name in CASES
          if not _has_infinity(data)]
WITH_INFINITY = [pytest.param(data, expected, id=name) for data, expected, name in CASES
                 if _has_infinity(data)]


def test_the_finite_vectors_are_the_six_expected():
    assert len(FINITE) == 6 and len(WITH_INFINITY) == 9


@pytest.fixture(scope="module")
def tester():
    code = build_contract("pairing_product_is_one")
    return EthereumTester(evm384_backend({PAIRING: code, RECORDER: recorder_code(PAIRING)},
                                         schedule="update5-A"))


def _call(tester, data: bytes) -> bytes:
    calldata = encode_calldata("pairing_product_is_one", pairs_from_eip2537(data))
    output = tester.call({"from": tester.get_accounts()[0], "to": to_checksum_address(PAIRING),
                          "data": "0x" + calldata.hex(), "gas": 10_000_000})
    return bytes.fromhex(output[2:])


@pytest.mark.parametrize("data, expected", FINITE + WITH_INFINITY)
def test_eth_call_answers_like_the_vectors(tester, data, expected):
    assert _call(tester, data) == expected


@pytest.mark.parametrize("data, expected", [FINITE[1]])
def test_transaction_answers_like_the_vector(tester, data, expected):
    calldata = encode_calldata("pairing_product_is_one", pairs_from_eip2537(data))
    tx_hash = tester.send_transaction({
        "from": tester.get_accounts()[0], "to": to_checksum_address(RECORDER),
        "gas": 10_000_000, "value": 0, "data": "0x" + calldata.hex()})
    receipt = tester.get_transaction_receipt(tx_hash)
    assert receipt["status"] == 1
    recorder = to_checksum_address(RECORDER)
    assert tester.get_storage_at(recorder, "0x1") == "0x" + "00" * 31 + "01"   # the call succeeded
    assert bytes.fromhex(tester.get_storage_at(recorder, "0x0")[2:]) == expected
