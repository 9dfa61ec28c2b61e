"""The 256-bit quotient digits of the modexp contract's division for 8-word moduli
(modexp/multiword.py's ``_reciprocal`` and ``_wide_digit``, Moller and Granlund's division
by a precomputed reciprocal) run alone on plain EVM against Python's integer division,
with the inputs that take each of the digit's two corrections found by the same steps in
integers; the whole division is tested through the contract (test_modexp_multiword.py's
test_division_steps)."""
from __future__ import annotations

import random

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.modexp.multiword import _reciprocal, _wide_digit

BETA = 1 << 256
D1_AT, V_AT = 0, 32                               # the harness's two memory words


def _run(emit, *words: int) -> int:
    """Push ``words`` (the first on top), run ``emit``, return the top word."""
    asm = Assembler("wide_division", opcodes="evm")
    for word in reversed(words):
        asm.push(word)
    emit(asm)
    asm.push(0)
    asm.op("MSTORE")
    asm.push(32)
    asm.push(0)
    asm.op("RETURN")
    result = execute(asm.assemble().code, b"", opcodes="evm")
    assert result.success, result.error
    return int.from_bytes(result.output, "big")


def _inverse(d: int) -> int:
    return (BETA * BETA - 1) // d - BETA


def _divisors():
    rng = random.Random(11)
    yield from [BETA // 2, BETA // 2 + 1, BETA - 1, BETA - 2, (BETA - 1) >> 128 << 128,
                ((BETA - 1) >> 128 << 128) | 1, BETA // 2 + (1 << 128) - 1,
                BETA // 2 | (BETA - 1) >> 129, 3 << 254]
    for _ in range(60):
        yield rng.getrandbits(255) | BETA // 2


def test_reciprocal():
    """v = floor((2**512 - 1) / d) - 2**256 for normalized d: the extremes, d's top half
    all ones (the first estimate 0), and random."""
    for d in _divisors():
        assert _run(_reciprocal, d) == _inverse(d), hex(d)


def _digit_branches(u1: int, u0: int, d: int):
    """Which corrections Algorithm 4 takes (the same steps in integers, to pick inputs)."""
    v = _inverse(d)
    q = v * u1 + (u1 << 256) + u0
    q1, q0 = (q >> 256) + 1 & BETA - 1, q & BETA - 1
    r = (u0 - q1 * d) % BETA
    first = r > q0
    if first:
        r = (r + d) % BETA
    return first, r >= d


def _digits():
    rng = random.Random(12)
    found = {(False, False): 0, (True, False): 0, (False, True): 0}
    for d in _divisors():
        for u1, u0 in [(d - 1, BETA - 1), (0, 0), (0, BETA - 1), (d - 1, 0), (1, d - 1)]:
            yield u1, u0, d
    while min(found.values()) < 8:
        d = rng.choice([rng.getrandbits(255) | BETA // 2, BETA - 1 - rng.getrandbits(64),
                        BETA // 2 + rng.getrandbits(64)])
        u1 = rng.choice([rng.randrange(d), d - 1 - rng.getrandbits(8)])
        u0 = rng.choice([rng.getrandbits(256), BETA - 1 - rng.getrandbits(8), rng.getrandbits(8)])
        branches = _digit_branches(u1, u0, d)
        if branches in found and (found[branches] < 8 or rng.random() < 0.01):
            found[branches] += 1
            yield u1, u0, d


def test_digit():
    """floor((u1 2**256 + u0) / d1) for u1 < d1: edges, and inputs taking neither, the
    first and the second of the corrections."""
    for u1, u0, d in _digits():
        def emit(asm, d=d):
            asm.push(d)
            asm.push(D1_AT)
            asm.op("MSTORE")
            asm.push(_inverse(d))
            asm.push(V_AT)
            asm.op("MSTORE")
            _wide_digit(asm, lambda: (asm.push(D1_AT), asm.op("MLOAD")),
                        lambda: (asm.push(V_AT), asm.op("MLOAD")))
        assert _run(emit, u1, u0) == ((u1 << 256) + u0) // d, (hex(u1), hex(u0), hex(d))
