"""BN254 Groth16 keys and proofs made by an independent prover, groth16py (arkworks, from
PyPI), for circuits with 1 to 8 public inputs, and its verifier as the oracle; keys with a
known trapdoor on any curve (:class:`Trapdoor`).

The circuit with n public inputs: private w, public x[0..n-2], output
y = w * x[0] * ... * x[n-2] (for n = 1, y = w * w); snarkjs's public signals are
[y, x...]. Setup is single-party (groth16py's ``setup_circom``): fine for tests.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
import random
import tempfile
from typing import List, Tuple

from evm384_native import groth16
from evm384_native.curves.bn254 import BN254
from evm384_native.curves.bls12_381 import BLS12_381 as BLS
from evm384_native.curves.fields import sqrt
from evm384_native.groth16.curves import resolve_curve

R = BN254.r


def _circuit(n: int) -> str:
    if n == 1:
        return """pragma circom 2.0.0;
template C() { signal input w; signal output y; y <== w * w; }
component main = C();
"""
    body = "acc[0] <== w * x[0];\n" + "".join(
        f"acc[{i}] <== acc[{i - 1}] * x[{i}];\n" for i in range(1, n - 1))
    return f"""pragma circom 2.0.0;
template C() {{
  signal input w; signal input x[{n - 1}]; signal output y; signal acc[{n - 1}];
  {body}  y <== acc[{n - 2}];
}}
component main {{public [x]}} = C();
"""


@lru_cache(maxsize=None)
def setup(n: int):
    """(groth16py proving key, its verifying key, our VerifyingKey) for n public inputs."""
    import groth16py
    folder = Path(tempfile.mkdtemp(prefix="groth16_case_"))
    source = folder / f"c{n}.circom"
    source.write_text(_circuit(n))
    pk, vk = groth16py.setup_circom(str(source))
    return pk, vk, groth16.VerifyingKey.from_snarkjs(__import__("json").loads(vk.to_json()))


def proof_from_bytes(raw: bytes) -> groth16.Proof:
    """groth16py's 256-byte proof: A.x, A.y, B.x.c1, B.x.c0, B.y.c1, B.y.c0, C.x, C.y."""
    w = [int.from_bytes(raw[i:i + 32], "big") for i in range(0, 256, 32)]
    return groth16.Proof(a=(w[0], w[1]), b=((w[3], w[2]), (w[5], w[4])), c=(w[6], w[7]))


def proof_to_bytes(proof: groth16.Proof) -> bytes:
    (bx0, bx1), (by0, by1) = proof.b
    return b"".join(v.to_bytes(32, "big") for v in
                    (*proof.a, bx1, bx0, by1, by0, *proof.c))


def prove(n: int, w: int, xs: Tuple[int, ...] = ()) -> Tuple[groth16.Proof, List[int]]:
    """A proof for witness w and public x's, and its public inputs [y, *xs]."""
    import groth16py
    pk, _, _ = setup(n)
    inputs = {"w": w} if n == 1 else {"w": w, "x": list(xs)}
    raw = groth16py.prove(pk, inputs)
    y = w * w if n == 1 else w
    for x in xs:
        y = y * x % R
    return proof_from_bytes(raw), [y % R, *xs]


def oracle(n: int, proof: groth16.Proof, public: List[int]) -> bool:
    """arkworks' answer (groth16py's Verifier); a proof it cannot decode is rejected."""
    import groth16py
    _, vk, _ = setup(n)
    try:
        return bool(groth16py.Verifier(vk).verify(proof_to_bytes(proof), public))
    except Exception:                      # its encoding errors: not a valid proof
        return False


class Trapdoor:
    """A key on ``curve`` from known exponents (alpha, beta, gamma, delta, ic_i as
    multiples of the generators), so that any (A, B) has its C: a b = alpha beta +
    x gamma + c delta with x = ic_0 + sum s_i ic_i (mod r) the exponent of vk_x. The
    equation in the exponents is an oracle independent of any pairing code."""

    def __init__(self, curve: str, ic, seed: int = 3) -> None:
        spec = resolve_curve(curve)
        self.g1, self.g2, self.r = spec.g1, spec.g2, spec.curve.r
        rng = random.Random(seed)
        self.alpha, self.beta, self.gamma, self.delta = (rng.randrange(1, self.r)
                                                         for _ in range(4))
        self.ic = ic
        self.key = groth16.VerifyingKey(
            curve=curve, alpha=self.g1.generator_multiple(self.alpha),
            beta=self.g2.generator_multiple(self.beta),
            gamma=self.g2.generator_multiple(self.gamma),
            delta=self.g2.generator_multiple(self.delta),
            ic=[self.g1.generator_multiple(k) or (0, 0) for k in ic])

    def x(self, public) -> int:
        return (self.ic[0] + sum(s * k for s, k in zip(public, self.ic[1:]))) % self.r

    def proof(self, a: int, b: int, public) -> Tuple[groth16.Proof, int]:
        """(A, B, C) = ([a] G1, [b] G2, [c] G1) for the accepting c; a or b 0: infinity."""
        c = (a * b - self.alpha * self.beta - self.x(public) * self.gamma) \
            * pow(self.delta, -1, self.r) % self.r
        return groth16.Proof(self.g1.generator_multiple(a) or (0, 0),
                             self.g2.generator_multiple(b) or ((0, 0), (0, 0)),
                             self.g1.generator_multiple(c) or (0, 0)), c

    def holds(self, exponents, public) -> bool:
        """The equation in the exponents (a, b, c): a b = alpha beta + x gamma + c delta."""
        a, b, c = exponents
        return a * b % self.r == (self.alpha * self.beta + self.x(public) * self.gamma
                                  + c * self.delta) % self.r

    def infinity_cases(self, public, rng: random.Random):
        """(name, proof, inputs, the reference's answer): a finite proof, one with C = O
        and one with B = O for ``public``, each with those inputs (accepted) and with the
        first one changed (rejected): the equation in the exponents, for which O is 0."""
        a = rng.randrange(1, self.r)
        b_for_c_zero = (self.alpha * self.beta + self.x(public) * self.gamma) \
            * pow(a, -1, self.r) % self.r
        for name, (pa, pb) in {"finite": (a, rng.randrange(1, self.r)),
                               "C = O": (a, b_for_c_zero), "B = O": (a, 0)}.items():
            proof, c = self.proof(pa, pb, public)
            assert (c == 0) == (name == "C = O")
            for inputs in (public, [public[0] + 1]):
                expected = self.holds((pa, pb, c), inputs)
                assert expected == (inputs == public)
                yield name, proof, inputs, expected


# --- BLS12-381 points outside the order-r subgroups ------------------------------------------

def g1_point(seed: int):
    """A point of BLS12-381's y^2 = x^3 + 4 over Fp (any order)."""
    rng = random.Random(seed)
    while True:
        x = rng.randrange(BLS.p)
        y = sqrt((x ** 3 + BLS.b) % BLS.p, BLS.p)
        if y is not None:
            return x, y


def g2_point(seed: int):
    """A point of the twist y^2 = x^3 + 4 (1 + u) over Fp2 (any order)."""
    fp2, p = BLS.fp2, BLS.p
    rng = random.Random(seed)
    while True:
        x = (rng.randrange(p), rng.randrange(p))
        rhs = fp2.mul(fp2.mul(x, x), x)
        y = fp2.sqrt(((rhs[0] + BLS.twist_b[0]) % p, (rhs[1] + BLS.twist_b[1]) % p))
        if y is not None:
            return x, y


def torsion(group, make_point, order: int, q: int):
    """A point of small prime order q (q divides the cofactor): the q-part of the first
    point P = make_point(seed) that has one ([order / q^e] P, q^e the power of q in the
    order, multiplied by q while that is not O)."""
    rest = order
    while rest % q == 0:
        rest //= q
    for seed in range(100):
        point = group.multiply(make_point(seed), rest)
        if point is not None:
            while group.multiply(point, q) is not None:
                point = group.multiply(point, q)
            return point
    raise AssertionError(f"no point of order {q}")


# the groups' orders: #E(Fp) = p - x (the trace is x + 1); #E'(Fp2) = h2 r
G1_ORDER = BLS.p - BLS.x
G2_ORDER = BLS.r * (BLS.x ** 8 - 4 * BLS.x ** 7 + 5 * BLS.x ** 6 - 4 * BLS.x ** 4
                    + 6 * BLS.x ** 3 - 4 * BLS.x ** 2 - 4 * BLS.x + 13) // 9
