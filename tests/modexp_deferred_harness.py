"""A harness that runs :mod:`evm384_native.modexp.deferred`'s Montgomery square or product of
2048-bit numbers alone on plain EVM: it copies the limbs of A, B and M and the word n' from
call data to fixed addresses, runs the columns, and returns (A B + Q M) / R as nine words;
the routine's gas is the run's less the harness's without it; or a run of squarings, each
square's digits the next one's limbs below M (as the contract's runs). Used by
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


def harness(square: bool, routine: bool = True, squarings: int = 1) -> bytes:
    asm = Assembler("deferred_carry", opcodes="evm")
    asm.ops("CALLDATASIZE", "PUSH0")
    asm.push(AT.a_at)
    asm.op("CALLDATACOPY")
    if routine:
        deferred.push_constants(asm, AT)
        for i in range(squarings):
            if i:
                deferred.emit_next_limbs(asm, AT, deferred.MASK_DEPTH)
                deferred.emit_below_modulus(asm, AT, deferred.MASK_DEPTH)
            if square:
                deferred.emit_doubled(asm, AT)
            deferred.emit_product(asm, AT, square)
        deferred.pop_constants(asm)
        deferred.emit_words(asm, AT.d_at, OUT_AT)
    asm.push(32 * (WORDS + 1))
    asm.push(OUT_AT)
    asm.op("RETURN")
    return asm.assemble().code


def _limbs(x: int) -> List[int]:
    return [(x >> (deferred.BITS * i)) & deferred.MASK for i in range(LIMBS)]


def run(a: int, b: int, m: int, square: bool, squarings: int = 1) -> Tuple[int, int]:
    """((A B + Q M) / R, the routine's gas) for A, B below M (B = A for ``square``); with
    ``squarings`` > 1, that many squares of A, each from the last one's result below M."""
    n_prime = -pow(m, -1, 1 << 256) % (1 << 256)
    words = _limbs(a) + _limbs(a if square else b) + _limbs(m) + [n_prime]
    data = b"".join(w.to_bytes(32, "big") for w in words)
    result = execute(harness(square, squarings=squarings), data, opcodes="evm")
    assert result.success, result.error
    empty = execute(harness(square, routine=False), data, opcodes="evm")
    value = sum(int.from_bytes(result.output[32 * i:32 * i + 32], "big") << (256 * i)
                for i in range(WORDS + 1))
    return value, result.gas_used - empty.gas_used


def below(v: int, m: int) -> int:
    """V (below 2 M) from D's digits as a square leaves them, through ``emit_next_limbs``
    and ``emit_below_modulus``: the limbs' value (V - M when V >= M)."""
    asm = Assembler("deferred_below", opcodes="evm")
    tail = 32 * (3 * LIMBS + 1)                    # D's digits after A, B, M and n'
    asm.push(tail)
    asm.ops("PUSH0")
    asm.push(AT.a_at)
    asm.op("CALLDATACOPY")
    asm.push(32 * LIMBS)
    asm.push(tail)
    asm.push(AT.d_at)
    asm.op("CALLDATACOPY")
    deferred.push_constants(asm, AT)
    deferred.emit_next_limbs(asm, AT, deferred.MASK_DEPTH)
    deferred.emit_below_modulus(asm, AT, deferred.MASK_DEPTH)
    deferred.pop_constants(asm)
    asm.push(32 * LIMBS)
    asm.push(AT.a_at)
    asm.op("RETURN")
    shifted = v << (R_BITS - deferred.BITS * (LIMBS - 1))   # d_8's low 64 bits are zero
    words = [0] * (2 * LIMBS) + _limbs(m) + [0] + _limbs(shifted)
    data = b"".join(w.to_bytes(32, "big") for w in words)
    result = execute(asm.assemble().code, data, opcodes="evm")
    assert result.success, result.error
    return sum(int.from_bytes(result.output[32 * i:32 * i + 32], "big") << (deferred.BITS * i)
               for i in range(LIMBS))
