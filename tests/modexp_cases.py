"""MODEXP (precompile 0x05) inputs for the tests, the fuzzer and the benchmark: go-ethereum's
vectors, a named case of every rule of EIP-198 and EIP-7823 (:func:`edge_cases`), the shapes
mainnet calls (:func:`shapes`: BN254's and secp256k1's fields, RSA moduli) and seeded random
inputs of mixed sizes (:func:`random_input`), weighted toward small ones so that ten
thousand of them run in seconds.

Everything here is written from the EIP texts (docs in ../shared/docs: eip-198.md,
eip-7823.md) and shares no code with ``evm384_native.modexp``: an input is made byte by byte
(:func:`raw`), so that a length that lies about its value, a cut input or trailing bytes
are as easy to make as a well-formed one. The answers come from tests/modexp_oracles.py.

RSA-like moduli are products of two primes found by a seeded search
(:func:`search_rsa_factors`), tested with Miller-Rabin (:func:`is_probable_prime`); the
search takes seconds, so vectors/modexp/rsa_factors.json keeps its result (checked by a
slow test).
"""
from __future__ import annotations

import json
import pathlib
import random
from functools import lru_cache
from typing import List, NamedTuple, Optional, Tuple

WORD = 32
MAX_LENGTH = 1024                # EIP-7823: a longer base, exponent or modulus fails
HUGE = 2 ** 256 - 1              # the largest length a 32-byte word declares

# BN254 (EIP-196): the base field's modulus and the group order; secp256k1 (SEC 2, 2.4.1).
BN254_P = 21888242871839275222246405745257275088696311157297823662689037894645226208583
BN254_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617
SECP256K1_P = 2 ** 256 - 2 ** 32 - 977

VECTOR_DIR = pathlib.Path(__file__).resolve().parent / "vectors" / "modexp"   # SOURCE.md there
# go-ethereum's files: each era's price of the same inputs (modexp.json: EIP-198's).
VECTOR_FILES = {"eip-198": "modexp.json", "eip-2565": "modexp_eip2565.json",
                "eip-7883": "modexp_eip7883.json"}


class Case(NamedTuple):
    name: str
    data: bytes


class Vector(NamedTuple):
    name: str
    data: bytes
    expected: bytes
    gas: int


def vectors(pricing: str = "eip-7883") -> List[Vector]:
    """go-ethereum's vectors priced by ``pricing`` (a key of VECTOR_FILES)."""
    entries = json.loads((VECTOR_DIR / VECTOR_FILES[pricing]).read_text())
    return [Vector(e["Name"], bytes.fromhex(e["Input"]), bytes.fromhex(e["Expected"]), e["Gas"])
            for e in entries]


# --- making an input --------------------------------------------------------------------------

def raw(base_length: int, exponent_length: int, modulus_length: int, body: bytes = b"") -> bytes:
    """The three declared lengths, then ``body`` as it is (shorter, longer or exact)."""
    return b"".join(n.to_bytes(WORD, "big") for n in (base_length, exponent_length,
                                                       modulus_length)) + body


def fitted(base: int, exponent: int, modulus: int, base_length: int, exponent_length: int,
           modulus_length: int) -> bytes:
    """A well-formed input: each value big-endian in exactly its declared length."""
    return raw(base_length, exponent_length, modulus_length,
               base.to_bytes(base_length, "big") + exponent.to_bytes(exponent_length, "big")
               + modulus.to_bytes(modulus_length, "big"))


def byte_size(value: int) -> int:
    return (value.bit_length() + 7) // 8


def tight(base: int, exponent: int, modulus: int) -> bytes:
    """A well-formed input whose lengths are the values' sizes (the modulus' at least 1)."""
    return fitted(base, exponent, modulus, byte_size(base), byte_size(exponent),
                  max(byte_size(modulus), 1))


def declared_lengths(data: bytes) -> tuple:
    """The three lengths an input declares (zero padded past its end)."""
    header = data[:3 * WORD].ljust(3 * WORD, b"\0")
    return tuple(int.from_bytes(header[i:i + WORD], "big") for i in range(0, 3 * WORD, WORD))


def within_bounds(data: bytes) -> bool:
    """Whether every declared length is within EIP-7823's bound (else the precompile fails;
    the peers here predate EIP-7823: tests/modexp_oracles.py)."""
    return max(declared_lengths(data)) <= MAX_LENGTH


# --- primes -----------------------------------------------------------------------------------

_SMALL_PRIMES = [p for p in range(3, 2000, 2) if all(p % d for d in range(3, int(p ** 0.5) + 1, 2))]


def is_probable_prime(n: int, rounds: int = 24, rng: Optional[random.Random] = None) -> bool:
    """Miller-Rabin with ``rounds`` random bases (a composite passes with odds < 4^-rounds)."""
    if n < 4:
        return n in (2, 3)
    if n % 2 == 0 or any(n % p == 0 for p in _SMALL_PRIMES if p < n):
        return n in _SMALL_PRIMES
    rng = rng or random.Random(n)
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def random_prime(rng: random.Random, bits: int) -> int:
    """A prime of exactly ``bits`` bits with its top two bits set (so that two of them make
    a modulus of exactly twice the bits, as RSA key generation does)."""
    while True:
        candidate = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if is_probable_prime(candidate, rng=rng):
            return candidate


def search_rsa_factors(bits: int, seed: int = 0) -> Tuple[int, int]:
    """Two primes of ``bits`` / 2 bits from a seeded search: an RSA-like modulus' factors
    (seconds for RSA-4096 in pure Python: RSA_FACTORS keeps seed 0's)."""
    rng = random.Random(f"rsa:{bits}:{seed}")
    return random_prime(rng, bits // 2), random_prime(rng, bits // 2)


RSA_FACTORS_FILE = VECTOR_DIR / "rsa_factors.json"


@lru_cache(maxsize=None)
def rsa_factors(bits: int) -> Tuple[int, int]:
    """search_rsa_factors(bits, 0), as RSA_FACTORS_FILE keeps it (a slow test checks)."""
    entry = json.loads(RSA_FACTORS_FILE.read_text())["factors"][str(bits)]
    return int(entry["p"], 16), int(entry["q"], 16)


def rsa_modulus(bits: int) -> int:
    """An RSA-like modulus of ``bits`` bits (2048 or 4096): the product of two primes."""
    p, q = rsa_factors(bits)
    return p * q


# --- edge cases -------------------------------------------------------------------------------

def _randbytes(rng: random.Random, size: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(size))


def _odd_value(rng: random.Random, size: int, leading_zeros: int = 0) -> int:
    """A random odd value of ``size`` bytes whose first ``leading_zeros`` bytes are zero and
    the next one is not (so the declared length exceeds the value's size)."""
    if size <= leading_zeros:
        return 0
    bits = 8 * (size - leading_zeros)
    return rng.getrandbits(bits) | (1 << (bits - 1)) | 1


@lru_cache(maxsize=None)
def edge_cases(seed: int = 0) -> List[Case]:
    """A named input for every rule of EIP-198 and EIP-7823 that the issue lists."""
    rng = random.Random(f"modexp-edges:{seed}")
    m256 = _odd_value(rng, 32)
    b256, e256 = rng.getrandbits(256), rng.getrandbits(256) | 1 << 255
    cases = [
        Case("empty input", b""),
        Case("all lengths 0", raw(0, 0, 0)),
        Case("header cut short", raw(0, 0, 1)[:70]),
        Case("M = 0 (ml = 32)", fitted(b256, e256, 0, 32, 32, 32)),
        Case("M = 0 (ml = 1)", fitted(5, 3, 0, 1, 1, 1)),
        Case("M = 0 (ml = 1024)", fitted(5, 3, 0, 1, 1, 1024)),
        Case("M = 1", fitted(b256, e256, 1, 32, 32, 32)),
        Case("M = 1 (ml = 1)", fitted(7, 5, 1, 1, 1, 1)),
        Case("M = 1, E = 0", fitted(7, 0, 1, 1, 1, 1)),
        Case("M = 2", fitted(b256, e256, 2, 32, 32, 1)),
        Case("M = 2^255 (even)", fitted(b256, e256, 2 ** 255, 32, 32, 32)),
        Case("M = 2^256 - 2 (even)", fitted(b256, e256, 2 ** 256 - 2, 32, 32, 32)),
        Case("M = 2^64 * odd (even)", fitted(b256, e256, (m256 >> 64) << 64, 32, 32, 32)),
        Case("M = 2^8 (even, ml = 1)", fitted(3, 200, 256, 1, 1, 2)),
        Case("M = 2^256 - 1", fitted(b256, e256, 2 ** 256 - 1, 32, 32, 32)),
        Case("M = 2^256 - 1 (ml = 33)", fitted(b256, e256, 2 ** 256 - 1, 32, 32, 33)),
        Case("M = 2^512 - 1", fitted(b256, e256, 2 ** 512 - 1, 32, 32, 64)),
        Case("E = 0", fitted(b256, 0, m256, 32, 32, 32)),
        Case("el = 0 (E = 0)", fitted(b256, 0, m256, 32, 0, 32)),
        Case("E = 1", fitted(b256, 1, m256, 32, 1, 32)),
        Case("E = 2", fitted(b256, 2, m256, 32, 1, 32)),
        Case("0^0 (bl = 32)", fitted(0, 0, m256, 32, 32, 32)),
        Case("0^0 (bl = 0, el = 0)", fitted(0, 0, m256, 0, 0, 32)),
        Case("0^0 (bl = 0, el = 1)", fitted(0, 0, m256, 0, 1, 32)),
        Case("0^0 mod 1", fitted(0, 0, 1, 0, 0, 1)),
        Case("0^0 mod 0", fitted(0, 0, 0, 0, 0, 1)),
        Case("B = 0", fitted(0, e256, m256, 32, 32, 32)),
        Case("bl = 0", fitted(0, e256, m256, 0, 32, 32)),
        Case("B = M", fitted(m256, e256, m256, 32, 32, 32)),
        Case("B = M + 1 (B >= M)", fitted(m256 + 1, e256, m256, 33, 32, 32)),
        Case("B = 2^1024 - 1 (B >> M)", fitted(2 ** 1024 - 1, e256, m256, 128, 32, 32)),
        Case("B = M - 1", fitted(m256 - 1, e256, m256, 32, 32, 32)),
        Case("ml = 0", fitted(b256, e256, 0, 32, 32, 0)),
        Case("bl = ml = 0", fitted(0, e256, 0, 0, 32, 0)),
        Case("ml = 0 with body", raw(1, 1, 0, b"\x05\x03\x07\x07")),
        Case("exponent of 33 bytes, leading zero", fitted(b256, 65537, m256, 32, 33, 32)),
        Case("exponent of 64 bytes, 40 leading zero bytes",
             fitted(b256, rng.getrandbits(192) | 1 << 191, m256, 32, 64, 32)),
        Case("exponent of 64 bytes, full", fitted(b256, rng.getrandbits(512) | 1 << 511, m256,
                                                  32, 64, 32)),
        Case("exponent of 64 bytes, zero head", fitted(b256, 3, m256, 32, 64, 32)),
        Case("exponent of 1024 bytes, zero", fitted(b256, 0, m256, 32, 1024, 32)),
        Case("truncated in the base", fitted(b256, e256, m256, 32, 32, 32)[:96 + 17]),
        Case("truncated in the exponent", fitted(b256, e256, m256, 32, 32, 32)[:96 + 32 + 5]),
        Case("truncated in the modulus", fitted(b256, e256, m256, 32, 32, 32)[:96 + 64 + 31]),
        Case("truncated: no modulus", fitted(b256, e256, m256, 32, 32, 32)[:96 + 64]),
        Case("truncated: header only", raw(32, 32, 32)),
        Case("trailing bytes", fitted(b256, e256, m256, 32, 32, 32) + _randbytes(rng, 45)),
        Case("trailing bytes, ml = 0", fitted(b256, e256, 0, 32, 32, 0) + _randbytes(rng, 40)),
        Case("lengths 1/1/1", fitted(3, 5, 7, 1, 1, 1)),
        Case("lengths 31/31/31", fitted(b256 >> 8, e256 >> 8, m256 >> 8, 31, 31, 31)),
        Case("lengths 33/33/33", fitted(b256, e256, m256 | 1 << 263, 33, 33, 33)),
        Case("lengths 63/2/65", fitted(rng.getrandbits(504), 3, _odd_value(rng, 65), 63, 2, 65)),
        Case("lengths 97/3/97", fitted(rng.getrandbits(776), 65537, _odd_value(rng, 97), 97, 3, 97)),
        Case("base of 1024 bytes", fitted(rng.getrandbits(8192), 7, m256, 1024, 1, 32)),
        Case("exponent of 1024 bytes, full",
             fitted(b256, rng.getrandbits(8192) | 1 << 8191, _odd_value(rng, 8), 32, 1024, 8)),
        Case("modulus of 1024 bytes", fitted(b256, 3, _odd_value(rng, 1024), 32, 1, 1024)),
        Case("modulus of 1024 bytes, even",
             fitted(b256, 3, _odd_value(rng, 1024) - 1, 32, 1, 1024)),
    ]
    for size in (1, 2, 8, 31, 32, 33, 48, 64, 96, 128, 255, 256, 512, 1023, 1024):
        zeros = min(size - 1, rng.choice([1, 2, size // 2]))
        cases.append(Case(f"modulus of {size} bytes, {zeros} leading zero",
                          fitted(rng.getrandbits(8 * size), 65537,
                                 _odd_value(rng, size, zeros), size, 3, size)))
    for field, value in (("base", 1025), ("exponent", 1025), ("modulus", 1025), ("base", HUGE),
                         ("exponent", HUGE), ("modulus", HUGE), ("modulus", 2 ** 32),
                         ("exponent", 2 ** 64)):
        lengths = [1, 1, 1]
        lengths[("base", "exponent", "modulus").index(field)] = value
        cases.append(Case(f"{field} length {value:#x} (fails)", raw(*lengths, b"\x03\x05\x07")))
    cases.append(Case("lengths 1025 with a body",
                      fitted(3, 5, 7, 1025, 1, 1) + bytes(1030)))
    cases.append(Case("lengths 1025, bl = ml = 0 (fails)", raw(0, 1025, 0)))
    cases.append(Case("all lengths 2^256 - 1 (fails)", raw(HUGE, HUGE, HUGE)))
    return cases


# --- the shapes that matter -------------------------------------------------------------------

@lru_cache(maxsize=None)
def shapes(seed: int = 0) -> List[Case]:
    """The inputs EIP-8200 names: SNARK verifiers' inversions and square roots modulo BN254's
    p and r, secp256k1's p, a full 256-bit exponent, RSA-2048 and RSA-4096 with E = 65537 and
    with a full exponent. Bases are random below the modulus."""
    rng = random.Random(f"modexp-shapes:{seed}")

    def below(modulus: int) -> int:
        return rng.randrange(2, modulus)

    m256 = _odd_value(rng, 32)
    rsa2048, rsa4096 = rsa_modulus(2048), rsa_modulus(4096)
    out = [
        Case("BN254 p, E = p - 2", fitted(below(BN254_P), BN254_P - 2, BN254_P, 32, 32, 32)),
        Case("BN254 p, E = (p + 1) / 4",
             fitted(below(BN254_P), (BN254_P + 1) // 4, BN254_P, 32, 32, 32)),
        Case("BN254 r, E = r - 2", fitted(below(BN254_R), BN254_R - 2, BN254_R, 32, 32, 32)),
        Case("secp256k1 p, E = p - 2",
             fitted(below(SECP256K1_P), SECP256K1_P - 2, SECP256K1_P, 32, 32, 32)),
        Case("secp256k1 p, E = (p + 1) / 4",
             fitted(below(SECP256K1_P), (SECP256K1_P + 1) // 4, SECP256K1_P, 32, 32, 32)),
        Case("32/32/32, full exponent",
             fitted(below(m256), rng.getrandbits(256) | 1 << 255, m256, 32, 32, 32)),
        Case("RSA-2048, E = 65537", fitted(below(rsa2048), 65537, rsa2048, 256, 3, 256)),
        Case("RSA-2048, full exponent",
             fitted(below(rsa2048), rng.getrandbits(2048) | 1 << 2047, rsa2048, 256, 256, 256)),
        Case("RSA-4096, E = 65537", fitted(below(rsa4096), 65537, rsa4096, 512, 3, 512)),
        Case("RSA-4096, full exponent",
             fitted(below(rsa4096), rng.getrandbits(4096) | 1 << 4095, rsa4096, 512, 512, 512)),
    ]
    return out


# --- random inputs ----------------------------------------------------------------------------

# (weight, largest base/modulus length, largest exponent length): small sizes most often,
# so that ten thousand inputs run fast; a large modulus comes with a short exponent.
SIZE_CLASSES = ((45, 4, 4), (35, 40, 40), (14, 128, 8), (5, 384, 3), (1, MAX_LENGTH, 2))


def _random_value(rng: random.Random, size: int) -> int:
    """A value of at most ``size`` bytes: zero, one, all ones, or random with some leading
    zero bytes."""
    if size == 0:
        return 0
    kind = rng.random()
    if kind < 0.06:
        return 0
    if kind < 0.10:
        return 1
    if kind < 0.14:
        return 2 ** (8 * size) - 1
    zeros = rng.randrange(size) if rng.random() < 0.25 else 0
    return rng.getrandbits(8 * (size - zeros))


def random_input(rng: random.Random) -> bytes:
    """A random input: lengths from a size class (SIZE_CLASSES), values of every kind (the
    modulus odd, even, 0 or 1; the base sometimes above the modulus), one in ten cut short
    and one in ten with trailing bytes."""
    _, most, most_exponent = rng.choices(SIZE_CLASSES, weights=[c[0] for c in SIZE_CLASSES])[0]
    bl, el, ml = rng.randint(0, most), rng.randint(0, most_exponent), rng.randint(0, most)
    base, exponent, modulus = (_random_value(rng, bl), _random_value(rng, el),
                               _random_value(rng, ml))
    if ml and rng.random() < 0.5:
        modulus |= 1                              # odd moduli: the fast paths
    if ml and bl > ml and rng.random() < 0.2:
        base = modulus + rng.randrange(2 ** (8 * (bl - ml)))  # B >= M
        base %= 2 ** (8 * bl)
    data = fitted(base, exponent, modulus, bl, el, ml)
    shape = rng.random()
    if shape < 0.1:
        data = data[:rng.randrange(len(data) + 1)]
    elif shape < 0.2:
        data += _randbytes(rng, rng.randint(1, 64))
    return data


def random_inputs(seed: int, count: int) -> List[bytes]:
    """``count`` random inputs of seed ``seed`` (the same every run)."""
    rng = random.Random(f"modexp-random:{seed}")
    return [random_input(rng) for _ in range(count)]
