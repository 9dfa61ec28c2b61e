"""Groth16 verifiers (evm384_native.groth16) against arkworks' verifier (groth16py) on
proofs groth16py makes, and py_ecc's pairing for the equation; the forgeries: each proof
element changed, negated, swapped; hints from other proofs and forged; a public input
>= r; a coordinate >= p; points off their curve; B outside G2's subgroup."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from optional import require

require("groth16py", "test")

import groth16_cases as cases                                   # noqa: E402
from evm384_native import execute, groth16                       # noqa: E402
from evm384_native.bn254.points import G1, G2                    # noqa: E402
from evm384_native.curves.bn254 import BN254                     # noqa: E402
from evm384_native.curves.fields import QuadraticExtension       # noqa: E402
from evm384_native.groth16 import calldata as calldata_module    # noqa: E402

P, R = BN254.p, BN254.r
TARGETS = ("evmmax", "evm384")
GAS = 30_000_000


def run(code: bytes, data: bytes, target: str = "evmmax", engine: str = "fast"):
    return execute(code, data, opcodes=target, engine=engine, gas=GAS)


def answer(code: bytes, data: bytes, target: str = "evmmax", engine: str = "fast") -> int:
    result = run(code, data, target, engine)
    assert result.success, result.error
    assert len(result.output) == 32
    return int.from_bytes(result.output, "big")


@pytest.fixture(scope="module")
def key3():
    return cases.setup(3)[2]


@pytest.fixture(scope="module")
def code3(key3):
    return {target: groth16.build_verifier(key3, target=target) for target in TARGETS}


@pytest.fixture(scope="module")
def proofs3():
    """Two proofs of the same statement and one of another."""
    first = cases.prove(3, 5, (7, 11))
    second = cases.prove(3, 5, (7, 11))
    other = cases.prove(3, 6, (7, 11))
    assert first[0] != second[0]                   # the prover is randomised
    return first, second, other


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("target", TARGETS)
def test_valid_and_invalid_statements(n, target):
    key = cases.setup(n)[2]
    code = groth16.build_verifier(key, target=target)
    xs = tuple(range(7, 6 + n))
    proof, public = cases.prove(n, 3, xs)
    wrong = [(public[0] + 1) % R, *public[1:]]
    for inputs, expected in ((public, True), (wrong, False)):
        assert cases.oracle(n, proof, inputs) is expected
        data = groth16.encode_calldata(key, proof, inputs)
        assert len(data) == 256 + 32 * n + 192
        assert answer(code, data, target) == expected


@pytest.mark.parametrize("n", [1, 2])
def test_plain_evm_verifier(n):
    """The same verifier in today's EVM (target "evm"): the oracle's answers, forged proofs
    and hints rejected, both engines in agreement (its gas: docs/groth16.md)."""
    key = cases.setup(n)[2]
    code = groth16.build_verifier(key, target="evm")
    proof, public = cases.prove(n, 3, tuple(range(7, 6 + n)))
    other, _ = cases.prove(n, 5, tuple(range(7, 6 + n)))
    data = groth16.encode_calldata(key, proof, public)
    forged = bytearray(data)
    forged[-1] ^= 1                                # the hint's last byte
    inputs = [(data, 1), (groth16.encode_calldata(key, proof, [(public[0] + 1) % R,
                                                               *public[1:]]), 0),
              (bytes(forged), 0), (data[:256] + groth16.encode_calldata(key, other,
                                                                         public)[256:], 0)]
    for calldata, expected in inputs:
        assert answer(code, calldata, "evm") == expected
    fast, python = run(code, data, "evm"), run(code, data, "evm", "python")
    assert (fast.output, fast.gas_used) == (python.output, python.gas_used)


@pytest.mark.parametrize("engine", ["python", "fast"])
def test_engines_agree(key3, code3, proofs3, engine):
    (proof, public), _, _ = proofs3
    data = groth16.encode_calldata(key3, proof, public)
    bad = groth16.encode_calldata(key3, proof, [public[0], public[1] + 1, public[2]])
    for target in TARGETS:
        results = [run(code3[target], d, target, engine) for d in (data, bad)]
        assert [int.from_bytes(r.output, "big") for r in results] == [1, 0]
        fast = [run(code3[target], d, target, "fast") for d in (data, bad)]
        assert [r.gas_used for r in results] == [r.gas_used for r in fast]


def test_the_equation_against_py_ecc(key3, proofs3):
    """The statement the verifier checks, e(-A, B) e(C, delta) e(vk_x, gamma)
    e(alpha, beta) = 1, holds under py_ecc's pairing for an accepted proof."""
    from py_ecc import optimized_bn128 as bn
    (proof, public), _, _ = proofs3

    def g1(point):
        return (bn.FQ(point[0]), bn.FQ(point[1]), bn.FQ(1))

    def g2(point):
        (x0, x1), (y0, y1) = point
        return (bn.FQ2([x0, x1]), bn.FQ2([y0, y1]), bn.FQ2.one())
    vk_x = calldata_module.vk_x(key3, public)
    f = bn.FQ12.one()
    for p, q in ((bn.neg(g1(proof.a)), g2(proof.b)), (g1(proof.c), g2(key3.delta)),
                 (g1(vk_x), g2(key3.gamma)), (g1(key3.alpha), g2(key3.beta))):
        f = f * bn.pairing(q, p, final_exponentiate=False)
    assert bn.final_exponentiate(f) == bn.FQ12.one()


# --- forgeries: each must give 0 (and arkworks must reject it too) -----------------------

def _g1_add(point, other):
    return G1.add(point, other)


def _not_in_g2_subgroup():
    """A point of the twist y^2 = x^3 + b' outside the order-r subgroup."""
    fp2: QuadraticExtension = BN254.fp2
    rng = random.Random(7)
    while True:
        x = (rng.randrange(P), rng.randrange(P))
        rhs = fp2.mul(fp2.mul(x, x), x)
        rhs = ((rhs[0] + BN254.twist_b[0]) % P, (rhs[1] + BN254.twist_b[1]) % P)
        y = fp2.sqrt(rhs)
        if y is not None and G2.multiply((x, y), R) is not None:
            return x, y


def _forged_proofs(proof, second):
    a, b, c = proof.a, proof.b, proof.c
    g1, g2 = BN254.g1, BN254.g2
    neg_b = (b[0], ((P - b[1][0]) % P, (P - b[1][1]) % P))
    yield "A + G", groth16.Proof(_g1_add(a, g1), b, c)
    yield "B + G2", groth16.Proof(a, G2.add(b, g2), c)
    yield "C + G", groth16.Proof(a, b, _g1_add(c, g1))
    yield "-A", groth16.Proof(G1.negate(a), b, c)
    yield "-B", groth16.Proof(a, neg_b, c)
    yield "-C", groth16.Proof(a, b, G1.negate(c))
    yield "-A, -B", groth16.Proof(G1.negate(a), neg_b, c)
    yield "A, C swapped", groth16.Proof(c, b, a)
    yield "A from another proof", groth16.Proof(second.a, b, c)
    yield "B from another proof", groth16.Proof(a, second.b, c)
    yield "C from another proof", groth16.Proof(a, b, second.c)
    yield "A at infinity", groth16.Proof((0, 0), b, c)
    yield "B at infinity", groth16.Proof(a, ((0, 0), (0, 0)), c)
    yield "C at infinity", groth16.Proof(a, b, (0, 0))
    yield "A off the curve", groth16.Proof((a[0], (a[1] + 1) % P), b, c)
    yield "C off the curve", groth16.Proof(a, b, (c[0], (c[1] + 1) % P))
    yield "B off the twist", groth16.Proof(a, (b[0], ((b[1][0] + 1) % P, b[1][1])), c)
    yield "B outside G2's subgroup", groth16.Proof(a, _not_in_g2_subgroup(), c)


def test_forged_proofs_get_the_reference_answer(key3, code3, proofs3):
    """0 for each forgery arkworks rejects, with its own hint (where the prover can read
    it) and with the valid proof's; (-A, -B) is the same proof (Groth16's malleability):
    accepted by both."""
    (proof, public), (second, _), _ = proofs3
    valid_hint = groth16.hint(key3, proof, public)
    accepted = []
    for name, forged in _forged_proofs(proof, second):
        expected = cases.oracle(3, forged, public)
        try:
            hints = [groth16.hint(key3, forged, public)]
        except ValueError:                          # the prover cannot read it
            hints = []
        if expected:
            accepted.append(name)
        for hint in hints + ([] if expected else [valid_hint]):
            data = groth16.encode_calldata(key3, forged, public, hint_bytes=hint)
            for target in TARGETS:
                assert answer(code3[target], data, target) == expected, (name, target)
    assert accepted == ["-A, -B"]


def test_hints_of_other_proofs_and_forged_hints(key3, code3, proofs3):
    (proof, public), (second, public2), (other, public_other) = proofs3
    rng = random.Random(1)
    hints = {
        "another proof's": groth16.hint(key3, second, public2),
        "another statement's": groth16.hint(key3, other, public_other),
        "zero": bytes(192),
        "random < p": b"".join(rng.randrange(P).to_bytes(32, "big") for _ in range(6)),
        "a word = p": P.to_bytes(32, "big") + bytes(160),
        "a word >= 2^255": (1 << 255).to_bytes(32, "big") + bytes(160),
    }
    good = groth16.hint(key3, proof, public)
    for i in range(6):                              # the valid hint with one word changed
        words = bytearray(good)
        words[32 * i + 31] ^= 1
        hints[f"word {i} changed"] = bytes(words)
        plus_p = int.from_bytes(good[32 * i:32 * i + 32], "big") + P
        if plus_p < 1 << 256:
            hints[f"word {i} + p"] = good[:32 * i] + plus_p.to_bytes(32, "big") + good[32 * i + 32:]
    assert hints["another proof's"] != good
    for name, hint in hints.items():
        data = groth16.encode_calldata(key3, proof, public, hint_bytes=hint)
        for target in TARGETS:
            assert answer(code3[target], data, target) == 0, (name, target)
    data = groth16.encode_calldata(key3, proof, public, hint_bytes=good)
    assert all(answer(code3[t], data, t) == 1 for t in TARGETS)


def test_public_input_at_or_above_r_gives_zero(key3, code3, proofs3):
    """vk_x is the same for s + r, but snarkjs's verifier answers false for s >= r."""
    (proof, public), _, _ = proofs3
    hint = groth16.hint(key3, proof, public)
    for i in range(3):
        for bump in (R, 2 * R, (1 << 256) - 1 - public[i]):
            inputs = list(public)
            inputs[i] += bump
            data = groth16.encode_calldata(key3, proof, inputs, hint_bytes=hint)
            for target in TARGETS:
                assert answer(code3[target], data, target) == 0, (i, bump, target)


def test_coordinates_at_or_above_p_give_zero(key3, code3, proofs3):
    (proof, public), _, _ = proofs3
    hint = groth16.hint(key3, proof, public)
    good = groth16.encode_calldata(key3, proof, public)
    assert answer(code3["evmmax"], good) == 1
    for word in range(8):                           # A.x .. C.y: + p where it fits 256 bits
        value = int.from_bytes(good[32 * word:32 * word + 32], "big")
        for bad in {value + P, P, (1 << 256) - 1} - {v for v in [value + P] if v >= 1 << 256}:
            data = good[:32 * word] + bad.to_bytes(32, "big") + good[32 * word + 32:]
            for target in TARGETS:
                assert answer(code3[target], data, target) == 0, (word, bad, target)
    assert hint == good[-192:]


def test_wrong_length_reverts(key3, code3, proofs3):
    (proof, public), _, _ = proofs3
    data = groth16.encode_calldata(key3, proof, public)
    for bad in (data[:-1], data + b"\0", data + bytes(32), data[:-32], b""):
        for target in TARGETS:
            result = run(code3[target], bad, target)
            assert not result.success and result.output == b"", target


# --- keys, proofs, calldata from Python values and snarkjs JSON ---------------------------

def test_snarkjs_json_round_trip(tmp_path, key3):
    _, vk, _ = cases.setup(3)
    path = tmp_path / "verification_key.json"
    path.write_text(vk.to_json())
    assert groth16.VerifyingKey.from_snarkjs(path) == key3
    data = json.loads(vk.to_json())
    assert key3.alpha == tuple(int(v) for v in data["vk_alpha_1"][:2])
    assert key3.beta == tuple(tuple(int(v) for v in c) for c in data["vk_beta_2"][:2])
    assert key3.inputs == 3 and len(key3.ic) == 4
    proof, public = cases.prove(3, 2, (3, 4))
    proof_json = {"pi_a": [str(v) for v in proof.a] + ["1"],
                  "pi_b": [[str(v) for v in c] for c in proof.b] + [["1", "0"]],
                  "pi_c": [str(v) for v in proof.c] + ["1"], "protocol": "groth16"}
    (tmp_path / "proof.json").write_text(json.dumps(proof_json))
    (tmp_path / "public.json").write_text(json.dumps([str(v) for v in public]))
    assert groth16.Proof.from_snarkjs(tmp_path / "proof.json") == proof
    assert groth16.public_inputs_from_snarkjs(tmp_path / "public.json") == public


def test_key_checks(key3):
    fields = dict(curve="bn254", alpha=key3.alpha, beta=key3.beta, gamma=key3.gamma,
                  delta=key3.delta, ic=key3.ic)
    assert groth16.VerifyingKey(**fields) == key3
    for name, value, message in [
            ("alpha", (key3.alpha[0], key3.alpha[1] + 1), "alpha is not a point"),
            ("gamma", _not_in_g2_subgroup(), "gamma is not in the order-r subgroup"),
            ("curve", "secp256k1", "unknown curve"),
            ("ic", [], "needs ic"),
            ("ic", [key3.ic[0], (1, 3)], "ic\\[1\\] is not a point")]:
        with pytest.raises(ValueError, match=message):
            groth16.VerifyingKey(**{**fields, name: value})
    with pytest.raises(ValueError, match="public inputs"):
        groth16.encode_calldata(key3, groth16.Proof((1, 2), ((0, 0), (0, 0)), (1, 2)), [1])
    with pytest.raises(ValueError, match="not an integer in"):
        groth16.encode_calldata(key3, groth16.Proof((1, 2), ((0, 0), (0, 0)), (1, 2)),
                                [1, 2, R])


def test_too_many_inputs_are_refused(key3):
    many = groth16.VerifyingKey(curve="bn254", alpha=key3.alpha, beta=key3.beta,
                                gamma=key3.gamma, delta=key3.delta,
                                ic=[key3.ic[1]] * (groth16.MAX_INPUTS + 2))
    with pytest.raises(groth16.ContractTooLarge, match="at most 16"):
        groth16.build_verifier(many)


@pytest.mark.slow
@pytest.mark.parametrize("n", range(3, 9))
def test_one_to_eight_inputs(n):
    key = cases.setup(n)[2]
    proof, public = cases.prove(n, 3, tuple(range(2, n + 1)))
    for target in TARGETS:
        code = groth16.build_verifier(key, target=target)
        for inputs, expected in ((public, 1), ([public[0], *public[1:-1], public[-1] + 1], 0)):
            assert cases.oracle(n, proof, inputs) == bool(expected)
            data = groth16.encode_calldata(key, proof, inputs)
            assert answer(code, data, target) == expected
            assert answer(code, data, target, engine="python") == expected


@pytest.mark.slow
def test_sixteen_inputs_fit_evmmax_and_evm384_says_so(key3):
    """EVMMAX: 16 public inputs fit 24,576 bytes; EVM384's 18-byte field ops
    fit 12 (docs/groth16.md), and refuse 16 with the size."""
    ic = [G1.multiply(BN254.g1, i + 2) for i in range(17)]
    key = groth16.VerifyingKey(curve="bn254", alpha=key3.alpha, beta=key3.beta,
                               gamma=key3.gamma, delta=key3.delta, ic=ic)
    code = groth16.build_verifier(key, target="evmmax")
    assert len(code) <= 24_576
    twelve = groth16.VerifyingKey(curve="bn254", alpha=key3.alpha, beta=key3.beta,
                                  gamma=key3.gamma, delta=key3.delta, ic=ic[:13])
    assert len(groth16.build_verifier(twelve, target="evm384")) <= 24_576
    with pytest.raises(groth16.ContractTooLarge, match="bytes on evm384, above EIP-170"):
        groth16.build_verifier(key, target="evm384")


# --- keys whose trapdoor is known: proofs with points at infinity ---------------------------

def _arkworks(door, proof, public):
    """arkworks' answer for a trapdoor key (groth16py reads the key's snarkjs JSON)."""
    import groth16py
    vk = groth16py.VerifyingKey.from_snarkjs(json.dumps(door.key.to_snarkjs()))
    try:
        return bool(groth16py.Verifier(vk).verify(cases.proof_to_bytes(proof), public))
    except Exception:
        return False


@pytest.mark.parametrize("target", TARGETS)
def test_points_at_infinity_with_a_known_trapdoor(target):
    """C = O, vk_x = O (ic_0 = -ic_1 and input 1, or ic_0 = O and input 0), B = O: the
    answer of the precompile-based verifier, for which (0, 0) is the point at infinity
    (the equation in the exponents; arkworks agrees on finite points and rejects the
    (0, 0) encoding); the same with a wrong input: 0. A = O: 0 (the one input the
    reference may accept and the verifier does not: module doc of verifier.py)."""
    rng = random.Random(11)
    k = rng.randrange(1, R)
    for ic, public in (([rng.randrange(1, R), k], [5]), ([R - k, k], [1]), ([0, k], [0])):
        door = cases.Trapdoor("bn254", ic)
        code = groth16.build_verifier(door.key, target=target)
        for name, proof, inputs, expected in door.infinity_cases(public, rng):
            if name == "finite" and 0 not in ic:   # groth16py reads no key point at O
                assert _arkworks(door, proof, inputs) == expected
            data = groth16.encode_calldata(door.key, proof, inputs)
            assert answer(code, data, target) == expected, (ic, name, inputs, target)
        proof, c = door.proof(0, rng.randrange(1, R), public)
        assert proof.a == (0, 0) and door.holds((0, 0, c), public)
        data = groth16.encode_calldata(door.key, proof, public)
        assert answer(code, data, target) == 0


def test_infinity_is_the_precompiles_zero_pair():
    """py_ecc's pairing (the precompile's semantics) on a trapdoor proof with C = O: the
    product of the three other pairings is one, so the precompile-based verifier accepts."""
    from py_ecc import optimized_bn128 as bn
    door = cases.Trapdoor("bn254", [7, 9])
    a = 5
    b = (door.alpha * door.beta + (7 + 9 * 2) * door.gamma) * pow(a, -1, R) % R
    proof, c = door.proof(a, b, [2])
    assert c == 0
    key = door.key

    def g1(point):
        return (bn.FQ(point[0]), bn.FQ(point[1]), bn.FQ(1))

    def g2(point):
        return (bn.FQ2(list(point[0])), bn.FQ2(list(point[1])), bn.FQ2.one())
    vk_x = calldata_module.vk_x(key, [2])
    f = bn.FQ12.one()
    for p, q in ((bn.neg(g1(proof.a)), g2(proof.b)), (g1(vk_x), g2(key.gamma)),
                 (g1(key.alpha), g2(key.beta))):
        f = f * bn.pairing(q, p, final_exponentiate=False)
    assert bn.final_exponentiate(f) == bn.FQ12.one()


def test_arkworks_accepts_the_snarkjs_fixture():
    """The published fixture tests/test_groth16_vectors.py runs: arkworks' answer too."""
    import groth16py
    from pathlib import Path
    folder = Path(__file__).parent / "vectors" / "groth16" / "snarkjs"
    vk = groth16py.VerifyingKey.from_snarkjs_file(str(folder / "verification_key.json"))
    assert groth16py.Verifier(vk).verify_snarkjs((folder / "proof.json").read_text(),
                                                 (folder / "public.json").read_text())


@settings(max_examples=8, deadline=None)
@given(w=st.integers(1, R - 1), x=st.integers(0, R - 1), y=st.integers(0, R - 1),
       index=st.integers(0, 2), delta=st.integers(1, R - 1))
def test_random_statements(key3, code3, w, x, y, index, delta):
    """Any witness and inputs: the proof is accepted; any input changed (mod r): 0."""
    proof, public = cases.prove(3, w, (x, y))
    wrong = list(public)
    wrong[index] = (wrong[index] + delta) % R
    for inputs, expected in ((public, 1), (wrong, 0)):
        assert cases.oracle(3, proof, inputs) == bool(expected)
        data = groth16.encode_calldata(key3, proof, inputs)
        assert answer(code3["evmmax"], data) == expected
