"""BLS12-381 Groth16 verifiers (evm384_native.groth16, EIP-2537's encodings): a key and
proof snarkjs made and a project published (tests/vectors/groth16/bls12381/SOURCE.md),
checked with py_ecc's pairing; keys with a known trapdoor (tests/groth16_cases.py), whose
equation in the exponents is the oracle (groth16py is BN254 only), for true and false
statements and every forgery: each proof element changed, negated, swapped, from
another proof; A or C outside G1's order-r subgroup (BLS12-381's G1 has a cofactor), B
outside G2's; points off their curves, a coordinate >= p, non-zero padding; hints of
other proofs and forged; a public input >= r; wrong lengths."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from groth16_cases import G1_ORDER, G2_ORDER, Trapdoor, g1_point, g2_point, torsion
from evm384_native import execute, groth16
from evm384_native.curves.bls12_381 import BLS12_381
from evm384_native.groth16 import calldata as calldata_module
from evm384_native.groth16.curves import BLS12_381_GROTH16 as SPEC

P, R = BLS12_381.p, BLS12_381.r
TARGETS = ("evmmax", "evm384")
FIXTURE = Path(__file__).parent / "vectors" / "groth16" / "bls12381"
HINT = 288


def answer(code, data, target, engine="fast"):
    result = execute(code, data, opcodes=target, engine=engine, gas=30_000_000)
    assert result.success, result.error
    assert len(result.output) == 32
    return int.from_bytes(result.output, "big")


def pairing_product_is_one(key, proof, public):
    """py_ecc's pairings: e(-A, B) e(C, delta) e(vk_x, gamma) e(alpha, beta) = 1."""
    from py_ecc import optimized_bls12_381 as bls

    def g1(point):
        return (bls.FQ(point[0]), bls.FQ(point[1]), bls.FQ(1))

    def g2(point):
        return (bls.FQ2(list(point[0])), bls.FQ2(list(point[1])), bls.FQ2.one())
    f = bls.FQ12.one()
    vk_x = calldata_module.vk_x(key, public)
    for p, q in ((bls.neg(g1(proof.a)), g2(proof.b)), (g1(proof.c), g2(key.delta)),
                 (g1(vk_x), g2(key.gamma)), (g1(key.alpha), g2(key.beta))):
        f = f * bls.pairing(q, p, final_exponentiate=False)
    return bls.final_exponentiate(f) == bls.FQ12.one()


@pytest.fixture(scope="module")
def fixture():
    key = groth16.VerifyingKey.from_snarkjs(FIXTURE / "verification_key.json")
    return (key, groth16.Proof.from_snarkjs(FIXTURE / "proof.json"),
            groth16.public_inputs_from_snarkjs(FIXTURE / "public.json"),
            {target: groth16.build_verifier(key, target=target) for target in TARGETS})


def test_published_snarkjs_proof(fixture):
    """snarkjs's key and proof for the public input 33: py_ecc's pairings accept it, and
    so does the verifier on both targets and engines; 34: 0."""
    key, proof, public, code = fixture
    assert key.curve == "bls12_381" and public == [33]
    assert pairing_product_is_one(key, proof, public)
    assert not pairing_product_is_one(key, proof, [34])
    for target in TARGETS:
        data = groth16.encode_calldata(key, proof, public)
        assert len(data) == 512 + 32 + HINT
        assert answer(code[target], data, target) == 1
        assert answer(code[target], data, target, engine="python") == 1
        assert answer(code[target], groth16.encode_calldata(key, proof, [34]), target) == 0


def test_sizes_fit(fixture):
    assert all(len(code) <= 24_576 for code in fixture[3].values())


# --- keys with a known trapdoor: true and false statements, forgeries ----------------------

@pytest.fixture(scope="module")
def door():
    rng = random.Random(21)
    door = Trapdoor("bls12_381", [rng.randrange(1, R) for _ in range(3)], seed=5)
    return door, {target: groth16.build_verifier(door.key, target=target)
                  for target in TARGETS}


@pytest.fixture(scope="module")
def proofs(door):
    """Two proofs of one statement (two public inputs) and one of another:
    (proof, its exponents, public inputs) each."""
    trap, _ = door
    rng = random.Random(8)
    public = [rng.randrange(R), rng.randrange(R)]
    other = [(public[0] + 1) % R, public[1]]
    made = []
    for inputs in (public, public, other):
        a, b = rng.randrange(1, R), rng.randrange(1, R)
        proof, c = trap.proof(a, b, inputs)
        made.append((proof, (a, b, c), inputs))
    return made


def test_true_and_false_statements(door, proofs):
    trap, code = door
    (proof, _, public), _, _ = proofs
    assert pairing_product_is_one(trap.key, proof, public)       # py_ecc agrees
    wrong = [(public[0] + 1) % R, public[1]]
    for target in TARGETS:
        data = groth16.encode_calldata(trap.key, proof, public)
        assert answer(code[target], data, target) == 1
        assert answer(code[target], data, target, engine="python") == 1
        assert answer(code[target], groth16.encode_calldata(trap.key, proof, wrong),
                      target) == 0


def _forgeries(trap, proof, exponents, second):
    """(name, forged proof, whether the reference accepts it): the exponent equation for
    points of the order-r subgroups, 0 for any other point."""
    a, b, c = exponents
    g1, g2 = SPEC.g1, SPEC.g2
    neg_b = (proof.b[0], ((P - proof.b[1][0]) % P, (P - proof.b[1][1]) % P))
    in_subgroups = [
        ("A + G", (a + 1, b, c)), ("B + G2", (a, b + 1, c)), ("C + G", (a, b, c + 1)),
        ("-A", (-a, b, c)), ("-B", (a, -b, c)), ("-C", (a, b, -c)),
        ("-A, -B", (-a, -b, c)), ("A, C swapped", (c, b, a))]
    for name, (ea, eb, ec) in in_subgroups:
        yield name, groth16.Proof(g1.generator_multiple(ea % R), g2.generator_multiple(eb % R),
                                  g1.generator_multiple(ec % R)), (ea, eb, ec)
    for name, forged in (("A from another proof", groth16.Proof(second.a, proof.b, proof.c)),
                         ("B from another proof", groth16.Proof(proof.a, second.b, proof.c)),
                         ("C from another proof", groth16.Proof(proof.a, proof.b, second.c))):
        yield name, forged, None                   # the equation fails (checked below)
    outside_g1, outside_g2 = g1_point(13), g2_point(17)
    t3, t13 = torsion(g1, g1_point, G1_ORDER, 3), torsion(g2, g2_point, G2_ORDER, 13)
    for name, forged in (
            ("A outside G1's subgroup", groth16.Proof(outside_g1, proof.b, proof.c)),
            ("C outside G1's subgroup", groth16.Proof(proof.a, proof.b, outside_g1)),
            ("B outside G2's subgroup", groth16.Proof(proof.a, outside_g2, proof.c)),
            # A and C so changed satisfy the pairing equation: only G1's subgroup test
            # rejects them (test_torsion_forgeries_satisfy_the_pairing_equation)
            ("A + a point of order 3", groth16.Proof(g1.add(proof.a, t3), proof.b, proof.c)),
            ("C + a point of order 3", groth16.Proof(proof.a, proof.b, g1.add(proof.c, t3))),
            ("B + a point of order 13", groth16.Proof(proof.a, g2.add(proof.b, t13),
                                                      proof.c)),
            ("A off the curve", groth16.Proof((proof.a[0], (proof.a[1] + 1) % P), proof.b,
                                              proof.c)),
            ("C off the curve", groth16.Proof(proof.a, proof.b,
                                              (proof.c[0], (proof.c[1] + 1) % P))),
            ("B off the twist", groth16.Proof(proof.a, (proof.b[0], (
                (proof.b[1][0] + 1) % P, proof.b[1][1])), proof.c)),
            ("-B with A", groth16.Proof(proof.a, neg_b, proof.c)),
            ("A at infinity", groth16.Proof((0, 0), proof.b, proof.c))):
        yield name, forged, False


def test_forged_proofs(door, proofs):
    """Each forgery answers as the reference (the exponent equation where every point is
    in its subgroup, else 0), with its own hint where the prover reads it and with the
    valid proof's; (-A, -B) is Groth16's malleability: accepted."""
    trap, code = door
    (proof, exponents, public), (second, _, _), _ = proofs
    valid_hint = groth16.hint(trap.key, proof, public)
    accepted = []
    for name, forged, reference in _forgeries(trap, proof, exponents, second):
        if isinstance(reference, tuple):
            reference = trap.holds(reference, public)
        elif reference is None:
            reference = pairing_product_is_one(trap.key, forged, public)
            assert not reference, name
        if reference:
            accepted.append(name)
        hints = [groth16.hint(trap.key, forged, public)] + ([] if reference else [valid_hint])
        for hint in hints:
            data = groth16.encode_calldata(trap.key, forged, public, hint_bytes=hint)
            for target in TARGETS:
                assert answer(code[target], data, target) == reference, (name, target)
    assert accepted == ["-A, -B"]


def test_torsion_forgeries_satisfy_the_pairing_equation(door, proofs):
    """A or C with a point of order 3 added pass py_ecc's pairing equation (the pairing
    ignores a G1 component of order prime to r): what rejects them is G1's subgroup test
    (test_forged_proofs). (B with a point of order 13 added fails the equation anyway:
    the ate pairing is bilinear on the order-r subgroup of the twist only.)"""
    trap, _ = door
    (proof, _, public), _, _ = proofs
    t3 = torsion(SPEC.g1, g1_point, G1_ORDER, 3)
    for forged in (groth16.Proof(SPEC.g1.add(proof.a, t3), proof.b, proof.c),
                   groth16.Proof(proof.a, proof.b, SPEC.g1.add(proof.c, t3))):
        assert pairing_product_is_one(trap.key, forged, public)


def test_points_at_infinity():
    """B = O, C = O, vk_x = O: the reference's answer (the exponent equation: the pair
    contributes 1, as EIP-2537's all-zero point), both targets; a wrong input: 0."""
    rng = random.Random(23)
    k = rng.randrange(1, R)
    for ic, public in (([rng.randrange(1, R), k], [5]), ([R - k, k], [1])):
        trap = Trapdoor("bls12_381", ic, seed=9)
        code = {target: groth16.build_verifier(trap.key, target=target) for target in TARGETS}
        for name, proof, inputs, expected in trap.infinity_cases(public, rng):
            data = groth16.encode_calldata(trap.key, proof, inputs)
            for target in TARGETS:
                assert answer(code[target], data, target) == expected, \
                    (ic, name, inputs, target)


def test_hints_of_other_proofs_and_forged(door, proofs):
    trap, code = door
    (proof, _, public), (second, _, _), (other, _, other_public) = proofs
    good = groth16.hint(trap.key, proof, public)
    rng = random.Random(3)
    hints = {"another proof's": groth16.hint(trap.key, second, public),
             "another statement's": groth16.hint(trap.key, other, other_public),
             "zero": bytes(HINT),
             "random < p": b"".join(rng.randrange(P).to_bytes(48, "big") for _ in range(6)),
             "a value = p": P.to_bytes(48, "big") + good[48:]}
    for i in range(6):
        changed = bytearray(good)
        changed[48 * i + 47] ^= 1
        hints[f"value {i} changed"] = bytes(changed)
    assert hints["another proof's"] != good
    for name, hint in hints.items():
        data = groth16.encode_calldata(trap.key, proof, public, hint_bytes=hint)
        for target in TARGETS:
            assert answer(code[target], data, target) == 0, (name, target)


def test_encodings_out_of_range(door, proofs):
    """A coordinate >= p or non-zero padding in any of A, B, C's 64-byte fields, a public
    input >= r: 0 on both targets; a wrong length REVERTs."""
    trap, code = door
    (proof, _, public), _, _ = proofs
    good = groth16.encode_calldata(trap.key, proof, public)
    assert all(answer(code[t], good, t) == 1 for t in TARGETS)
    bad = []
    for field in range(8):                         # A.x, A.y, B.x.c0 .. B.y.c1, C.x, C.y
        at = 64 * field
        value = int.from_bytes(good[at:at + 64], "big")
        bad.append(good[:at] + (value + P).to_bytes(64, "big") + good[at + 64:])
        bad.append(good[:at] + b"\x01" + good[at + 1:])     # padding
    for i in range(2):
        at = 512 + 32 * i
        bad.append(good[:at] + (public[i] + R).to_bytes(32, "big") + good[at + 32:])
    for data in bad:
        for target in TARGETS:
            assert answer(code[target], data, target) == 0
    for data in (good[:-1], good + b"\0", good[:-32]):
        for target in TARGETS:
            result = execute(code[target], data, opcodes=target, engine="fast",
                             gas=30_000_000)
            assert not result.success and result.output == b""


def test_cli_builds_and_encodes_the_published_key(capsys, fixture):
    from evm384_native.cli.main import main
    key, proof, public, code = fixture
    files = [str(FIXTURE / name) for name in ("verification_key.json", "proof.json",
                                               "public.json")]
    assert main(["groth16", "build", files[0]]) == 0
    assert bytes.fromhex(capsys.readouterr().out.strip()) == code["evmmax"]
    assert main(["groth16", "calldata", *files]) == 0
    assert bytes.fromhex(capsys.readouterr().out.strip()) == \
        groth16.encode_calldata(key, proof, public)
    assert main(["groth16", "build", files[0], "--target", "evm"]) == 2
    assert "unknown target 'evm' for bls12_381" in capsys.readouterr().err


@pytest.mark.slow
def test_sixteen_inputs_fit_both_targets():
    """A key with 16 public inputs (groth16.MAX_INPUTS): both targets' verifiers fit
    EIP-170's limit (MSM plans with less code) and accept a true statement."""
    rng = random.Random(16)
    trap = Trapdoor("bls12_381", [rng.randrange(1, R) for _ in range(17)], seed=16)
    public = [rng.randrange(R) for _ in range(16)]
    proof, _ = trap.proof(rng.randrange(1, R), rng.randrange(1, R), public)
    data = groth16.encode_calldata(trap.key, proof, public)
    for target in TARGETS:
        code = groth16.build_verifier(trap.key, target=target)
        assert len(code) <= 24_576
        assert answer(code, data, target) == 1
