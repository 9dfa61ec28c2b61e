"""evm384_run_records (csrc/evm384_block.c): many EVM384 ops in one native call,
against the reference one op at a time, and its bounds checks."""
import random

from hypothesis import given, settings, strategies as st

from evm384_native.evm.kernels import reference
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


MCOPY, GROUP_FLAG = lib.EVM384_OP_MCOPY, lib.EVM384_FP2_PRODUCT_GROUP


def test_the_record_flags_of_the_two_loops_agree():
    assert GROUP_FLAG == lib.EVM_FP2_PRODUCT_GROUP


@settings(max_examples=100)
@given(dest=st.integers(0, SIZE), source=st.integers(0, SIZE), size=st.integers(1, SIZE),
       seed=st.integers(0, 2**32))
def test_an_mcopy_record_is_a_memmove_or_stops_the_run(dest, source, size, seed):
    memory = bytearray(random.Random(seed).randbytes(SIZE))
    expected = bytearray(memory)
    ok = (0xC1, 0, 48, 96, 144)
    REFERENCE[0xC1](expected, *ok[1:])
    fits = dest + size <= SIZE and source + size <= SIZE
    if fits:
        expected[dest:dest + size] = expected[source:source + size]
        REFERENCE[0xC1](expected, *ok[1:])
    assert run_records(memory, [ok, (MCOPY, dest, source, size, 0), ok]) == (3 if fits else 1)
    assert memory == expected


def test_a_flagged_group_that_does_not_fit_runs_op_by_op_to_its_first_bad_record():
    """A group flag is the host's proof: the C loop still bounds every record, and a group
    cut short by the run's end or reaching past memory runs record by record."""
    memory = bytearray(random.Random(2).randbytes(SIZE))
    memory[0:56] = bytes(56)                       # a zero modulus: the guards fail too
    before = bytes(memory)
    group = [(0xC2 | GROUP_FLAG, 64, 112, 160, 0), (0xC2, 208, 256, 304, 0),
             (0xC2, 352, 112, 304, 0), (0xC2, 400, 256, 160, 0), (0xC0, 400, 400, 352, 0),
             (0xC1, 448, 208, 208, 0)]
    for records, ran in ((group[:4], 4), (group[:5] + [(0xC1, SIZE - 47, 0, 0, 0)], 5)):
        memory[:] = before
        expected = bytearray(before)
        for opcode, *operands in records[:ran]:
            REFERENCE[opcode & 0xFF](expected, *operands)
        assert run_records(memory, records) == ran
        assert memory == expected
