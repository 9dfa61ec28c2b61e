"""The adversarial corpus (evm384_native/pricing/adversarial.py) under pytest-benchmark:
every program run until 30M gas are gone, on each engine and backend it concerns, the code
decoded beforehand (decoding huge code is timed by ``python bench/adversarial.py``):

    python -m pytest bench/test_bench_adversarial.py --benchmark-json=bench/results/adversarial.json

Targets (issue 15): at most 2 s per program on the fast engine and 30 s on the python
engine with native kernels. With --benchmark-disable (CI's smoke run) each program gets
just enough gas to reach its loop (2.5M where it sets up 1 MiB of memory, which costs 2.2M;
else 250k) on the two default engines, and the 1 MiB programs are left out (decoding them
alone takes about 40 s).
"""
import pytest

from adversarial import ENGINES, GAS, applies, run_program

from evm384_native.pricing.adversarial import MIB, corpus

SMOKE_GAS = {True: 2_500_000, False: 250_000}  # by "sets up 1 MiB of memory or more"
SMOKE_ENGINES = ("fast", "python native")
CASES = [(program, engine) for program in corpus() for engine in ENGINES if applies(engine, program)]


@pytest.mark.parametrize("program, engine", CASES,
                         ids=[f"{program.name} | {engine}" for program, engine in CASES])
def test_adversarial_program(benchmark, request, program, engine):
    smoke = request.config.getoption("benchmark_disable")
    if smoke and (engine not in SMOKE_ENGINES or program.code_size_mib >= 1):
        pytest.skip("smoke run: the default engines on programs that decode quickly")
    gas = SMOKE_GAS[program.memory >= MIB] if smoke else GAS
    run_program(program, engine, gas)  # decodes the code, outside the timing
    benchmark.group = f"adversarial corpus, {gas:,} gas per run"
    benchmark.name = f"{program.name} | {engine}"
    benchmark.extra_info.update(gas=gas, engine=engine, program=program.name)
    benchmark.pedantic(run_program, args=(program, engine, gas), rounds=1, iterations=1)
