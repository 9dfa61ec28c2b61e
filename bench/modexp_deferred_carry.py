"""What a Montgomery product costs on plain EVM with deferred carries (issue 50's RSA-2048
target): a measurement, not the contract's code.

    python bench/modexp_deferred_carry.py          # gas and bytes of a square and a product

docs/modexp.md counts the method: a 2048-bit modulus in nine limbs of 248 bits, products by
columns (product scanning) with Montgomery's reduction interleaved (R = 2**2232); a column's
sum S (at most 18 limb products and a carry: below 2**502) is kept as S mod 2**256 (MUL,
ADD) and S mod M2 = 2**251 - 1 (MULMOD, ADD: 23 values below M2 still fit a word), and
its part above 2**256 is h = (S mod M2 - S mod 2**256) 2**-256 mod M2 (2**-256 = 2**246
mod M2), once a column; the carry out is S >> 248 = h 2**8 + (S mod 2**256) >> 248. Inputs
below 2 M give a result below 2 M (4 M < R): no conditional subtraction between products.
The routine here runs straight-line on fixed addresses (the limbs of A, B, M, the
reduction's digits Q, the result D; n' = -M**-1 mod 2**248 in a word) and is checked
against Python's integers (tests/test_modexp_deferred_carry.py).
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

LIMBS, BITS = 9, 248
MASK = (1 << BITS) - 1
R_BITS = LIMBS * BITS                              # R = 2**2232
M2 = (1 << 251) - 1                                # 2**256 = 2**5 mod M2
INV = 1 << 246                                     # 2**-256 mod M2
START = M2 - 31                                    # (1 - 2**256) mod M2: folds NOT's -1 and 2**256 in
A_AT, B_AT, M_AT, NP_AT = 0x1000, 0x1000 + 32 * LIMBS, 0x1000 + 64 * LIMBS, 0x1000 + 96 * LIMBS
Q_AT, D_AT = NP_AT + 32, NP_AT + 32 + 32 * LIMBS
assert (1 << 256) * INV % M2 == 1 and (START + (1 << 256) - 1) % M2 == 0


def _load(asm: Assembler, at: int) -> None:
    asm.push(at)
    asm.op("MLOAD")


def _column(asm: Assembler, k: int, square: bool) -> None:
    """[carry, M2] -> [carry', M2]: column k of A B + Q M; for k < LIMBS the digit q_k
    (stored at Q) zeroes its low 248 bits, from LIMBS on its low 248 bits are D's limb
    k - LIMBS."""
    pairs: List[Tuple[int, int]] = []
    doubled: List[Tuple[int, int]] = []
    for i in range(max(0, k - LIMBS + 1), min(k, LIMBS - 1) + 1):
        j = k - i
        if not square:
            pairs.append((A_AT + 32 * i, B_AT + 32 * j))
        elif i < j:
            doubled.append((A_AT + 32 * i, A_AT + 32 * j))
        elif i == j:
            pairs.append((A_AT + 32 * i, A_AT + 32 * i))
    reduction = [(Q_AT + 32 * i, M_AT + 32 * (k - i))
                 for i in range(max(0, k - LIMBS + 1), min(k, LIMBS))]

    def low(x: int, y: int) -> None:                # [s0, ...] -> [s0 + x y mod 2**256, ...]
        _load(asm, x)
        if x == y:
            asm.op("DUP1")
        else:
            _load(asm, y)
        asm.ops("MUL", "ADD")

    def residue(x: int, y: int, m2_depth: int) -> None:   # [s1, ...]: s1 + x y mod M2
        asm.op(f"DUP{m2_depth}")
        _load(asm, y)
        if x == y:
            asm.op("DUP1")
        else:
            _load(asm, x)
        asm.ops("MULMOD", "ADD")

    if doubled:
        asm.ops("PUSH0", "PUSH0")                   # [s0, s1, carry, M2]
        for x, y in doubled:
            low(x, y)
        asm.op("SWAP1")
        for x, y in doubled:
            residue(x, y, 4)
        asm.ops("DUP1", "ADD", "SWAP1", "DUP1", "ADD")      # [2 s0, 2 s1, carry, M2]
        asm.ops("DUP3", "ADD", "SWAP2")             # [carry, s1, s0, M2]
        asm.push(START)
        asm.ops("ADD", "ADD", "SWAP1")              # [s0, s1, M2]
    else:
        asm.op("DUP1")
        asm.push(START)
        asm.ops("ADD", "SWAP1")                     # [s0 = carry, s1 = carry + START, M2]
    for x, y in pairs + reduction:
        low(x, y)
    if k < LIMBS:                                   # q_k = s0 n' mod 2**248, then q_k m_0
        asm.op("DUP1")
        _load(asm, NP_AT)
        asm.op("MUL")
        asm.push(MASK)
        asm.op("AND")
        asm.push(Q_AT + 32 * k)
        asm.op("MSTORE")
        low(Q_AT + 32 * k, M_AT)
    asm.op("SWAP1")                                 # [s1, s0, M2]
    for x, y in pairs + reduction:
        residue(x, y, 3)
    if k < LIMBS:
        residue(Q_AT + 32 * k, M_AT, 3)
    asm.op("DUP3")
    asm.push(INV)
    asm.ops("DUP5", "DUP5", "NOT", "DUP5", "ADDMOD", "MULMOD")   # [h, s1, s0, M2]
    asm.push(8)
    asm.op("SHL")
    asm.op("DUP3")
    asm.push(256 - 8)
    asm.ops("SHR", "OR")                            # [carry', s1, s0, M2]
    if k >= LIMBS:
        asm.op("SWAP2")
        asm.push(MASK)
        asm.op("AND")
        asm.push(D_AT + 32 * (k - LIMBS))
        asm.ops("MSTORE", "POP")
    else:
        asm.ops("SWAP2", "POP", "POP")


def emit_product(asm: Assembler, square: bool) -> None:
    """[] -> []: D = A B / R mod M (A A for ``square``), below 2 M for A, B below 2 M."""
    asm.push(M2)
    asm.op("PUSH0")                                 # [carry = 0, M2]
    for k in range(2 * LIMBS - 1):
        _column(asm, k, square)
    asm.push(D_AT + 32 * (LIMBS - 1))
    asm.ops("MSTORE", "POP")


def harness(square: bool, routine: bool = True) -> bytes:
    """Call data (A, B, M limbs, n') to memory, the routine, D returned."""
    asm = Assembler("deferred_carry", opcodes="evm")
    asm.ops("CALLDATASIZE", "PUSH0")
    asm.push(A_AT)
    asm.op("CALLDATACOPY")
    if routine:
        emit_product(asm, square)
    asm.push(32 * LIMBS)
    asm.push(D_AT)
    asm.op("RETURN")
    return asm.assemble().code


def limbs(x: int) -> List[int]:
    return [(x >> (BITS * i)) & MASK for i in range(LIMBS)]


def calldata(a: int, b: int, m: int) -> bytes:
    n_prime = -pow(m, -1, 1 << BITS) % (1 << BITS)
    words = limbs(a) + limbs(b) + limbs(m) + [n_prime]
    return b"".join(w.to_bytes(32, "big") for w in words)


def run(a: int, b: int, m: int, square: bool) -> Tuple[int, int]:
    """(the result, the routine's gas) for A, B below 2 M."""
    data = calldata(a, a if square else b, m)
    result = execute(harness(square), data, opcodes="evm")
    assert result.success, result.error
    empty = execute(harness(square, routine=False), data, opcodes="evm")
    words = [int.from_bytes(result.output[32 * i:32 * i + 32], "big") for i in range(LIMBS)]
    assert all(w <= MASK for w in words)
    return sum(w << (BITS * i) for i, w in enumerate(words)), result.gas_used - empty.gas_used


def main() -> None:
    rng = random.Random(1)
    m = rng.getrandbits(2048) | 1 << 2047 | 1
    a, b = rng.randrange(2 * m), rng.randrange(2 * m)
    for square in (True, False):
        value, gas = run(a, b, m, square)
        expected = a * (a if square else b) * pow(2, -R_BITS, m) % m
        assert value % m == expected and value < 2 * m
        code = harness(square)
        print(f"{'square' if square else 'product'}: {gas:,} gas, "
              f"{len(code) - len(harness(square, routine=False)):,} bytes")


if __name__ == "__main__":
    main()
