"""Independent Python-integer oracles for the EVM384 operations.

Written differently from evm384_native.evm.kernels.reference on purpose: the
Montgomery product uses separated operand scanning (multiply fully, then
reduce), which gives the same integer as the spec's CIOS for any inputs,
modulus and inv (each CIOS shift is a floor; nested floors compose).
"""
MASK64 = (1 << 64) - 1
TWO_384 = 1 << 384


def add_oracle(x: int, y: int, mod: int) -> int:
    total = x + y
    return (total - mod) % TWO_384 if total >= mod else total


def sub_oracle(x: int, y: int, mod: int) -> int:
    return x - y if x >= y else (x - y + mod) % TWO_384


def mulmont_oracle(x: int, y: int, mod: int, inv: int) -> int:
    t = x * y
    for i in range(6):
        u = (((t >> (64 * i)) & MASK64) * inv) & MASK64
        t += (u * mod) << (64 * i)
    a = t >> 384
    return (a - mod) % TWO_384 if a >= mod else a
