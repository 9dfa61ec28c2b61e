"""EVMMAX kernels: ns per ADDMODX/SUBMODX/MULMODX element inside one batch call, at each
limb count 1..12 and on both Montgomery implementations, and the 6-limb generic API beside
today's EVM384 kernel (mulmont384_batch) in the same run.

    python -m pytest bench/test_bench_modx.py --benchmark-json=bench/results/modx.json
    python bench/report.py bench/results/modx.json
"""
import random

import pytest

from evm384_native.evm.kernels import kernel, modx
from evm384_native.evm.kernels.modx_common import ints_to_rows

# Small enough that x, y and out stay in L2 at 12 limbs (576 KB): with 20,000 rows the
# 12-limb rows spill to memory and the loaded machine's bandwidth, not the kernel, shows.
BATCH_SIZE = 2_000
LIMB_COUNTS = range(1, 13)
IMPLEMENTATIONS = ["mulx", "portable"]
P381 = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
OPS = {"add": modx.addmodx_batch, "sub": modx.submodx_batch, "mul": modx.mulmodx_batch}


def _modulus(limbs: int) -> int:
    """An odd modulus filling `limbs` limbs; BLS12-381's p at 6 limbs."""
    if limbs == 6:
        return P381
    return random.Random(limbs).randrange(1 << (64 * limbs - 1), 1 << (64 * limbs)) | 1


def _operands(context: modx.FieldContext):
    rng = random.Random(6690)
    return tuple(ints_to_rows([rng.randrange(context.modulus) for _ in range(BATCH_SIZE)],
                              context.limbs) for _ in range(2))


@pytest.fixture(scope="module")
def contexts():
    return {limbs: modx.FieldContext(_modulus(limbs)) for limbs in LIMB_COUNTS}


@pytest.fixture(scope="module")
def operands(contexts):
    return {limbs: _operands(context) for limbs, context in contexts.items()}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS, indirect=True)
@pytest.mark.parametrize("limbs", LIMB_COUNTS)
@pytest.mark.parametrize("op", OPS)
def test_modx_batch(benchmark, implementation, op, limbs, contexts, operands):
    benchmark.group = f"EVMMAX {op} per element, batch of {BATCH_SIZE:,}"
    benchmark.extra_info.update(ops_per_round=BATCH_SIZE, label=f"{limbs} limbs, {implementation}")
    benchmark.pedantic(OPS[op], args=(contexts[limbs],) + operands[limbs], rounds=50,
                       warmup_rounds=2)


SIX_LIMBS = {
    ("add", "evmmax"): lambda context, x, y: modx.addmodx_batch(context, x, y),
    ("add", "evm384"): lambda context, x, y: kernel.addmod384_batch(x, y, P381),
    ("sub", "evmmax"): lambda context, x, y: modx.submodx_batch(context, x, y),
    ("sub", "evm384"): lambda context, x, y: kernel.submod384_batch(x, y, P381),
    ("mul", "evmmax"): lambda context, x, y: modx.mulmodx_batch(context, x, y),
    ("mul", "evm384"): lambda context, x, y: kernel.mulmont384_batch(x, y, P381, context.inv),
}
API_LABELS = {"evmmax": "modx.*modx_batch (EVMMAX API, 6 limbs; checks inputs < p)",
              "evm384": "kernel.*384_batch (EVM384 kernel)"}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS, indirect=True)
@pytest.mark.parametrize("op, api", SIX_LIMBS)
def test_six_limbs_against_evm384(benchmark, implementation, op, api, contexts, operands):
    benchmark.group = f"BLS12-381 {op}, {implementation}: EVMMAX API vs EVM384 kernel"
    benchmark.extra_info.update(ops_per_round=BATCH_SIZE, label=API_LABELS[api],
                                baseline=api == "evm384")
    benchmark.pedantic(SIX_LIMBS[op, api], args=(contexts[6],) + operands[6], rounds=100,
                       warmup_rounds=5)
