"""The EVM384 two-pairing check (pairing_product_is_one, k = 2) against blst, one run.

    python -m pytest bench/test_bench_pairing.py --benchmark-json=bench/results/pairing.json
    python bench/report.py bench/results/pairing.json

extra_info holds the contract's EVM384 op counts, instructions, gas under the three
schedules and bytecode size (the same on every engine and backend).
"""
import random

import pytest

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import (blst_product_is_one, encode_pairs,
                                            random_product_case)
from evm384_native.evm.api import ENGINES
from evm384_native.evm.gas import SCHEDULES

NAME = "pairing_product_is_one"
EVM384_OPS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")


@pytest.fixture(scope="module")
def instance():
    pairs = random_product_case(random.Random(2), 2, True)
    return pairs, build_contract(NAME), encode_calldata(NAME, encode_pairs(pairs))


def _facts(code, calldata):
    results = {s: execute(code, calldata, schedule=s) for s in SCHEDULES}
    counts = results["update5-A"].opcode_counts
    return {"bytecode_bytes": len(code), "instructions": results["update5-A"].steps,
            **{op: counts.get(op, 0) for op in EVM384_OPS},
            "evm384_ops": sum(counts.get(op, 0) for op in EVM384_OPS),
            **{f"gas {s}": r.gas_used for s, r in results.items()}}


# every engine with the native kernels; the pure-Python reference kernels on the python engine
COMBINATIONS = [(engine, "native") for engine in sorted(ENGINES)] + [("python", "reference")]


@pytest.mark.parametrize("engine,backend", COMBINATIONS)
def test_evm384_two_pairing_check(benchmark, instance, engine, backend):
    pairs, code, calldata = instance
    benchmark.group = "two-pairing product check"
    benchmark.extra_info.update(_facts(code, calldata))
    result = benchmark.pedantic(execute, args=(code, calldata),
                                kwargs={"engine": engine, "backend": backend,
                                        "schedule": "update5-A"},
                                rounds=5 if backend == "reference" else 20, warmup_rounds=1)
    assert int.from_bytes(result.output, "big") == 1


def test_blst_two_pairing_check(benchmark, instance):
    """pyblst: decompress 4 points, 2 Miller loops, product, final_verify."""
    pairs, _, _ = instance
    benchmark.group = "two-pairing product check"
    benchmark.extra_info["baseline"] = True
    assert benchmark(blst_product_is_one, *zip(*pairs)) is True
