"""The BN254 contracts (bn254_add, bn254_mul, bn254_pairing_check, bn254_pairing_check_hinted)
on the fast engine beside revm's native precompiles 0x06-0x08 (pyrevm) and py_ecc, in one
pytest-benchmark run; ``bench/bn254_table.py`` writes the gas and time tables
(bench/results/bn254.md).

    python -m pytest bench/test_bench_bn254.py --benchmark-json=bench/results/bn254.json
    python bench/report.py bench/results/bn254.json
    python -m pytest bench/test_bench_bn254.py --benchmark-disable     # CI: one round each

Group "BN254 vs revm, interleaved rounds": per operation (add, mul, the pairing check and
the hinted check for k = 1, 2, 4, 8 pairs), both builds on the fast engine, revm's
precompile (a message call on one reused pyrevm EVM), the per-call overheads (ECADD of the
empty input and a STOP contract on revm, a STOP contract on the fast engine), py_ecc for add
and mul, and the hint prover for the hinted check, in turn, one call each per round
(``bench/bn254_peers.py``; the garbage collector off within a round). extra_info["interleaved"]
has min / median and ratios to revm's precompile; extra_info["net"] the same less each
side's trivial call. Group "BN254 py_ecc reference": py_ecc's pairing check (k = 2), in rounds
of its own (~1 s each). Every call's answer is checked; a contender that answers wrong is
still timed and the test then fails.
"""
from __future__ import annotations

import pytest

import bn254_peers as peers  # bench/bn254_peers.py
import interleaved  # bench/interleaved.py

INTERLEAVED_GROUP = "BN254 vs revm, interleaved rounds"
INTERLEAVED_ROUNDS = 40
PAIRING_KS = (1, 2, 4, 8)
CASES = ([("add", 0), ("mul", 0)] + [("pairing", k) for k in PAIRING_KS]
         + [("hinted", k) for k in PAIRING_KS])


@pytest.fixture(scope="module")
def revm():
    if not peers.revm_available():
        pytest.skip("pyrevm is not installed (pip install pyrevm): no native peer")
    return peers.Revm()


def _name(op: str, k: int) -> str:
    return peers.CONTRACT[op] + (f", k = {k}" if k else "")


@pytest.mark.parametrize("op,k", CASES, ids=[f"{op}-k{k}" if k else op for op, k in CASES])
def test_bn254_interleaved(benchmark, revm, op, k):
    inst = peers.instance(op, k)
    runs, wrong = peers.contenders(inst, revm, with_py_ecc=op in ("add", "mul"))
    one_round, times = interleaved.in_turn(runs)
    benchmark.group = INTERLEAVED_GROUP
    benchmark.extra_info.update(label=f"{_name(op, k)}: one round, every contender once",
                                op=op, pairs=k, gas_precompile=peers.precompile_gas(op, k))
    for target in peers.TARGETS:
        result = peers.run_contract(inst, target, wrong=[], engine="fast")
        benchmark.extra_info[f"gas {target}"] = result.gas_used
        benchmark.extra_info[f"bytes {target}"] = len(peers.code(op, target))
    benchmark.pedantic(peers.quiet(one_round), rounds=INTERLEAVED_ROUNDS, warmup_rounds=1)
    summary = peers.summarize(times, INTERLEAVED_ROUNDS)
    benchmark.extra_info.update(summary, wrong=wrong)
    if wrong:
        pytest.fail("; ".join(wrong.values()))


def test_bn254_py_ecc_pairing(benchmark):
    """py_ecc's ECPAIRING by the EIPs' rules (tests/bn254_cases.reference), k = 2."""
    inst = peers.instance("pairing", 2)
    benchmark.group = "BN254 py_ecc reference"
    benchmark.extra_info.update(label="py_ecc optimized_bn128, pairing check, k = 2", pairs=2)
    answer = benchmark.pedantic(peers.cases.reference, args=("pairing", inst.data), rounds=3,
                                iterations=1)
    assert answer == inst.expected
