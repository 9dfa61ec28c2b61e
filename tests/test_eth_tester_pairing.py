"""The EVM384 two-pairing product contract inside an eth-tester chain (py-evm with our
opcodes), answering the official EIP-2537 pairing-check vectors that have no point at
infinity, through eth_call and through a real transaction."""
import json
import pathlib

import pytest
from eth_tester import EthereumTester
from eth_utils import to_checksum_address

from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.integrations.eth_tester import evm384_backend

from test_eth_tester import recorder_code

# The official vectors (CC0), copied from ../shared/vectors/eip2537 (see SOURCE.md there).
VECTORS = pathlib.Path(__file__).resolve().parent / "vectors" / "eip2537" / "pairing_check_bls.json"
PAIRING = b"\x0b" * 20
RECORDER = b"\x0c" * 20
FP_BYTES, PADDED_FP_BYTES, PAIR_BYTES = 48, 64, 384


def _unpad(field: bytes) -> bytes:
    assert field[:PADDED_FP_BYTES - FP_BYTES] == bytes(16), "EIP-2537 padding must be zero"
    return field[PADDED_FP_BYTES - FP_BYTES:]


def eip2537_pairs(data: bytes):
    """EIP-2537 pairing-check input -> the contract's (g1, g2) big-endian affine pairs."""
    assert len(data) % PAIR_BYTES == 0
    fields = [_unpad(data[i:i + PADDED_FP_BYTES]) for i in range(0, len(data), PADDED_FP_BYTES)]
    return [(b"".join(fields[i:i + 2]), b"".join(fields[i + 2:i + 6])) for i in range(0, len(fields), 6)]


def finite_vectors():
    cases = []
    for case in json.loads(VECTORS.read_text()):
        data = bytes.fromhex(case["Input"])
        infinity = any(not any(data[i:i + 128]) for i in range(0, len(data), 128))
        if not infinity:
            cases.append(pytest.param(data, bytes.fromhex(case["Expected"]), id=case["Name"]))
    return cases


FINITE = finite_vectors()


def test_the_finite_vectors_are_the_six_expected():
    assert len(FINITE) == 6


@pytest.fixture(scope="module")
def tester():
    code = build_contract("pairing_product_is_one")
    return EthereumTester(evm384_backend({PAIRING: code, RECORDER: recorder_code(PAIRING)},
                                         schedule="update5-A"))


def _call(tester, data: bytes) -> bytes:
    calldata = encode_calldata("pairing_product_is_one", eip2537_pairs(data))
    output = tester.call({"from": tester.get_accounts()[0], "to": to_checksum_address(PAIRING),
                          "data": "0x" + calldata.hex(), "gas": 10_000_000})
    return bytes.fromhex(output[2:])


@pytest.mark.parametrize("data, expected", FINITE)
def test_eth_call_answers_like_the_vectors(tester, data, expected):
    assert _call(tester, data) == expected


@pytest.mark.parametrize("data, expected", [FINITE[1]])
def test_transaction_answers_like_the_vector(tester, data, expected):
    calldata = encode_calldata("pairing_product_is_one", eip2537_pairs(data))
    tx_hash = tester.send_transaction({
        "from": tester.get_accounts()[0], "to": to_checksum_address(RECORDER),
        "gas": 10_000_000, "value": 0, "data": "0x" + calldata.hex()})
    receipt = tester.get_transaction_receipt(tx_hash)
    assert receipt["status"] == 1
    recorder = to_checksum_address(RECORDER)
    assert tester.get_storage_at(recorder, "0x1") == "0x" + "00" * 31 + "01"   # the call succeeded
    assert bytes.fromhex(tester.get_storage_at(recorder, "0x0")[2:]) == expected
