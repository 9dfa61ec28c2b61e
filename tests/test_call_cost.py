"""The per-call work of ``execute`` done once per code (issue 25): the caches find code of
equal content without hashing it, repeated calls give equal results, lazily built result
fields equal eager ones, a changed code is never taken for a cached one, and the reused C
frames and uncleared EVMMAX states start each run empty."""
from __future__ import annotations

import dataclasses
import pickle
import threading

import pytest

from evm384_native.contracts import build_contract
from evm384_native.evm import ExecutionResult, execute
from evm384_native.evm import fast
from evm384_native.evm.cache import MAX_ALIKE, SAMPLES, SMALL_CODE, SizedCache
from evm384_native.evm.code import decode
from evm384_native.evm.gas import SCHEDULES, Evm384Schedule
from evm384_native.evm.opcode_sets import DEFAULT_OPCODE_SET
from test_evm_evmmax import (LOADX, STOREX, VALUES_AT, context_prefix, encode, mstore_bytes,
                             returning, transfer)

SCHEDULE = SCHEDULES["evmone-v7"]
SIZE = 24_576
ENGINES = ("fast", "python")


def returning_byte(value: int, size: int = SIZE) -> bytes:
    """PUSH1 value; PUSH1 0; MSTORE8; PUSH1 1; PUSH1 0; RETURN, padded with STOPs to size:
    ``value`` sits at pc 1, which the content key does not sample."""
    return bytes([0x60, value, 0x60, 0, 0x53, 0x60, 1, 0x60, 0, 0xF3]).ljust(size, b"\0")


class Unhashable(bytes):
    """Code whose hash must not be taken: the cache must find it by its content key."""

    def __hash__(self) -> int:
        raise AssertionError("the cache hashed the whole code")


def test_equal_content_in_a_new_object_is_found_without_hashing_it():
    made = []
    cache = SizedCache(1 << 20, len)
    code = returning_byte(1)
    for _ in range(3):
        assert cache.get(Unhashable(code), ("context",), lambda c, _: made.append(c) or "v") == "v"
    assert len(made) == 1
    assert cache.get(Unhashable(code), ("other",), lambda c, _: "w") == "w"   # by context too


@pytest.mark.parametrize("size", [1, SMALL_CODE, SMALL_CODE + 1, SIZE])
def test_decode_and_analysis_are_shared_by_equal_codes(size):
    code = returning_byte(7, size) if size >= 10 else b"\x00"
    copy = bytes(bytearray(code))
    assert copy is not code
    assert decode(copy, SCHEDULE) is decode(code, SCHEDULE)
    first = fast._ANALYSES.get(code, (SCHEDULE, True, DEFAULT_OPCODE_SET), fast._Analysis)
    assert fast._ANALYSES.get(copy, (SCHEDULE, True, DEFAULT_OPCODE_SET),
                              fast._Analysis) is first


def test_a_changed_byte_between_the_samples_is_a_different_code():
    assert 1 % (SIZE // SAMPLES) != 0                   # pc 1 is not sampled
    for engine in ENGINES:
        for value in (1, 2, 1, 3):
            assert execute(returning_byte(value), engine=engine).output == bytes([value])


def test_many_codes_sharing_a_content_key_are_all_kept_apart():
    values = range(1, 3 * MAX_ALIKE)
    for _ in range(2):
        for value in values:
            code = returning_byte(value)
            assert execute(code, engine="fast").output == bytes([value])
            assert decode(bytes(bytearray(code)), SCHEDULE) is decode(code, SCHEDULE)


def test_repeated_calls_give_equal_results():
    pairing = build_contract("bn254_pairing_check", target="evmmax")
    cases = [(b"\x00", b"", {}), (returning_byte(9), b"", {}),
             (bytes.fromhex("6001600201"), b"", {}),                    # runs off the end
             (b"\x01", b"", {}),                                         # stack underflow
             (b"\xfe", b"", {}),                                         # INVALID: the host
             (pairing, b"\x01", {"opcodes": "evmmax"})]                  # reverts at once
    for code, calldata, options in cases:
        for engine in ENGINES:
            results = [execute(bytes(bytearray(code)), calldata, engine=engine, **options)
                       for _ in range(3)]
            assert results[0] == results[1] == results[2]
            assert results[0].opcode_counts == results[2].opcode_counts
            assert results[0].steps == sum(results[0].opcode_counts.values())


def test_lazy_fields_equal_eager_ones():
    for engine in ENGINES:
        for code in (b"\x00", returning_byte(5), b"\x01", b"\xfe"):
            lazy = execute(code, engine=engine)
            eager = ExecutionResult(**{field.name: getattr(lazy, field.name)
                                       for field in dataclasses.fields(ExecutionResult)})
            fresh = execute(code, engine=engine)            # counts never read before
            assert fresh == eager and eager == fresh
            assert repr(execute(code, engine=engine)) == repr(eager)
            assert dataclasses.asdict(execute(code, engine=engine)) == dataclasses.asdict(eager)
            assert dataclasses.replace(execute(code, engine=engine)) == eager
            assert pickle.loads(pickle.dumps(execute(code, engine=engine))) == eager
            assert execute(code, engine=engine).steps == eager.steps
    with pytest.raises(AttributeError):
        execute(b"\x00", engine="fast").no_such_field


def test_a_schedule_hashes_by_value():
    assert hash(Evm384Schedule(8, 8, 24)) == hash(SCHEDULE) and Evm384Schedule(8, 8, 24) == SCHEDULE
    assert pickle.loads(pickle.dumps(SCHEDULE)) == SCHEDULE
    custom = {"ADDMOD384": 2, "SUBMOD384": 2, "MULMODMONT384": 6}
    for _ in range(2):          # a mapping is resolved on every call, never memoised
        assert execute(b"\x00", schedule=custom, engine="fast").success


def test_a_reused_frame_starts_empty():
    """Each run of a code gets an idle C frame of that code: stack, memory, gas and counts
    start empty whatever the last run of any code left."""
    leaves_stack_and_memory = bytes.fromhex("6001600260036004" "61ffff600052" "6020600020" "00")
    pop = b"\x50"                                      # underflows on an empty stack
    msize = bytes.fromhex("5960005260206000f3")        # returns MSIZE before its MSTORE: 0
    for _ in range(3):
        for code in (leaves_stack_and_memory, pop, msize):
            for gas in (10**6, 100):
                result = execute(code, gas=gas, engine="fast")
                assert result == execute(code, gas=gas, engine="python")
        assert execute(pop, engine="fast").error == "stack underflow"
        assert execute(msize, engine="fast").output == bytes(32)


def test_threads_running_one_code_agree():
    code = returning_byte(4)
    expected = execute(code, engine="python")
    results = []

    def work():
        results.extend(execute(code, engine="fast") for _ in range(200))
    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 800 and all(result == expected for result in results)


def test_evmmax_registers_start_zero_after_a_run_that_wrote_them():
    """The fast engine's EVMMAX state is not cleared when allocated: a context's registers
    are zeroed as SETMODX makes it."""
    modulus = 2**255 - 19
    writes = context_prefix(modulus, 4) + mstore_bytes(VALUES_AT, encode([1, 2, 3, 4], 32)) \
        + transfer(STOREX, 0, VALUES_AT, 4) + b"\x00"
    reads = context_prefix(modulus, 4) + transfer(LOADX, VALUES_AT, 0, 4) \
        + returning(VALUES_AT, 4 * 32)
    for _ in range(3):
        assert execute(writes, opcodes="evmmax", engine="fast").success
        result = execute(reads, opcodes="evmmax", engine="fast")
        assert result.output == bytes(4 * 32)
        assert result == execute(reads, opcodes="evmmax", engine="python")


def test_an_analysis_counts_its_idle_frames():
    """The analyses' cache is bounded by their memory: a C frame (33 KB) is counted from
    the start, when the run that made the analysis still holds it."""
    code = returning_byte(11, 300)
    analysis = fast._ANALYSES.get(code, (SCHEDULE, True, DEFAULT_OPCODE_SET), fast._Analysis)
    assert not analysis.idle_frames and analysis.memory_size() > fast._FRAME_BYTES
    before = analysis.memory_size()
    execute(code, engine="fast")
    assert len(analysis.idle_frames) == 1 and analysis.memory_size() == before


def test_the_last_run_is_found_again_only_with_all_its_options():
    """The fast engine finds a repeated call's analysis by the identity of the code, the
    schedule and the opcode set, and by the fusion flag: the same code object run under
    another of them, in turn, gets the analysis of that one."""
    from evm384_native.evm.api import run
    code = context_prefix(2**255 - 19, 1) + b"\x00"   # 0xc0: ADDMOD384 or SETMODX
    options = [{"schedule": "evmone-v7"}, {"schedule": "update5-A"},
               {"opcodes": "evmmax"}, {"schedule": "evmone-v7", "fuse_evm384": False}]
    for _ in range(2):
        seen = []
        for chosen in options:
            fast_result = run(code, engine="fast", **chosen)
            analysis = fast._last_run[-1]
            assert fast_result == run(code, engine="python", **chosen)
            assert run(code, engine="fast", **chosen) == fast_result
            assert fast._last_run[-1] is analysis
            seen.append((fast_result.gas_used, fast_result.opcode_counts, analysis))
        assert [gas for gas, _, _ in seen] == [136, 130, 164, 136]
        assert "SETMODX" in seen[2][1] and "ADDMOD384" in seen[0][1]
        assert len({id(analysis) for _, _, analysis in seen}) == 4


def test_forgetting_the_analyses_drops_the_last_run_too():
    code = returning_byte(12, 300)
    execute(code, engine="fast")
    assert fast._last_run[0] is code
    fast.forget_analyses()
    assert fast._last_run[0] is None and fast._ANALYSES.total() == 0
    assert execute(code, engine="fast").output == bytes([12])
