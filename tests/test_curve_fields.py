"""curves/fields.py's Python field arithmetic: squares and square roots in Fp (the
p = 3 mod 4 power and Tonelli-Shanks for p = 1 mod 4) against every residue of small
primes and against squares of the curves' primes; Fp2's square root over u^2 = -1
(BLS12-381's; u^2 = -5 in tests/test_tower_nonresidue.py)."""
import random

import pytest

from evm384_native.curves import BLS12_381, BN254
from evm384_native.curves.fields import is_square, sqrt
from evm384_native.curves.p256 import P256

# 3 mod 4, then 1 mod 4 with 2-adicity 2 (13), 3 (41), 5 (97), 6 (193) and 8 (257)
SMALL_PRIMES = (3, 7, 11, 23, 13, 41, 97, 193, 257)
# BLS12-377's p (2-adicity 46) and BN254's r (28) are 1 mod 4; P-256's and BLS12-381's p 3
LARGE_PRIMES = (
    0x01ae3a4617c510eac63b05c06ca1493b1a22d9f300f5138f1ef3622fba094800170b5d44300000008508c00000000001,
    BN254.r, P256.p, BLS12_381.p)


@pytest.mark.parametrize("p", SMALL_PRIMES)
def test_every_residue_of_a_small_prime(p):
    squares = {a * a % p for a in range(p)}
    for a in range(p):
        assert is_square(a, p) == (a in squares)
        root = sqrt(a, p)
        assert (root is not None) == (a in squares), a
        if root is not None:
            assert root * root % p == a


@pytest.mark.parametrize("p", LARGE_PRIMES, ids=lambda p: f"{p.bit_length()}-bit, {p % 4} mod 4")
def test_squares_and_non_squares_of_the_curves_primes(p):
    rng = random.Random(p % 1000)
    non_square = next(z for z in range(2, 100) if not is_square(z, p))
    for _ in range(20):
        a = rng.randrange(1, p)
        root = sqrt(a * a, p)
        assert root in (a, p - a)
        assert sqrt(a * a * non_square, p) is None
    assert sqrt(0, p) == 0 and sqrt(p, p) == 0


def test_fp2_square_roots_of_every_kind():
    """Both branches of the Fp2 square root (a in Fp: a root in Fp, or one times u, as for
    -1 whose roots are +-u), and None for non-squares of Fp2."""
    fp2, p = BLS12_381.fp2, BLS12_381.p
    assert fp2.sqrt((p - 1, 0)) in ((0, 1), (0, p - 1))
    rng = random.Random(4)
    squares = [fp2.mul(a, a) for a in [(rng.randrange(p), rng.randrange(p)) for _ in range(20)]]
    for square in squares + [(p - 5, 0), (rng.randrange(p), 0)]:
        root = fp2.sqrt(square)
        assert root is not None and fp2.mul(root, root) == square
    # a non-square times a square is a non-square; u + 1 has norm 2, a non-square of Fp
    assert not is_square(2, p)
    assert fp2.sqrt(fp2.mul((1, 1), squares[0])) is None
