"""The BN254 contracts (ECADD, ECMUL, ECPAIRING and the hinted pairing check) on both
instruction sets and both engines, against go-ethereum's vectors and oracles that share no
code with them (tests/bn254_cases.py: py-evm's precompiles, revm's through pyrevm, py_ecc):
every valid case gives the precompile's output, every invalid one REVERTs, a hinted check
accepts the prover's hint exactly for true relations and rejects every forgery."""
import random
from functools import lru_cache

import pytest
from py_ecc import optimized_bn128 as bn

import bn254_cases as cases
from evm384_native import execute
from evm384_native.contracts import failure_of
from evm384_native.bn254 import HINT_BYTES, build_contract, pairing_hint
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT

TARGETS = ("evm384", "evmmax", "evm")
NAMES = ("bn254_add", "bn254_mul", "bn254_pairing_check", "bn254_pairing_check_hinted")
GAS = 30_000_000


@lru_cache(maxsize=None)
def code(name, target):
    return build_contract(name, target=target)


def run(name, target, data, engine="fast"):
    return execute(code(name, target), data, opcodes=target, engine=engine, gas=GAS)


def answer(name, target, data, engine="fast"):
    """(success, output) as the oracles give it: the contract's failure (as the precompile
    fails: an exceptional halt that consumes the gas; the hinted check REVERTs) with empty
    output is the precompile's failure (any other halt is a test failure)."""
    result = run(name, target, data, engine)
    if not result.success:
        assert failure_of(name).ended(result), (result.error, result.gas_left)
        return False, b""
    return True, result.output


def hinted_answer(target, data, hint=None, engine="fast"):
    if hint is None:
        try:
            hint = pairing_hint(data)
        except ValueError:                         # invalid input: any hint
            hint = bytes(HINT_BYTES)
    return answer("bn254_pairing_check_hinted", target, data + hint, engine)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("target", TARGETS)
def test_every_contract_fits_the_size_limit(name, target):
    assert len(code(name, target)) <= CONTRACT_SIZE_LIMIT


VECTORS = [case for op in cases.OPS for case in cases.vectors(op)]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", VECTORS, ids=[f"{c.op}-{c.name}" for c in VECTORS])
def test_go_ethereum_vectors(case, target):
    assert answer(cases.CONTRACT[case.op], target, case.data) == (True, case.expected)
    if case.op == "pairing":
        assert hinted_answer(target, case.data) == (True, case.expected)


@pytest.mark.parametrize("target", TARGETS)
def test_valid_cases_match_the_oracles(target):
    for case in cases.valid_cases(random.Random(5), count=3, max_k=3):
        assert answer(cases.CONTRACT[case.op], target, case.data) == (True, case.expected), \
            case.name
        if case.op == "pairing":
            assert hinted_answer(target, case.data) == (True, case.expected), case.name


@pytest.mark.slow
@pytest.mark.parametrize("target", TARGETS)
def test_pairings_of_up_to_six_pairs(target):
    for name, data, one in cases.pairing_inputs(random.Random(6), max_k=6):
        expected = (True, cases.ONE if one else cases.ZERO)
        assert answer("bn254_pairing_check", target, data) == expected, name
        assert hinted_answer(target, data) == expected, name


@pytest.mark.parametrize("target", ("evm384", "evm"))
def test_compact_pairing_checks_with_more_pairs_than_registers_hold(target):
    """The compact builds take other Miller-loop builds than the default ones: plain EVM's
    had stepped the pairs beyond its two resident ones in the first one's slots, which the
    loop keeps live beside them (k = 3 and 4 answered INVALID)."""
    compact = build_contract("bn254_pairing_check", target=target, compact=True)
    for name, data, one in cases.pairing_inputs(random.Random(8), max_k=4):
        result = execute(compact, data, opcodes=target, engine="fast", gas=GAS)
        assert (result.success, result.output) == (True, cases.ONE if one else cases.ZERO), \
            (name, result.error)


FAILURES = cases.failure_cases(random.Random(7))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", FAILURES, ids=[c.name for c in FAILURES])
def test_invalid_input_reverts(case, target):
    assert answer(cases.CONTRACT[case.op], target, case.data) == (False, b"")
    if case.op == "pairing":
        assert hinted_answer(target, case.data) == (False, b"")


def test_oracles_agree_on_random_and_mutated_inputs():
    """Random inputs and byte flips of valid ones: the contracts answer as py-evm's
    precompiles (revm's too where pyrevm is installed)."""
    rng = random.Random(8)
    seeds = [c for c in cases.valid_cases(rng, count=2, max_k=2) if c.op != "pairing"]
    seeds += [cases.Case("pairing", "pairing", cases.pairing_instance(rng, 2, True))]
    for seed in seeds:
        for _ in range(6):
            data = bytearray(seed.data)
            if data:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
            want = cases.as_run_result(cases.precompile_pyevm(seed.op, bytes(data)))
            if cases.revm_available():
                assert cases.as_run_result(cases.precompile_revm(seed.op, bytes(data))) == want
            for target in TARGETS:
                assert answer(cases.CONTRACT[seed.op], target, bytes(data)) == want


@pytest.mark.parametrize("target", TARGETS)
def test_engines_and_backends_agree(target):
    """The python engine gives the fast engine's output and gas; the pure-Python kernels
    (backend "reference") the native ones'."""
    rng = random.Random(9)
    inputs = [("bn254_add", cases.encode_g1(cases.random_g1(rng)) * 2),
              ("bn254_mul", cases.encode_g1(cases.random_g1(rng)) + cases.encode_words(2**256 - 1)),
              ("bn254_pairing_check", cases.pairing_instance(rng, 2, True))]
    data = cases.pairing_instance(rng, 1, False)
    inputs.append(("bn254_pairing_check_hinted", data + pairing_hint(data)))
    for name, data in inputs:
        fast, slow = run(name, target, data), run(name, target, data, engine="python")
        assert (fast.success, fast.output, fast.gas_used) == \
            (slow.success, slow.output, slow.gas_used), name
    for name, data in inputs[:2]:                  # the pure-Python kernels (slow): ECADD, ECMUL
        native = run(name, target, data)
        reference = execute(code(name, target), data, opcodes=target, engine="python",
                            backend="reference", gas=GAS)
        assert (native.output, native.gas_used) == (reference.output, reference.gas_used)


# --- the hinted check rejects every forgery -------------------------------------------------

def _words(hint):
    return [int.from_bytes(hint[i:i + 32], "big") for i in range(0, len(hint), 32)]


def _hint_of(values):
    return b"".join(v.to_bytes(32, "big") for v in values)


@pytest.mark.parametrize("target", TARGETS)
def test_the_hinted_check_rejects_forged_hints(target):
    rng = random.Random(10)
    true = cases.pairing_instance(rng, 2, True)
    false = cases.pairing_instance(rng, 2, False)
    hint = pairing_hint(true)
    assert hinted_answer(target, true, hint) == (True, cases.ONE)
    # the prover's hint for a false relation, another instance's hint, zero, random values,
    # one value changed: all rejected (the answer 0, not a REVERT: the input is valid)
    forgeries = [pairing_hint(false), pairing_hint(cases.pairing_instance(rng, 2, True)),
                 bytes(HINT_BYTES), _hint_of([rng.randrange(cases.P) for _ in range(6)])]
    for i in range(6):
        values = _words(hint)
        values[i] = (values[i] + 1) % cases.P
        forgeries.append(_hint_of(values))
    for forged in forgeries:
        assert hinted_answer(target, true, forged) == (True, cases.ZERO)
    assert hinted_answer(target, false, pairing_hint(false)) == (True, cases.ZERO)
    for forged in forgeries[1:]:
        assert hinted_answer(target, false, forged) == (True, cases.ZERO)


@pytest.mark.parametrize("target", TARGETS)
def test_a_hint_value_not_below_p_reverts(target):
    data = cases.pairing_instance(random.Random(11), 1, False)
    for i in range(6):
        for bad in (cases.P, cases.P + 1, 2**256 - 1):
            values = _words(pairing_hint(data))
            values[i] = bad
            assert hinted_answer(target, data, _hint_of(values)) == (False, b"")
    assert hinted_answer(target, data, pairing_hint(data)[:-1]) == (False, b"")   # 191 bytes


# --- the G2 subgroup criterion the pairing contracts use ------------------------------------

# The cofactor of G2 on the twist, h2 = #E'(Fp2) / r = 2p - r, factored (checked below).
H2 = 2 * cases.P - cases.R
H2_PRIMES = (10069, 5864401, 1875725156269,
             197620364512881247228717050342013327560683201906968909)


def _probably_prime(n):
    return all(pow(a, n - 1, n) == 1 for a in (2, 3, 5, 7, 11, 13))


def _psi(point):
    """The untwist-Frobenius-twist endomorphism on E'(Fp2): conj(x) gx, conj(y) gy."""
    x, y, z = bn.normalize(point) + (bn.FQ2.one(),)
    xi = bn.FQ2([9, 1])
    gx, gy = xi ** ((cases.P - 1) // 3), xi ** ((cases.P - 1) // 2)
    conj = lambda a: bn.FQ2([a.coeffs[0], -a.coeffs[1]])   # noqa: E731
    return (conj(x) * gx, conj(y) * gy, bn.FQ2.one())


def test_the_g2_membership_test_is_sound_on_every_cofactor_prime():
    """T = [6x + 2] Q + psi(Q) - psi^2(Q) = -psi^3(Q) is the contracts' G2 test: for each
    prime l of the cofactor, on a point of order l the map 6x + 2 + psi - psi^2 + psi^3 is
    not zero, so (E'(Fp2) being cyclic, #E' = r h2 squarefree) only the order-r subgroup
    passes. The point of order l is [r h2 / l] of a random point off the subgroup."""
    product = 1
    for prime in H2_PRIMES:
        assert _probably_prime(prime)
        product *= prime
    assert product == H2
    x = 4965661367192848881
    rng = random.Random(12)
    off = cases._jacobian_g2(cases.g2_off_subgroup(rng))
    for prime in H2_PRIMES:
        point = bn.multiply(off, cases.R * H2 // prime)
        assert not bn.is_inf(point) and bn.is_inf(bn.multiply(point, prime))
        psi1 = _psi(point)
        psi2 = _psi(psi1)
        psi3 = _psi(psi2)
        image = bn.add(bn.add(bn.multiply(point, 6 * x + 2), psi1), bn.add(bn.neg(psi2), psi3))
        assert not bn.is_inf(image), prime
    q = cases._jacobian_g2(cases.random_g2(rng))
    image = bn.add(bn.add(bn.multiply(q, 6 * x + 2), _psi(q)),
                   bn.add(bn.neg(_psi(_psi(q))), _psi(_psi(_psi(q)))))
    assert bn.is_inf(image)
