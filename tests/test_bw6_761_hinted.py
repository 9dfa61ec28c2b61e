"""The hinted BW6-761 pairing check (``bw6_761_pairing_check_hinted``) on EVMMAX and its
prover (evm384_native.bw6_761.hint), against the pure-Python reference
(tests/bw6_761_reference.py): true instances accepted with the prover's hint, false ones
rejected with it, forged hints rejected (the hint times a non-trivial element, another
instance's hint, random ones, values >= p, a truncated hint), infinity in any slot, the
unhinted check's input errors, both engines, the size limit."""
import math
import random

import pytest

from evm384_native import execute
from evm384_native.bw6_761 import build_contract, encode_calldata
from evm384_native.bw6_761.hint import pairing_hint
from evm384_native.bw6_761.usage import random_pairs
from evm384_native.contracts import CONTRACTS, failure_of
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT

import bw6_761_reference as ref
from test_bw6_761_contracts import decode, encode

NAME = "bw6_761_pairing_check_hinted"
VALUE, HINT = 96, 288


@pytest.fixture(scope="module")
def code():
    return build_contract(NAME, target="evmmax")


def check(code, data, hint, engine="fast"):
    """True, False, or "revert" (the contract's failure, REVERT)."""
    result = execute(code, data + hint, opcodes="evmmax", gas=10**8, engine=engine)
    if not result.success:
        assert failure_of(NAME).ended(result), result
        return "revert"
    assert result.output[:31] == bytes(31) and result.output[31] in (0, 1)
    return bool(result.output[31])


def hint_values(hint):
    return [int.from_bytes(hint[i:i + VALUE], "big") for i in range(0, len(hint), VALUE)]


def hint_of(values):
    return b"".join(v.to_bytes(VALUE, "big") for v in values)


def normalised(c):
    """The hint t of c = c0 + c1 v (reference Fp6: coefficients of w^i), t = c1 / c0."""
    even = [c[0], 0, c[2], 0, c[4], 0]
    quotient = ref.poly_mul([0, c[1], 0, c[3], 0, c[5]], ref.poly_pow(even, ref.P**6 - 2))
    return hint_of(quotient[1::2])


def cinv_of(hint):
    t = hint_values(hint)
    return [1, t[0], 0, t[1], 0, t[2]]


@pytest.fixture(scope="module")
def true_two():
    rng = random.Random(2)
    data = random_pairs(rng, 2, True)
    assert ref.pairing_product_is_one(decode(data))
    return data, pairing_hint(data)


def test_it_is_registered_and_fits(code):
    assert NAME in CONTRACTS
    assert len(code) <= CONTRACT_SIZE_LIMIT
    assert encode_calldata(NAME, b"d" * 384, bytes(HINT)) == b"d" * 384 + bytes(HINT)
    with pytest.raises(ValueError, match="288 bytes"):
        encode_calldata(NAME, b"d" * 384, bytes(HINT - 1))


def test_the_residue_witness_exists_for_every_true_instance():
    """lambda = (x + 1) + p (x^3 - x^2 - x) is a multiple of r, prime to
    N = (p^3 + 1) / r (the completeness of the check: :mod:`evm384_native.bw6_761.hinted`)."""
    p, r, x = ref.P, ref.R, ref.X
    lam = (x + 1) + p * (x**3 - x**2 - x)
    assert lam % r == 0 and (p**3 + 1) % r == 0
    assert math.gcd(lam, (p**3 + 1) // r) == 1


@pytest.mark.parametrize("engine", ["fast", "python"])
def test_a_true_two_pair_instance(code, true_two, engine):
    data, hint = true_two
    assert check(code, data, hint, engine) is True
    assert check(code, data, bytes(HINT), engine) is False


@pytest.mark.parametrize("k", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_the_references_answers_with_the_provers_hint(code, k):
    rng = random.Random(10 + k)
    for true in ((False,) if k == 1 else (True, False)):
        data = random_pairs(rng, k, true)
        assert ref.pairing_product_is_one(decode(data)) == true
        assert check(code, data, pairing_hint(data)) is true


def test_forged_hints_are_rejected(code, true_two):
    data, hint = true_two
    rng = random.Random(7)
    cinv = cinv_of(hint)
    scaled = [normalised(ref.poly_mul(cinv, [rng.randrange(ref.P) for _ in range(6)]))
              for _ in range(2)]
    # times w: w^lambda is not in Fp3 (lambda is odd). (A factor of order r would pass:
    # its lambda-th power is 1, and the relation is true anyway.)
    assert ((ref.X + 1) + ref.P * (ref.X**3 - ref.X**2 - ref.X)) % 2 == 1
    scaled.append(normalised(ref.poly_mul(cinv, [0, 1, 0, 0, 0, 0])))
    false_data = random_pairs(random.Random(3), 2, False)
    false_hint = pairing_hint(false_data)
    forged = scaled + [false_hint, bytes(HINT), hint_of([rng.randrange(ref.P)
                                                          for _ in range(3)])]
    for t in hint_values(hint):                      # one value changed by one
        forged.append(hint_of([v + (1 if v == t else 0) for v in hint_values(hint)]))
    for forgery in forged:
        assert forgery != hint
        assert check(code, data, forgery) is False
    for other in (hint, bytes(HINT)):                # a false instance with other hints
        assert check(code, false_data, other) is False


def test_hint_values_at_or_above_p_revert(code, true_two):
    data, hint = true_two
    values = hint_values(hint)
    for i in range(3):
        for bad in (values[i] + ref.P, ref.P, (1 << 768) - 1):
            forged = values[:i] + [bad] + values[i + 1:]
            assert check(code, data, hint_of(forged)) == "revert"


def test_a_truncated_or_missing_hint_reverts(code, true_two):
    data, hint = true_two
    for calldata, tail in ((data, hint[:-1]), (data, hint + b"\x00"), (data, b""),
                           (data[:-1], hint), (b"", hint), (data[:384], hint[:96])):
        assert check(code, calldata, tail) == "revert"


def test_infinity_in_any_slot(code):
    q = ref.multiply(ref.G2, 5)
    minus = ref.neg(ref.multiply(ref.G1, 5))
    cases = [
        [(None, ref.G2)], [(ref.G1, None)], [(None, None)],
        [(ref.G1, q), (None, ref.G2), (minus, ref.G2)],
        [(ref.G1, q), (minus, None)],
        [(None, q), (minus, ref.G2)],
    ]
    for pairs in cases:
        data = encode(pairs)
        assert check(code, data, pairing_hint(data)) == ref.pairing_product_is_one(pairs)


def test_the_unhinted_checks_input_errors_revert(code):
    order3 = (0, 2)                                   # on the twist, of order 3
    good = encode([(ref.G1, ref.G2)])
    for data in (encode([(ref.G1, order3)]), encode([((1, 1), ref.G2)]),
                 encode([(ref.G2, ref.G2)]), good[:VALUE] + ref.P.to_bytes(VALUE, "big")
                 + good[2 * VALUE:]):
        assert check(code, data, bytes(HINT)) == "revert"
    assert check(code, encode([(ref.G1, order3)]), bytes(HINT), engine="python") == "revert"


def test_the_prover_rejects_what_eip_3026_rejects():
    good = encode([(ref.G1, ref.G2)])
    for data in (b"", good[:-1], good[:VALUE] + ref.P.to_bytes(VALUE, "big")
                 + good[2 * VALUE:]):
        with pytest.raises(ValueError):
            pairing_hint(data)
