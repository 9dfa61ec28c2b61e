"""The EVM384 two-pairing check inside py-evm, one run:

* our opcodes on the native kernel (``with_evm384()``),
* our opcodes on the pure-Python reference,
* the floor: the same opcodes with the arithmetic replaced by nothing (stack, memory
  expansion and gas as usual), i.e. py-evm's own cost of running the contract,
* py-evm's EIP-2537 pairing precompile (py_ecc) on the same pairs.

    python -m pytest bench/test_bench_pyevm.py --benchmark-json=bench/results/pyevm.json
    python bench/report.py bench/results/pyevm.json
"""
import random

import pytest

from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import encode_pairs, random_product_case
from evm384_native.evm.gas import EVM384_NAMES
from evm384_native.integrations.pyevm import execute_in_pyevm, with_evm384

NAME = "pairing_product_is_one"
PAIRING_CHECK_PRECOMPILE = (0x0F).to_bytes(20, "big")


def _skip_arithmetic(mem, out, x, y, mod) -> None:
    """The floor: memory is expanded and gas charged by the opcode; no arithmetic."""


VMS = {
    "native kernel": with_evm384(),
    "pure-Python reference": with_evm384(backend="reference"),
    "no-op EVM384 (floor)": with_evm384(backend={name: _skip_arithmetic for name in EVM384_NAMES}),
}


@pytest.fixture(scope="module")
def instance():
    pairs = encode_pairs(random_product_case(random.Random(6), 2, True))
    eip2537 = b"".join(bytes(16) + g1[:48] + bytes(16) + g1[48:]
                       + b"".join(bytes(16) + g2[i:i + 48] for i in range(0, 192, 48))
                       for g1, g2 in pairs)
    return build_contract(NAME), encode_calldata(NAME, pairs), eip2537


@pytest.mark.parametrize("variant", VMS)
def test_pyevm_two_pairing_check(benchmark, instance, variant):
    code, calldata, _ = instance
    benchmark.group = "two-pairing check in py-evm"
    benchmark.extra_info["baseline"] = variant == "no-op EVM384 (floor)"
    result = benchmark.pedantic(execute_in_pyevm, args=(code, calldata),
                                kwargs={"vm_class": VMS[variant]}, rounds=3, warmup_rounds=1)
    assert result.success
    if variant != "no-op EVM384 (floor)":
        assert int.from_bytes(result.output, "big") == 1


def test_pyevm_eip2537_precompile(benchmark, instance):
    _, _, eip2537 = instance
    benchmark.group = "two-pairing check in py-evm"
    result = benchmark.pedantic(execute_in_pyevm, args=(b"", eip2537),
                                kwargs={"to": PAIRING_CHECK_PRECOMPILE}, rounds=3, warmup_rounds=1)
    assert result.success and int.from_bytes(result.output, "big") == 1
