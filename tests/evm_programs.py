"""EVM384 programs shared by the tests and the interpreter benchmark.

``fp2_mul_loop(n)`` multiplies a = (a0, a1) by b = (b0, b1) in Fp2 = Fp[u]/(u^2 + 1)
n times (a <- a * b, Karatsuba, Montgomery form over BLS12-381's p) and returns a:
8 EVM384 operations (3 MULMODMONT384, 2 ADDMOD384, 3 SUBMOD384) per iteration,
each as PUSH16 + opcode, and a JUMPI loop counter on the stack.
"""
from __future__ import annotations

from evm_helpers import asm, evm384_word, push

P = 0x1A0111EA397FE69A4B1BA7B6434BACD764774B84F38512BF6730D2A0F6B0F6241EABFFFEB153FFFFB9FEFFFFFFFFAAAB
P_INV = 0x89F3FFFCFFFCFFFD  # -p^-1 mod 2^64
R_INV = pow(2**384, -1, P)

# memory layout: the modulus with inv at 0, then a, b and temporaries, 48 bytes each
MOD, A0, A1, B0, B1, T0, T1, T2, T3 = 0, 64, 112, 160, 208, 256, 304, 352, 400
LOOP_PC = 9
EVM384_OPS_PER_ITERATION = 8
INSTRUCTIONS_PER_ITERATION = 1 + 2 * 8 + 6   # JUMPDEST, 8 pairs, the loop counter


def _op(name: str, out: int, x: int, y: int) -> bytes:
    return asm(push(evm384_word(out, x, y, MOD), 16), name)


def fp2_mul_loop(iterations: int) -> bytes:
    assert 1 <= iterations < 2**16
    code = asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY", push(iterations, 2),
               "JUMPDEST",
               _op("MULMODMONT384", T0, A0, B0),   # t0 = a0 b0
               _op("MULMODMONT384", T1, A1, B1),   # t1 = a1 b1
               _op("ADDMOD384", T2, A0, A1),       # t2 = a0 + a1
               _op("ADDMOD384", T3, B0, B1),       # t3 = b0 + b1
               _op("MULMODMONT384", T2, T2, T3),   # t2 = (a0 + a1)(b0 + b1)
               _op("SUBMOD384", A0, T0, T1),       # a0 = t0 - t1
               _op("SUBMOD384", T2, T2, T0),
               _op("SUBMOD384", A1, T2, T1),       # a1 = t2 - t0 - t1
               push(1, 1), "SWAP1", "SUB", "DUP1", push(LOOP_PC, 2), "JUMPI",
               "POP", push(96, 1), push(A0, 1), "RETURN")
    assert code[LOOP_PC] == 0x5B
    return code


def fp2_calldata(a0: int, a1: int, b0: int, b1: int) -> bytes:
    """Memory image of [MOD, B1 + 48): p, inv, padding, a0, a1, b0, b1 (LE)."""
    return (P.to_bytes(48, "little") + P_INV.to_bytes(8, "little") + bytes(8)
            + b"".join(v.to_bytes(48, "little") for v in (a0, a1, b0, b1)))


def fp2_mul_loop_oracle(iterations: int, a0: int, a1: int, b0: int, b1: int) -> bytes:
    """The expected output, as plain complex multiplication with Montgomery's R^-1."""
    for _ in range(iterations):
        a0, a1 = ((a0 * b0 - a1 * b1) * R_INV % P, (a0 * b1 + a1 * b0) * R_INV % P)
    return a0.to_bytes(48, "little") + a1.to_bytes(48, "little")


def fp2_mul_loop_gas(iterations: int, evm384_gas=(8, 8, 24)) -> int:
    """Gas by hand: setup, the first memory growth, the loop, the return."""
    add, sub, mul = evm384_gas
    words_copied, words_used = 256 // 32, (T3 + 48) // 32
    memory = lambda w: 3 * w + w * w // 512  # noqa: E731
    setup = 2 + 3 + 3 + 3 + 3 * words_copied + memory(words_copied) + 3
    per_iteration = 1 + 8 * 3 + 3 * mul + 2 * add + 3 * sub + (3 + 3 + 3 + 3 + 3 + 10)
    growth = memory(words_used) - memory(words_copied)
    return setup + growth + iterations * per_iteration + 2 + 3 + 3
