"""The wide 256-bit arithmetic of the fast engine (csrc/evm_word.c) against Python
integers: DIV/MOD (Knuth's algorithm D), SDIV/SMOD, ADDMOD, MULMOD, EXP."""
from hypothesis import example, given, settings, strategies as st

from evm384_native._native import ffi, lib

U = 2**256
MASK64 = 2**64 - 1

# Limbs that hit algorithm D's corrections: normalisation shifts of 0 and 63, top
# limbs at 2^63 and 2^64 - 1, estimated digits one or two too large.
limbs = st.one_of(st.sampled_from([0, 1, 2, 2**63 - 1, 2**63, 2**64 - 2, MASK64]),
                  st.integers(0, MASK64))
words = st.one_of(st.tuples(limbs, limbs, limbs, limbs).map(
    lambda ls: sum(limb << (64 * i) for i, limb in enumerate(ls))),
    st.integers(0, U - 1), st.integers(0, 2**64), st.sampled_from([0, 1, 2**255, U - 1]))


def word(value: int):
    return ffi.new("evm_word *", [[(value >> (64 * i)) & MASK64 for i in range(4)]])


def value(w) -> int:
    return sum(w.limb[i] << (64 * i) for i in range(4))


def signed(x: int) -> int:
    return x - U if x >> 255 else x


@settings(max_examples=1000)
@given(words, words)
@example(2**192, 2**128 + 1)                  # an estimated digit one too large: add back
@example(0x800000000000000180000000000000008000000000000001,
         0x80000000000000018000000000000000fffffffffffffffe)  # and for a 3-limb divisor
def test_divmod(a, b):
    quotient, remainder = ffi.new("evm_word *"), ffi.new("evm_word *")
    lib.evm_word_divmod(word(a), word(b), quotient, remainder)
    assert (value(quotient), value(remainder)) == ((a // b, a % b) if b else (0, 0))


def test_divmod_outputs_may_alias_inputs():
    a, b = word(2**200 + 12345), word(2**70 + 3)
    lib.evm_word_divmod(a, b, a, b)
    assert (value(a), value(b)) == divmod(2**200 + 12345, 2**70 + 3)


@settings(max_examples=300)
@given(words, words)
def test_signed_division(a, b):
    x, y = signed(a), signed(b)
    quotient = 0 if y == 0 else (abs(x) // abs(y)) * (-1 if (x < 0) != (y < 0) else 1)
    remainder = 0 if y == 0 else (abs(x) % abs(y)) * (-1 if x < 0 else 1)
    assert value(lib.evm_word_sdiv(word(a), word(b))) == quotient % U
    assert value(lib.evm_word_smod(word(a), word(b))) == remainder % U


@settings(max_examples=300)
@given(words, words, words)
def test_addmod_and_mulmod(a, b, n):
    assert value(lib.evm_word_addmod(word(a), word(b), word(n))) == ((a + b) % n if n else 0)
    assert value(lib.evm_word_mulmod(word(a), word(b), word(n))) == ((a * b) % n if n else 0)


@settings(max_examples=200)
@given(words, words)
def test_exp_and_its_byte_length(base, exponent):
    assert value(lib.evm_word_exp(word(base), word(exponent))) == pow(base, exponent, U)
    assert lib.evm_word_byte_length(word(exponent)) == (exponent.bit_length() + 7) // 8


# MULMOD's fast paths (csrc/evm_word.c): a modulus of four significant limbs divides by a
# cached 3-by-2 reciprocal, 2^256 - 1 folds, ADDMOD of reduced operands subtracts once.
# Moduli of every normalisation shift's extremes and of the rare branches: low limbs all
# ones under a small top (the 3-by-2 digit one too large: add back), and (2^64, n - 1)
# operands, whose remainder's top two limbs meet the modulus's (the digit 2^64 - 1).
FULL_MODULI = [U - 1, 2**255, 2**255 + 1, 2**255 + 2**128 - 1, 2**192 + 2**128 - 1,
               2**192, 2**192 + 1, U - 2**128,
               0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,  # BN254 p
               2**256 - 2**32 - 977,                                                 # secp256k1 p
               0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF]   # P-256 p
full_moduli = st.one_of(st.sampled_from(FULL_MODULI), st.integers(2**192, U - 1),
                        st.tuples(st.integers(0, 255), limbs).map(
                            lambda t: (1 << (192 + t[0] % 64)) | (2**128 - 1) | t[1]))


def _check_modular(a, b, n):
    assert value(lib.evm_word_mulmod(word(a), word(b), word(n))) == ((a * b) % n if n else 0)
    assert value(lib.evm_word_addmod(word(a), word(b), word(n))) == ((a + b) % n if n else 0)


@settings(max_examples=1500)
@given(words, words, full_moduli)
def test_full_width_moduli(a, b, n):
    _check_modular(a, b, n)
    _check_modular(a % n, b % n, n)          # reduced operands: ADDMOD's one subtraction
    _check_modular(n - 1, n - 1, n)


@settings(max_examples=300)
@given(full_moduli, st.integers(0, 63))
def test_remainder_meeting_the_modulus_top(n, shift):
    _check_modular(2**64 >> shift, n - 1, n)
    _check_modular(2**64, n - 1 - (n >> 130), n)


@settings(max_examples=300)
@given(st.lists(st.tuples(words, words, st.one_of(full_moduli, words)), min_size=2,
                max_size=8))
def test_modulus_changing_between_instructions(cases):
    """The cache of the last two moduli: alternations, a third modulus, a repeat."""
    for a, b, n in cases + cases[::-1] + cases:
        _check_modular(a, b, n)


def test_moduli_below_four_limbs_and_powers_of_two():
    for n in [0, 1, 2, 3, 2**64, 2**64 - 1, 2**128 + 1, 2**191, 2**192 - 1, 2**200, 2**255]:
        for a, b in [(U - 1, U - 1), (n, n), (n - 1 if n else 0, U - 1), (2**255, 3)]:
            _check_modular(a, b, n)
