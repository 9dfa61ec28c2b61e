"""The plain-EVM joint loops test Z once a segment (ec/deferred.py): inputs whose FIRST
exceptional addition falls where each of the careful path's entries is taken (the lead
segment, the first, a middle and the last turn, the very last addition), against the
oracles (libsecp256k1 via coincurve, OpenSSL via ``cryptography``), within 1.5x of the
figure, and dearer than the figure (so the careful path did run: the input meets the
exception it was made for).

Each input is made by simulating the contract's additions in Python integers: the
scalars' digits (GLV halves for secp256k1, :func:`evm384_native.ec.glv.split`; the
regular signed recoding of u1 and u2 for P-256), acc as a combination a_g + a_k k of G
and of the point whose discrete logarithm k is free (secp256k1's R, P-256's key Q), and
k solved so that acc = +-T at the chosen addition: a_g + a_k k = s (c_g + c_k k)."""
import random

import pytest

from evm384_native.contracts import build_contract
from evm384_native.curves import weierstrass
from evm384_native.curves.p256 import P256
from evm384_native.curves.secp256k1 import SECP256K1
from evm384_native.ec import glv
from evm384_native.ec.windows import WINDOW
from evm384_native.p256 import contracts as p256_contracts
from evm384_native.p256.reference import G as P256_G, multiply
from evm384_native.p256.usage import random_signature as p256_random
from evm384_native.secp256k1 import contracts as k1_contracts
from evm384_native.secp256k1.reference import CURVE as K1_AFFINE
from evm384_native.secp256k1.usage import random_signature as k1_random

from signature_runs import answers, run
from test_degenerate import LIMIT, _figure, _k1_input, _p256_input, _p256_verdict

NK1, N256 = SECP256K1.r, P256.r
LAM = SECP256K1.glv.lam


def _signed_digits(k, window, count):
    """The regular signed digits of odd k (any sign), low first: U = (k + 2^(w m) - 1) / 2,
    d_j = 2 u_j - (2^w - 1)."""
    mask = (1 << window) - 1
    u = (k + (1 << (window * count)) - 1) >> 1
    digits = [2 * ((u >> (window * j)) & mask) - mask for j in range(count)]
    assert sum(d << (window * j) for j, d in enumerate(digits)) == k
    return digits


def _k1_additions(u1, u2, start=False):
    """ecrecover's plain-EVM loop: (bit, acc before, the record) for each addition after
    the top's (``start``: for the top's after the first, tested at once, at bit ``top``),
    acc and records as (g, k) with the point g G + k R (R = [k] G)."""
    digits = k1_contracts.G_DIGITS[0]
    halves = {"g": glv.split(u1, SECP256K1.glv, NK1), "r": glv.split(u2, SECP256K1.glv, NK1)}
    windows = {"g": digits.window, "r": WINDOW}
    counts = {"g": digits.half_bits // digits.window, "r": glv.HALF_BITS // WINDOW}
    words = {name: [_signed_digits(half, windows[name], counts[name]) for half in halves[name]]
             for name in halves}

    def record(name, half, bit):
        d = words[name][half][bit // windows[name]] * (LAM if half else 1)
        return (d, 0) if name == "g" else (0, d)
    top = digits.top
    acc = None
    # the top's additions (tested at once): R's top digits, then G's (at g_top, where that
    # is higher: both halves' one record, scaled down to bit ``top``)
    tops = [record("r", 0, top), record("r", 1, top)]
    g_tops = [record("g", half, digits.g_top) for half in (0, 1)]
    if digits.g_top > top:
        tops.append(((g_tops[0][0] + g_tops[1][0] << digits.g_top - top) % NK1, 0))
    else:
        tops += g_tops
    out = []
    for rec in tops:
        if acc is not None and start:
            out.append((top, acc, rec))
        acc = rec if acc is None else ((acc[0] + rec[0]) % NK1, (acc[1] + rec[1]) % NK1)
    if start:
        return out
    for bit in range(top - 1, -1, -1):
        acc = (2 * acc[0] % NK1, 2 * acc[1] % NK1)
        for name in ("r", "g"):
            if bit % windows[name] == 0:
                for half in (0, 1):
                    rec = record(name, half, bit)
                    out.append((bit, acc, rec))
                    acc = ((acc[0] + rec[0]) % NK1, (acc[1] + rec[1]) % NK1)
    return out


def _p256_additions(u1, u2):
    """p256verify's plain-EVM loop, as :func:`_k1_additions` (k: the key's logarithm)."""
    window = p256_contracts.G_DIGITS[0].window

    def digits(u, w):
        """u's digits, and the top digit (bit 255) where w does not divide 256: an odd
        k = u (else n - u, the digits negated) as U = 2^255 + (k >> 1)."""
        k, sign = (u, 1) if u & 1 else (N256 - u, -1)
        mask, word = (1 << w) - 1, (1 << 255) | (k >> 1)
        out = [2 * ((word >> (w * j)) & mask) - mask for j in range(256 // w)]
        top = 1 if 256 % w else 0
        assert sum(d << (w * j) for j, d in enumerate(out)) + (top << 255) == k
        return [sign * d for d in out], sign * top
    g_digits, g_top = digits(u1, window)
    q_digits, top_sign = digits(u2, WINDOW)
    assert g_top == 0                             # no top digit of G's (G_DIGITS[0])
    acc, out = (0, top_sign), []                  # bit 255 of Q's word: +-Q
    for bit in range(254, -1, -1):
        acc = (2 * acc[0] % N256, 2 * acc[1] % N256)
        for rec, due in (((g_digits[bit // window], 0), bit % window == 0),
                         ((0, q_digits[bit // WINDOW]), bit % WINDOW == 0)):
            if due:
                out.append((bit, acc, rec))
                acc = ((acc[0] + rec[0]) % N256, (acc[1] + rec[1]) % N256)
    return out


def _solve(acc, rec, sign, n):
    """k with acc = sign rec for the points a_g G + a_k [k] G (None: no such k)."""
    den = (acc[1] - sign * rec[1]) % n
    return None if den == 0 else (sign * rec[0] - acc[0]) * pow(den, -1, n) % n


def _places(bits, top, loop_top, turn, segment):
    """The additions to meet, by bit: the lead's first, the first of the loop's first turn
    (and of its second segment, where a turn has more than one), one of a middle turn, the
    first of the last turn, the very last."""
    lead = max(b for b in bits if b < top)
    first_turn = max(b for b in bits if b < loop_top)
    middle = max(b for b in bits if b < loop_top - turn * (loop_top // turn // 2))
    last_turn = max(b for b in bits if b < turn)
    places = {"lead": lead, "first turn": first_turn}
    if segment < turn:
        places["first turn, second segment"] = max(b for b in bits if b < loop_top - segment)
    return {**places, "middle turn": middle, "last turn": last_turn,
            "last addition": min(bits)}


def _made_inputs(name, rng):
    """(label, calldata) meeting a first exceptional addition at each place, both signs."""
    out = []
    if name == "ecrecover":
        n, digits = NK1, k1_contracts.G_DIGITS[0]
        additions, top, loop_top, turn = _k1_additions, digits.top, digits.loop_top, \
            digits.turn_bits
    else:
        n, digits = N256, p256_contracts.G_DIGITS[0]
        additions, top, loop_top, turn = _p256_additions, 255, digits.loop_top, \
            digits.turn_bits
    bits = sorted({bit for bit, _, _ in additions(1, 1)})
    for place, bit in _places(bits, top, loop_top, turn, digits.segment_bits).items():
        for sign in (1, -1):
            while True:
                u1, u2 = rng.randrange(1, n), rng.randrange(1, n)
                # the first addition from that bit down that can meet acc (not one of
                # k's multiples added to another: P-256's lead starts at +-Q)
                met, k = next((b, k) for b, acc, rec in additions(u1, u2) if b <= bit
                              for k in [_solve(acc, rec, sign, n)] if k)
                if name == "ecrecover":
                    x, _ = weierstrass.multiply(K1_AFFINE, SECP256K1.g1, k)
                    if x >= n:                      # r = x must be below n
                        continue
                    data = _k1_input(k, u1, u2)
                else:
                    data = _p256_input(k, u1, u2)
                out.append((f"{place} (bit {met}) {sign:+}", data))
                break
    return out


CASES = {"ecrecover": k1_random, "p256verify": p256_random}


def test_an_exception_in_ecrecovers_start(coincurve_recover):
    """The start's additions (R's top digits, then G's, one record read at R's top bit
    from a table of their own) meeting acc: right answers within 1.5x of the figure."""
    code = build_contract("ecrecover", target="evm")
    figure = _figure("ecrecover", "evm", CASES["ecrecover"])
    rng, met = random.Random(11), 0
    for index in range(2):                          # phi(R) can meet [d3] R only at k = 0
        for sign in (1, -1):
            while True:
                u1, u2 = rng.randrange(1, NK1), rng.randrange(1, NK1)
                _, acc, rec = _k1_additions(u1, u2, start=True)[index]
                k = _solve(acc, rec, sign, NK1)
                if not k:
                    break
                x, _ = weierstrass.multiply(K1_AFFINE, SECP256K1.g1, k)
                if x >= NK1:
                    continue
                data = _k1_input(k, u1, u2)
                assert answers(code, data, "evm", both=False) == coincurve_recover(data)
                assert run(code, data, target="evm").gas_used <= LIMIT * figure
                met += 1
                break
    assert met == 2


@pytest.mark.parametrize("name", CASES)
def test_first_exception_at_each_entry_of_the_careful_path(name, openssl, coincurve_recover):
    oracle = {"p256verify": lambda data: _p256_verdict(openssl, data),
              "ecrecover": coincurve_recover}[name]
    code = build_contract(name, target="evm")
    figure = _figure(name, "evm", CASES[name])
    for label, data in _made_inputs(name, random.Random(48)):
        assert answers(code, data, "evm", both=False) == oracle(data), label
        gas = run(code, data, target="evm").gas_used
        assert figure < gas <= LIMIT * figure, (label, gas, figure)
