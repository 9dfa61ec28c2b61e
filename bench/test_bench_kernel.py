"""Kernel cost: one operation per cffi call, and per operation inside one batch call.

    python -m pytest bench/test_bench_kernel.py --benchmark-json=bench/results/kernel.json
    python bench/report.py bench/results/kernel.json
"""
import random

import pytest

from evm384_native.evm.kernels import kernel, reference
from evm384_native.evm.kernels.limbs import ints_to_array
from evm384_native.evm.kernels.montgomery import montgomery_inv

P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
P_INV = montgomery_inv(P)
BATCH_SIZE = 100_000
IMPLEMENTATIONS = ["mulx", "portable"]


@pytest.fixture(scope="module")
def batch_operands():
    rng = random.Random(384)
    return (ints_to_array(rng.randrange(P) for _ in range(BATCH_SIZE)),
            ints_to_array(rng.randrange(P) for _ in range(BATCH_SIZE)))


def _memory_image():
    rng = random.Random(7)
    return bytearray(rng.randrange(P).to_bytes(48, "little") + rng.randrange(P).to_bytes(48, "little")
                     + P.to_bytes(48, "little") + P_INV.to_bytes(8, "little"))


BATCHES = {
    "addmod384": lambda x, y: kernel.addmod384_batch(x, y, P),
    "submod384": lambda x, y: kernel.submod384_batch(x, y, P),
    "mulmodmont384": lambda x, y: kernel.mulmont384_batch(x, y, P, P_INV),
}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS, indirect=True)
@pytest.mark.parametrize("op", BATCHES)
def test_batch(benchmark, implementation, op, batch_operands):
    benchmark.group = f"kernel {op}: per op inside one batch of {BATCH_SIZE:,}"
    benchmark.extra_info["ops_per_round"] = BATCH_SIZE
    benchmark.pedantic(BATCHES[op], args=batch_operands, rounds=30, warmup_rounds=2)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS, indirect=True)
@pytest.mark.parametrize("op", BATCHES)
def test_call_native(benchmark, implementation, op):
    benchmark.group = f"kernel {op}: one op per call"
    benchmark.extra_info["ops_per_round"] = 1
    benchmark(getattr(kernel, op), _memory_image(), 0, 0, 48, 96)


@pytest.mark.parametrize("op", BATCHES)
def test_call_reference(benchmark, op):
    benchmark.group = f"kernel {op}: one op per call"
    benchmark.extra_info["ops_per_round"] = 1
    benchmark(getattr(reference, op), _memory_image(), 0, 0, 48, 96)
