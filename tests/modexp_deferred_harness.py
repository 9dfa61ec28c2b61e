"""A harness that runs :mod:`evm384_native.modexp.deferred`'s Montgomery square or product of
2048-bit numbers alone on plain EVM: it copies the limbs of A, B and M and the word n' from
call data to fixed addresses, runs the columns, and returns (A B + Q M) / R as nine words;
the routine's gas is the run's less the harness's without it. Used by
tests/test_modexp_deferred_carry.py and bench/modexp_deferred_carry.py."""
from __future__ import annotations

from typing import List, Tuple

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.modexp import deferred

LIMBS, WORDS = deferred.LIMBS, deferred.WORDS
AT = deferred.Layout(a_at=0x1000, b_at=0x1000 + 32 * LIMBS, m_at=0x1000 + 64 * LIMBS,
                     np_at=0x1000 + 96 * LIMBS, q_at=0x2000, d_at=0x2400)
OUT_AT = 0x2800
R_BITS = 256 * WORDS


def harness(square: bool, routine: bool = True) -> bytes:
    asm = Assembler("deferred_carry", opcodes="evm")
    asm.ops("CALLDATASIZE", "PUSH0")
    asm.push(AT.a_at)
    asm.op("CALLDATACOPY")
    if routine:
        deferred.push_constants(asm, AT)
        deferred.emit_product(asm, AT, square)
        deferred.pop_constants(asm)
        deferred.emit_words(asm, AT.d_at, OUT_AT)
    asm.push(32 * (WORDS + 1))
    asm.push(OUT_AT)
    asm.op("RETURN")
    return asm.assemble().code


def _limbs(x: int) -> List[int]:
    return [(x >> (deferred.BITS * i)) & deferred.MASK for i in range(LIMBS)]


def run(a: int, b: int, m: int, square: bool) -> Tuple[int, int]:
    """((A B + Q M) / R, the routine's gas) for A, B below M (B = A for ``square``)."""
    n_prime = -pow(m, -1, 1 << 256) % (1 << 256)
    words = _limbs(a) + _limbs(a if square else b) + _limbs(m) + [n_prime]
    data = b"".join(w.to_bytes(32, "big") for w in words)
    result = execute(harness(square), data, opcodes="evm")
    assert result.success, result.error
    empty = execute(harness(square, routine=False), data, opcodes="evm")
    value = sum(int.from_bytes(result.output[32 * i:32 * i + 32], "big") << (256 * i)
                for i in range(WORDS + 1))
    return value, result.gas_used - empty.gas_used
