"""Issue 48's degenerate inputs, each on every target within 1.5x of the figure (the most
gas over random valid inputs, measured beside them), against the oracles: p256verify and
ecrecover on inputs whose joint loop meets acc = +-T or acc = infinity (keys and points
whose discrete logarithm the maker knows; OpenSSL via ``cryptography``, libsecp256k1 via
coincurve), handled where they happen (ec/exceptional.py), and bn254_mul and bn254_add on
theirs (py_ecc). Each p256verify and ecrecover input here sent the builds before that
handling (main at 1d432db) to their complete path, at 4-6x the figure."""
import random

import pytest

from evm384_native import execute
from evm384_native.bn254.usage import USAGE
from evm384_native.contracts import build_contract, targets_of
from evm384_native.curves import weierstrass
from evm384_native.curves.bn254 import BN254
from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.ec import glv
from evm384_native.p256 import contracts as p256_contracts
from evm384_native.p256.reference import G as P256_G, encode as p256_encode, multiply
from evm384_native.p256.reference import sign as p256_sign
from evm384_native.p256.usage import random_signature as p256_random
from evm384_native.secp256k1 import contracts as k1_contracts
from evm384_native.secp256k1.reference import CURVE as K1_AFFINE, encode as k1_encode
from evm384_native.secp256k1.reference import sign as k1_sign
from evm384_native.secp256k1.usage import random_signature as k1_random

import bn254_cases
from signature_runs import ONE, answers, run

N256 = P256.r
NK1, GLV = SECP256K1.r, SECP256K1.glv
BN_R, BN_LAM = BN254.r, BN254.glv.lam
TARGETS = ("evm", "evmmax")
DIGITS = {"evm": 0, "evmmax": -1}               # the G_DIGITS each target's build takes
LIMIT = 1.5


def _figure(name, target, random_input, rounds=4):
    code = build_contract(name, target=target)
    rng = random.Random(48)
    return max(run(code, random_input(rng), target=target).gas_used for _ in range(rounds))


def _digit0(u, n, window):
    """The lowest regular signed digit of u < n as the contracts recode it (an even u as
    -(n - u), an odd k as U = 2^255 + (k >> 1), digit 2 (U & mask) - mask)."""
    k, sign = (u, 1) if u & 1 else (n - u, -1)
    mask = (1 << window) - 1
    return sign * (2 * ((k >> 1) & mask) - mask)


def _p256_input(q, u1, u2):
    """h, r, s, Q = [q] G for the scalars u1, u2: r = x([u1 + q u2] G) mod n when that
    point is finite (a valid signature), else r = 1 (the loop runs all the same)."""
    point = multiply(P256_G, (u1 + q * u2) % N256)
    r = 1 if point is None else point[0] % N256
    s = r * pow(u2, -1, N256) % N256
    return p256_encode(u1 * s % N256, r, s, *multiply(P256_G, q))


def _p256_degenerate(rng, target):
    """Inputs meeting each exceptional case of the joint loop of the ``target``'s build,
    and the hash's edges (u1 = 0, h >= n)."""
    window = p256_contracts.G_DIGITS[DIGITS[target]].window
    out = []
    for q in (1, N256 - 1, 2, 3, rng.randrange(1, N256)):
        u2 = rng.randrange(1, N256)
        out.append((f"q={q} u1=-q u2 (infinity all along)", _p256_input(q, -q * u2 % N256, u2)))
        d = _digit0(u2, N256, 5)                 # Q's last addition meets acc = +-[d] Q
        for sign in (1, -1):
            u1 = (q * d - q * u2 + sign * q * d) % N256
            out.append((f"q={q} last Q addition {sign:+}", _p256_input(q, u1, u2)))
        for sign in (1, -1):                     # G's last addition meets acc = +-[d] G
            for _ in range(2000):
                u2 = rng.randrange(1, N256)
                dq = _digit0(u2, N256, 5)
                found = [u1 for d in range(1 - (1 << window), 1 << window, 2)
                         for u1 in [(d + sign * d - q * (u2 - dq)) % N256]
                         if u1 and _digit0(u1, N256, window) == d]
                if found:
                    out.append((f"q={q} last G addition {sign:+}", _p256_input(q, found[0], u2)))
                    break
            else:
                raise AssertionError("no input found")
    for h in (0, N256, 2**256 - 1):              # u1 = 0 (h = 0 mod n), h past n
        d = rng.randrange(1, N256)
        r, s = p256_sign(d, h, rng.randrange(1, N256))
        out.append((f"h={h}", p256_encode(h, r, s, *multiply(P256_G, d))))
    return out


def _k1_input(rho, u1, u2):
    """ecrecover's h, v, r, s for R = [rho] G and the scalars u1, u2 (Q = [u1] G + [u2] R)."""
    x, y = weierstrass.multiply(K1_AFFINE, SECP256K1.g1, rho)
    assert x < NK1
    return k1_encode(-u1 * x % NK1, 27 + (y & 1), x, u2 * x % NK1)


def _k1_degenerate(rng, target):
    """R = G (x(G) < n): Q = infinity (u2 = -u1), the last phi(G) addition meeting acc;
    the hash's edges (u1 = 0, h >= n)."""
    digits = k1_contracts.G_DIGITS[DIGITS[target]]
    out = []
    for _ in range(3):
        u1 = rng.randrange(1, NK1)
        out.append(("u2=-u1 (infinity)", _k1_input(1, u1, -u1 % NK1)))
        k2 = glv.split(u1, GLV, NK1)[1]          # G's phi-half's digit 0, [d] phi(G)
        u = (k2 + 2**digits.half_bits - 1) // 2
        mask = (1 << digits.window) - 1
        d = 2 * (u & mask) - mask
        for sign in (1, -1):
            u2 = ((1 + sign) * d * GLV.lam - u1) % NK1 or 1
            out.append((f"last phi(G) addition {sign:+}", _k1_input(1, u1, u2)))
    for h in (0, NK1, 2**256 - 1):               # u1 = 0 (h = 0 mod n), h past n
        out.append((f"h={h}", k1_sign(rng.randrange(1, NK1), h, rng.randrange(1, NK1))))
    return out


def _p256_verdict(openssl, data):
    """P256VERIFY's output by OpenSSL's verdict."""
    h, r, s, qx, qy = (int.from_bytes(data[i:i + 32], "big") for i in range(0, 160, 32))
    return ONE if openssl("secp256r1", (qx, qy), h, r, s) else b""


SIGNATURES = {"p256verify": (p256_random, _p256_degenerate),
              "ecrecover": (k1_random, _k1_degenerate)}


@pytest.mark.parametrize("name", SIGNATURES)
@pytest.mark.parametrize("target", TARGETS)
def test_signature_degenerate_inputs(name, target, openssl, coincurve_recover):
    random_input, degenerate = SIGNATURES[name]
    oracle = {"p256verify": lambda data: _p256_verdict(openssl, data),
              "ecrecover": coincurve_recover}[name]
    code = build_contract(name, target=target)
    figure = _figure(name, target, random_input)
    for label, data in degenerate(random.Random(7), target):
        assert answers(code, data, target) == oracle(data), label
        gas = run(code, data, target=target).gas_used
        assert gas <= LIMIT * figure, (label, gas, figure)

def _bn254_degenerate(name):
    """bn254_mul: window 0's additions meeting acc = +-T (k = j d lam, ec/glv_multiply.py's
    doc), the scalar's edges, P at infinity; bn254_add: P = Q, P = -Q, either at infinity."""
    rng = random.Random(9)
    p = bn254_cases.g1_multiple(rng.randrange(1, BN_R))
    point = lambda q: _words(*q) if q else _words(0, 0)        # noqa: E731
    if name == "bn254_add":
        q = bn254_cases.g1_multiple(rng.randrange(1, BN_R))
        return [point(p) + point(p), point(p) + point(bn254_cases.g1_negate(p)),
                _words(0, 0) + point(q), point(p) + _words(0, 0), _words(0, 0, 0, 0)]
    g = bn254_cases.G1_GENERATOR
    scalars = [0, 1, BN_R - 1, BN_R, 2**256 - 1, BN_LAM, BN_R - BN_LAM]
    scalars += [j * d * BN_LAM % BN_R for d in range(-31, 32, 2) for j in (1, 2, 6)]
    return [point(g) + _words(k) for k in scalars] + [_words(0, 0, 5)]


def _words(*values):
    return b"".join(v.to_bytes(32, "big") for v in values)


@pytest.mark.parametrize("name, target", [(name, target) for name in ("bn254_mul", "bn254_add")
                                          for target in targets_of(name)])
def test_bn254_degenerate_inputs(name, target):
    code = build_contract(name, target=target)
    op = name.split("_")[1]

    def gas(data):
        result = execute(code, data, opcodes=target, gas=bn254_cases.GAS)
        assert (result.success, result.output) == bn254_cases.as_run_result(
            bn254_cases.reference(op, data))
        return result.gas_used
    rng = random.Random(48)
    figure = max(gas(USAGE[name].example(rng, 1, True)) for _ in range(4))
    assert max(gas(data) for data in _bn254_degenerate(name)) <= LIMIT * figure
