"""evm384_native.modexp.reference (the MODEXP precompile's answer and prices in Python)
against go-ethereum's vectors (outputs, EIP-2565's and EIP-7883's prices), and against
three answers that share no code with it (tests/modexp_oracles.py: ``pow`` over the EIP's
rules, py-evm's precompile, revm's called from bytecode) on the edge cases, the shapes and
ten thousand random inputs of tests/modexp_cases.py. The peers' known disagreements (py-evm's
0^0 with an empty base; no EIP-7823 bound in either) are checked as stated there, so that a
new release that changes them shows here."""
import random

import pytest

from evm384_native.modexp import reference
from tests import modexp_cases as cases
from tests import modexp_oracles as oracles

RANDOM_SEED, RANDOM_COUNT = 1, 10_000


@pytest.fixture(scope="module")
def revm():
    if not oracles.revm_available():
        from revm_oracle import require_revm
        require_revm()
    return oracles.revm_answer


def _all_inputs():
    return ([c.data for c in cases.edge_cases() + cases.shapes()]
            + cases.random_inputs(RANDOM_SEED, RANDOM_COUNT))


# --- go-ethereum's vectors --------------------------------------------------------------------

@pytest.mark.parametrize("pricing", sorted(cases.VECTOR_FILES))
def test_outputs_are_go_ethereums(pricing):
    found = cases.vectors(pricing)
    assert len(found) >= 17
    for vector in found:
        assert reference.modexp(vector.data) == vector.expected, vector.name
        assert oracles.pow_answer(vector.data) == vector.expected, vector.name


@pytest.mark.parametrize("pricing, price", [("eip-2565", reference.price_eip2565),
                                            ("eip-7883", reference.price_eip7883)])
def test_prices_are_go_ethereums(pricing, price):
    for vector in cases.vectors(pricing):
        assert price(vector.data) == vector.gas, vector.name


# --- pow ----------------------------------------------------------------------------------------

def test_every_input_answers_as_pow_does():
    inputs = _all_inputs()
    for data in inputs:
        assert reference.modexp(data) == oracles.pow_answer(data), data.hex()


def test_exactly_the_inputs_past_eip_7823s_bound_fail():
    failing = [c for c in cases.edge_cases() if not cases.within_bounds(c.data)]
    assert len(failing) >= 10
    for case in cases.edge_cases():
        assert (reference.modexp(case.data) is None) == (case in failing), case.name
        assert (reference.parse(case.data) is None) == (case in failing), case.name


# --- revm and py-evm ----------------------------------------------------------------------------

def _bounded(inputs):
    return [data for data in inputs if cases.within_bounds(data)]


def test_revm_gives_the_answer_and_eip_2565s_price(revm):
    for data in _bounded(_all_inputs()):
        answer = revm(data)
        assert answer.output == reference.modexp(data), data.hex()
        assert answer.gas == reference.price_eip2565(data), data.hex()


def test_pyevm_gives_the_answer_and_eip_2565s_price():
    checked = 0
    for data in _bounded(_all_inputs()):
        answer = oracles.pyevm_answer(data)
        assert answer.gas == reference.price_eip2565(data), data.hex()
        if oracles.pyevm_agrees(data):
            assert answer.output == reference.modexp(data), data.hex()
            checked += 1
    assert checked > 9_000


def test_pyevms_stand_in_computation_is_its_message_call_and_its_call_from_bytecode():
    inputs = [c.data for c in cases.edge_cases()[:30]] + cases.random_inputs(7, 30)
    for data in _bounded(inputs):
        answer = oracles.pyevm_answer(data)
        assert oracles.pyevm_message_call(data) == answer.output, data.hex()
        assert oracles.pyevm_from_bytecode(data) == answer, data.hex()


def test_pyevm_answers_0_for_0_to_the_0_with_an_empty_base(revm):
    """The disagreement the oracles' docstring states: only where bl = 0, E = 0, M > 1."""
    named = {c.name: c.data for c in cases.edge_cases()}
    for name in ("0^0 (bl = 0, el = 0)", "0^0 (bl = 0, el = 1)"):
        data = named[name]
        assert oracles.pyevm_disagrees_by_design(data)
        assert int.from_bytes(oracles.pyevm_answer(data).output, "big") == 0
        assert int.from_bytes(revm(data).output, "big") == 1 == int.from_bytes(
            reference.modexp(data), "big")
    for name in ("0^0 (bl = 32)", "0^0 mod 1", "bl = 0", "0^0 mod 0"):
        assert not oracles.pyevm_disagrees_by_design(named[name]), name


def test_the_peers_predate_eip_7823(revm):
    """pyrevm answers a 1,025-byte base (EIP-7823: a failure), so the tests ask the peers
    only about inputs within the bound, and refuse to ask otherwise."""
    data = next(c.data for c in cases.edge_cases() if c.name == "lengths 1025 with a body")
    answer = oracles.call_from_bytecode(oracles.PRECOMPILE, data)
    assert answer.success and answer.output == bytes([pow(3, 5, 7)])
    assert reference.modexp(data) is None
    with pytest.raises(ValueError, match="EIP-7823"):
        revm(data)
    with pytest.raises(ValueError, match="EIP-7823"):
        oracles.pyevm_answer(data)


# --- the inputs themselves ----------------------------------------------------------------------

def test_random_inputs_cover_every_kind():
    inputs = cases.random_inputs(RANDOM_SEED, RANDOM_COUNT)
    assert inputs == cases.random_inputs(RANDOM_SEED, RANDOM_COUNT)       # seeded
    parsed = [(data, reference.parse(data)) for data in inputs]
    kinds = {
        "cut short": lambda d, p: len(d) < 96 + p.base_length + p.exponent_length + p.modulus_length,
        "trailing bytes": lambda d, p: len(d) > 96 + p.base_length + p.exponent_length + p.modulus_length,
        "bl = 0": lambda d, p: p.base_length == 0, "el = 0": lambda d, p: p.exponent_length == 0,
        "ml = 0": lambda d, p: p.modulus_length == 0, "M = 0 (ml > 0)": lambda d, p: p.modulus_length and p.modulus == 0,
        "M = 1": lambda d, p: p.modulus == 1, "even M": lambda d, p: p.modulus > 2 and p.modulus % 2 == 0,
        "odd M": lambda d, p: p.modulus > 1 and p.modulus % 2, "B >= M > 1": lambda d, p: p.base >= p.modulus > 1,
        "E = 0, el > 0": lambda d, p: p.exponent_length and p.exponent == 0,
        "leading zero bytes in M": lambda d, p: p.modulus and p.modulus < 2 ** (8 * p.modulus_length - 8),
        "length not a multiple of 32": lambda d, p: p.modulus_length % 32 and p.modulus_length > 32,
        "M over 256 bytes": lambda d, p: p.modulus_length > 256,
        "E over 32 bytes": lambda d, p: p.exponent_length > 32,
    }
    for kind, test in kinds.items():
        assert sum(bool(test(d, p)) for d, p in parsed) >= 20, kind


def test_edge_cases_are_named_once_and_valid_where_meant():
    names = [c.name for c in cases.edge_cases()]
    assert len(names) == len(set(names))
    for case in cases.edge_cases():
        assert cases.within_bounds(case.data) == ("fails" not in case.name and "1025" not in case.name), case.name


def test_miller_rabin_against_trial_division():
    def prime(n):
        return n >= 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))
    for n in range(5000):
        assert cases.is_probable_prime(n) == prime(n), n
    carmichael = [561, 1105, 1729, 2465, 2821, 6601, 8911, 41041, 825265, 321197185]
    assert not any(cases.is_probable_prime(n) for n in carmichael)
    assert cases.is_probable_prime(2 ** 127 - 1) and cases.is_probable_prime(cases.BN254_P)
    assert not cases.is_probable_prime((2 ** 61 - 1) * (2 ** 89 - 1))


@pytest.mark.parametrize("bits", [2048, 4096])
def test_the_stored_rsa_factors_are_primes_of_half_the_size(bits):
    p, q = cases.rsa_factors(bits)
    assert p != q and (p * q).bit_length() == bits
    assert p.bit_length() == q.bit_length() == bits // 2
    assert cases.is_probable_prime(p, rounds=4) and cases.is_probable_prime(q, rounds=4)


@pytest.mark.slow
@pytest.mark.parametrize("bits", [2048, 4096])
def test_the_seeded_search_finds_the_stored_rsa_factors(bits):
    assert cases.search_rsa_factors(bits, 0) == cases.rsa_factors(bits)


def test_random_prime_has_its_size_and_top_bits():
    rng = random.Random(3)
    for bits in (16, 64, 256):
        p = cases.random_prime(rng, bits)
        assert p.bit_length() == bits and p >> (bits - 2) == 3 and cases.is_probable_prime(p)
