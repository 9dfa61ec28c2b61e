"""Property tests (issue 41): signatures whose words sit near 0, n, p, p - n, 2^256 - n and
2^256, for P256VERIFY (``p256verify``, against OpenSSL through ``cryptography`` and the
pure-Python reference) and ECRECOVER (``ecrecover``, against libsecp256k1 through coincurve and
the reference), on every target each builds for and both engines.

Random words almost never verify, so each example is made to verify "modulo the range
checks": an R' with an x near the edges is drawn, and the key is made from it, Q = (s R' -
h G) / r with r and s taken mod n, as a forger who hopes a contract skips a range check or lets
a word wrap would make it (Wycheproof's vector 260 was made so)."""
from hypothesis import assume, given, strategies as st

from evm384_native.curves import weierstrass
from evm384_native.p256 import reference as p256
from evm384_native.secp256k1 import reference as secp256k1
from signature_runs import ONE, answers_everywhere

WORD = 1 << 256


def near(*anchors):
    """Words within 3 of an anchor (kept in [0, 2^256)), or any word."""
    edge = st.builds(lambda a, d: (a + d) % WORD, st.sampled_from(anchors), st.integers(-3, 3))
    return st.one_of(edge, st.integers(0, WORD - 1))


def point_with_x(curve, x):
    """A point of ``curve`` (p = 3 mod 4) with this x, or None."""
    c = (x**3 + curve.a * x + curve.b) % curve.p
    y = pow(c, (curve.p + 1) // 4, curve.p)
    return (x, y) if x < curve.p and y * y % curve.p == c else None


def key_from(curve, point, h, r, s):
    """Q with [h / s] G + [r / s] Q = point, r and s taken mod n (None if there is none)."""
    n = curve.n
    if r % n == 0:
        return None
    sr = weierstrass.add(curve, weierstrass.multiply(curve, point, s % n),
                         weierstrass.multiply(curve, curve.g, (-h) % n))
    return weierstrass.multiply(curve, sr, pow(r, -1, n))


R1_N, R1_P = p256.N, p256.P
R1_EDGES = (0, 1, R1_N, R1_P, R1_P - R1_N, WORD - R1_N, WORD - 1, R1_N // 2)


@given(x=near(0, 1, R1_N, R1_P - 1, R1_P - R1_N, WORD - R1_N), r=near(*R1_EDGES),
       s=near(*R1_EDGES), h=near(0, R1_N, WORD - 1), shift=st.sampled_from((0, 1, -1)))
def test_p256verify_near_the_edges(openssl, x, r, s, h, shift):
    point = point_with_x(p256.CURVE, x % R1_P)
    assume(point is not None)
    # r as the x itself, or x - n / x + n / x + n - 2^256 (its value mod n, or a wrapped one)
    r = (r if shift == 0 else x + shift * R1_N) % WORD
    key = key_from(p256.CURVE, point, h, r, s)
    assume(key is not None)
    data = p256.encode(h, r, s, *key)
    expected = 0 < r < R1_N and 0 < s < R1_N and openssl("secp256r1", key, h, r, s)
    assert p256.verify(data) == expected
    assert answers_everywhere("p256verify", data) == (ONE if expected else b"")


K1_N, K1_P = secp256k1.N, secp256k1.P
K1_EDGES = (0, 1, K1_N, K1_P, K1_P - K1_N, WORD - K1_N, WORD - 1, K1_N // 2)


@given(x=near(0, 1, K1_N, K1_P - 1, K1_P - K1_N, WORD - K1_N), r=near(*K1_EDGES),
       s=near(*K1_EDGES), h=near(0, K1_N, WORD - 1), v=st.sampled_from((27, 28, 26, 29, 27 + 256)),
       as_x=st.booleans())
def test_ecrecover_near_the_edges(coincurve_recover, x, r, s, h, v, as_x):
    curve = secp256k1.CURVE
    point = point_with_x(curve, x % K1_P)
    assume(point is not None)
    if as_x:
        r = point[0]                            # R's x itself: recovers Q when r < n
        if v in (27, 28) and (point[1] & 1) != v - 27:
            point = (point[0], K1_P - point[1])
    key = key_from(curve, point, h, r, s)
    assume(key is not None)
    data = secp256k1.encode(h, v, r, s)
    answer = answers_everywhere("ecrecover", data)
    assert answer == coincurve_recover(data) == secp256k1.recover(data)
    if as_x and v in (27, 28) and 0 < r < K1_N and 0 < s < K1_N:
        assert answer == secp256k1.address(*key)
