"""Hypothesis-generated programs against py-evm (Prague): success, output and gas
used must agree, and every backend/dispatch mode must give identical results."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from evm384_native import execute
from evm384_native.evm.opcodes import EVM384_OPCODES, OPCODES

from evm_helpers import PYEVM_FORK, assert_matches_pyevm, pyevm_run, push, run_everywhere

SHARED = sorted(code for code, info in OPCODES.items()
                if not info.needs_state and not info.immediate and code not in EVM384_OPCODES)
U = 2**256
words = st.one_of(st.sampled_from([0, 1, 31, 32, 255, 2**64, 2**255, U - 1]),
                  st.integers(0, U - 1))
instruction = st.one_of(
    st.integers(0, 255).map(lambda v: push(v, 1)),               # offsets, sizes, jump targets
    words.map(push),
    st.tuples(st.integers(1, 32), words).map(lambda nv: push(nv[1] % 256**nv[0], nv[0])),
    st.sampled_from(SHARED).map(lambda code: bytes([code])),
    st.just(bytes([0x5B])),                                      # more JUMPDESTs for loops
)
small_push = st.integers(0, 96).map(lambda v: push(v, 1))
# A few pushes first, so that most programs get past their first instructions.
programs = st.tuples(st.lists(st.one_of(small_push, words.map(push)), min_size=3, max_size=8),
                     st.lists(instruction, min_size=1, max_size=40)).map(
    lambda parts: b"".join(parts[0] + parts[1]))
gas_limits = st.one_of(st.integers(0, 30_000), st.sampled_from([0, 21, 100_000]))
calldata = st.binary(max_size=80)
SLOW_OK = settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow],
                   deadline=None)


@SLOW_OK
@given(code=programs, data=calldata, gas=gas_limits)
def test_generated_programs_match_pyevm(code, data, gas):
    assert_matches_pyevm(code, data, gas=gas, evm384_gas=None)


@SLOW_OK
@given(code=st.binary(max_size=64), data=calldata, gas=gas_limits)
def test_arbitrary_bytes_never_crash_and_match_pyevm_with_evm384(code, data, gas):
    ours = run_everywhere(code, data, gas, fork=PYEVM_FORK)  # 0x1e as py-evm has it
    if ours.error is not None and ours.error.startswith("unsupported opcode"):
        return  # py-evm has world state and runs these
    assert (ours.success, ours.output, ours.gas_used) == pyevm_run(code, data, gas)


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(4))     # independent draws that workers share out
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(code=programs, data=calldata, gas=gas_limits)
def test_many_generated_programs_match_pyevm(shard, code, data, gas):
    assert_matches_pyevm(code, data, gas=gas, evm384_gas=None)


@settings(max_examples=200, deadline=None)
@given(code=st.binary(max_size=300), data=st.binary(max_size=300),
       gas=st.integers(0, 2**63 - 1))
def test_arbitrary_input_always_gives_a_result(code, data, gas):
    result = execute(code, data, gas=min(gas, 10**6))
    assert result.gas_used + result.gas_left == min(gas, 10**6)
    assert result.success == (result.error is None)
