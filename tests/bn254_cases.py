"""Test cases for the BN254 (alt_bn128) contracts ``bn254_add``, ``bn254_mul`` and
``bn254_pairing_check``, which mimic the precompiles ECADD 0x06, ECMUL 0x07 and ECPAIRING
0x08 (EIP-196, EIP-197; gas EIP-1108). Nothing here imports the contracts' code: the cases
and oracles stand on their own, so that a contract test is a comparison of
``run(name, calldata) -> (success, output)`` with an answer found another way.

- :func:`vectors`: go-ethereum's test vectors (valid inputs only; they
  are in tests/vectors/bn254/, see SOURCE.md there).
- Oracles, each ``(op, data) -> output bytes, or None where the precompile fails``:
  :func:`precompile_pyevm` (py-evm's own precompile functions at Prague),
  :func:`precompile_revm` (revm's native Rust precompiles, through PyPI's ``pyrevm``: a
  message call to the precompile's address) and :func:`reference` (py_ecc's
  ``optimized_bn128`` arithmetic with the EIPs' input rules written out here).
- Generators: random valid points and scalars, pairing instances whose product is one or
  not, and a case of every way an input can fail (:func:`failure_cases`).

pyrevm installs from PyPI (0.3.7 has wheels for CPython 3.9-3.12 on x86-64 Linux; the test
extra lists it there). Where the extra leaves it out, or it is not installed, the tests that
need it skip with the reason (tests/test_bn254_cases.py's ``revm`` fixture).

Points are affine tuples of ints: G1 ``(x, y)``, G2 ``((x_re, x_im), (y_re, y_im))`` (py_ecc's
FQ2 order: real part first); ``None`` is the point at infinity. The precompiles' byte order
of an Fp2 element is the other one: imaginary part first (EIP-197 "Encoding").
"""
from __future__ import annotations

import json
import pathlib
import random
from functools import lru_cache
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from py_ecc import optimized_bn128 as bn

# --- constants ------------------------------------------------------------------------------

# EIP-196 "Specification" / EIP-197 "Definition of the groups": the base field's modulus p
# and the prime order q of G1 and G2 (called R here, as in most of the literature).
P = 21888242871839275222246405745257275088696311157297823662689037894645226208583
R = 21888242871839275222246405745257275088548364400416034343698204186575808495617
B = 3                                   # EIP-197: G1 is Y^2 = X^3 + 3 over Fp
G1_GENERATOR = (1, 2)                   # EIP-197: P1 = (1, 2)
# EIP-197: P2, as (re, im) pairs (the EIP writes them "im * i + re").
G2_GENERATOR = (
    (10857046999023057135944570762232829481370756359578518086990519993285655852781,
     11559732032986387107991004021392285783925812861821192530917403151452391805634),
    (8495653923123431417604973247489272438418190587263600148770280649306958101930,
     4082367875863433681332203403145435568316851327593401208105741076214120093531),
)

OPS = ("add", "mul", "pairing")
ADDRESS = {"add": 0x06, "mul": 0x07, "pairing": 0x08}          # EIP-196, EIP-197
CONTRACT = {"add": "bn254_add", "mul": "bn254_mul", "pairing": "bn254_pairing_check"}
INPUT_SIZE = {"add": 128, "mul": 96}    # EIP-196: shorter is zero padded, longer ignored
PAIR_SIZE = 192                         # EIP-197: 6 x 32 bytes per (G1, G2) pair
WORD = 32
GAS = 10_000_000                        # more than any case here needs (EIP-1108 prices)
ONE, ZERO = (1).to_bytes(WORD, "big"), bytes(WORD)

VECTOR_DIR = pathlib.Path(__file__).resolve().parent / "vectors" / "bn254"   # SOURCE.md there
VECTOR_FILE = {"add": "bn256Add.json", "mul": "bn256ScalarMul.json",
               "pairing": "bn256Pairing.json"}

G1Point = Optional[Tuple[int, int]]
G2Point = Optional[Tuple[Tuple[int, int], Tuple[int, int]]]
Answer = Optional[bytes]                # output bytes, or None: the call fails


class Case(NamedTuple):
    name: str
    op: str                              # "add", "mul" or "pairing"
    data: bytes
    expected: Answer = None              # None: the precompile fails on this input


# --- go-ethereum's vectors ------------------------------------------------------------------

def vectors(op: str) -> List[Case]:
    """go-ethereum's core/vm/testdata/precompiles cases of ``op`` (all valid inputs)."""
    entries = json.loads((VECTOR_DIR / VECTOR_FILE[op]).read_text())
    return [Case(entry["Name"], op, bytes.fromhex(entry["Input"]), bytes.fromhex(entry["Expected"]))
            for entry in entries]


# --- oracle 1: py-evm's precompile functions ------------------------------------------------

class _Message:
    """The part of py-evm's Message that its BN254 precompiles read."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.data_as_bytes = data


class _Computation:
    """The part of py-evm's computation that its BN254 precompiles use: the input, the
    output and gas (counted, never short: a failure here is an invalid input)."""

    def __init__(self, data: bytes) -> None:
        self.msg = _Message(data)
        self.output = b""
        self.gas_used = 0

    def consume_gas(self, amount: int, reason: str) -> None:
        self.gas_used += amount


@lru_cache(maxsize=None)
def _pyevm_precompile(op: str) -> Callable:
    """py-evm's function for ``op`` as Prague (its newest fork) configures it."""
    from eth.vm.forks.prague.computation import PragueComputation
    return PragueComputation.get_precompiles()[ADDRESS[op].to_bytes(20, "big")]


def precompile_pyevm(op: str, data: bytes) -> Answer:
    """py-evm's answer (Prague's precompile function on a stand-in computation)."""
    from eth.exceptions import VMError
    computation = _Computation(bytes(data))
    try:
        _pyevm_precompile(op)(computation)
    except VMError:                      # py-evm's "Invalid EC... parameters"
        return None
    return bytes(computation.output)


def precompile_pyevm_message_call(op: str, data: bytes) -> Answer:
    """py-evm's answer through a whole message call to the precompile's address in a
    Prague state (slower; checks that :func:`precompile_pyevm`'s stand-in is faithful)."""
    from eth.vm.forks import PragueVM
    from evm384_native.integrations.pyevm import execute_in_pyevm
    result = execute_in_pyevm(b"", bytes(data), gas=GAS, vm_class=PragueVM,
                              to=ADDRESS[op].to_bytes(20, "big"))
    return result.output if result.success else None


# --- oracle 2: revm (native Rust), through pyrevm -------------------------------------------

REVM_SPEC = "PRAGUE"                    # a pyrevm spec id (revm's SpecId names)
CALLER = "0x" + "11" * 20


def revm_available() -> bool:
    import importlib.util
    return importlib.util.find_spec("pyrevm") is not None


@lru_cache(maxsize=None)
def _revm():
    from pyrevm import EVM
    return EVM(spec_id=REVM_SPEC)


def precompile_revm(op: str, data: bytes) -> Answer:
    """revm's answer: a message call (not committed) to the precompile's address.
    pyrevm raises RuntimeError("Halt { reason: PrecompileError, ... }") where the
    precompile fails; any other halt is a problem of the call, not an answer."""
    address = "0x" + ADDRESS[op].to_bytes(20, "big").hex()
    try:
        return bytes(_revm().message_call(caller=CALLER, to=address, calldata=bytes(data), gas=GAS))
    except RuntimeError as error:
        if "PrecompileError" in str(error):
            return None
        raise


# --- oracle 3: the EIPs' rules over py_ecc's arithmetic ---------------------------------------

class InvalidInput(ValueError):
    """The input breaks a rule of EIP-196/197: the precompile fails."""


def _words(data: bytes) -> List[int]:
    return [int.from_bytes(data[i:i + WORD], "big") for i in range(0, len(data), WORD)]


def _fitted(data: bytes, size: int) -> bytes:
    """EIP-196: the input cut to ``size`` bytes, or padded with zero bytes to it."""
    return bytes(data[:size]).ljust(size, b"\0")


def _in_field(*values: int) -> None:
    if any(v >= P for v in values):
        raise InvalidInput("a coordinate is not below p")


def _g1_from_words(x: int, y: int):
    """EIP-196 "Encoding": a G1 point (py_ecc Jacobian), (0, 0) the point at infinity."""
    _in_field(x, y)
    if (x, y) == (0, 0):
        return bn.Z1
    if (y * y - x * x * x - B) % P:
        raise InvalidInput("G1 point not on y^2 = x^3 + 3")
    return (bn.FQ(x), bn.FQ(y), bn.FQ.one())


def _g2_from_words(x_im: int, x_re: int, y_im: int, y_re: int):
    """EIP-197: a G2 point (py_ecc Jacobian): on the twist and of order R (or infinity)."""
    _in_field(x_im, x_re, y_im, y_re)
    if (x_im, x_re, y_im, y_re) == (0, 0, 0, 0):
        return bn.Z2
    x, y = bn.FQ2([x_re, x_im]), bn.FQ2([y_re, y_im])
    if y * y != x * x * x + TWIST_B:
        raise InvalidInput("G2 point not on the twist y^2 = x^3 + 3/(9+i)")
    point = (x, y, bn.FQ2.one())
    if not _is_infinity(bn.multiply(point, R)):
        raise InvalidInput("G2 point not in the order-R subgroup")
    return point


def _is_infinity(point) -> bool:
    return point[2] == point[2].zero()


def _g1_output(point) -> bytes:
    """A G1 point as the precompiles return it: x, y; infinity as (0, 0)."""
    if _is_infinity(point):
        return bytes(2 * WORD)
    x, y = bn.normalize(point)
    return x.n.to_bytes(WORD, "big") + y.n.to_bytes(WORD, "big")


def _reference_add(data: bytes) -> bytes:
    x1, y1, x2, y2 = _words(_fitted(data, INPUT_SIZE["add"]))
    return _g1_output(bn.add(_g1_from_words(x1, y1), _g1_from_words(x2, y2)))


def _reference_mul(data: bytes) -> bytes:
    x, y, scalar = _words(_fitted(data, INPUT_SIZE["mul"]))
    return _g1_output(bn.multiply(_g1_from_words(x, y), scalar))   # any 256-bit scalar


def _reference_pairing(data: bytes) -> bytes:
    """EIP-197: every pair is checked first; then the product of the pairings is compared
    with one (one Miller loop a pair with no infinity in it, one final exponentiation)."""
    if len(data) % PAIR_SIZE:
        raise InvalidInput("input length not a multiple of 192")
    pairs = []
    for start in range(0, len(data), PAIR_SIZE):
        x, y, x_im, x_re, y_im, y_re = _words(data[start:start + PAIR_SIZE])
        pairs.append((_g1_from_words(x, y), _g2_from_words(x_im, x_re, y_im, y_re)))
    product = bn.FQ12.one()
    for g1, g2 in pairs:
        if not (_is_infinity(g1) or _is_infinity(g2)):
            product = product * bn.pairing(g2, g1, final_exponentiate=False)
    return ONE if bn.final_exponentiate(product) == bn.FQ12.one() else ZERO


_REFERENCE: Dict[str, Callable[[bytes], bytes]] = {
    "add": _reference_add, "mul": _reference_mul, "pairing": _reference_pairing}


def reference(op: str, data: bytes) -> Answer:
    """The answer by the EIPs' rules (py_ecc arithmetic): output bytes, None on failure."""
    try:
        return _REFERENCE[op](bytes(data))
    except InvalidInput:
        return None


def as_run_result(answer: Answer) -> Tuple[bool, bytes]:
    """An oracle's answer as a contract's ``(success, output)``: a failing precompile is a
    contract that reverts with no output."""
    return (False, b"") if answer is None else (True, answer)


# --- Fp2 (i^2 = -1, EIP-197) and the twist ------------------------------------------------------

TWIST_B = bn.FQ2([3, 0]) / bn.FQ2([9, 1])      # EIP-197: 3 / (i + 9)
INVERSE_OF_2 = pow(2, -1, P)


def fp_sqrt(a: int) -> Optional[int]:
    """A square root in Fp, or None. p = 3 (mod 4), so a^((p+1)/4) is one if any exists."""
    root = pow(a, (P + 1) // 4, P)
    return root if root * root % P == a % P else None


def fp2_sqrt(a: Tuple[int, int]) -> Optional[Tuple[int, int]]:
    """A square root of a0 + a1 i in Fp2, or None. Written for these tests (not py_ecc's):
    a is a square iff its norm a0^2 + a1^2 is a square in Fp; with alpha that root,
    x0^2 = (a0 +- alpha) / 2 for one sign, and x1 = a1 / (2 x0)."""
    a0, a1 = a[0] % P, a[1] % P
    if a1 == 0:
        root = fp_sqrt(a0)
        if root is not None:
            return (root, 0)
        root = fp_sqrt(-a0 % P)              # (r i)^2 = -r^2
        return None if root is None else (0, root)
    alpha = fp_sqrt((a0 * a0 + a1 * a1) % P)
    if alpha is None:
        return None
    for delta in ((a0 + alpha) * INVERSE_OF_2 % P, (a0 - alpha) * INVERSE_OF_2 % P):
        x0 = fp_sqrt(delta)
        if x0:                               # x0 = 0 would need a1 = 0
            return (x0, a1 * pow(2 * x0, -1, P) % P)
    return None


# --- points and their encodings ----------------------------------------------------------------

def _affine_g1(point) -> G1Point:
    if _is_infinity(point):
        return None
    x, y = bn.normalize(point)
    return (x.n, y.n)


def _affine_g2(point) -> G2Point:
    if _is_infinity(point):
        return None
    x, y = bn.normalize(point)
    return (tuple(x.coeffs), tuple(y.coeffs))


def _jacobian_g1(point: G1Point):
    return bn.Z1 if point is None else (bn.FQ(point[0]), bn.FQ(point[1]), bn.FQ.one())


def _jacobian_g2(point: G2Point):
    if point is None:
        return bn.Z2
    return (bn.FQ2(list(point[0])), bn.FQ2(list(point[1])), bn.FQ2.one())


def g1_multiple(scalar: int) -> G1Point:
    """[scalar] P1."""
    return _affine_g1(bn.multiply(_jacobian_g1(G1_GENERATOR), scalar % R))


def g2_multiple(scalar: int) -> G2Point:
    """[scalar] P2."""
    return _affine_g2(bn.multiply(_jacobian_g2(G2_GENERATOR), scalar % R))


def g1_negate(point: G1Point) -> G1Point:
    return None if point is None else (point[0], -point[1] % P)


def encode_g1(point: G1Point) -> bytes:
    """64 bytes: x, y (EIP-196); infinity as (0, 0)."""
    x, y = point or (0, 0)
    return x.to_bytes(WORD, "big") + y.to_bytes(WORD, "big")


def encode_g2(point: G2Point) -> bytes:
    """128 bytes: x_im, x_re, y_im, y_re (EIP-197: imaginary part first); infinity all 0."""
    (x_re, x_im), (y_re, y_im) = point or ((0, 0), (0, 0))
    return b"".join(v.to_bytes(WORD, "big") for v in (x_im, x_re, y_im, y_re))


def encode_words(*values: int) -> bytes:
    return b"".join(v.to_bytes(WORD, "big") for v in values)


def random_scalar(rng: random.Random) -> int:
    return rng.randrange(1, R)


def random_g1(rng: random.Random) -> G1Point:
    return g1_multiple(random_scalar(rng))


def random_g2(rng: random.Random) -> G2Point:
    return g2_multiple(random_scalar(rng))


def g1_off_curve(rng: random.Random) -> Tuple[int, int]:
    """A random (x, y) with both below p that is not on y^2 = x^3 + 3."""
    while True:
        x, y = rng.randrange(P), rng.randrange(P)
        if (y * y - x ** 3 - B) % P:
            return (x, y)


def g2_off_twist(rng: random.Random) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """A valid G2 point with y_re moved by one: off the twist."""
    x, (y_re, y_im) = random_g2(rng)
    return (x, ((y_re + 1) % P, y_im))


def g2_off_subgroup(rng: random.Random) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """A point on the twist y^2 = x^3 + 3/(9+i) outside the order-R subgroup: random x until
    x^3 + b' is a square in Fp2, y its root; [R]Q != O is checked (the twist's order is
    R * (2p - R), so almost every point is outside)."""
    while True:
        x = bn.FQ2([rng.randrange(P), rng.randrange(P)])
        y_squared = x * x * x + TWIST_B
        root = fp2_sqrt(tuple(y_squared.coeffs))
        if root is None:
            continue
        point = (tuple(x.coeffs), root)
        jacobian = _jacobian_g2(point)
        assert bn.is_on_curve(jacobian, bn.b2)
        if not _is_infinity(bn.multiply(jacobian, R)):
            return point


# --- valid inputs ------------------------------------------------------------------------------

# Scalars every ECMUL test should see (EIP-196: "any 256-bit scalar"; R is G1's order).
SPECIAL_SCALARS = (0, 1, 2, R - 1, R, R + 1, 2 * R, 2 ** 256 - 1)


def add_inputs(rng: random.Random, count: int = 4) -> List[Tuple[str, bytes]]:
    """Valid ECADD inputs: random sums, doubling, P + (-P), infinity on either side, and
    inputs shorter (zero padded) and longer (ignored) than 128 bytes."""
    p, q = random_g1(rng), random_g1(rng)
    cases = [("P + P", encode_g1(p) + encode_g1(p)),
             ("P + -P", encode_g1(p) + encode_g1(g1_negate(p))),
             ("O + P", encode_g1(None) + encode_g1(p)),
             ("P + O", encode_g1(p) + encode_g1(None)),
             ("O + O", encode_g1(None) + encode_g1(None)),
             ("empty input", b""),
             ("only P (64 bytes)", encode_g1(p)),
             ("P and a zero word (96 bytes: P + O)", encode_g1(p) + bytes(WORD)),
             ("P + O one byte short (127 bytes)", encode_g1(p) + encode_g1(None)[:-1]),
             ("P + Q and 1 extra byte", encode_g1(p) + encode_g1(q) + b"\x07"),
             ("P + Q and 64 extra bytes", encode_g1(p) + encode_g1(q) + bytes(rng.randrange(256) for _ in range(64)))]
    cases += [(f"random P + Q #{i}", encode_g1(random_g1(rng)) + encode_g1(random_g1(rng)))
              for i in range(count)]
    return cases


def mul_inputs(rng: random.Random, count: int = 4) -> List[Tuple[str, bytes]]:
    """Valid ECMUL inputs: every special scalar, random ones, infinity, and short and long
    inputs (a 64-byte input is the point times 0)."""
    p = random_g1(rng)
    cases = [(f"P * {scalar:#x}", encode_g1(p) + encode_words(scalar)) for scalar in SPECIAL_SCALARS]
    cases += [("O * random", encode_g1(None) + encode_words(random_scalar(rng))),
              ("empty input", b""),
              ("only P (64 bytes: scalar 0)", encode_g1(p)),
              ("P and a 1-byte scalar prefix (65 bytes)", encode_g1(p) + b"\x01"),
              ("P * s and 1 extra byte", encode_g1(p) + encode_words(5) + b"\x01"),
              ("P * s and 32 extra bytes", encode_g1(p) + encode_words(5) + encode_words(2 ** 255))]
    cases += [(f"random P * random 256-bit #{i}", encode_g1(random_g1(rng)) + encode_words(rng.getrandbits(256)))
              for i in range(count)]
    return cases


def pairing_input(pairs: List[Tuple[G1Point, G2Point]]) -> bytes:
    return b"".join(encode_g1(g1) + encode_g2(g2) for g1, g2 in pairs)


def pairing_instance(rng: random.Random, k: int, product_is_one: bool) -> bytes:
    """k pairs ([a_i] P1, [b_i] P2). For a product of one, the last pair is
    ([-sum of a_i b_i] P1, P2), so that the exponents sum to 0 (mod R); otherwise the
    exponents are random and their sum is made non-zero. k = 0 is empty (product one);
    k = 1 with product one has an infinity in its pair."""
    if k == 0:
        if not product_is_one:
            raise ValueError("the empty product is one")
        return b""
    if k == 1 and product_is_one:
        return pairing_input([(None, random_g2(rng))] if rng.random() < 0.5 else [(random_g1(rng), None)])
    exponents = [(random_scalar(rng), random_scalar(rng)) for _ in range(k - 1)]
    total = sum(a * b for a, b in exponents) % R
    if product_is_one:
        exponents.append((-total % R, 1))
    else:
        a = random_scalar(rng)
        while (total + a) % R == 0:
            a = random_scalar(rng)
        exponents.append((a, 1))
    return pairing_input([(g1_multiple(a), g2_multiple(b)) for a, b in exponents])


def pairing_inputs(rng: random.Random, max_k: int = 6) -> List[Tuple[str, bytes, bool]]:
    """(name, input, product_is_one) for k = 0..max_k, product one and not, plus pairs with
    an infinity (which contribute one) mixed in."""
    cases = [(f"k={k} product one", pairing_instance(rng, k, True), True) for k in range(max_k + 1)]
    cases += [(f"k={k} product not one", pairing_instance(rng, k, False), False)
              for k in range(1, max_k + 1)]
    one = pairing_instance(rng, 2, True)
    infinities = pairing_input([(None, None), (random_g1(rng), None), (None, random_g2(rng))])
    cases += [("2 pairs of product one + 3 with infinities", one + infinities, True),
              ("3 pairs with infinities only", infinities, True)]
    # two pairs kept (Q finite), P at infinity in one or both: the contracts keep exactly
    # two finite pairs in registers, others in memory
    finite = (random_g1(rng), random_g2(rng))
    cases += [("2 pairs, P at infinity in the second", pairing_input(
                  [finite, (None, random_g2(rng))]), False),
              ("2 pairs, P at infinity in the first", pairing_input(
                  [(None, random_g2(rng)), finite]), False),
              ("2 pairs, P at infinity in both", pairing_input(
                  [(None, random_g2(rng)), (None, random_g2(rng))]), True)]
    # product one with P at infinity in one of the first two pairs (which the contracts
    # would keep in registers were their P finite)
    p, q = random_g1(rng), random_g2(rng)
    minus_p = (p[0], -p[1] % P)
    for position in (0, 1):
        pairs = [(p, q), (minus_p, q)]
        pairs.insert(position, (None, random_g2(rng)))
        cases.append((f"3 pairs of product one, P at infinity in pair {position}",
                      pairing_input(pairs), True))
    return cases


# --- inputs that fail ------------------------------------------------------------------------

def _g1_failures(rng: random.Random) -> List[Tuple[str, bytes]]:
    """64-byte G1 encodings that fail, each for one reason (named)."""
    x, y = random_g1(rng)
    return [("G1 x + p (congruent to a valid point)", encode_words(x + P, y)),
            ("G1 y + p (congruent to a valid point)", encode_words(x, y + P)),
            ("G1 x = p, y = 2", encode_words(P, 2)),
            ("G1 (p, p): infinity's (0, 0) plus p", encode_words(P, P)),
            ("G1 y = 2^256 - 1", encode_words(x, 2 ** 256 - 1)),
            ("G1 (1, 2 + p): the generator's y + p", encode_words(1, 2 + P)),
            ("G1 off the curve (y + 1)", encode_words(x, (y + 1) % P)),
            ("G1 (0, 1): near infinity, off the curve", encode_words(0, 1)),
            ("G1 (1, 0): off the curve", encode_words(1, 0)),
            ("G1 random off the curve", encode_words(*g1_off_curve(rng)))]


def _g2_failures(rng: random.Random) -> List[Tuple[str, bytes]]:
    """128-byte G2 encodings that fail (x_im, x_re, y_im, y_re), each for one reason."""
    valid = encode_g2(random_g2(rng))
    words = _words(valid)
    cases = []
    for index, part in enumerate(("x_im", "x_re", "y_im", "y_re")):
        raised = list(words)
        raised[index] += P                   # congruent to the valid point: only the range fails
        cases.append((f"G2 {part} + p", encode_words(*raised)))
        at_p = list(words)
        at_p[index] = P
        cases.append((f"G2 {part} = p", encode_words(*at_p)))
    cases += [("G2 (p, 0, 0, 0): infinity's zeros with x_im = p", encode_words(P, 0, 0, 0)),
              ("G2 off the twist (y_re + 1)", encode_g2(g2_off_twist(rng))),
              ("G2 (0, 0, 0, 1): near infinity, off the twist", encode_words(0, 0, 0, 1)),
              ("G2 real and imaginary parts swapped (off the twist)", encode_words(words[1], words[0], words[3], words[2])),
              ("G2 on the twist, outside the order-R subgroup", encode_g2(g2_off_subgroup(rng)))]
    return cases


def failure_cases(rng: random.Random) -> List[Case]:
    """Inputs on which every precompile fails: each G1 failure in each point of ECADD and
    in ECMUL, each G1 and G2 failure in a pair of a pairing (first, and after a valid pair),
    and pairing lengths that are not a multiple of 192."""
    p, q = encode_g1(random_g1(rng)), encode_g2(random_g2(rng))
    valid_pair = p + q
    cases = []
    for name, bad in _g1_failures(rng):
        cases += [Case(f"add: first point {name}", "add", bad + p),
                  Case(f"add: second point {name}", "add", p + bad),
                  Case(f"mul: {name}", "mul", bad + encode_words(rng.getrandbits(256))),
                  Case(f"mul: {name}, scalar 0", "mul", bad + encode_words(0)),
                  Case(f"pairing: {name}", "pairing", bad + q),
                  Case(f"pairing: second pair {name}", "pairing", valid_pair + bad + q)]
    for name, bad in _g2_failures(rng):
        cases += [Case(f"pairing: {name}", "pairing", p + bad),
                  Case(f"pairing: {name}, with G1 infinity", "pairing", encode_g1(None) + bad),
                  Case(f"pairing: second pair {name}", "pairing", valid_pair + p + bad)]
    for length in (1, 32, 64, 128, 191, 193, 383, 385):
        cases.append(Case(f"pairing: length {length}", "pairing", (valid_pair * 3)[:length]))
    cases.append(Case("pairing: 192 zero bytes and one more", "pairing", bytes(PAIR_SIZE + 1)))
    return [case._replace(expected=None) for case in cases]


def _valid_reference(op: str, data: bytes) -> bytes:
    answer = reference(op, data)
    if answer is None:
        raise AssertionError(f"a generated valid {op} input fails by the reference: {data.hex()}")
    return answer


def valid_cases(rng: random.Random, count: int = 4, max_k: int = 6) -> List[Case]:
    """Generated valid inputs of every op. ``expected``: for a pairing, what the instance was
    built to give; for ECADD and ECMUL, :func:`reference`'s answer (asserted not a failure)."""
    cases = [Case(f"add: {name}", "add", data, _valid_reference("add", data))
             for name, data in add_inputs(rng, count)]
    cases += [Case(f"mul: {name}", "mul", data, _valid_reference("mul", data))
              for name, data in mul_inputs(rng, count)]
    cases += [Case(f"pairing: {name}", "pairing", data, ONE if one else ZERO)
              for name, data, one in pairing_inputs(rng, max_k)]
    return cases
