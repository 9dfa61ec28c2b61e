"""Every Wycheproof ECDSA vector for secp256r1 and secp256k1 (tests/wycheproof.py) through the
signature contracts, on every target they build for, on the fast engine, and on the python
engine for one vector in four (the engines must agree on output and gas): secp256r1 through ``p256verify`` (P256VERIFY), secp256k1 through ``ecrecover``
(ECRECOVER). The oracles: Wycheproof's own verdicts, ``cryptography`` (OpenSSL) on both
curves, coincurve (libsecp256k1's recovery) and, on one file a curve, the package's
pure-Python references.

ECRECOVER's v (27 or 28) names the parity of R's y and takes R's x to be r itself, so a valid
signature whose R has x = r + n (possible where r < p - n) has no ECRECOVER input that recovers
its key: those vectors are checked apart (R computed from the key, its x shown to be r + n)."""
import pytest

from evm384_native.contracts import targets_of
from evm384_native.curves import weierstrass
from evm384_native.p256 import reference as p256
from evm384_native.secp256k1 import reference as secp256k1
from signature_runs import ONE, answers, sampled
from wycheproof import CURVES, files, vectors

# The number of vectors (Wycheproof's commit in SOURCE.md)
COUNTS = {"secp256r1": 3400, "secp256k1": 4653}


def ecdsa_valid(curve, vector, openssl):
    """ECDSA's verdict (no low-s rule) on a vector whose r and s are words: Wycheproof's, or
    where Wycheproof's adds the bitcoin variant's low-s rule, OpenSSL's (shown to agree with
    Wycheproof's but for that rule)."""
    if not vector.low_s_rule:
        return vector.valid
    answer = openssl(curve, vector.public_key, vector.h, *vector.words)
    assert vector.valid == (answer and vector.words[1] <= secp256k1.N // 2), vector.name
    return answer


def _by_file(curve):
    return [pytest.param(path.name[:-len(".json.gz")], id=path.name[len("ecdsa_"):-len("_test.json.gz")])
            for path in files(curve)]


def _of_file(curve, name):
    return [v for v in vectors(curve) if v.file == name]


@pytest.mark.parametrize("curve", CURVES)
def test_the_vectors_and_what_cannot_be_expressed(curve, openssl):
    """Counts; every vector without a precompile input is invalid; where r, s are words,
    OpenSSL, given h, agrees with Wycheproof on every vector (so h is the right digest; on
    the bitcoin variant, but for its low-s rule)."""
    every = list(vectors(curve))
    assert len(every) == COUNTS[curve]
    assert {v.file.split("_")[2] for v in every} >= {"sha256", "sha512", "sha3", "shake128"}
    assert any(v.file.endswith("p1363_test") for v in every)
    assert any(v.file.endswith("sha256_test") for v in every)       # DER
    unexpressible = [v for v in every if v.words is None]
    assert unexpressible and all(not v.valid for v in unexpressible)
    for vector in every:
        if vector.words is None:
            continue
        if vector.low_s_rule:
            ecdsa_valid(curve, vector, openssl)     # asserts OpenSSL's verdict is Wycheproof's
        else:
            assert openssl(curve, vector.public_key, vector.h, *vector.words) == vector.valid, \
                vector.name


@pytest.mark.parametrize("file", _by_file("secp256r1"))
@pytest.mark.parametrize("target", targets_of("p256verify"))
def test_p256verify(file, target):
    from evm384_native.contracts import build_contract
    code = build_contract("p256verify", target=target)
    checked = 0
    for vector in _of_file("secp256r1", file):
        if vector.words is None:
            continue
        data = p256.encode(vector.h, *vector.words, *vector.public_key)
        assert answers(code, data, target, sampled(checked)) == \
            (ONE if vector.valid else b""), vector.name
        checked += 1
    assert checked > 200


def test_the_pure_python_references_on_the_sha256_p1363_vectors(coincurve_recover):
    """The package's own p256.verify and secp256k1.recover (slow: one file a curve)."""
    for vector in _of_file("secp256r1", "ecdsa_secp256r1_sha256_p1363_test"):
        if vector.words is not None:
            data = p256.encode(vector.h, *vector.words, *vector.public_key)
            assert p256.verify(data) == vector.valid, vector.name
    for vector in _of_file("secp256k1", "ecdsa_secp256k1_sha256_p1363_test"):
        if vector.words is not None:
            for v in (27, 28):
                data = secp256k1.encode(vector.h, v, *vector.words)
                assert secp256k1.recover(data) == coincurve_recover(data), vector.name


def test_wycheproof_260_the_wrapped_r_plus_n():
    """The vector that found the wrapped r + n (issue 41): r = 2^256 - n + 5, x(R') = 5."""
    (vector,) = [v for v in vectors("secp256r1")
                 if v.file == "ecdsa_secp256r1_sha256_p1363_test" and v.tc_id == 260]
    r, s = vector.words
    assert r == 2**256 - p256.N + 5 and not vector.valid
    from evm384_native.contracts import build_contract
    for target in targets_of("p256verify"):
        data = p256.encode(vector.h, r, s, *vector.public_key)
        assert answers(build_contract("p256verify", target=target), data, target) == b""


def _r_point(vector):
    """R = [h / s] G + [r / s] Q of a secp256k1 vector (None at infinity)."""
    r, s = vector.words
    w = pow(s, -1, secp256k1.N)
    curve = secp256k1.CURVE
    return weierstrass.add(curve, weierstrass.multiply(curve, curve.g, vector.h * w % secp256k1.N),
                           weierstrass.multiply(curve, vector.public_key, r * w % secp256k1.N))


@pytest.mark.parametrize("file", _by_file("secp256k1"))
@pytest.mark.parametrize("target", targets_of("ecrecover"))
def test_ecrecover(file, target, coincurve_recover, openssl):
    """Both v: the contract gives libsecp256k1's and the reference's answer; the key's address
    is among them exactly for the valid signatures whose R has x = r."""
    from evm384_native.contracts import build_contract
    code = build_contract("ecrecover", target=target)
    beyond = 0
    for i, vector in enumerate(_of_file("secp256k1", file)):
        if vector.words is None:
            continue
        signer = secp256k1.address(*vector.public_key)
        recovered = []
        for v in (27, 28):
            data = secp256k1.encode(vector.h, v, *vector.words)
            output = answers(code, data, target, sampled(i))
            assert output == coincurve_recover(data), vector.name
            recovered.append(output)
        valid = ecdsa_valid("secp256k1", vector, openssl)
        if valid and signer not in recovered:
            point = _r_point(vector)            # checked apart: x(R) = r + n, no v for it
            assert point is not None and point[0] == vector.words[0] + secp256k1.N, vector.name
            beyond += 1
        else:
            assert (signer in recovered) == valid, vector.name
    assert 1 <= beyond <= 2                  # "k*G has a large x-coordinate", "x = n + 2"
