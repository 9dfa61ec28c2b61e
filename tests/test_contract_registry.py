"""evm384_native.contracts: every contract by name, whatever its curve, derived from the
contract families (evm384_native.family.Family, one per package)."""
import random

import pytest

from evm384_native import (bls12_377, bls12_381, bn254, bw6_761, contracts, execute, p256,
                           poseidon, secp256k1)
from evm384_native.modexp import contracts as modexp_contracts, family as modexp_family
from evm384_native.bls12_381 import usage as bls12_381_usage
from evm384_native.curves import BLS12_381
from evm384_native.curves.bn254 import BN254
from evm384_native.family import Family
from evm384_native.tower.targets import TARGETS


def test_the_registry_is_the_families_in_order():
    assert contracts.FAMILIES == (bls12_381.FAMILY, bn254.FAMILY, poseidon.FAMILY, p256.FAMILY,
                                  secp256k1.FAMILY, bls12_377.FAMILY, bw6_761.FAMILY,
                                  modexp_family.FAMILY)
    assert contracts.CONTRACTS == bls12_381.CONTRACTS + bn254.CONTRACTS + poseidon.CONTRACTS + \
        p256.CONTRACTS + secp256k1.CONTRACTS + bls12_377.CONTRACTS + bw6_761.CONTRACTS + \
        modexp_contracts.CONTRACTS
    assert contracts.TARGETS == ("evm384", "evmmax", "evm", "evm768")
    # which contract builds for which target: each family's data, and nothing else
    for family in contracts.FAMILIES:
        for name, targets in family.targets.items():
            assert contracts.targets_of(name) == targets
            assert targets and set(targets) <= set(contracts.TARGETS)
            assert list(targets) == sorted(targets, key=contracts.TARGETS.index)
            assert (name in contracts.EVMMAX_CONTRACTS) == ("evmmax" in targets)
            for target in contracts.TARGETS:
                assert (name in contracts.BUILT_FOR[target]) == (target in targets)
    assert contracts.BUILT_FOR["evm"] == (
        "pairing_product_is_one", "eip2537_pairing_check", "pairing_check_hinted",
        "eip2537_pairing_check_hinted", "eip2537_g1add", "eip2537_g2add", "eip2537_g1msm",
        "eip2537_g2msm", "eip2537_map_fp_to_g1", "eip2537_map_fp2_to_g2") + \
        bn254.CONTRACTS + poseidon.CONTRACTS + p256.CONTRACTS + secp256k1.CONTRACTS + \
        bls12_377.CONTRACTS + modexp_contracts.CONTRACTS
    assert [contracts.targets_of(name) for name in ("pairing", "bn254_add", "poseidon_t3")] == \
        [("evm384",), ("evm384", "evmmax", "evm"), ("evmmax", "evm")]
    # each declares its usage (as a set: a test that takes a usage out and puts it back,
    # tests/test_cli.py's, moves it to the end of its curve's registry)
    assert set(contracts.USAGE) == set(contracts.CONTRACTS)


def test_builds_and_calldata_are_the_families():
    assert contracts.build_contract("pairing") == bls12_381.build_contract("pairing")
    assert contracts.build_program("bn254_add", target="evmmax").code == \
        bn254.build_contract("bn254_add", target="evmmax")
    assert contracts.encode_calldata("eip2537_g1add", b"\1" * 256) == b"\1" * 256
    assert contracts.encode_calldata("bn254_pairing_check_hinted", b"\2" * 192,
                                     bytes(bn254.HINT_BYTES)) == b"\2" * 192 + bytes(192)
    assert contracts.curve_of("bn254_mul") is BN254
    assert contracts.curve_of("miller_loop") is BLS12_381
    assert contracts.curve_of("poseidon_t3").p == BN254.r
    # the default target is the first a contract is built for; a target object is taken too
    assert contracts.build_contract("poseidon_t3") == \
        poseidon.build_contract("poseidon_t3", target="evmmax") == \
        contracts.build_contract("poseidon_t3", target=TARGETS["evmmax"])
    assert contracts.build_program("pairing") is contracts.build_program("pairing", None, "evm384")
    assert contracts.encode_calldata("poseidon_t3", [1, 2]) == \
        (1).to_bytes(32, "big") + (2).to_bytes(32, "big")


def test_one_run_contract_for_every_family():
    data = contracts.USAGE["bn254_add"].example(random.Random(1), 1, True)
    for target in ("evm384", "evmmax"):
        result = contracts.run_contract("bn254_add", data, target=target)
        assert result.output == bn254.bn254_add(data, target=target)
    signature = contracts.USAGE["ecrecover"].example(random.Random(2), 1, True)
    words = [int.from_bytes(signature[i:i + 32], "big") for i in range(0, 128, 32)]
    assert contracts.run_contract("ecrecover", *words).output == secp256k1.recover(signature)
    with pytest.raises(RuntimeError, match="bn254_add contract failed"):
        contracts.run_contract("bn254_add", b"\xff" * 128)
    with pytest.raises(TypeError, match="do not pass opcodes"):
        contracts.run_contract("bn254_add", data, opcodes="evm384")


@pytest.mark.parametrize("family", [f for f in contracts.FAMILIES if f.reference],
                         ids=lambda family: family.name)
def test_every_reference_agrees_with_its_contracts(family):
    """The families with a pure-Python reference (the precompile's answer): every contract,
    every target, a valid and a wrong example and a malformed input."""
    rng = random.Random(3)
    for name in family.contracts:
        usage = family.usage[name]
        for data in (usage.example(rng, usage.example_k, True),
                     usage.example(rng, usage.example_k, False), b"\1" * 31):
            expected = family.reference(name, data)
            for target in family.targets_of(name):
                result = execute(family.build_contract(name, target=target), data,
                                 opcodes=target)
                assert (result.output if result.success else None) == expected, (name, target)


def test_a_contract_is_one_entry_in_its_family():
    """A family with one more contract (an alias of ECRECOVER's build) shows it everywhere
    the registry is read: targets, builds, calldata, usage."""
    family = secp256k1.FAMILY
    extended = Family(family.name, family.field, {**family.targets, "ecrecover2": ("evmmax",)},
                      lambda name, compact, isa: family.build("ecrecover", compact, isa),
                      lambda name, *args: family.encode_calldata("ecrecover", *args),
                      family.usage, family.reference)
    assert extended.contracts == ("ecrecover", "ecrecover2")
    assert extended.build_contract("ecrecover2") == family.build_contract("ecrecover")
    with pytest.raises(ValueError, match="ecrecover2 is built for EVMMAX only, not 'evm384'"):
        extended.build_program("ecrecover2", target="evm384")


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
                                               "ecrecover, bls12_377_pairing_check, bls12_377_pairing_check_hinted, "
                                               "bw6_761_pairing_check, bw6_761_pairing_check_hinted, modexp$"),
    (lambda: contracts.encode_calldata("nope"), "unknown contract 'nope'"),
    (lambda: contracts.targets_of("nope"), "unknown contract 'nope'"),
    (lambda: contracts.build_program("pairing", target="evmmax"),
     "pairing is built for EVM384 only, not 'evmmax': use target='evm384'"),
    (lambda: contracts.build_program("poseidon_t3", target="evm384"),
     "poseidon_t3 is built for EVMMAX and EVM only"),
    (lambda: contracts.build_program("pairing", target="evm999"), "unknown target 'evm999'"),
    (lambda: bn254.build_contract("pairing"), "unknown contract 'pairing'; choose one of bn254_add"),
    (lambda: contracts.encode_calldata("poseidon_t3", [1]), "poseidon_t3 hashes 2 inputs"),
    (lambda: contracts.encode_calldata("bn254_add"), r"takes 1 argument after the name \(data\)"),
    (lambda: contracts.encode_calldata("bn254_pairing_check_hinted", b"", b"short"),
     "a hint is 192 bytes"),
])
def test_errors_name_every_contract_or_what_is_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_eip7904_measured_gas_where_the_eip_has_it():
    """EIP-7904's table (../shared/docs/eip-7904.md): the worst client's gas at 100 Mgas/s
    for each precompile it measured, for the precompile's job of each contract's input."""
    rng = random.Random(3)
    usage = contracts.USAGE
    expected = {"bn254_add": 108, "eip2537_g1add": 236, "eip2537_g2add": 277,
                "eip2537_g1add_hinted": 236, "eip2537_g2add_hinted": 277,
                "ecrecover": 841, "p256verify": 3_814}
    for name, gas in expected.items():
        assert usage[name].measured_gas(usage[name].example(rng, 1, True)) == gas, name
    for name in ("bn254_pairing_check", "bn254_pairing_check_hinted"):
        for k in (2, 3):
            data = usage[name].example(rng, k, True)
            assert usage[name].measured_gas(data) == 11_712 * k + 8_247, name
    assert usage["bn254_mul"].measured_gas(usage["bn254_mul"].example(rng, 1, True)) is None
