"""Interpreter throughput on EVM384-heavy programs, all contenders in one run.

The program is 1,000 iterations of an Fp2 multiplication (a <- a * b over
BLS12-381's p, Karatsuba, 8 EVM384 ops and 23 instructions per iteration; see
tests/evm_programs.py):

    python -m pytest bench/test_bench_interpreter.py --benchmark-json=bench/results/interpreter.json
    python bench/report.py bench/results/interpreter.json

A second group runs the two-pairing check contract of evm384_native.bls12_381
(the real workload) with the fused and the one-call-per-op loop and py-evm.

Contenders: our "python" engine with fused native blocks (one native call per
straight-line run of EVM384 ops), the same loop with one native call per EVM384
op, the pure-Python reference backend, the "fast" engine (the C loop), and py-evm
(Prague) running the same bytecode with our opcodes (evm384_native.integrations.pyevm).
"""
import random
import sys
from pathlib import Path

import pytest

from evm384_native.evm.api import run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from evm_helpers import pyevm_run  # noqa: E402
from evm_programs import (EVM384_OPS_PER_ITERATION, INSTRUCTIONS_PER_ITERATION, P,  # noqa: E402
                          fp2_calldata, fp2_mul_loop, fp2_mul_loop_oracle)

ITERATIONS = 1000
GROUP = f"interpreter: Fp2 multiplication x {ITERATIONS:,} (per op = per EVM384 op)"
_rng = random.Random(2)
VALUES = [_rng.randrange(P) for _ in range(4)]
CODE = fp2_mul_loop(ITERATIONS)
CALLDATA = fp2_calldata(*VALUES)
EXPECTED = fp2_mul_loop_oracle(ITERATIONS, *VALUES)


def _ours(**options):
    result = run(CODE, CALLDATA, **options)
    assert result.success and result.output == EXPECTED
    return result


def _pyevm():
    success, output, _ = pyevm_run(CODE, CALLDATA, gas=30_000_000)
    assert success and output == EXPECTED


CONTENDERS = {  # name: (callable, rounds)
    "fast engine (C loop)": (lambda: _ours(engine="fast"), 40),
    "python engine, native, fused blocks": (lambda: _ours(), 40),
    "python engine, native, one call per op": (lambda: _ours(fuse_evm384=False), 10),
    "python engine, reference backend": (lambda: _ours(backend="reference"), 3),
    "py-evm + with_evm384() (native kernel)": (_pyevm, 3),
}


@pytest.mark.parametrize("name", CONTENDERS)
def test_interpreter(benchmark, name):
    function, rounds = CONTENDERS[name]
    benchmark.group = GROUP
    benchmark.name = name
    benchmark.extra_info["ops_per_round"] = EVM384_OPS_PER_ITERATION * ITERATIONS
    benchmark.extra_info["instructions_per_round"] = _ours().steps
    benchmark.extra_info["baseline"] = name.endswith("fused blocks")
    benchmark.pedantic(function, rounds=rounds, warmup_rounds=1)


# --- a real program: the BLS12-381 two-pairing check contract (evm384_native.bls12_381) ---

PAIRING_GROUP = "interpreter: BLS12-381 two-pairing check contract (per op = per EVM384 op)"


@pytest.fixture(scope="module")
def pairing_check():
    """(code, calldata, expected result) of the pairing check on two random pairs."""
    contracts = pytest.importorskip("evm384_native.contracts")
    oracle = pytest.importorskip("evm384_native.bls12_381.oracle")
    pairs = oracle.encode_pairs(oracle.random_product_case(random.Random(1), 2, True))
    code = contracts.build_program("pairing_product_is_one").code
    calldata = contracts.encode_calldata("pairing_product_is_one", pairs)
    return code, calldata, run(code, calldata)


PAIRING_CONTENDERS = {  # name: (options for run(), or None for py-evm; rounds)
    "fast engine (C loop)": ({"engine": "fast"}, 20),
    "python engine, native, fused blocks": ({}, 20),
    "python engine, native, one call per op": ({"fuse_evm384": False}, 3),
    "py-evm + with_evm384() (native kernel)": (None, 1),
}


@pytest.mark.parametrize("name", PAIRING_CONTENDERS)
def test_pairing_check(benchmark, name, pairing_check):
    code, calldata, expected = pairing_check
    options, rounds = PAIRING_CONTENDERS[name]
    assert expected.success and expected.output[-1] == 1

    def once():
        if options is None:
            assert pyevm_run(code, calldata, gas=30_000_000) == (True, expected.output,
                                                                 expected.gas_used)
        else:
            assert run(code, calldata, **options) == expected

    benchmark.group = PAIRING_GROUP
    benchmark.name = name
    benchmark.extra_info["ops_per_round"] = sum(
        expected.opcode_counts.get(op, 0) for op in ("ADDMOD384", "SUBMOD384", "MULMODMONT384"))
    benchmark.extra_info["instructions_per_round"] = expected.steps
    benchmark.extra_info["baseline"] = name.endswith("fused blocks")
    benchmark.pedantic(once, rounds=rounds, warmup_rounds=1 if options is not None else 0)


def test_instruction_count_is_as_designed():
    # setup: CALLDATASIZE, PUSH1, PUSH1, CALLDATACOPY, PUSH2; end: POP, PUSH1, PUSH1, RETURN
    assert _ours().steps == INSTRUCTIONS_PER_ITERATION * ITERATIONS + 5 + 4
