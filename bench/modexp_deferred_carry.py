"""What a Montgomery square and product of 2048-bit numbers cost on plain EVM with
deferred carries (:mod:`evm384_native.modexp.deferred`, RSA-2048's squaring in the modexp
contract), each measured alone: the routine's gas over a harness that only moves data.

    python bench/modexp_deferred_carry.py          # gas and bytes of a square and a product

The harness copies the limbs of A, B and M and the word n' from call data to fixed
addresses, runs the columns, and returns (A B + Q M) / R as nine words (below 2 M for A,
B below M); tests/test_modexp_deferred_carry.py checks it against Python's integers.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from evm384_native import execute  # noqa: E402
from evm384_native.asm import Assembler  # noqa: E402
from evm384_native.modexp import deferred  # noqa: E402

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
        deferred.push_constants(asm)
        deferred.emit_product(asm, AT, square)
        asm.ops("POP", "POP", "POP", "POP")
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


def main() -> None:
    rng = random.Random(1)
    m = rng.getrandbits(2048) | 1 << 2047 | 1
    a, b = rng.randrange(m), rng.randrange(m)
    for square in (True, False):
        value, gas = run(a, b, m, square)
        assert value % m == a * (a if square else b) * pow(2, -R_BITS, m) % m and value < 2 * m
        size = len(harness(square)) - len(harness(square, routine=False))
        print(f"{'square' if square else 'product'}: {gas:,} gas, {size:,} bytes")


if __name__ == "__main__":
    main()
