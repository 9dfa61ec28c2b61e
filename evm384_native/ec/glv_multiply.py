"""[s] P on G1 of an a = 0 curve with a GLV endomorphism phi(x, y) = (beta x, y) = [lam] P
(the curve's :class:`~..curves.model.Glv`), for a 256-bit scalar s from calldata (ECMUL's
for BN254), priced for EVMMAX, where a multiplication costs two additions and a jump as much
as four.

1. k = s mod r (every G1 point has order r); k = 0 or P = infinity gives infinity.
2. k = k1 + k2 lam (mod r) with k1, k2 odd and |k_i| < 2^126.93 (:func:`.glv.bound`: q_i
   the nearest integer of the parity it needs), each 26 regular signed digits (:mod:`.glv`,
   :mod:`.windows`): the lowest of LOW_BITS = 2 bits (odd, in [-3, 3]), 25 of 5 bits above
   it, so 2^127 bounds them (26 of 5 bits would need 2^130: three doublings more). Table
   record u holds [2u - 31] P (both signs stored, memory offset 0), so the masked digit is
   the record's offset (the lowest digit's, 14 records further on:
   :meth:`.windows.Lookup.load`).
3. The odd multiples [1] P .. [31] P on one Z_T, affine on the isomorphic curve
   y^2 = x^3 + b Z_T^6 (:mod:`.odd_multiples`), where the whole loop runs with mixed
   additions (a = 0: the doubling does not read b); the result (X, Y, Z) there is
   (X, Y, Z Z_T) on the curve. phi(Q) is (beta x, y) there too (phi commutes with the
   isomorphism): k2's additions multiply the record's x by beta (one multiplication, less
   than a second table's memory).
4. acc = [d1] P + [d2] phi(P) for the top digits, then per lower window 5 doublings (3 in
   window 0; Z3 = Y Z, 8 multiplications) and two mixed additions, of [d1] P and
   [d2] phi(P) (madd-2004-hmv), no branch: the windows run in turns of a loop with their
   digits at fixed bits, the words moving up a turn's bits each turn (plain EVM: all
   inline, no loop): 122 doublings.

Exceptional cases. After the doublings of window j >= 1, acc = [A] P + [B] phi(P) with
(A, B) = 32 (a, b), a and b the prefixes of k1's and k2's digits above j: odd numbers,
so b != 0, with |a|, |b| < |k_i| / (4 32^j) + 1. An addition of [d] P (|d| <= 31) meets
acc = +-[d] P iff (A -+ d, B) lies in the lattice L = {(u, v): u + v lam = 0 mod r}; that of
[d] phi(P) after it, iff (a', B -+ d) does, a' the prefix of k1 down to j (B -+ d is odd, so
never 0). The code assumes what holds for BN254: every non-zero vector of L has
max(|u|, |v|) > 2^126.7 (6x^2 + 2x; tests/test_bn254_glv.py searches the combinations of
the reduced basis), and in the windows j >= 1 all these coordinates are below 2^125: no
exceptional case, and acc is never infinity (that needs (a, b) in L). The top window adds
[d1] P + [d2] phi(P), equal only if (d1, -+d2) is in L: never. In window 0 the coordinates
reach |k_i| and L can be met (BN254's k = -2 lam mod r: acc = [d2] phi(P) before k2's
last addition, the only such k = a + b lam with |a|, |b| <= 400). There a mixed addition that meets
acc = +-T has H = 0 and leaves Z = 0, which the next keeps (Z3 = Z H), while without one Z
stays non-zero: so window 0 adds as the others do, and a final Z = 0 sends it back to acc
as it was before its additions, to add again with every case (:func:`.groups.add`).
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import Sequence, Tuple

from ..asm import Fp, G1, G1Jacobian, raw
from ..tower import fp, jacobian
from ..tower.compare import push_field_is_zero
from ..tower.fp import Emitter
from .glv import DIGITS, bound, push_digit_words
from .groups import add, affine_view, g1_group, set_infinity
from .odd_multiples import odd_multiples
from .windows import RECORDS, WINDOW, Lookup, next_turn

# windows DIGITS - 2 .. 1 run in a loop of this many a turn, their digits at fixed bits
# (immediate shifts); a turn moves the two words up by its bits (~50 gas): 2 turns (all 24
# windows inline would not fit 24,576 bytes: ~820 bytes a window under EVMMAX), or with
# ``loops`` 8 (EVM384's 18-byte ops: 12 windows do not fit either). Where runs of field
# code are blocks (plain EVM: ~650 bytes a window) all 24 are inline, no loop.
TURN_WINDOWS = {False: 12, True: 3}
# where runs of field code are blocks (plain EVM), this many windows' records are loaded
# first and their doublings and additions are one block (a lookup ends a block: acc is
# stored and loaded again at each edge)
BLOCK_WINDOWS = 12
# the lowest digit's width: |k_i| < 2^126.93 (BN254's bound) fits 25 digits of WINDOW bits
# above one of 2 (2^127), three doublings fewer than 26 of WINDOW bits (2^130)
LOW_BITS = 2
SPAN_BITS = WINDOW * (DIGITS - 1) + LOW_BITS


def multiply(e: Emitter, point: G1Jacobian, scalar_offset: int) -> G1Jacobian:
    """acc = [s] P for the Jacobian ``point`` (Z = 1, or Z = 0 for infinity) and the
    calldata word s at ``scalar_offset``; returns acc."""
    asm, target, curve = e.asm, e.target, e.curve
    glv = curve.glv
    assert glv is not None and bound(glv, curve.r) < 1 << SPAN_BITS
    group = g1_group(curve)
    region = asm.memory.region("scalar_mul")
    acc, q = region.alloc(G1Jacobian, "acc"), region.alloc(G1Jacobian, "q")
    z_table = region.alloc(Fp, "z_table")
    record = target.memory_bytes(e, G1.size)
    table = asm.memory.region("scalar_table", first=True).alloc(raw(RECORDS * record),
                                                                "table")   # at offset 0
    three_halves = e.fp_const("three_halves", 3 * pow(2, -1, curve.p))
    beta = e.fp_const("glv_beta", glv.beta)
    # plain EVM: the table's negated half made in place (:func:`.odd_multiples.odd_multiples`)
    lookup = Lookup(e, table, record, upper_reversed=target.field_blocks)

    def double() -> None:
        jacobian.jacobian_dbl_halved(e, fp, acc, three_halves)

    def additions(shift: int, above: int, bits: int = WINDOW, complete: bool = False
                  ) -> None:
        """acc += [d1] P + [d2] phi(P) for the digits of ``bits`` bits at bit ``shift`` of
        the words (under ``above`` stack items); ``complete``: with every case
        (:func:`.groups.add`)."""
        for word in (1, 0):                        # k1's digit [d] P, k2's [d] phi(P)
            lookup.load(affine_view(q, group), 1 + word + above, shift, bits)
            x_factor = beta if word == 0 else None
            if not complete:
                jacobian.jacobian_add_affine_hmv(e, fp, acc, q, x_factor)
                continue
            if x_factor is not None:
                fp.mul(e, q.x, q.x, x_factor)
            add(e, group, acc, q, double)

    def add_loaded(pair: Tuple[G1, G1]) -> None:
        """acc += a window's records loaded already: k1's [d1] P, k2's [d2] P (phi: x
        times beta)."""
        jacobian.jacobian_add_affine_hmv(e, fp, acc, pair[0], None)
        jacobian.jacobian_add_affine_hmv(e, fp, acc, pair[1], beta)

    def load(shifts: Sequence[int], above: int, records: Sequence[Tuple[G1, G1]],
             bits: int = WINDOW) -> None:
        """``records`` = the windows' k1 and k2 records (digits at bits ``shifts``)."""
        for shift, pair in zip(shifts, records):
            for word, record in zip((1, 0), pair):
                lookup.load(record, 1 + word + above, shift, bits)

    def windows(shifts: Sequence[int], above: int, records: Sequence[Tuple[G1, G1]],
                loaded: bool = False) -> None:
        """Per window (its digits at bit ``shifts[i]``), WINDOW doublings, then acc += the
        digits' records. Where runs of field code are blocks (plain EVM) all the records
        are loaded first (unless ``loaded`` already), into ``records`` (k1's and k2's of
        each window): the windows' doublings and additions are then one block, acc on
        the stack throughout (elsewhere the registers would cost more than they save)."""
        if not records:
            for shift in shifts:
                for _ in range(WINDOW):
                    double()
                additions(shift, above)
            return
        if not loaded:
            load(shifts, above, records)
        for _, pair in zip(shifts, records):
            for _ in range(WINDOW):
                double()
            add_loaded(pair)

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
        # stack: A1 A2, the words shifted so that digit j >= 1 is at bit WINDOW j
        push_digit_words(e, glv, lookup.pre_shift + WINDOW - LOW_BITS, SPAN_BITS)
        if lookup.upper_reversed:                  # digit j >= 1 at bit WINDOW j
            for _ in range(2):
                lookup.reverse_upper([WINDOW * j for j in range(1, DIGITS)])
                asm.op("SWAP1")
        with target.spill_to(e, table):        # plain EVM: spills to the table's memory
            odd_multiples(e, point, table, record, z_table, three_halves,
                          upper_reversed=lookup.upper_reversed)
        fp.copy(e, q.z, e.one)                    # q as a Jacobian point, for add()
        top = WINDOW * (DIGITS - 1)
        lookup.load(affine_view(acc, group), 2, top)
        lookup.load(affine_view(q, group), 1, top)
        per_turn = DIGITS - 2 if target.field_blocks else TURN_WINDOWS[e.loops]
        turns = (DIGITS - 2) // per_turn
        assert turns * per_turn == DIGITS - 2
        moved = WINDOW * per_turn if turns > 1 else 0          # the words' move a turn
        assert WINDOW * DIGITS + lookup.pre_shift + moved * turns <= 256   # none shifted out
        above = 1 if turns > 1 else 0                          # the count of turns left
        step = BLOCK_WINDOWS if target.field_blocks else 1
        assert per_turn % step == 0
        blocks = [[top - WINDOW * (t + i + 1) for i in range(step)]    # the turn's digits
                  for t in range(0, per_turn, step)]                   # at fixed bits
        low = moved * turns + WINDOW - LOW_BITS    # window 0's bit (moved up each turn)
        # plain EVM: the records where the table's co-Z values were (less memory to pay
        # for); the first block's loaded before the top window's sum, which then joins
        # that block, and window 0's with the last block's, which it then joins too
        # (``saved``, acc before window 0's additions, allocated with them)
        blocked = target.field_blocks
        with asm.temps(*([G1Jacobian] + [G1] * (2 * step + 2) if blocked else [])) as held:
            records = list(zip(held[2::2], held[1::2]))
            if blocked:
                assert turns == 1                  # loaded once, before any loop
                load(blocks[0], above, records)
            _affine_sum(e, acc, q, beta)
            if turns > 1:
                asm.push(turns)                    # stack: A1 A2 turns-left
                turn = asm.label("windows")
            for i, shifts in enumerate(blocks):
                if blocked and i == len(blocks) - 1:
                    load([low], above, records[-1:], LOW_BITS)
                windows(shifts, above, records[:step], loaded=blocked and i == 0)
            if turns > 1:
                next_turn(asm, (2, 3), moved, turn)    # words move up a turn's bits each turn
                asm.op("POP")
            for _ in range(LOW_BITS):              # window 0
                double()
            with (nullcontext(held[:1]) if blocked else asm.temps(G1Jacobian)) as (saved,):
                fp.copy(e, saved, acc)
                if blocked:
                    add_loaded(records[-1])
                else:
                    additions(low, 0, LOW_BITS)
                push_field_is_zero(e, acc.z)           # Z = 0 iff an addition met acc = +-T
                asm.jumpi(exceptional)
                resume = asm.label("window_0_done")
                asm.op("POP")
                asm.op("POP")
                fp.mul(e, acc.z, acc.z, z_table)       # back from y^2 = x^3 + b Z_T^6
                asm.jump(done)
                asm.place(exceptional)                 # stack: A1 A2
                fp.copy(e, acc, saved)
                additions(low, 0, LOW_BITS, complete=True)
                asm.jump(resume)
        asm.place(infinity)                        # stack: k
        asm.op("POP")
        set_infinity(e, acc)
        asm.place(done)
    return acc


def _affine_sum(e: Emitter, acc: G1Jacobian, q: G1Jacobian, beta: Fp) -> None:
    """acc = (acc.x, acc.y) + (beta q.x, q.y), two distinct affine points (the top
    window's [d1] P and [d2] phi(P)), as a Jacobian point: madd-2004-hmv
    (:func:`..tower.jacobian.jacobian_add_affine_hmv`) where Z = 1, so that Z^2, Z^3 and
    their products are the values themselves and Z3 = H: 7 products where it takes 12."""
    x, y, z = acc.x, acc.y, acc.z
    with e.asm.temps(Fp, Fp, Fp) as (r, h2, h3):
        fp.mul(e, z, q.x, beta)
        fp.sub(e, z, z, x)                         # Z3 = H = beta x2 - x1
        fp.sub(e, r, q.y, y)                       # R = y2 - y1
        fp.sqr(e, h2, z)
        fp.mul(e, h3, h2, z)                       # H^3
        fp.mul(e, h2, h2, x)                       # x1 H^2
        fp.sqr(e, x, r)
        fp.sub(e, x, x, h3)
        fp.sub(e, x, x, h2)
        fp.sub(e, x, x, h2)                        # X3 = R^2 - H^3 - 2 x1 H^2
        fp.mul(e, h3, h3, y)
        fp.sub(e, y, h2, x)
        fp.mul(e, y, y, r)
        fp.sub(e, y, y, h3)                        # Y3 = R (x1 H^2 - X3) - y1 H^3
