"""The pairing benchmark suite: every implementation in ONE pytest-benchmark run, on the
same random instances, each benchmark checking its answer.

    bench/pairing.sh      # this run, then the tables (report.py) and the chart (plot.py)
    python -m pytest bench/test_bench_pairing.py --benchmark-json=bench/results/pairing.json

Groups (ratios in the reports are to pyblst where a group has it, all from the same run):

* "two-pairing check (k = 2)": pairing_product_is_one on our fast engine, on our python
  engine with native and with reference ops, inside py-evm (``with_evm384()``), and the peer
  libraries of ``peers.py`` (points decoded beforehand);
* "Miller loop (k = 2)": the miller_loop contract; pyblst's and py_ecc's two Miller loops and
  their product;
* "final exponentiation": the final_exponentiation contract on the Miller loop contract's
  output (a true instance, so the answer is one); pyblst.final_verify(f, one);
  py_ecc.final_exponentiate;
* "k-pair check, k = 1" .. "k = 8": fast engine and pyblst (the scaling table);
* "batch of 16 two-pairing checks": the fast engine on 1 and 2 threads (the threads table;
  extra_info["checks_per_second"]);
* the hinted check (pairing_check_hinted, eip2537_pairing_check_hinted: no final
  exponentiation, the hint given): in the two-pairing group, and in "hinted check, k = 1"
  .. "k = 8" (k = 1, 2, 4, 8) beside the unhinted check and the peers (extra_info["pairs"]);
  the caller's prover (pairing_hint) in its own group, "hint prover (k = 2)".

EVM384 benchmarks keep the contract's facts in extra_info: bytecode size, instructions,
EVM384 op counts and gas under the three schedules (the same on every engine and backend).
"""
from __future__ import annotations

import random
import time
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Callable, Optional

import pytest

from evm384_native import execute
from evm384_native.bls12_381 import build_contract, encode_calldata, pairing_hint
from evm384_native.bls12_381.oracle import (blst_points_of, eip2537_input, encode_pairs,
                                            random_product_case)
from evm384_native.evm.gas import EVM384_NAMES, SCHEDULES
from evm384_native.integrations.pyevm import execute_in_pyevm, with_evm384
import interleaved  # bench/interleaved.py
from peers import (GT_ONE, PEER_CHECKS, PY_ECC,  # bench/peers.py
                   blst_is_one_after_final_exponentiation, blst_miller_loops,
                   py_ecc_is_one_after_final_exponentiation, py_ecc_miller_loops)

CHECK, MILLER_LOOP, FINAL_EXP = "pairing_product_is_one", "miller_loop", "final_exponentiation"
EIP2537 = "eip2537_pairing_check"
HINTED, EIP2537_HINTED = "pairing_check_hinted", "eip2537_pairing_check_hinted"
HINTED_KS = (1, 2, 4, 8)
PROVER_GROUP = "hint prover (k = 2)"
TWO_PAIRING = "two-pairing check (k = 2)"
MILLER_GROUP = "Miller loop (k = 2)"
FINAL_EXP_GROUP = "final exponentiation"
INTERLEAVED_GROUP, INTERLEAVED_ROUNDS = "two-pairing check (k = 2), interleaved rounds", 60
BATCH = 16
BATCH_GROUP = f"batch of {BATCH} two-pairing checks"
SCALING_KS = range(1, 9)
# rounds for calls of a few ms, for the ~0.1-0.5 s ones, and per k (keeps the suite short)
QUICK_ROUNDS, SLOW_ROUNDS, SCALING_ROUNDS, BATCH_ROUNDS = 200, 5, 50, 20
FAST, PYEVM, BLST = "EVM384, fast engine", "EVM384 in py-evm (with_evm384)", "pyblst"
ENGINES = {  # label: (engine, backend, rounds)
    FAST: ("fast", "native", QUICK_ROUNDS),
    "EVM384, python engine, native ops": ("python", "native", QUICK_ROUNDS),
    "EVM384, python engine, reference ops": ("python", "reference", SLOW_ROUNDS),
}
NATIVE_ENGINES = [label for label, (_, backend, _) in ENGINES.items() if backend == "native"]


@lru_cache(maxsize=None)
def _pairs(k: int) -> tuple:
    """k random pairs (seed k) whose product of pairings is one. For k = 1 that needs a point
    at infinity, which the contract skips, so k = 1 is one random pair (answer: not one)."""
    return tuple(random_product_case(random.Random(k), k, k > 1))


def _calldata(name: str, k: int) -> bytes:
    return encode_calldata(name, encode_pairs(_pairs(k)))


@lru_cache(maxsize=None)
def _hint(k: int) -> bytes:
    return pairing_hint(encode_pairs(_pairs(k)))


def _hinted_calldata(name: str, k: int) -> bytes:
    inputs = eip2537_input(_pairs(k)) if name == EIP2537_HINTED else encode_pairs(_pairs(k))
    return encode_calldata(name, inputs, _hint(k))


@lru_cache(maxsize=None)
def _facts(name: str, calldata: bytes, gas: int = 30_000_000) -> dict:
    """Issue 4's numbers for a contract run: size, instructions, EVM384 ops, gas."""
    code = build_contract(name)
    results = {s: execute(code, calldata, schedule=s, gas=gas) for s in SCHEDULES}
    assert all(result.success for result in results.values()), f"{name} failed"
    counts = results["update5-A"].opcode_counts
    return {"contract": name, "bytecode_bytes": len(code),
            "instructions": results["update5-A"].steps,
            **{op: counts.get(op, 0) for op in EVM384_NAMES},
            "evm384_ops": sum(counts.get(op, 0) for op in EVM384_NAMES),
            **{f"gas {s}": r.gas_used for s, r in results.items()}}


def _bench(benchmark, group: str, label: str, run: Callable[[], object], rounds: int,
           **extra_info: object) -> object:
    """Time ``run`` (one warm-up round) under ``label`` in ``group``; returns its result.
    pyblst is the baseline unless extra_info says otherwise."""
    benchmark.group = group
    benchmark.extra_info.update(label=label, baseline=label == BLST)
    benchmark.extra_info.update(extra_info)
    return benchmark.pedantic(run, rounds=rounds, warmup_rounds=1)


def _bench_contract(benchmark, group: str, label: str, name: str, calldata: bytes,
                    rounds: Optional[int] = None, shown_as: Optional[str] = None,
                    **extra_info: object) -> bytes:
    """Time contract ``name`` on engine ``label`` of ENGINES (its rounds unless given),
    shown as ``shown_as`` (default: ``label``); returns its output."""
    engine, backend, engine_rounds = ENGINES[label]
    code = build_contract(name)
    result = _bench(benchmark, group, shown_as or label,
                    lambda: execute(code, calldata, engine=engine, backend=backend,
                                    schedule="update5-A"),
                    rounds or engine_rounds, **_facts(name, calldata), **extra_info)
    assert result.success
    return result.output


def _is_one(word: bytes) -> bool:
    return int.from_bytes(word, "big") == 1


# --- the two-pairing check ----------------------------------------------------------------------

@pytest.mark.parametrize("label", ENGINES)
def test_two_pairing_evm384(benchmark, label):
    assert _is_one(_bench_contract(benchmark, TWO_PAIRING, label, CHECK, _calldata(CHECK, 2)))


def test_two_pairing_interleaved(benchmark):
    """The two engines (native ops), the hinted check on both (hint given) and pyblst in
    turn, one call each per round: the minimum and median per contender, and their ratios
    to pyblst's, in extra_info["interleaved"]. Rounds taken in turn see the same load, so
    these ratios hold up on a shared machine."""
    runs = {}
    for name, calldata, suffix in ((CHECK, _calldata(CHECK, 2), ""),
                                   (HINTED, _hinted_calldata(HINTED, 2), ", hinted")):
        code = build_contract(name)
        runs.update({label + suffix: (lambda engine=ENGINES[label][0], code=code, calldata=calldata:
                                      _is_one(execute(code, calldata, engine=engine,
                                                      schedule="update5-A").output))
                     for label in NATIVE_ENGINES})
    runs[BLST] = PEER_CHECKS[BLST](_pairs(2))
    one_round, times = interleaved.in_turn(runs)
    _bench(benchmark, INTERLEAVED_GROUP, "one round: every contender once", one_round,
           INTERLEAVED_ROUNDS)
    benchmark.extra_info["interleaved"] = interleaved.summary(times, BLST, INTERLEAVED_ROUNDS)


@pytest.mark.parametrize("label", NATIVE_ENGINES)
def test_two_pairing_eip2537_validating(benchmark, label):
    """The EIP-2537 contract: the same pairs in the precompile's encoding, decoded and fully
    validated (range, curve, subgroups) before the same pairing check."""
    output = _bench_contract(benchmark, TWO_PAIRING, label, EIP2537, eip2537_input(_pairs(2)),
                             shown_as=f"{label.split(', native ops')[0]}, EIP-2537 validating")
    assert _is_one(output)


@pytest.mark.parametrize("label", NATIVE_ENGINES)
@pytest.mark.parametrize("name", [HINTED, EIP2537_HINTED])
def test_two_pairing_hinted(benchmark, name, label):
    """The hinted checks, the hint given (computed beforehand by the caller: see
    test_hint_prover for its time)."""
    variant = "EIP-2537 validating, hinted" if name == EIP2537_HINTED else "hinted"
    output = _bench_contract(benchmark, TWO_PAIRING, label, name, _hinted_calldata(name, 2),
                             shown_as=f"{label.split(', native ops')[0]}, {variant}")
    assert _is_one(output)


def test_hint_prover(benchmark):
    """pairing_hint on the fast engine: the caller's work before a hinted check."""
    hint = _bench(benchmark, PROVER_GROUP, "pairing_hint (prover), fast engine",
                  lambda: pairing_hint(encode_pairs(_pairs(2))), QUICK_ROUNDS // 4)
    assert hint == _hint(2)


def test_hint_prover_blst(benchmark):
    """pyblst's full check, for scale in the prover's group."""
    check = PEER_CHECKS[BLST](_pairs(2))
    assert _bench(benchmark, PROVER_GROUP, BLST, check, QUICK_ROUNDS) is True


def test_two_pairing_pyevm(benchmark):
    code, calldata, vm_class = build_contract(CHECK), _calldata(CHECK, 2), with_evm384()
    result = _bench(benchmark, TWO_PAIRING, PYEVM,
                    lambda: execute_in_pyevm(code, calldata, vm_class=vm_class), SLOW_ROUNDS,
                    **_facts(CHECK, calldata))
    assert result.success and _is_one(result.output)


@pytest.mark.parametrize("label", PEER_CHECKS)
def test_two_pairing_peer(benchmark, label):
    check = PEER_CHECKS[label](_pairs(2))
    rounds = SLOW_ROUNDS if label == PY_ECC else QUICK_ROUNDS
    assert _bench(benchmark, TWO_PAIRING, label, check, rounds) is True


# --- the Miller loop and the final exponentiation ------------------------------------------------

@pytest.fixture(scope="module")
def miller_output() -> bytes:
    """Our Miller loop of the two-pairing instance (blst's Fp12 layout), python engine."""
    return execute(build_contract(MILLER_LOOP), _calldata(MILLER_LOOP, 2)).output


@pytest.mark.parametrize("label", NATIVE_ENGINES)
def test_miller_loop_evm384(benchmark, label, miller_output):
    output = _bench_contract(benchmark, MILLER_GROUP, label, MILLER_LOOP,
                             _calldata(MILLER_LOOP, 2))
    assert output == miller_output


def test_miller_loop_blst(benchmark):
    points = blst_points_of(_pairs(2))
    f = _bench(benchmark, MILLER_GROUP, BLST, lambda: blst_miller_loops(points), QUICK_ROUNDS)
    assert blst_is_one_after_final_exponentiation(f)


def test_miller_loop_py_ecc(benchmark):
    f = _bench(benchmark, MILLER_GROUP, PY_ECC, py_ecc_miller_loops(_pairs(2)), SLOW_ROUNDS)
    assert py_ecc_is_one_after_final_exponentiation(f)


@pytest.mark.parametrize("label", NATIVE_ENGINES)
def test_final_exponentiation_evm384(benchmark, label, miller_output):
    output = _bench_contract(benchmark, FINAL_EXP_GROUP, label, FINAL_EXP,
                             encode_calldata(FINAL_EXP, miller_output))
    assert output == GT_ONE


def test_final_exponentiation_blst(benchmark):
    f = blst_miller_loops(blst_points_of(_pairs(2)))
    assert _bench(benchmark, FINAL_EXP_GROUP, BLST,
                  lambda: blst_is_one_after_final_exponentiation(f), QUICK_ROUNDS) is True


def test_final_exponentiation_py_ecc(benchmark):
    f = py_ecc_miller_loops(_pairs(2))()
    assert _bench(benchmark, FINAL_EXP_GROUP, PY_ECC,
                  lambda: py_ecc_is_one_after_final_exponentiation(f), SLOW_ROUNDS) is True


# --- scaling in k and threads ---------------------------------------------------------------------

# The innermost parameter varies fastest: both implementations run for one k before the next
# k, so each ratio compares timings taken moments apart.
@pytest.mark.parametrize("label", [FAST, BLST])
@pytest.mark.parametrize("k", SCALING_KS)
def test_scaling(benchmark, k, label):
    group = f"k-pair check, k = {k}"
    if label == BLST:
        answer = _bench(benchmark, group, label, PEER_CHECKS[BLST](_pairs(k)), SCALING_ROUNDS, k=k)
    else:
        answer = _is_one(_bench_contract(benchmark, group, label, CHECK, _calldata(CHECK, k),
                                         SCALING_ROUNDS, k=k))
    assert answer == (k > 1)


HINTED_LABELS = ([f"{label}, hinted" for label in NATIVE_ENGINES] + [FAST]
                 + [label for label in PEER_CHECKS if label != PY_ECC])


@pytest.mark.parametrize("label", HINTED_LABELS)
@pytest.mark.parametrize("k", HINTED_KS)
def test_hinted_scaling(benchmark, k, label):
    """The hinted check for k pairs beside the unhinted one and the peers (extra_info
    "pairs", not "k": these are plain group tables, one per k)."""
    group = f"hinted check, k = {k}"
    if label in PEER_CHECKS:
        answer = _bench(benchmark, group, label, PEER_CHECKS[label](_pairs(k)), SCALING_ROUNDS,
                        pairs=k)
    else:
        hinted = label.endswith(", hinted")
        name = HINTED if hinted else CHECK
        calldata = _hinted_calldata(name, k) if hinted else _calldata(CHECK, k)
        answer = _is_one(_bench_contract(benchmark, group, label.replace(", hinted", ""), name,
                                         calldata, SCALING_ROUNDS, shown_as=label, pairs=k))
    assert answer == (k > 1)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_throughput(benchmark, threads):
    """BATCH two-pairing checks on the fast engine, spread over ``threads`` threads (the C
    loop releases the GIL, so two threads can use both cores)."""
    code, calldata = build_contract(CHECK), _calldata(CHECK, 2)

    def check(_: int) -> bytes:
        return execute(code, calldata, engine="fast", schedule="update5-A").output

    with ThreadPoolExecutor(max_workers=threads) as pool:
        cpu, wall = time.process_time(), time.perf_counter()
        outputs = _bench(benchmark, BATCH_GROUP, f"fast engine, {threads} thread(s)",
                         lambda: list(pool.map(check, range(BATCH))), BATCH_ROUNDS,
                         threads=threads, checks=BATCH, baseline=threads == 1)
        # cores this process kept busy: below ~2 with 2 threads means the machine's other
        # core was taken (it is shared), not that the checks serialised
        cores_busy = (time.process_time() - cpu) / (time.perf_counter() - wall)
    assert all(map(_is_one, outputs))
    if benchmark.stats is not None:  # None under --benchmark-disable (a smoke run)
        benchmark.extra_info.update(checks_per_second=BATCH / benchmark.stats.stats.median,
                                    cores_busy=cores_busy)
