"""The modexp contract's multi-word path (moduli of at least 2**256: Montgomery for odd
moduli, the CRT over 2**k and the odd part for even ones) against Python's pow, through
the whole contract on plain EVM, on both engines."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evm384_native import execute
from evm384_native.contracts import build_contract
from evm384_native.modexp import reference
from evm384_native.modexp.reference import encode

GAS = 2_000_000_000
P381 = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d3a0f6b0f6241eabfffeb153ffffb9"
           "feffffffffaaab", 16)                   # BLS12-381's base field


@pytest.fixture(scope="module")
def code() -> bytes:
    return build_contract("modexp", target="evm")


def _run(code: bytes, data: bytes, engine: str = "fast", opcodes: str = "evm"):
    result = execute(code, data, opcodes=opcodes, engine=engine, gas=GAS)
    assert result.success, result.error
    bl, el, ml = reference.lengths(data)
    parsed = reference.parse(data)
    expected = pow(parsed.base, parsed.exponent, parsed.modulus).to_bytes(ml, "big")
    assert result.output == expected, (bl, el, ml)
    return result


def _name(modulus: int) -> str:
    return f"{modulus.bit_length()}-bit-{'odd' if modulus & 1 else 'even'}"


def _ones(words: int) -> int:
    return (1 << (256 * words)) - 1


ODD_MODULI = [2**256 + 1, _ones(2), _ones(2) - 2, P381, 2**511 + 111, _ones(3) - 4,
              int("9" * 150), (1 << 2047) + 12345, _ones(8), (1 << 4095) | 1, _ones(32),
              (1 << 8191) + 1]
EVEN_MODULI = [2**256, 2**257, 2**512, 2**8191, 2**300 * 3, 2**256 * _ones(1),
               2 * ((1 << 2047) + 1), 2**1000 * ((1 << 1000) + 7), 2**255 * 3,
               2**512 * 5, (2**5000 - 1) * 2**3000, 6 * 2**256]
EXPONENTS = [0, 1, 2, 3, 65537, 2**255 + 1, 2**256 - 1, 2**300 + 2**17 + 1]


@pytest.mark.parametrize("modulus", ODD_MODULI + EVEN_MODULI, ids=_name)
@pytest.mark.parametrize("exponent", EXPONENTS, ids=lambda e: f"e{e.bit_length()}")
def test_moduli_and_exponents(code, modulus, exponent):
    base = 0x1234567 ** 40 % modulus
    _run(code, encode(base, exponent, modulus))


@pytest.mark.parametrize("words", range(2, 18))
def test_every_size_of_product(code, words):
    """Each word count from 2 to 17 (the straight-line products' sizes, the loops' and the
    squaring's), odd moduli with all-ones and random words and even ones with odd parts of
    the same sizes."""
    rng = random.Random(words)
    for modulus in (_ones(words), rng.getrandbits(256 * words) | 1 << (256 * words - 1) | 1,
                    (rng.getrandbits(256 * words - 3) | 1 << (256 * words - 4) | 1) << 3):
        for exponent in (65537, rng.getrandbits(300)):
            _run(code, encode(rng.getrandbits(256 * words + 8), exponent, modulus))


def _digits(rng: random.Random, count: int) -> int:
    """A number of ``count`` 128-bit digits, each 0, 1, 2**127, 2**128 - 1 or random: the
    shapes where the division steps' quotient estimate is furthest off."""
    value = 0
    for _ in range(count):
        value = value << 128 | rng.choice([0, 1, 1 << 127, (1 << 128) - 1, rng.getrandbits(128)])
    return value


@pytest.mark.parametrize("words", [2, 3, 8])
def test_division_steps(code, words):
    """B R mod M by long division (bases below M; at or above it the other path), then out
    of Montgomery form: E = 1 shows the conversions alone."""
    rng = random.Random(words)
    for _ in range(12):
        modulus = _digits(rng, 2 * words) | 1 | 1 << rng.randrange(256 * words - 255, 256 * words)
        modulus &= (1 << 256 * words) - 1
        for base in (_digits(rng, 2 * words) % modulus, modulus - 1, modulus,
                     min(modulus + rng.randrange(2**200), _ones(words))):
            for exponent in (1, 3):
                _run(code, encode(base, exponent, modulus, 32 * words, 1, 32 * words))


@pytest.mark.parametrize("modulus", [(1 << 2047) + 12345, P381, 2**300 * ((1 << 2047) + 1)],
                         ids=_name)
def test_short_exponents(code, modulus):
    """Odd exponents of 1 to 32 bits end on one product by B (not B R, then out of
    Montgomery form), with E's last bit cleared meanwhile: the even path reads E again."""
    rng = random.Random(modulus)
    for exponent in (1, 3, 5, 17, 65537, 2**32 - 1, 2**32 + 1, 2**31, 6):
        for base in (rng.randrange(modulus), modulus - 1, modulus + 5, 0):
            _run(code, encode(base, exponent, modulus))


@pytest.mark.parametrize("modulus", [2**256 + 1, P381, 2**256, 2**300 * 3, _ones(8)], ids=_name)
def test_bases(code, modulus):
    """Bases shorter and longer than the modulus (up to 1,024 bytes), zero, M, M - 1, k M."""
    rng = random.Random(modulus)
    for base, length in ((0, 0), (0, 1), (0, 1024), (5, 1), (modulus, None),
                         (modulus - 1, None), (modulus * 12345, None),
                         (rng.getrandbits(8192), 1024), (rng.getrandbits(1000), 200),
                         (rng.getrandbits(300), 1000)):
        _run(code, encode(base, 65537, modulus, length))
        _run(code, encode(base, 7, modulus, length))


@pytest.mark.parametrize("modulus", [2**256 + 1, 2**300 * 3, _ones(2)], ids=_name)
def test_declared_lengths(code, modulus):
    """Leading zero bytes in all three values, the modulus's length not a multiple of 32,
    exponents with leading zero words and several words."""
    size = (modulus.bit_length() + 7) // 8
    for ml in (size, size + 1, size + 31, size + 32, size + 33, 1024):
        for exponent, el in ((0, 0), (0, 96), (1, 64), (65537, 1024), (2**600 + 3, 100),
                             (2**255, 33)):
            _run(code, encode(3, exponent, modulus, 40, el, ml))


def test_random_against_pow(code):
    rng = random.Random(50)
    for _ in range(150):
        words = rng.choice([2, 3, 4, 8, rng.randint(2, 32)])
        modulus = rng.getrandbits(256 * words) | 1 << (256 * words - rng.randint(1, 256))
        if rng.random() < 0.5:
            modulus = modulus >> rng.randint(0, 512) << rng.randint(0, 512)
        modulus = max(modulus >> max(modulus.bit_length() - 8192, 0), 2**256)
        bl = rng.choice([0, 1, 32, 64, rng.randint(0, 1024)])
        base = rng.getrandbits(8 * bl) if bl else 0
        exponent = rng.choice([0, 1, 2, 65537, rng.getrandbits(rng.randint(1, 700))])
        el = (exponent.bit_length() + 7) // 8 + rng.choice([0, 0, 1, 32, 40])
        _run(code, encode(base, exponent, modulus, bl, el, None))


@pytest.mark.parametrize("modulus", [2**256 + 1, P381, 2**300 * 3, 2**512], ids=_name)
def test_engines_agree(code, modulus):
    """Output and gas equal on the python and the fast engine."""
    data = encode(7, 2**130 + 12345, modulus, 64, 32, 80)
    python, fast = _run(code, data, "python"), _run(code, data, "fast")
    assert python.gas_used == fast.gas_used


@pytest.mark.parametrize("target", ["evm", "evmmax"])
def test_contract_size(target):
    assert len(build_contract("modexp", target=target)) <= 24_576      # EIP-170


def test_evmmax_target():
    """The EVMMAX build sends even moduli to the same code."""
    code = build_contract("modexp", target="evmmax")
    for modulus in (2**256, 2**300 * 3, 2 * ((1 << 2047) + 1), 2**256 * _ones(1)):
        for exponent in (0, 65537, 2**200 + 1):
            _run(code, encode(5, exponent, modulus), "fast", "evmmax")


@settings(max_examples=40, deadline=None)
@given(st.integers(2**256, 2**2048), st.integers(0, 2**2048), st.integers(0, 2**300),
       st.integers(0, 40))
def test_property(code, modulus, base, exponent, padding):
    size = (modulus.bit_length() + 7) // 8
    _run(code, encode(base, exponent, modulus, None, None, size + padding))


def test_python_engine_large(code):
    """RSA-sized moduli and full exponents on the python engine too."""
    rng = random.Random(4096)
    for bits, exponent in ((2048, 65537), (4096, 65537), (1024, rng.getrandbits(1024))):
        for modulus in (rng.getrandbits(bits) | 1 << (bits - 1) | 1,
                        (rng.getrandbits(bits - 70) | 1) << 69):
            data = encode(rng.getrandbits(bits), exponent, modulus)
            assert _run(code, data, "python").gas_used == _run(code, data).gas_used


def test_full_size(code):
    """8,192-bit moduli (odd and even), the longest base, 100-bit exponents."""
    rng = random.Random(8192)
    for modulus in (rng.getrandbits(8192) | 1 << 8191 | 1, (rng.getrandbits(8190) | 1 << 8189) << 2):
        _run(code, encode(rng.getrandbits(8192), rng.getrandbits(100), modulus))
