"""The GLV split of a scalar (Gallant, Lambert and Vanstone, "Faster point multiplication on
elliptic curves with efficient endomorphisms", CRYPTO 2001) for a curve's endomorphism
phi(x, y) = (beta x, y) = [lam] (x, y) (its :class:`~..curves.model.Glv`), in Python and as
EVM integer code, and each half's regular signed digits (:mod:`.windows`).

1. k = k1 + k2 lam (mod r) for 0 <= k < r, as libsecp256k1's
   ``secp256k1_scalar_split_lambda`` does it but for the rounding: y_i = k g_i / 2^256 with
   g_i = round(2^256 c_i / r) (floor(y_i) is the high word of a 256 x 256-bit product from
   MULMOD by 2^256 - 1, Bloemen's mul512; for g1 < 2^66 one product of k >> 64; for
   g < 2^128, secp256k1's, the products of k's halves), (k1, k2) = (k, 0) + q1 v1 + q2 v2
   for the basis v1, v2, where q_i is the integer nearest y_i *of the parity k_i needs to
   be odd* (v1 = (1, 0), v2 = (1, 1) mod 2: q2 odd, q1 of k's parity): q2 = floor(y2) | 1,
   q1 = floor(y1) + ((floor(y1) XOR k) AND 1). An integer of a given parity lies within 1
   of any real, where rounding and then fixing the parity could move it 3/2; y_i is within
   k |g_i - 2^256 c_i / r| / 2^256 + 2^-126 of the exact c_i k / r (g_i's rounding, at
   most 1/2, the dropped bits), so |q_i - c_i k / r| < 1 + that and, as (k, 0) +
   (c1 k / r) v1 + (c2 k / r) v2 = 0, |k1| < |e1 a1| + |e2 a2| and |k2| < |e1 b1| + |e2 b2|
   for those errors e_i (:func:`bound`: BN254's 2^126.92, below 2^127; secp256k1's
   2^128.84, below 2^129).
2. Each odd k_i in (-2^130, 2^130) is 26 odd digits in [-31, 31] (:mod:`.windows`), from
   U = (k_i + 2^130 - 1) / 2: :func:`push_digit_words` leaves U, shifted to the table's
   record size, on the stack.
"""
from __future__ import annotations

from typing import Tuple

from ..curves.model import Glv
from ..tower.fp import Emitter
from .windows import WINDOW

DIGITS = 26                                       # digits per half: |k_i| < 2^(WINDOW DIGITS)
HALF_BITS = WINDOW * DIGITS
WORD = 1 << 256
HALF_WORD = 1 << 128
DROPPED = 64                                      # k's low bits a small multiplier skips


def rounding_multipliers(glv: Glv, r: int) -> Tuple[int, int]:
    """g1, g2 = round(2^256 c_i / r): (k, 0) + c1 k / r v1 + c2 k / r v2 = 0 for the basis
    v1 = (a1, b1), v2 = (a2, b2), i.e. c1 = -b2 r / det, c2 = b1 r / det."""
    (a1, b1), (a2, b2) = glv.basis
    det = a1 * b2 - a2 * b1
    if det != r:
        raise ValueError("the GLV basis must span the lattice, determinant r")
    g1, g2 = ((2 * WORD * c // det + 1) // 2 for c in (-b2, b1))
    if not (0 < g1 < WORD and 0 < g2 < WORD):
        raise ValueError("the rounding multipliers must be positive words")
    if [a % 2 for a in (a1, b1, a2, b2)] != [1, 0, 1, 1]:
        raise ValueError("the parities of q1, q2 assume v1 = (1, 0), v2 = (1, 1) mod 2")
    return g1, g2


def split(k: int, glv: Glv, r: int) -> Tuple[int, int]:
    """(k1, k2), both odd, k1 + k2 lam = k (mod r), for 0 <= k < r: what the contract
    computes (step 1 of the module doc)."""
    g1, g2 = rounding_multipliers(glv, r)
    (a1, b1), (a2, b2) = glv.basis
    f1, f2 = (floored_high(k, g, r) for g in (g1, g2))
    q1 = f1 + ((f1 ^ k) & 1)                       # the nearest y1 of k's parity
    q2 = f2 | 1                                    # the odd integer nearest y2
    return k + q1 * a1 + q2 * a2, q1 * b1 + q2 * b2


def floored_high(k: int, g: int, r: int) -> int:
    """floor(k g / 2^256) for k < r as the contract computes it: from (k >> DROPPED) g
    where that fits a word (the dropped bits move the quotient by less than 2^-126), else
    exactly (the high word of the 512-bit product)."""
    if _fits_dropped(g, r):
        return (k >> DROPPED) * g >> (256 - DROPPED)
    if g < HALF_WORD:                              # k's halves times g: two words, exact
        return ((k >> 128) * g + ((k % HALF_WORD) * g >> 128)) >> 128
    return k * g >> 256


def _fits_dropped(g: int, r: int) -> bool:
    return r.bit_length() - DROPPED + g.bit_length() <= 256


def bound(glv: Glv, r: int) -> int:
    """A bound on |k1| and |k2| from :func:`split` for k < r: q_i is within
    1 + k |g_i - 2^256 c_i / r| / 2^256 + 2^-126 < 1 + |g_i r - 2^256 c_i| / 2^256 + 2^-126
    of c_i k / r (g_i's own rounding error, at most 1/2: 1.082 and 1.067 for BN254's,
    1.133 and 1.108 for secp256k1's) times the basis' coordinates."""
    (a1, b1), (a2, b2) = glv.basis
    factors = [(2**256 + abs(g * r - 2**256 * c) + 2**130, 2**256)     # rounded up below
               for g, c in zip(rounding_multipliers(glv, r), (-b2, b1))]
    (n1, den), (n2, _) = factors
    return max(-(-(n1 * abs(u) + n2 * abs(v)) // den) for u, v in ((a1, a2), (b1, b2)))


def push_digit_words(e: Emitter, glv: Glv, pre_shift: int, half_bits: int = HALF_BITS
                     ) -> None:
    """Stack: k -> A1 A2, A_i = (k_i + 2^half_bits - 1) << (pre_shift - 1) (or >> 1 for
    pre_shift 0), k1, k2 from :func:`split` (as words: k1 may be negative): U_i's digits
    of any width w dividing ``half_bits``, or below a narrower lowest digit (2^half_bits
    beyond the halves' :func:`bound`)."""
    assert bound(glv, e.curve.r) < 1 << half_bits
    asm = e.asm
    g1, g2 = rounding_multipliers(glv, e.curve.r)
    (a1, b1), (a2, b2) = glv.basis
    _push_floored_high(e, g1, 1, e.curve.r)                   # stack: k f1
    _push_floored_high(e, g2, 2, e.curve.r)                   # stack: k f1 f2
    asm.push(1)
    asm.op("OR")                                   # q2: the odd integer nearest y2
    asm.op("SWAP1")
    asm.op("DUP3")
    asm.op("DUP2")
    asm.op("XOR")
    asm.push(1)
    asm.op("AND")
    asm.op("ADD")                                  # stack: k q2 q1, q1 = k mod 2
    asm.op("DUP1")
    asm.push(b1 % WORD)
    asm.op("MUL")
    asm.op("DUP3")
    asm.push(b2 % WORD)
    asm.op("MUL")
    asm.op("ADD")                                  # stack: k q2 q1 k2
    _to_digit_word(e, pre_shift, half_bits)
    asm.op("SWAP2")                                # stack: k A2 q1 q2
    asm.push(a2 % WORD)
    asm.op("MUL")
    asm.op("SWAP1")
    asm.push(a1 % WORD)
    asm.op("MUL")
    asm.op("ADD")
    asm.op("DUP3")
    asm.op("ADD")                                  # stack: k A2 k1
    _to_digit_word(e, pre_shift, half_bits)
    asm.op("SWAP2")
    asm.op("POP")                                  # stack: A1 A2


def _to_digit_word(e: Emitter, pre_shift: int, half_bits: int) -> None:
    """Stack: k_i -> A_i (:func:`push_digit_words`)."""
    asm = e.asm
    asm.push((1 << half_bits) - 1)
    asm.op("ADD")                                  # 2 U: even, below 2^(half_bits + 1)
    if pre_shift > 1:
        asm.push(pre_shift - 1)
        asm.op("SHL")
    elif pre_shift == 0:
        asm.push(1)
        asm.op("SHR")


def _push_floored_high(e: Emitter, g: int, depth: int, r: int) -> None:
    """Push :func:`floored_high` of k, the word at DUP ``depth``, and ``g``: one product of
    k's high bits; for g < 2^128 the products of k's two halves (a word each); else the
    high word of the 512-bit product (MULMOD by 2^256 - 1 less the low word, less its
    borrow)."""
    asm = e.asm
    if _fits_dropped(g, r):
        asm.op(f"DUP{depth}")
        asm.push(DROPPED)
        asm.op("SHR")
        asm.push(g)
        asm.op("MUL")
        asm.push(256 - DROPPED)
        asm.op("SHR")
        return
    if g < HALF_WORD:                              # (k_hi g + (k_lo g >> 128)) >> 128
        asm.op(f"DUP{depth}")
        asm.push(128)
        asm.op("SHR")
        asm.push(g)
        asm.op("MUL")
        asm.op(f"DUP{depth + 1}")
        asm.push(HALF_WORD - 1)
        asm.op("AND")
        asm.push(g)
        asm.op("MUL")
        asm.push(128)
        asm.op("SHR")
        asm.op("ADD")
        asm.push(128)
        asm.op("SHR")
        return
    asm.push(WORD - 1)
    asm.push(g)
    asm.op(f"DUP{depth + 2}")
    asm.op("MULMOD")                               # mm = k g mod (2^256 - 1)
    asm.push(g)
    asm.op(f"DUP{depth + 2}")
    asm.op("MUL")                                  # lo = k g mod 2^256
    asm.op("DUP1")
    asm.op("DUP3")
    asm.op("LT")                                   # mm < lo: a borrow
    asm.op("ADD")
    asm.op("SWAP1")
    asm.op("SUB")                                  # hi = mm - lo - borrow (mod 2^256)
