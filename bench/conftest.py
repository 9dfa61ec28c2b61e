"""Shared fixtures for the benchmark suites (run with --benchmark-json to keep results)."""
import pytest

from evm384_native.evm.kernels import kernel


@pytest.fixture
def implementation(request):
    """Select a Montgomery multiplication for one benchmark, then restore auto."""
    name = request.param
    if name == "mulx" and not kernel.mulx_available():
        pytest.skip("this CPU has no MULX/ADX")
    kernel.use_implementation(name)
    yield name
    kernel.use_implementation("auto")


def pytest_benchmark_update_json(config, benchmarks, output_json):
    """Keep the committed JSON small: statistics only, not every round's time (the
    per-call kernel benchmarks run hundreds of thousands of rounds)."""
    for bench in output_json["benchmarks"]:
        bench["stats"].pop("data", None)
