"""The adversarial corpus of bench/adversarial.py under pytest-benchmark: every program
run until 30M gas are gone, on each engine and backend it concerns, the code decoded
beforehand (decoding huge code is timed by ``python bench/adversarial.py``):

    python -m pytest bench/test_bench_adversarial.py --benchmark-json=bench/results/adversarial.json

Targets (issue 15): at most 2 s per program on the fast engine and 30 s on the python
engine with native kernels. With --benchmark-disable (CI's smoke run) each program gets
3M gas: past its setup (1 MiB of memory costs 2.2M), into its loop.
"""
import pytest

from adversarial import ENGINES, GAS, applies, corpus, run_program

SMOKE_GAS = 3_000_000
CASES = [(program, engine) for program in corpus() for engine in ENGINES if applies(engine, program)]


@pytest.mark.parametrize("program, engine", CASES,
                         ids=[f"{program.name} | {engine}" for program, engine in CASES])
def test_adversarial_program(benchmark, request, program, engine):
    gas = SMOKE_GAS if request.config.getoption("benchmark_disable") else GAS
    run_program(program, engine, gas)  # decodes the code, outside the timing
    benchmark.group = f"adversarial corpus, {gas:,} gas per run"
    benchmark.name = f"{program.name} | {engine}"
    benchmark.extra_info.update(gas=gas, engine=engine, program=program.name)
    benchmark.pedantic(run_program, args=(program, engine, gas), rounds=1, iterations=1)
