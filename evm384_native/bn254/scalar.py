"""[s] P on BN254's G1 for a 256-bit scalar s from calldata (ECMUL's), by GLV with the
endomorphism phi(x, y) = (beta x, y) = [lam] (x, y) (the curve's :class:`~..curves.model.Glv`;
Gallant, Lambert and Vanstone, CRYPTO 2001), priced for EVMMAX, where a multiplication costs
two additions and a jump as much as four.

1. k = s mod r (every G1 point has order r); k = 0 or P = infinity gives infinity.
2. k = k1 + k2 lam (mod r) in EVM integer arithmetic, as libsecp256k1's
   ``secp256k1_scalar_split_lambda`` does it: q_i = round(k g_i / 2^256) with g_i =
   round(2^256 c_i / r) (the high word of a 256 x 256-bit product from MULMOD by 2^256 - 1,
   Bloemen's mul512; for g1 < 2^66 one product of k >> 64; for g < 2^128, secp256k1's,
   the products of k's halves), (k1, k2) = (k, 0) + q1 v1 +
   q2 v2 for the basis v1, v2. Then q2 is made odd and q1 to match k's parity, which makes
   k1 and k2 odd (v1 = (1, 0), v2 = (1, 1) mod 2). q_i is within
   1/2 + k / 2^257 + 2^-126 + 1 < 13/8 of the exact c_i k / r, so
   |k1|, |k2| < 13/8 (|a1| + |a2|) < 2^127.5 (:func:`bound`), below 2^130 = 32^26.
3. Each odd k_i in (-2^130, 2^130) is 26 odd digits d in [-31, 31], k_i = sum d_j 32^j
   (Joye and Tunstall's regular recoding, "Exponent recoding and regular exponentiation
   algorithms", AFRICACRYPT 2009): with U = (k_i + 2^130 - 1) / 2, digit j is
   d_j = 2 u_j - 31 for u_j the j-th 5-bit digit of U, so a digit is a shift and a mask,
   never zero, and no window needs a branch. Table record u holds [2u - 31] P (both signs
   stored, memory offset 0), so the masked digit is the record's offset.
4. The odd multiples [1] P .. [31] P share one Z (Longa and Miri's co-Z precomputation,
   "New composite operations and precomputation scheme for elliptic curve cryptosystems
   over prime fields", PKC 2008): 2P by a doubling that leaves P on the same Z, 15 co-Z
   additions (Meloni), then each earlier entry brought to the last Z. With Z_T that common
   Z, (X, Y) -> (X, Y) maps the points to affine points of the isomorphic curve
   y^2 = x^3 + b Z_T^6, where the whole loop runs with mixed additions (a = 0: the doubling
   does not read b); the result (X, Y, Z) there is (X, Y, Z Z_T) on the curve. phi(Q) is
   (beta x, y) there too (phi commutes with the isomorphism): k2's additions multiply the
   record's x by beta (one multiplication, less than a second table's memory).
5. acc = [d1] P + [d2] phi(P) for the top digits, then per lower window 5 doublings
   (Z3 = Y Z, 8 multiplications) and two mixed additions, of [d1] P and [d2] phi(P)
   (madd-2004-hmv), no branch: the windows run in turns of a loop with their digits at
   fixed bits, the words moving up a turn's bits each turn.

Exceptional cases. After the doublings of window j, acc = [A] P + [B] phi(P) with
(A, B) = 32 (a, b), a and b the prefixes of k1's and k2's digits above j: odd numbers,
so b != 0, with |a|, |b| < |k_i| / 32^(j+1) + 1. An addition of [d] P (|d| <= 31) meets
acc = +-[d] P iff (A -+ d, B) lies in the lattice L = {(u, v): u + v lam = 0 mod r}; that of
[d] phi(P) after it, iff (a', B -+ d) does, a' the prefix of k1 down to j (B -+ d is odd, so
never 0). Every non-zero vector of L has max(|u|, |v|) >= 6x^2 + 2x > 2^126.7
(tests/test_bn254_glv.py searches the combinations of the reduced basis), and in the windows
j >= 1 all these coordinates are below 2^122.6: no exceptional case, and acc is never
infinity (that needs (a, b) in L). The top window adds [d1] P + [d2] phi(P), equal only if
(d1, -+d2) is in L: never. In window 0 the coordinates reach |k_i| and L can be met
(k = 6 lam mod r: acc = [d2] phi(P) before k2's last addition). There a mixed addition
that meets acc = +-T has H = 0 and leaves Z = 0, which the next keeps (Z3 = Z H), while
without one Z stays non-zero: so window 0 adds as the others do, and a final Z = 0 sends
it back to acc as it was before its additions, to add again with every case
(:func:`..ec.groups.add`). The table's additions meet D = +-T only if
2 = +-(2j - 1) mod r: never.
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple

from ..asm import Fp, G1, G1Jacobian, Slot, array, raw
from ..curves.model import Glv
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..tower.fp import Emitter
from ..ec.groups import add, affine_view, set_infinity
from .io import G1_GROUP

WINDOW = 5                                        # bits per digit
DIGITS = 26                                       # digits per half: |k_i| < 2^(WINDOW DIGITS)
ENTRIES = 1 << (WINDOW - 1)                       # [1] P, [3] P, .. [31] P
RECORDS = 2 * ENTRIES                             # record u: [2u - 31] P, u = 0 .. 31
HALF_BITS = WINDOW * DIGITS
WORD = 1 << 256
HALF_WORD = 1 << 128
# windows DIGITS - 2 .. 1 run in a loop of this many a turn, their digits at fixed bits
# (immediate shifts); a turn moves the two words up by its bits (~50 gas): 2 turns (all 24
# windows inline would not fit 24,576 bytes: ~820 bytes a window under EVMMAX), or with
# ``loops`` 8 (EVM384's 18-byte ops: 12 windows do not fit either)
TURN_WINDOWS = {False: 12, True: 3}
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
        raise ValueError("the parity fix assumes v1 = (1, 0), v2 = (1, 1) mod 2")
    return g1, g2


def split(k: int, glv: Glv, r: int) -> Tuple[int, int]:
    """(k1, k2), both odd, k1 + k2 lam = k (mod r), for 0 <= k < r: what the contract
    computes (step 2 of the module doc)."""
    g1, g2 = rounding_multipliers(glv, r)
    (a1, b1), (a2, b2) = glv.basis
    q1, q2 = (rounded_high(k, g, r) for g in (g1, g2))
    q2 |= 1
    q1 ^= (q1 ^ k) & 1
    return k + q1 * a1 + q2 * a2, q1 * b1 + q2 * b2


def rounded_high(k: int, g: int, r: int) -> int:
    """round(k g / 2^256) for k < r as the contract computes it: from (k >> DROPPED) g
    where that fits a word (the dropped bits move the quotient by less than 2^-126), else
    exactly (the high word of the 512-bit product)."""
    if _fits_dropped(g, r):
        return ((k >> DROPPED) * g + (1 << (255 - DROPPED))) >> (256 - DROPPED)
    if g < HALF_WORD:                              # k's halves times g: two words, exact
        return ((k >> 128) * g + ((k % HALF_WORD) * g >> 128) + HALF_WORD // 2) >> 128
    return (k * g + WORD // 2) >> 256


def _fits_dropped(g: int, r: int) -> bool:
    return r.bit_length() - DROPPED + g.bit_length() <= 256


def bound(glv: Glv, r: int) -> int:
    """A bound on |k1| and |k2| from :func:`split` for k < r: q_i is within
    1/2 + r / 2^257 + 2^-126 + 1 of c_i k / r (13/8 for r < 2^254, BN254's; about 2 for
    secp256k1's r ~ 2^256) times the basis' coordinate sums."""
    (a1, b1), (a2, b2) = glv.basis
    num, den = 3 * 2**256 + r + 2**131, 2**257           # the factor, rounded up
    return max(-(-num * (abs(a1) + abs(a2)) // den), -(-num * (abs(b1) + abs(b2)) // den))


def multiply(e: Emitter, point: G1Jacobian, scalar_offset: int) -> G1Jacobian:
    """acc = [s] P for the Jacobian ``point`` (Z = 1, or Z = 0 for infinity) and the
    calldata word s at ``scalar_offset``; returns acc."""
    asm, target, curve = e.asm, e.target, e.curve
    glv = curve.glv
    assert glv is not None and bound(glv, curve.r) < 1 << HALF_BITS
    region = asm.memory.region("scalar_mul")
    acc, q = region.alloc(G1Jacobian, "acc"), region.alloc(G1Jacobian, "q")
    z_table = region.alloc(Fp, "z_table")
    record = target.memory_bytes(e, G1.size)
    table = asm.memory.region("scalar_table", first=True).alloc(raw(RECORDS * record),
                                                                "table")   # at offset 0
    three_halves = e.fp_const("three_halves", 3 * pow(2, -1, curve.p))
    beta = e.fp_const("glv_beta", glv.beta)
    lookup = Lookup(e, table, record)

    def double() -> None:
        jacobian.jacobian_dbl_halved(e, fp, acc, three_halves)

    def additions(shift: int, above: int, complete: bool = False) -> None:
        """acc += [d1] P + [d2] phi(P) for the digits at bit ``shift`` of the words (under
        ``above`` stack items); ``complete``: with every case (:func:`add`)."""
        for word in (1, 0):                        # k1's digit [d] P, k2's [d] phi(P)
            lookup.load(affine_view(q, G1_GROUP), 1 + word + above, shift)
            x_factor = beta if word == 0 else None
            if not complete:
                jacobian.jacobian_add_affine_hmv(e, fp, acc, q, x_factor)
                continue
            if x_factor is not None:
                fp.mul(e, q.x, q.x, x_factor)
            add(e, G1_GROUP, acc, q, double)

    def window(shift: int, above: int) -> None:
        for _ in range(WINDOW):
            double()
        additions(shift, above)

    infinity, done, exceptional = (asm.new_label(name) for name in (
        "product_infinity", "product_done", "window_0_exceptional"))
    with asm.scope("scalar_mul"):
        asm.push(curve.r)
        asm.push(scalar_offset)
        asm.op("CALLDATALOAD")
        asm.op("MOD")                              # stack: k = s mod r
        asm.op("DUP1")
        asm.op("ISZERO")
        push_field_is_zero(e, point.z)
        asm.op("OR")
        asm.jumpi(infinity)
        push_digit_words(e, glv, lookup.pre_shift)   # stack: A1 A2
        odd_multiples(e, point, table, record, z_table, three_halves)
        fp.copy(e, q.z, e.one)                    # q as a Jacobian point, for add()
        top = WINDOW * (DIGITS - 1)
        lookup.load(affine_view(acc, G1_GROUP), 2, top)
        fp.copy(e, acc.z, e.one)
        lookup.load(affine_view(q, G1_GROUP), 1, top)
        jacobian.jacobian_add_affine_hmv(e, fp, acc, q, beta)
        windows = TURN_WINDOWS[e.loops]
        turns, moved = (DIGITS - 2) // windows, WINDOW * windows
        assert turns * windows == DIGITS - 2
        assert HALF_BITS + lookup.pre_shift + moved * turns <= 256   # no digit shifted out
        asm.push(turns)                            # stack: A1 A2 turns-left
        turn = asm.label("windows")
        for t in range(windows):                   # the turn's digits at fixed bits: the
            window(top - WINDOW * (t + 1), 1)      # words move up a turn's bits each turn
        for depth in (2, 3):                       # A2, then A1 to the top and back
            asm.op(f"SWAP{depth - 1}")
            asm.push(moved)
            asm.op("SHL")
            asm.op(f"SWAP{depth - 1}")
        asm.push(WORD - 1)
        asm.op("ADD")
        asm.op("DUP1")
        asm.jumpi(turn)
        asm.op("POP")
        for _ in range(WINDOW):                    # window 0 (digit 0, moved up every turn)
            double()
        with asm.temps(G1Jacobian) as (saved,):    # acc before window 0's additions
            fp.copy(e, saved, acc)
            additions(moved * turns, 0)
            push_field_is_zero(e, acc.z)           # Z = 0 iff an addition met acc = +-T
            asm.jumpi(exceptional)
            resume = asm.label("window_0_done")
            asm.op("POP")
            asm.op("POP")
            fp.mul(e, acc.z, acc.z, z_table)       # back from y^2 = x^3 + b Z_T^6
            asm.jump(done)
            asm.place(exceptional)                 # stack: A1 A2
            fp.copy(e, acc, saved)
            additions(moved * turns, 0, complete=True)
            asm.jump(resume)
        asm.place(infinity)                        # stack: k
        asm.op("POP")
        set_infinity(e, acc)
        asm.place(done)
    return acc


class Lookup:
    """Loads the table record chosen by a digit of A1 or A2 (the words on the stack, A2 on
    top) into registers (STOREX) or slots (MCOPY). A word holds U = (k_i + 2^130 - 1) / 2
    times the record size when that is a power of two (the digit at bit 5j is then the
    record's offset under a mask), else U itself (a MUL). A table at memory offset 0
    (``at_zero``) needs nothing added to that offset; another table's base is added."""

    def __init__(self, e: Emitter, table: Slot, record: int, at_zero: bool = True) -> None:
        self.e, self.table, self.record, self.at_zero = e, table, record, at_zero
        power = record & (record - 1) == 0
        self.pre_shift = record.bit_length() - 1 if power else 0
        self.mask = (RECORDS - 1) << self.pre_shift
        self.scale = 1 if power else record

    def checked_mask(self) -> int:
        """The mask, at link time, once the table is known to start memory: the offset
        of a record is then the masked digit (times the record size) with nothing added."""
        if int(self.table) != 0:
            raise AssertionError("the scalar table must be linked at offset 0")
        return self.mask

    def load(self, dest: Slot, word_depth: int, shift: int) -> None:
        """dest = the record of the digit at bit ``shift`` of the word at DUP
        ``word_depth``."""
        asm = self.e.asm

        def source() -> None:                      # above the count copy_in pushed
            asm.op(f"DUP{word_depth + 1}")
            if shift:
                asm.push(shift)
                asm.op("SHR")
            asm.push(self.checked_mask if self.at_zero else self.mask)
            asm.op("AND")
            if self.scale != 1:
                asm.push(self.scale)
                asm.op("MUL")
            if not self.at_zero:
                asm.push(self.table)
                asm.op("ADD")
        self.e.target.copy_in(self.e, dest, source)


def push_digit_words(e: Emitter, glv: Glv, pre_shift: int) -> None:
    """Stack: k -> A1 A2, A_i = (k_i + 2^130 - 1) << (pre_shift - 1) (or >> 1 for
    pre_shift 0), k1, k2 from :func:`split` (as words: k1 may be negative)."""
    asm = e.asm
    g1, g2 = rounding_multipliers(glv, e.curve.r)
    (a1, b1), (a2, b2) = glv.basis
    _push_rounded_high(e, g1, 1, e.curve.r)                   # stack: k q1
    _push_rounded_high(e, g2, 2, e.curve.r)                   # stack: k q1 q2
    asm.push(1)
    asm.op("OR")                                   # q2 odd
    asm.op("SWAP1")
    asm.op("DUP3")
    asm.op("DUP2")
    asm.op("XOR")
    asm.push(1)
    asm.op("AND")
    asm.op("XOR")                                  # stack: k q2 q1, q1 = k mod 2
    asm.op("DUP1")
    asm.push(b1 % WORD)
    asm.op("MUL")
    asm.op("DUP3")
    asm.push(b2 % WORD)
    asm.op("MUL")
    asm.op("ADD")                                  # stack: k q2 q1 k2
    _to_digit_word(e, pre_shift)
    asm.op("SWAP2")                                # stack: k A2 q1 q2
    asm.push(a2 % WORD)
    asm.op("MUL")
    asm.op("SWAP1")
    asm.push(a1 % WORD)
    asm.op("MUL")
    asm.op("ADD")
    asm.op("DUP3")
    asm.op("ADD")                                  # stack: k A2 k1
    _to_digit_word(e, pre_shift)
    asm.op("SWAP2")
    asm.op("POP")                                  # stack: A1 A2


def _to_digit_word(e: Emitter, pre_shift: int) -> None:
    """Stack: k_i -> A_i (:func:`push_digit_words`)."""
    asm = e.asm
    asm.push((1 << HALF_BITS) - 1)
    asm.op("ADD")                                  # 2 U: even, below 2^131
    if pre_shift > 1:
        asm.push(pre_shift - 1)
        asm.op("SHL")
    elif pre_shift == 0:
        asm.push(1)
        asm.op("SHR")


def _push_rounded_high(e: Emitter, g: int, depth: int, r: int) -> None:
    """Push :func:`rounded_high` of k, the word at DUP ``depth``, and ``g``: one product of
    k's high bits; for g < 2^128 the products of k's two halves (a word each); else the
    high word of the 512-bit product (MULMOD by 2^256 - 1 less the low word, less its
    borrow) plus the low word's top bit."""
    asm = e.asm
    if _fits_dropped(g, r):
        asm.op(f"DUP{depth}")
        asm.push(DROPPED)
        asm.op("SHR")
        asm.push(g)
        asm.op("MUL")
        asm.push(1 << (255 - DROPPED))
        asm.op("ADD")
        asm.push(256 - DROPPED)
        asm.op("SHR")
        return
    if g < HALF_WORD:                              # (k_hi g + (k_lo g >> 128) + 2^127) >> 128
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
        asm.push(HALF_WORD // 2)
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
    asm.op("SWAP2")
    asm.op("DUP2")
    asm.op("SWAP1")
    asm.op("SUB")                                  # stack: borrow lo mm-lo
    asm.op("SWAP1")
    asm.push(255)
    asm.op("SHR")
    asm.op("ADD")
    asm.op("SUB")                                  # hi + (lo >> 255)


Double = Callable[[G1Jacobian, Tuple[Fp, Fp]], None]


def odd_multiples(e: Emitter, point: G1Jacobian, table: Slot, record: int, z_table: Fp,
                   three_halves: Fp, double: Optional[Double] = None) -> None:
    """The table in memory, records [2u - 31] P (u = 0 .. 31), affine on the curve of the
    common Z, and that Z in ``z_table`` (module doc, step 4). ``double(d, keep)`` doubles
    the Jacobian d = P (Z = 1) in place, leaving P on the new Z in ``keep`` (x, y); by
    default the a = 0 doubling scaled by 1/2 (:func:`..tower.jacobian.jacobian_dbl_halved`
    with ``three_halves``)."""
    asm = e.asm
    if double is None:
        def double(d: G1Jacobian, keep: Tuple[Fp, Fp]) -> None:
            jacobian.jacobian_dbl_halved(e, fp, d, three_halves, keep=keep)
    with asm.scope("odd_multiples"), asm.temps(array(Fp, 2 * ENTRIES)) as (pos,):
        _co_z_multiples(e, point, pos, z_table, double)
        with asm.temps(array(Fp, 2 * ENTRIES)) as (neg,):   # where the co-Z temps were
            for j in range(ENTRIES):               # neg[j] = -pos[15 - j]: records 0 .. 15
                fp.copy(e, _entry(neg, j).x, _entry(pos, ENTRIES - 1 - j).x)
                fp.neg(e, _entry(neg, j).y, _entry(pos, ENTRIES - 1 - j).y)
            for block, first_record in ((neg, 0), (pos, ENTRIES)):
                e.target.copy_out(e, block, lambda first_record=first_record: asm.push(
                    lambda: int(table) + first_record * record))


def _entry(block: Slot, j: int) -> G1:
    """The j-th x‖y of a block of registers."""
    return block.part(G1, j * G1.size, f"{block.name}[{j}]")


def _co_z_multiples(e: Emitter, point: G1Jacobian, pos: Slot, z_table: Fp,
                    double: Double) -> None:
    """pos = [1] P, [3] P, .. [31] P on one Z (x‖y each), that Z in ``z_table``."""
    with e.asm.temps(G1Jacobian, array(Fp, ENTRIES - 1), Fp, Fp, Fp) as (d, hs, f, f2, f3):
        fp.copy(e, d, point)
        first = _entry(pos, 0)
        double(d, (first.x, first.y))
        dxy = affine_view(d, G1_GROUP)             # 2P, on P's new Z (= y)
        h = hs.fps()
        for j in range(1, ENTRIES):                # [2j + 1] P = [2j - 1] P + 2P
            jacobian.coz_add_update(e, fp, dxy, _entry(pos, j - 1), _entry(pos, j),
                                    h[j - 1])
        factor = h[-1]                             # entry j lacks H_(j+1) .. H_15
        for j in range(ENTRIES - 2, -1, -1):
            if j < ENTRIES - 2:
                fp.mul(e, f, factor, h[j])
                factor = f
            fp.sqr(e, f2, factor)
            fp.mul(e, f3, f2, factor)
            fp.mul(e, _entry(pos, j).x, _entry(pos, j).x, f2)
            fp.mul(e, _entry(pos, j).y, _entry(pos, j).y, f3)
        fp.mul(e, z_table, d.z, factor)
