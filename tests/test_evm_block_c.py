"""evm384_run_records (csrc/evm384_block.c): many EVM384 ops in one native call,
against the reference one op at a time, and its bounds checks."""
import random

from hypothesis import given, settings, strategies as st

from evm384_native import reference
from evm384_native._native import ffi, lib

REFERENCE = {0xC0: reference.addmod384, 0xC1: reference.submod384,
             0xC2: reference.mulmodmont384}
SIZE = 512


def run_records(memory: bytearray, records):
    flat = [value for record in records for value in record]
    return lib.evm384_run_records(ffi.from_buffer(memory), len(memory),
                                  ffi.new("uint32_t[]", flat), len(records))


offset = st.integers(0, SIZE - 56)
records = st.lists(st.tuples(st.sampled_from(sorted(REFERENCE)), offset, offset, offset, offset),
                   max_size=20)


@settings(max_examples=100)
@given(records=records, seed=st.integers(0, 2**32))
def test_records_equal_the_reference_one_by_one(records, seed):
    memory = bytearray(random.Random(seed).randbytes(SIZE))
    expected = bytearray(memory)
    for opcode, *operands in records:
        REFERENCE[opcode](expected, *operands)
    assert run_records(memory, records) == len(records)
    assert memory == expected


def test_stops_at_the_first_record_outside_memory_and_touches_nothing_beyond():
    memory = bytearray(range(256)) * 2
    before = bytes(memory)
    ok = (0xC0, 0, 48, 96, 144)
    outside = [(0xC0, SIZE - 47, 0, 0, 0), (0xC1, 0, SIZE - 47, 0, 0), (0xC0, 0, 0, SIZE, 0),
               (0xC2, 0, 0, 0, SIZE - 55), (0xC2, 0, 0, 0, 2**32 - 1)]
    for bad in outside:
        memory[:] = before
        expected = bytearray(before)
        reference.addmod384(expected, *ok[1:])
        assert run_records(memory, [ok, bad, ok]) == 1
        assert memory == expected  # the first ran, the bad one and the rest did not


def test_unknown_opcode_stops_the_run():
    memory = bytearray(SIZE)
    assert run_records(memory, [(0xC0, 0, 0, 0, 0), (0x01, 0, 0, 0, 0)]) == 1
    assert run_records(memory, []) == 0
