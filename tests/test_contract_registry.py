"""evm384_native.contracts: every contract by name, whatever its curve."""
import pytest

from evm384_native import bls12_381, bn254, contracts, p256, poseidon, secp256k1
from evm384_native.bls12_381 import usage as bls12_381_usage
from evm384_native.curves import BLS12_381
from evm384_native.curves.bn254 import BN254


def test_the_registry_lists_each_curves_contracts_in_order():
    assert contracts.CONTRACTS == bls12_381.CONTRACTS + bn254.CONTRACTS + poseidon.CONTRACTS + \
        p256.CONTRACTS + secp256k1.CONTRACTS
    assert set(contracts.EVMMAX_CONTRACTS) == \
        set(bls12_381.contracts.EVMMAX_CONTRACTS) | set(bn254.CONTRACTS) | \
        set(poseidon.CONTRACTS) | set(p256.CONTRACTS) | set(secp256k1.CONTRACTS)
    assert contracts.EVMMAX_ONLY == bls12_381.contracts.EVMMAX_ONLY + poseidon.CONTRACTS + \
        p256.CONTRACTS + secp256k1.CONTRACTS
    assert bls12_381.contracts.EVMMAX_ONLY == ("eip2537_g1add_hinted", "eip2537_g2add_hinted")
    # each declares its usage (as a set: a test that takes a usage out and puts it back,
    # tests/test_cli.py's, moves it to the end of its curve's registry)
    assert set(contracts.USAGE) == set(contracts.CONTRACTS)
    assert contracts.TARGETS == ("evm384", "evmmax")
    assert [contracts.targets_of(name) for name in ("pairing", "bn254_add", "poseidon_t3")] == \
        [("evm384",), ("evm384", "evmmax"), ("evmmax",)]
    assert [(name, target) for name in contracts.CONTRACTS
            for target in contracts.targets_of(name)] == \
        [(name, target) for name in contracts.CONTRACTS for target in contracts.TARGETS
         if name in (contracts.EVMMAX_CONTRACTS if target == "evmmax" else
                     set(contracts.CONTRACTS) - set(contracts.EVMMAX_ONLY))]


def test_builds_and_calldata_are_the_curves():
    assert contracts.build_contract("pairing") == bls12_381.build_contract("pairing")
    assert contracts.build_program("bn254_add", target="evmmax").code == \
        bn254.build_contract("bn254_add", target="evmmax")
    assert contracts.encode_calldata("eip2537_g1add", b"\1" * 256) == b"\1" * 256
    assert contracts.encode_calldata("bn254_pairing_check_hinted", b"\2" * 192,
                                     bytes(bn254.HINT_BYTES)) == b"\2" * 192 + bytes(192)
    assert contracts.curve_of("bn254_mul") is BN254
    assert contracts.curve_of("miller_loop") is BLS12_381
    assert contracts.curve_of("poseidon_t3").p == BN254.r
    assert contracts.build_contract("poseidon_t3", target="evmmax") == \
        poseidon.build_contract("poseidon_t3")
    assert contracts.encode_calldata("poseidon_t3", [1, 2]) == \
        (1).to_bytes(32, "big") + (2).to_bytes(32, "big")


def test_usage_is_a_live_view_of_each_curves():
    usage = contracts.USAGE["pairing"]
    del bls12_381_usage.USAGE["pairing"]
    try:
        assert "pairing" not in contracts.USAGE
    finally:
        bls12_381_usage.USAGE["pairing"] = usage


@pytest.mark.parametrize("call, message", [
    (lambda: contracts.build_contract("nope"), "unknown contract 'nope'; choose one of "
                                               "miller_loop, .*, bn254_pairing_check_hinted, .*poseidon_t5, p256verify, "
                                               "ecrecover$"),
    (lambda: contracts.encode_calldata("nope"), "unknown contract 'nope'"),
    (lambda: contracts.targets_of("nope"), "unknown contract 'nope'"),
    (lambda: contracts.build_program("pairing", target="evmmax"),
     "pairing is built for EVM384 only; target 'evmmax' builds .*bn254_add"),
    (lambda: contracts.build_program("poseidon_t3"), "poseidon_t3 is built for EVMMAX only"),
    (lambda: contracts.encode_calldata("poseidon_t3", [1]), "poseidon_t3 hashes 2 inputs"),
    (lambda: contracts.encode_calldata("bn254_add"), r"takes 1 argument after the name \(data\)"),
    (lambda: contracts.encode_calldata("bn254_pairing_check_hinted", b"", b"short"),
     "a hint is 192 bytes"),
])
def test_errors_name_every_contract_or_what_is_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()
