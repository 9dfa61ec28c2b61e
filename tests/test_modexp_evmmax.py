"""The MODEXP contract's EVMMAX path (``evm384_native/modexp/evmmax_path.py``: odd moduli of
at most 768 bits through one SETMODX) against Python's ``pow`` (via ``reference.modexp``,
itself checked against go-ethereum's vectors), on both engines with equal gas."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.contracts import build_contract
from evm384_native.evm import StepHook
from evm384_native.modexp.chains import KNOWN
from evm384_native.modexp.evmmax_path import chain_steps
from evm384_native.modexp.reference import encode, modexp

CODE = build_contract("modexp", target="evmmax")
GAS = 10**7
BN254_P = 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47
SECP256K1_P = 2**256 - 2**32 - 977
BLS12_381_P = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153"
                  "ffffb9feffffffffaaab", 16)
MODULUS_BYTES = (1, 2, 3, 7, 8, 9, 16, 24, 25, 31, 32, 33, 40, 48, 63, 64, 65, 72, 80, 95, 96)


def run(data: bytes, engine: str = "fast") -> int:
    """Run the contract on ``data``, check its output against the reference; its gas."""
    result = execute(CODE, data, opcodes="evmmax", engine=engine, gas=GAS)
    assert result.success, result.error
    assert result.output == modexp(data)
    return result.gas_used


def odd_modulus(rng: random.Random, nbytes: int) -> int:
    """An odd modulus of exactly ``nbytes`` bytes (> 1)."""
    return rng.getrandbits(8 * nbytes) | 1 | 1 << (8 * nbytes - 1)


def _random(rng: random.Random, nbytes: int) -> int:
    return rng.getrandbits(8 * nbytes) if nbytes else 0


def edge_inputs(seed: int = 50) -> list:
    """MODEXP inputs for the EVMMAX path: odd moduli of 1..96 bytes (declared with leading
    zero bytes too), M = 1 and 3, bases empty, zero, below, at and above M, longer than
    M; exponents empty, zero, 1, 2, full, multi-word with leading zero words."""
    rng = random.Random(seed)
    cases = []
    for nbytes in MODULUS_BYTES:
        m = odd_modulus(rng, nbytes) if nbytes > 1 else rng.choice((3, 5, 251, 255))
        full = _random(rng, 32) | 1 << 255
        for ml in (nbytes, nbytes + 1, nbytes + 45):
            cases += [encode(_random(rng, nbytes), full, m, nbytes, 32, ml),
                      encode(m - 1, 2, m, nbytes, 1, ml)]
        cases += [encode(0, 0, m, 0, 0, nbytes),                          # empty: 0^0 = 1
                  encode(0, full, m, 0, 32, nbytes),
                  encode(0, full, m, 32, 32, nbytes),
                  encode(m, full, m, nbytes, 32, nbytes),                 # B = M
                  encode(_random(rng, 200), full, m, 200, 32, nbytes),    # B longer than M
                  encode(_random(rng, 33), full, m, 33, 32, nbytes),
                  encode(rng.randrange(2, 256), full, m, 1, 32, nbytes),  # B shorter
                  encode(_random(rng, nbytes), 0, m, nbytes, 70, nbytes),  # E = 0, 3 words
                  encode(_random(rng, nbytes), 1, m, nbytes, 1, nbytes),
                  encode(_random(rng, nbytes), 1, m, nbytes, 96, nbytes),
                  encode(_random(rng, nbytes), _random(rng, 40), m, nbytes, 100, nbytes),
                  encode(_random(rng, nbytes), _random(rng, 96), m, nbytes, 96, nbytes)]
    for ml in (1, 31, 32, 33, 100):                                       # M = 1: zeros
        cases += [encode(5, 3, 1, 1, 1, ml), encode(0, 0, 1, 0, 0, ml)]
    cases += [encode(2, 2**256 - 1, 3, 1, 32, 1), encode(BN254_P - 1, BN254_P - 2, BN254_P),
              encode(_random(rng, 1024), _random(rng, 1024), BLS12_381_P, 1024, 1024, 1024)]
    return cases


EDGE_INPUTS = edge_inputs()


def test_edge_inputs_fast():
    for data in EDGE_INPUTS:
        run(data)


@pytest.mark.parametrize("data", EDGE_INPUTS[::9], ids=lambda data: data[:96].hex()[-6:])
def test_engines_agree_on_output_and_gas(data):
    assert run(data, "python") == run(data, "fast")


@pytest.mark.parametrize("words", (1, 2, 3))
def test_every_top_window(words):
    """The first exponent word enters the window blocks by a computed jump at its top
    non-zero window: every bit position as the top one, in the first word, and in a
    second word after a first word 1 (a later word starts at the block of its bit 255)."""
    rng = random.Random(words)
    m = odd_modulus(rng, 32 * words - 7)
    b = rng.randrange(m)
    for top in range(256):
        e = 1 << top | rng.getrandbits(top)
        run(encode(b, e, m, 32 * words, 32, 32 * words))
        run(encode(b, 1 << 256 | e, m, 32 * words, 64, 32 * words))


@pytest.mark.parametrize("bits", (64, 128, 192, 255, 256, 320, 384, 448, 512, 576, 640, 704,
                                  768))
def test_each_element_size(bits):
    """Moduli whose registers are 8..96 bytes, at the top of each size."""
    rng = random.Random(bits)
    for m in (2**bits - 1, (1 << bits - 1) + 1 + 2 * rng.getrandbits(bits - 2)):
        nbytes = (bits + 7) // 8
        for e in (m - 2, 65537):
            run(encode(rng.randrange(m), e, m, nbytes, nbytes, nbytes))


def known_inputs(seed: int = 8200) -> list:
    """The (modulus, exponent) pairs with chains (:data:`.chains.KNOWN`), with bases empty,
    zero, one, M - 1, >= M, of several words; the exponent with leading zero bytes and
    words; Msize above 32; and the same moduli with other exponents (the generic path:
    E - 1, E + 2**256, E * 2**256 (E its first word), E = 0, empty, a two-word exponent
    whose low word is E)."""
    rng = random.Random(seed)
    cases = []
    for m, e in KNOWN:
        for b, bl in ((0, 0), (0, 32), (1, 1), (m - 1, 32), (m, 32), (2**256 - 1, 32),
                      (rng.getrandbits(512), 64), (rng.getrandbits(8 * 100), 100)):
            cases.append(encode(b, e, m, bl, 32, 32))
        b = rng.randrange(m)
        cases += [encode(b, e, m, 32, 40, 32), encode(b, e, m, 32, 96, 33),
                  encode(b, e, m, 32, 32, 100), encode(b, e, m, 33, 32, 1024),
                  encode(b, e - 1, m, 32, 32, 32), encode(b, e + 2**256, m, 32, 64, 32),
                  encode(b, e, m, 32, 64, 32), encode(b, 1 << 256 | e, m, 32, 64, 32),
                  encode(b, e << 256, m, 32, 64, 32), encode(b, e << 256 | e, m, 32, 64, 32),
                  encode(b, 0, m, 32, 32, 32), encode(b, 0, m, 32, 0, 32),
                  encode(b, e, m + 2, 32, 32, 32)]
    return cases


@pytest.mark.parametrize("data", known_inputs(), ids=lambda data: data[96:].hex()[-8:])
def test_known_chains(data):
    assert run(data, "python") == run(data, "fast")


def test_chain_steps_compute_the_exponent():
    """The windows a chain runs, replayed on integers, give its exponent."""
    for _, exponent in KNOWN:
        first, steps = chain_steps(exponent)
        value = first
        for step in steps:
            value = value * 2 if step == "square" else value + step
        assert value == exponent


def test_the_native_path_runs():
    """The odd moduli of 1..96 bytes go through SETMODX (once), others do not reach it."""
    def counts(data: bytes) -> tuple:
        names = []
        execute(CODE, data, opcodes="evmmax", engine="python", gas=GAS,
                tracer=StepHook(lambda step: names.append(step.name)))
        return names.count("SETMODX"), names.count("STOREX")
    assert counts(encode(3, 5, BN254_P))[0] == 1
    assert counts(encode(3, 5, 2**768 - 1, 96, 1, 100))[0] == 1
    assert counts(encode(3, 5, 1))[0] == 0
    assert counts(encode(3, 5, BN254_P - 1))[0] == 0
    # a known pair runs its chain (one STOREX: the base), another exponent the windows
    assert counts(encode(3, BN254_P - 2, BN254_P, 32, 32, 32)) == (1, 1)
    assert counts(encode(3, BN254_P - 3, BN254_P, 32, 32, 32))[1] > 50


def test_target_gas_and_size():
    """Issue 50's bound: BN254's p with a 32-byte base and E = p - 2, <= 3,000 gas; the
    contract within EIP-170's 24,576 bytes."""
    b = random.Random(2).randrange(BN254_P)
    assert run(encode(b, BN254_P - 2, BN254_P, 32, 32, 32)) <= 3000
    assert len(CODE) <= 24576


@st.composite
def native_inputs(draw):
    nbytes = draw(st.integers(1, 96))
    m = draw(st.integers(1, 2**(8 * nbytes) - 1)) | 1
    ml = draw(st.integers((m.bit_length() + 7) // 8, 130))
    bl, el = draw(st.integers(0, 130)), draw(st.integers(0, 100))
    b = draw(st.integers(0, 2**(8 * bl) - 1))
    e = draw(st.integers(0, 2**(8 * el) - 1))
    return encode(b, e, m, bl, el, ml)


@settings(max_examples=60, deadline=None)
@given(native_inputs())
def test_random_inputs(data):
    run(data)


def random_input(rng: random.Random) -> bytes:
    """An odd modulus of 1..96 bytes (sometimes 1) declared in up to 200 bytes; base and
    exponent of up to 200 bytes, the exponent often with leading zero bytes or words."""
    nbytes = rng.randint(1, 96)
    m = rng.getrandbits(8 * nbytes) | 1
    ml = rng.randint((m.bit_length() + 7) // 8, 200)
    bl, el = rng.randint(0, 200), rng.randint(0, 200)
    return encode(_random(rng, bl), _random(rng, el) >> rng.randint(0, 8 * el), m, bl, el, ml)


@pytest.mark.parametrize("engines, count", ((("python", "fast"), 200), (("fast",), 2000)))
def test_random_inputs_seeded(engines, count):
    rng = random.Random(6690 + count)
    for _ in range(count):
        data = random_input(rng)
        assert len({run(data, engine) for engine in engines}) == 1


@pytest.mark.slow
def test_many_random_inputs():
    rng = random.Random(8200)
    for i in range(20000):
        data = random_input(rng)
        gas = run(data)
        if i % 20 == 0:
            assert run(data, "python") == gas
