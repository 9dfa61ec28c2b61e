"""The two-pairing check built for EVMMAX (EIP-6690) beside its EVM384 build, in one
pytest-benchmark run (issue 14); ``bench/evmmax_table.py`` makes the k = 1..8 table.

    python -m pytest bench/test_bench_evmmax.py --benchmark-json=bench/results/evmmax.json

Group "EVMMAX vs EVM384 (k = 2)": each contract's EVMMAX build and its EVM384 build on the
python and the fast engine, and pyblst. Every
benchmark checks its answer; extra_info keeps gas, instructions and bytecode size.
Group "EVMMAX vs EVM384 (k = 2), interleaved rounds" (issue 14's time target): per contract,
both builds on the fast engine and pyblst in turn, one call each per round; ratios to the
EVM384 build in extra_info["interleaved"] (``python bench/report.py`` tabulates them).
"""
from __future__ import annotations

import random
from typing import Callable, Dict

import pytest

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata
from evm384_native.bls12_381.oracle import (blst_check, blst_points_of, eip2537_input,
                                            encode_pairs, random_product_case)

import interleaved  # bench/interleaved.py

ONE = (1).to_bytes(32, "big")
PAIRS = random_product_case(random.Random(14), 2, True)
CONTRACTS = ("pairing_product_is_one", "eip2537_pairing_check")
INTERLEAVED_ROUNDS = 40


def _calldata(name: str) -> bytes:
    data = eip2537_input(PAIRS) if name.startswith("eip2537") else encode_pairs(PAIRS)
    return encode_calldata(name, data)


@pytest.mark.parametrize("name", CONTRACTS)
@pytest.mark.parametrize("target", ["evmmax", "evm384"])
@pytest.mark.parametrize("engine", ["python", "fast"])
def test_two_pairing_check(benchmark, name, target, engine):
    code, calldata = build_contract(name, target=target), _calldata(name)
    options = {"engine": engine, "opcodes": target}
    first = execute(code, calldata, **options)
    benchmark.group = "EVMMAX vs EVM384 (k = 2)"
    benchmark.extra_info.update(gas=first.gas_used, instructions=first.steps, bytes=len(code))
    result = benchmark(execute, code, calldata, **options)
    assert result.success and result.output == ONE


def test_two_pairing_check_pyblst(benchmark):
    points = blst_points_of(PAIRS)
    benchmark.group = "EVMMAX vs EVM384 (k = 2)"
    assert benchmark(blst_check, points) is True


@pytest.mark.parametrize("name", CONTRACTS)
def test_two_pairing_check_interleaved(benchmark, name):
    calldata = _calldata(name)
    points = blst_points_of(PAIRS)
    runs: Dict[str, Callable[[], bool]] = {
        f"{target.upper()} build, fast engine": (
            lambda code=build_contract(name, target=target), target=target:
            execute(code, calldata, engine="fast", opcodes=target).output == ONE)
        for target in ("evm384", "evmmax")}
    runs["pyblst"] = lambda: blst_check(points)
    one_round, times = interleaved.in_turn(runs)
    benchmark.group = "EVMMAX vs EVM384 (k = 2), interleaved rounds"
    benchmark.extra_info.update(label=f"{name}: one round, every contender once")
    benchmark.pedantic(one_round, rounds=INTERLEAVED_ROUNDS, warmup_rounds=1)
    benchmark.extra_info["interleaved"] = interleaved.summary(
        times, "EVM384 build, fast engine", INTERLEAVED_ROUNDS)
