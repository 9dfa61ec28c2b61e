"""The modexp contract (issue 50) against the precompile it replaces, on both targets ("evm",
"evmmax") and both engines: go-ethereum's vectors, every edge case and shape of
tests/modexp_cases.py and 12,000 random inputs (most on the fast engine; the python engine
on a sample, where it must also spend exactly the fast engine's gas). The expected answers
come from reference.modexp, itself checked against pow, py-evm and revm
(tests/test_modexp_reference.py). A failure of the precompile (a length above 1,024 bytes,
EIP-7823) must be an exceptional halt that consumes all the gas, not a REVERT. And the
contract deployed in revm (pyrevm) and called from bytecode answers as revm's precompile
(where its path runs no CLZ, which pyrevm 0.3.7 lacks)."""
import pytest

from evm384_native import execute
from evm384_native.asm.failure import HALT
from evm384_native.modexp import reference
from tests import modexp_cases as cases
from tests import modexp_oracles as oracles
from tests import modexp_runs as runs

FAST_RANDOM = 6_000                     # per target, fast engine
PYTHON_RANDOM = 300                     # per target, python engine (the gas comparison too)
PYTHON_MAX_LENGTH = 128                 # larger inputs run on the python engine in a test of their own
REVM_SAMPLE = 300
HEAVY_PRICE = 1_000_000                 # EIP-7883's gas: above it, a run takes seconds


def check(outcome: runs.Outcome, data: bytes, gas: int = runs.GAS) -> None:
    """The precompile's output, or an exceptional halt that consumed all ``gas``."""
    answer = reference.modexp(data)
    if answer is None:
        assert HALT.ended(outcome) and outcome.gas_used == gas, (outcome, data.hex())
    else:
        assert outcome.success and outcome.output == answer, (outcome, data.hex())


def _cheap(data: bytes) -> bool:
    """Small enough for the python engine beside the fast one on every named input (the
    larger run in a test of their own)."""
    return max(cases.declared_lengths(data)) <= PYTHON_MAX_LENGTH


def _named_inputs():
    return ([(v.name, v.data) for v in cases.vectors("eip-2565")]
            + [(c.name, c.data) for c in cases.edge_cases() + cases.shapes()])


@pytest.fixture(params=runs.TARGETS)
def target(request):
    return request.param


# --- outputs and failures ---------------------------------------------------------------------

def _heavy(data: bytes) -> bool:
    """Seconds on the fast engine (RSA with a full exponent): run alone, never on the
    python engine."""
    return cases.within_bounds(data) and reference.price_eip7883(data) > HEAVY_PRICE


def test_vectors_edges_and_shapes_on_the_fast_engine(target):
    run = runs.contract_runner(target, "fast")
    for name, data in _named_inputs():
        if not _heavy(data):
            check(run(data), data)


def test_heavy_shapes_on_the_fast_engine(target):
    run = runs.contract_runner(target, "fast")
    heavy = [(name, data) for name, data in _named_inputs() if _heavy(data)]
    assert len(heavy) >= 2
    for name, data in heavy:
        check(run(data), data)


def test_cheap_vectors_and_edges_on_the_python_engine_spend_the_fast_engines_gas(target):
    fast, slow = runs.contract_runner(target, "fast"), runs.contract_runner(target, "python")
    for name, data in _named_inputs():
        if _cheap(data) or not cases.within_bounds(data):
            outcome = slow(data)
            check(outcome, data)
            assert outcome == fast(data), name


def test_large_vectors_edges_and_shapes_on_the_python_engine(target):
    fast, slow = runs.contract_runner(target, "fast"), runs.contract_runner(target, "python")
    for name, data in _named_inputs():
        if not _cheap(data) and cases.within_bounds(data) and not _heavy(data):
            outcome = slow(data)
            check(outcome, data)
            assert outcome == fast(data), name


def test_random_inputs_on_the_fast_engine(target):
    run = runs.contract_runner(target, "fast")
    for data in cases.random_inputs(seed=11, count=FAST_RANDOM):
        check(run(data), data)


def test_random_inputs_on_the_python_engine_spend_the_fast_engines_gas(target):
    fast, slow = runs.contract_runner(target, "fast"), runs.contract_runner(target, "python")
    sample = [d for d in cases.random_inputs(seed=12, count=4 * PYTHON_RANDOM) if _cheap(d)]
    for data in sample[:PYTHON_RANDOM]:
        outcome = slow(data)
        check(outcome, data)
        assert outcome == fast(data), data.hex()


def test_a_failure_consumes_whatever_gas_it_is_given(target):
    code = runs.contract(target)
    failing = [c.data for c in cases.edge_cases() if not cases.within_bounds(c.data)]
    for gas in (30_000, 1_000_000, 123_457):
        for engine in runs.ENGINES:
            for data in failing:
                check(runs.run_code(code, target, engine, data, gas), data, gas)


def test_the_contract_fits_eip_170(target):
    assert len(runs.contract(target)) <= 24_576


# Issue 50's gas targets ("Done when"): the most gas each shape may execute on a target.
# RSA-2048's is not met yet (docs/modexp.md: where its gas goes); strict, so that meeting
# it fails here until the mark is removed.
GAS_TARGETS = [
    ("BN254 p, E = p - 2", "evm", 5_500),
    ("BN254 p, E = p - 2", "evmmax", 3_000),
    pytest.param("RSA-2048, E = 65537", "evm", 130_000, marks=pytest.mark.xfail(
        strict=True, reason="issue 50's RSA-2048 target is open: 361,860 gas on main ca207a3")),
]


@pytest.mark.parametrize("shape, build, most", GAS_TARGETS)
def test_issue_50s_gas_targets(shape, build, most):
    run = runs.contract_runner(build, "fast")
    data = next(c.data for c in cases.shapes() if c.name == shape)
    outcome = run(data)
    check(outcome, data)
    assert outcome.gas_used <= most


# --- called from bytecode in revm ----------------------------------------------------------------

@pytest.fixture(scope="module")
def revm_code():
    from revm_oracle import require_revm
    require_revm()
    return runs.contract("evm")


def _revm_sample():
    inputs = [c.data for c in cases.edge_cases() + cases.shapes()[:6]]
    inputs += [v.data for v in cases.vectors("eip-2565")[:8]]
    return inputs + cases.random_inputs(seed=13, count=REVM_SAMPLE)


def _runs_without_clz(code: bytes, data: bytes) -> bool:
    """Whether the contract answers ``data`` under Prague as under Osaka: pyrevm 0.3.7 has
    no CLZ (0x1e, Osaka), so a path that runs it halts there (tests/revm_oracle.py)."""
    prague = execute(code, data, opcodes="evm", engine="fast", fork="prague", gas=runs.GAS)
    return prague.error is None or not prague.error.startswith("invalid opcode 0x1e")


def test_called_from_bytecode_in_revm_it_answers_as_revms_precompile(revm_code):
    """On the sample's inputs whose paths run no CLZ (a fifth at least)."""
    sample = _revm_sample()
    compared = [data for data in sample if _runs_without_clz(revm_code, data)]
    assert len(compared) >= len(sample) // 5
    for data in compared:
        answer = oracles.revm_contract_answer(revm_code, data)
        if cases.within_bounds(data):
            precompile = oracles.revm_answer(data)
            assert answer.success and answer.output == precompile.output, data.hex()
            ours = runs.run_code(revm_code, "evm", "fast", data)
            assert answer.gas == ours.gas_used, data.hex()
        else:
            assert not answer.success and not answer.output, data.hex()
