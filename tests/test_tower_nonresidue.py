"""The tower over a curve whose Fp2 non-residue is not -1: BLS12-377 (curves/bls12_377.py,
EIP-2539's constants: p = 1 mod 4, Fp2 = Fp[u]/(u^2 + 5), xi = u, a D-type twist). Its Python Fp2 (curves/fields.py) against the EIP's twist constant and
generators; its emitted Fp2, Fp6 and Fp12 code (tower/fp2.py's products and squarings
with a product by beta: schoolbook under EVMMAX, Karatsuba's product under EVM384;
mul_by_xi for xi = u; tower/fp12.py's Fp4 squarings over Fp for xi = u) on both targets against plain
integers: Fp12 = Fp[w]/(w^12 + 5), since w^2 = v, v^3 = xi = u and u^2 = -5."""
import random
from dataclasses import replace

import pytest

from evm384_native import execute
from evm384_native.asm import Fp2, Fp6, Fp12
from evm384_native.curves.bls12_377 import BLS12_377
from evm384_native.tower import fp2, fp6, fp12
from evm384_native.tower.contract import assemble
from evm384_native.tower.targets import resolve_target

from bls12_377_reference import poly_mul, poly_pow
import tower_routines

P = BLS12_377.p
TWIST_B_C1 = 0x010222f6db0fd6f343bd03737460c589dc7b4f91cd5fd889129207b63c6bf8000dd39e5c1ccccccd1c9ed9999999999a
TARGETS = ("evm384", "evmmax")
ENGINES = ("fast", "python")
VALUE, OUT_WORD = 48, 64


# --- Fp12 = Fp[w]/(w^12 + 5) on lists of 12 ints (poly_mul, poly_pow: the reference's) ----

def poly_inverse(a):
    """a^-1: the solution of a x = 1, by Gauss-Jordan on the matrix of x -> a x."""
    columns = [poly_mul(a, [int(k == j) for k in range(12)]) for j in range(12)]
    rows = [[columns[j][i] for j in range(12)] + [int(i == 0)] for i in range(12)]
    for col in range(12):
        pivot = next(r for r in range(col, 12) if rows[r][col])
        rows[col], rows[pivot] = rows[pivot], rows[col]
        scale = pow(rows[col][col], -1, P)
        rows[col] = [v * scale % P for v in rows[col]]
        for r in range(12):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [(v - factor * w) % P for v, w in zip(rows[r], rows[col])]
    return [rows[i][12] for i in range(12)]


def poly_frobenius(a, n):
    """a^(p^n) = sum a_k (w^(p^n))^k: the coefficients are in Fp."""
    w_power = poly_pow([0, 1] + [0] * 10, P ** n)
    out, power = [0] * 12, [1] + [0] * 11
    for coefficient in a:
        out = [(o + coefficient * v) % P for o, v in zip(out, power)]
        power = poly_mul(power, w_power)
    return out


def to_poly(values):
    """Tower values (c_j.c_i = a + b u, slot order c0.c0.c0 .. c1.c2.c1; fewer for a
    subfield) as a polynomial: c_j.c_i multiplies w^(2i + j), and u = w^6."""
    out = [0] * 12
    for index in range(0, len(values), 2):
        j, i = divmod(index // 2, 3)
        out[2 * i + j] += values[index]
        out[2 * i + j + 6] += values[index + 1]
    return [v % P for v in out]


def from_poly(poly, size=12):
    out = []
    for index in range(0, 12, 2):
        j, i = divmod(index // 2, 3)
        out += [poly[2 * i + j], poly[2 * i + j + 6]]
    assert not any(out[size:]), "not in the subfield"
    return out[:size]


# --- running a routine on both targets ----------------------------------------------------

def run_routine(target, build, inputs, out_kind, compact=False, engine="fast"):
    """build(e, out, *input slots) as a program for ``target`` over BLS12-377: the inputs
    as 48-byte little-endian calldata values, the output's values returned as 64-byte
    big-endian words."""
    return tower_routines.run_on_target(BLS12_377, build, inputs, out_kind, target=target,
                                      value_bytes=VALUE, little_endian=True,
                                      out_word=OUT_WORD, compact=compact, engine=engine,
                                      gas=10**8)


def random_values(rng, count):
    return [rng.randrange(P) for _ in range(count)]


# --- the curve description and its Python Fp2 ----------------------------------------------

def test_the_description_takes_a_non_residue_and_checks_it():
    curve, fp2_ints = BLS12_377, BLS12_377.fp2
    assert curve.p % 4 == 1 and curve.twist_b == (0, TWIST_B_C1)   # b / xi = 1 / u
    x, y = curve.g2
    assert fp2_ints.mul(y, y) == tuple((c + b) % P for c, b in zip(
        fp2_ints.mul(fp2_ints.mul(x, x), x), curve.twist_b))
    gx, gy = curve.g1
    assert (gy * gy - gx ** 3 - curve.b) % P == 0
    with pytest.raises(ValueError, match="non-square"):            # -1 is a square here
        replace(curve, fp2_nonresidue=-1)


def test_python_fp2_against_the_polynomials():
    rng = random.Random(1)
    fp2_ints = BLS12_377.fp2
    for _ in range(10):
        a, b = tuple(random_values(rng, 2)), tuple(random_values(rng, 2))
        assert to_poly(fp2_ints.mul(a, b)) == poly_mul(to_poly(a), to_poly(b))
        assert fp2_ints.mul(a, fp2_ints.inverse(a)) == (1, 0)
        root = fp2_ints.sqrt(fp2_ints.mul(a, a))
        assert root is not None and fp2_ints.mul(root, root) == fp2_ints.mul(a, a)
    assert fp2_ints.sqrt((0, 1)) is None                 # u: its norm 5 is no square mod p
    assert fp2_ints.sqrt((P - 5, 0)) == (0, 1) or fp2_ints.sqrt((P - 5, 0)) == (0, P - 1)


# --- the emitted code ---------------------------------------------------------------------

@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("target", TARGETS)
def test_fp2_routines(target, engine):
    rng = random.Random(2)
    a, b = random_values(rng, 2), random_values(rng, 2)
    k = tuple(random_values(rng, 2))
    fa, fb = to_poly(a), to_poly(b)
    u = to_poly([0, 1])
    cases = {
        "mul": (lambda e, o, x, y: fp2.mul(e, o, x, y), poly_mul(fa, fb)),
        "mul in place": (lambda e, o, x, y: (fp2.mul(e, x, x, y), fp2.sub(e, o, x, e.zero)),
                         poly_mul(fa, fb)),
        "sqr": (lambda e, o, x, y: fp2.sqr(e, o, x), poly_mul(fa, fa)),
        "sqr in place": (lambda e, o, x, y: (fp2.sqr(e, x, x), fp2.sub(e, o, x, e.zero)),
                         poly_mul(fa, fa)),
        "inverse": (lambda e, o, x, y: fp2.inverse(e, o, x),
                    to_poly(BLS12_377.fp2.inverse(tuple(a)))),
        "mul_by_xi": (lambda e, o, x, y: fp2.mul_by_xi(e, o, x), poly_mul(fa, u)),
        "mul_const": (lambda e, o, x, y: fp2.mul_const(e, o, x, k, "k"),
                      poly_mul(fa, to_poly(k))),
        "mul_const conj": (lambda e, o, x, y: fp2.mul_const(e, o, x, k, "k", conjugate=True),
                           poly_mul(to_poly([a[0], -a[1]]), to_poly(k))),
    }
    for name, (build, expected) in cases.items():
        got = run_routine(target, build, [(Fp2, a), (Fp2, b)], Fp2, engine=engine)
        assert to_poly(got) == expected, name
    assert poly_mul(to_poly(BLS12_377.fp2.inverse(tuple(a))), fa) == to_poly([1, 0])


@pytest.mark.parametrize("target", TARGETS)
def test_fp6_routines(target):
    rng = random.Random(3)
    a, b = random_values(rng, 6), random_values(rng, 6)
    fa, fb = to_poly(a), to_poly(b)
    assert to_poly(run_routine(target, lambda e, o, x, y: fp6.mul(e, o, x, y),
                               [(Fp6, a), (Fp6, b)], Fp6)) == poly_mul(fa, fb)
    inverse = run_routine(target, lambda e, o, x: fp6.inverse(e, o, x), [(Fp6, a)], Fp6)
    assert poly_mul(to_poly(inverse), fa) == to_poly([1, 0])
    assert to_poly(run_routine(target, lambda e, o, x: fp6.frobenius(e, o, x, 1),
                               [(Fp6, a)], Fp6)) == poly_frobenius(fa, 1)


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("target", TARGETS)
def test_fp12_routines(target, compact):
    rng = random.Random(4)
    a, b = random_values(rng, 12), random_values(rng, 12)
    fa, fb = to_poly(a), to_poly(b)

    def run(build, *inputs):
        return to_poly(run_routine(target, build, list(inputs), Fp12, compact))
    assert run(lambda e, o, x, y: fp12.mul(e, o, x, y), (Fp12, a), (Fp12, b)) == poly_mul(fa, fb)
    assert run(lambda e, o, x: fp12.sqr(e, o, x), (Fp12, a)) == poly_mul(fa, fa)
    assert run(lambda e, o, x: fp12.inverse(e, o, x), (Fp12, a)) == poly_inverse(fa)
    if compact:
        return                                      # the rest has no compact variant
    for n in (1, 2, 3):
        assert run(lambda e, o, x, n=n: fp12.frobenius(e, o, x, n), (Fp12, a)) == \
            poly_frobenius(fa, n)
    line = random_values(rng, 6)                    # D-type: l2 + l1 w + l0 v w
    l0, l1, l2 = line[0:2], line[2:4], line[4:6]
    dense = l2 + [0, 0, 0, 0] + l1 + l0 + [0, 0]
    assert run(lambda e, o, x, l: fp12.mul_by_line(e, o, x, l), (Fp12, a), (Fp6, line)) == \
        poly_mul(fa, to_poly(dense))
    f = poly_mul(poly_frobenius(fa, 6), poly_inverse(fa))      # f^(p^6 - 1)
    g = poly_mul(poly_frobenius(f, 2), f)                       # then ^(p^2 + 1): cyclotomic
    assert run(lambda e, o, x: fp12.cyclotomic_sqr(e, o, x), (Fp12, from_poly(g))) == \
        poly_mul(g, g)


# --- the residue-witness check over BLS12-377 (x > 0) -------------------------------------

def run_push_accepted(target, f, t, engine="fast"):
    """push_accepted(f, t) as a program for ``target``: f (12 values) and t (6), tower
    order, as 48-byte little-endian calldata; returns the word it pushes."""
    from evm384_native.tower.contract import return_word
    from evm384_native.tower.residue import push_accepted

    def emit(e):
        asm = e.asm
        io = asm.memory.region("io")
        slots = [io.alloc(Fp12, "f"), io.alloc(Fp6, "t")]
        offset = 0
        for slot in slots:
            staged = e.target.staging(e, slot)
            size = VALUE * len(slot.fps())
            asm.push(size)
            asm.push(offset)
            asm.push(staged)
            asm.op("CALLDATACOPY")
            e.target.from_staging(e, slot, staged, little_endian=True)
            offset += size
        return_word(e, lambda: push_accepted(e, *slots))
    code = assemble("residue", BLS12_377, resolve_target(target), emit, False).code
    calldata = b"".join(v.to_bytes(VALUE, "little") for v in [*f, *t])
    result = execute(code, calldata, opcodes=target, gas=10**8, engine=engine)
    assert result.success, result.error
    return result.output[-1]


@pytest.mark.parametrize("target", TARGETS)
def test_the_residue_check_accepts_fp6_and_w_fp6(target):
    """BLS12-377's check (lambda = x - p): Y = f (1 - t^p w) must lie in Fp6* or in
    w Fp6*; built here from Y and t on the polynomials: f = Y / (1 - t^p w)."""
    rng = random.Random(9)
    t = random_values(rng, 6)
    # the last factor, 1 - t' w with 1 + t' w = (1 + t w)^p, is (1 - t w)^p
    one_minus = poly_frobenius(to_poly([1] + [0] * 5 + [(-v) % P for v in t]), 1)
    inverse = poly_inverse(one_minus)
    s = random_values(rng, 6)
    w = to_poly([0] * 6 + [1] + [0] * 5)
    cases = {"Y in Fp6*": (to_poly(s), 1), "Y in w Fp6*": (poly_mul(w, to_poly(s)), 1),
             "Y anywhere": (to_poly(random_values(rng, 12)), 0), "Y = 0": ([0] * 12, 0)}
    for name, (y, accepted) in cases.items():
        f = from_poly(poly_mul(y, inverse))
        assert run_push_accepted(target, f, t) == accepted, name
