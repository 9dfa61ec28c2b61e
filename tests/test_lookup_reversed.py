"""ec.windows.Lookup with ``upper_reversed`` on plain EVM (bn254_mul's table there,
ec/odd_multiples.py: records 0 .. 15 hold [2i - 31] P, records 16 + i hold [31 - 2i] P):
the digit word turned once by :meth:`Lookup.reverse_upper`, then each digit's record loaded,
against the digit read from the word as given in Python integers (d = 2u + 1 - 2^bits), for
ECMUL's layout (a narrow lowest digit of 2 bits, 25 of 5 bits above it)."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.asm import G1, Assembler, raw
from evm384_native.curves import BN254
from evm384_native.ec.windows import RECORDS, WINDOW, Lookup
from evm384_native.tower.fp import Emitter
from evm384_native.tower.targets import resolve_target

WORD = 32
LOW_BITS, DIGITS = 2, 26
# (shift, bits) of each digit as ec/glv_multiply.py reads them: the narrow one at
# WINDOW - LOW_BITS, digit j >= 1 at WINDOW j
READS = [(WINDOW - LOW_BITS, LOW_BITS)] + [(WINDOW * j, WINDOW) for j in range(1, DIGITS)]


def _table() -> bytes:
    """The reversed layout's records, each (d, d) as words (d mod 2^256): what the lookups
    must find for a digit d."""
    half = RECORDS // 2
    ds = [2 * i - 31 for i in range(half)] + [31 - 2 * i for i in range(half)]
    return b"".join(2 * (d % 2**256).to_bytes(WORD, "big") for d in ds)


@lru_cache(maxsize=None)
def _program() -> bytes:
    """Calldata: a digit word, then the table -> the record of each digit of READS."""
    isa = resolve_target("evm").for_field(BN254)
    asm = Assembler("lookup_reversed", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, BN254, target=isa)
    table = asm.memory.region("scalar_table", first=True).alloc(raw(RECORDS * 2 * WORD),
                                                                "table")
    dest = asm.memory.region("record").alloc(G1, "record")
    out = asm.memory.region("out").alloc(raw(len(READS) * 2 * WORD), "out")
    lookup = Lookup(e, table, 2 * WORD, upper_reversed=True)
    asm.push(RECORDS * 2 * WORD)
    asm.push(WORD)
    asm.push(table)
    asm.op("CALLDATACOPY")
    asm.push(0)
    asm.op("CALLDATALOAD")
    lookup.reverse_upper([shift for shift, bits in READS if bits == WINDOW])
    for j, (shift, bits) in enumerate(READS):
        lookup.load(dest, 1, shift, bits)
        asm.push(2 * WORD)
        asm.push(isa.staging(e, dest))
        asm.push(lambda j=j: int(out) + 2 * WORD * j)
        asm.op("MCOPY")
    asm.push(len(READS) * 2 * WORD)
    asm.push(out)
    asm.op("RETURN")
    e.finish()
    return asm.assemble().code


@settings(max_examples=60, deadline=None)
@given(st.integers(0, (1 << 256) - 1))
def test_every_digit_finds_its_record(word):
    result = execute(_program(), word.to_bytes(WORD, "big") + _table(), opcodes="evm")
    assert result.success, result.error
    out = [int.from_bytes(result.output[i:i + WORD], "big")
           for i in range(0, len(result.output), WORD)]
    pre_shift = 6                                   # 64-byte records: u times 64
    for j, (shift, bits) in enumerate(READS):
        u = word >> (shift + pre_shift) & ((1 << bits) - 1)
        d = (2 * u + 1 - (1 << bits)) % 2**256
        assert out[2 * j:2 * j + 2] == [d, d], (j, u)


def test_the_extreme_digits():
    """All digits 0, all 31 (the narrow one 0, 3), and alternating."""
    ones = sum(((1 << bits) - 1) << (shift + 6) for shift, bits in READS)
    for word in (0, ones, ones & int("01" * 128, 2), ones & int("10" * 128, 2)):
        test_every_digit_finds_its_record.hypothesis.inner_test(word)
