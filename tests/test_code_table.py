"""ec.windows.CodeTable on plain EVM: the record of a regular signed digit d = 2u + 1 -
2^window read from a word, the sign applied at run time, for every window it accepts (2 to
8 bits), digit words as given or with their digits' top bits flipped (:meth:`CodeTable.flip`,
what P-256's build reads), against [d] G in Python integers (the curves' definitions)."""
from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.asm import G1, Assembler, raw
from evm384_native.curves import weierstrass
from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.ec.windows import CodeTable
from evm384_native.tower.fp import Emitter
from evm384_native.tower.targets import resolve_target

CURVES = {"P-256": P256, "secp256k1": SECP256K1}
WORD = 32


@lru_cache(maxsize=None)
def _program(curve_name: str, window: int, flipped: bool) -> bytes:
    """Calldata: a digit word -> the records (x, y) of its digits at bits 0, window, ..
    (each loaded into the same slot, then copied out)."""
    curve = CURVES[curve_name]
    isa = resolve_target("evm").for_field(curve)
    asm = Assembler("code_table", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, curve, target=isa)
    digits = 256 // window
    dest = asm.memory.region("record").alloc(G1, "record")
    out = asm.memory.region("out").alloc(raw(digits * 2 * WORD), "out")
    data = asm.new_label("odd_multiples")
    records = b""
    for u in range(1 << (window - 1)):            # [1] G .. [2^window - 1] G
        x, y = _multiple(curve_name, 2 * u + 1)
        records += x.to_bytes(WORD, "big") + y.to_bytes(WORD, "big")
    asm.data(records, label=data)
    table = CodeTable(e, data, window, flipped=flipped)
    asm.push(0)
    asm.op("CALLDATALOAD")
    if flipped:
        table.flip()
    for j in range(digits):
        table.load(dest, 1, window * j)
        asm.push(2 * WORD)
        asm.push(isa.staging(e, dest))            # the record's words in memory
        asm.push(lambda j=j: int(out) + 2 * WORD * j)
        asm.op("MCOPY")
    asm.push(digits * 2 * WORD)
    asm.push(out)
    asm.op("RETURN")
    e.finish()
    return asm.assemble().code


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(CURVES)), st.integers(2, 8), st.booleans(),
       st.integers(0, (1 << 256) - 1))
def test_the_records_of_a_words_digits(curve_name, window, flipped, word):
    curve = CURVES[curve_name]
    result = execute(_program(curve_name, window, flipped), word.to_bytes(WORD, "big"),
                     opcodes="evm")
    assert result.success, result.error
    out = [int.from_bytes(result.output[i:i + WORD], "big")
           for i in range(0, len(result.output), WORD)]
    for j in range(256 // window):                 # digit j at bits window j ..
        u = word >> (window * j) & ((1 << window) - 1)
        d = 2 * u + 1 - (1 << window)
        assert tuple(out[2 * j:2 * j + 2]) == _multiple(curve_name, d), (j, d)


@lru_cache(maxsize=None)
def _multiple(curve_name: str, d: int) -> tuple:
    """[d] G by the curve's definitions (double and add)."""
    curve = CURVES[curve_name]
    return weierstrass.multiply(curve.affine, curve.g1, d % curve.r)


@lru_cache(maxsize=None)
def _flip_program(window: int, below: int) -> bytes:
    """Calldata: a word -> the word as :meth:`CodeTable.flip` leaves it."""
    isa = resolve_target("evm").for_field(SECP256K1)
    asm = Assembler("flip", memory=isa.new_memory(), opcodes=isa.opcodes)
    e = Emitter(asm, SECP256K1, target=isa)
    asm.push(0)
    asm.op("CALLDATALOAD")
    CodeTable(e, asm.new_label("unused"), window).flip(below)
    asm.push(0)
    asm.op("MSTORE")
    asm.push(WORD)
    asm.push(0)
    asm.op("RETURN")
    e.finish()
    return asm.assemble().code


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(0, 256), st.integers(0, (1 << 256) - 1))
def test_flip_changes_the_top_bit_of_each_digit_below_its_bound(window, below, word):
    """What ecrecover's build reads: G's digits below the top ones flipped (the top digits
    read as the word holds them), P-256's all of them (below = 256)."""
    result = execute(_flip_program(window, below), word.to_bytes(WORD, "big"), opcodes="evm")
    assert result.success, result.error
    flipped = int.from_bytes(result.output, "big")
    for j in range(256 // window + 1):
        top_bit = window * (j + 1) - 1
        if top_bit > 255:
            break
        expected = (word >> top_bit & 1) ^ (window * (j + 1) <= below)
        assert flipped >> top_bit & 1 == expected, (j, top_bit)
    others = ~sum(1 << (window * (j + 1) - 1) for j in range(256 // window))
    assert flipped & others == word & others       # every other bit as it was
