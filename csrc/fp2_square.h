/* An Fp2 squaring, the five field ops of tower.fp2.sqr (evm384_native/evm/fp2_squares.py)
 *
 *   t0 = a0 + a1   t1 = a0 - a1   c1 = a0 * a1   c1 = c1 + c1   c0 = t0 * t1
 *
 * (one modulus p), run as two Montgomery products of unreduced sums, the way blst's
 * sqr_mont_382x squares: c0 = (a0 + a1)(a0 + p - a1) / R, c1 = (a0 + a0) a1 / R, with
 * R = 2^384. The hosts prove the shape, that the locations do not alias where it matters
 * and that t0 and t1 are dead (the step writes c1 and c0 only); this checks the values.
 * When p is odd, below 2^382 and followed by its inv, and a0, a1 are below p, each op
 * returns the canonical residue, and so does each product here: its factors are below
 * 2p, so x y < 4 p^2 < p R and MULMODMONT384's (x y + m p) / R is below 2p, which its one
 * conditional subtraction brings to [0, p). Anything else: nothing is written and the
 * caller runs the five ops. */
#ifndef EVM384_FP2_SQUARE_H
#define EVM384_FP2_SQUARE_H

#include "fp2_product.h"

/* out = x + mod - y for x, y below mod < 2^382: no borrow, below 2 mod. */
static inline void sub384_plus_mod(uint8_t out[BYTES384], const uint8_t *x, const uint8_t *y,
                                   const uint8_t *mod)
{
    limb_t carry = 0, borrow = 0;
    for (int i = 0; i < LIMBS384; i++) {
        limb_t sum = add_with_carry(load_le64(x + 8 * i), load_le64(mod + 8 * i), &carry);
        store_le64(out + 8 * i, sub_with_borrow(sum, load_le64(y + 8 * i), &borrow));
    }
}

/* 1 if it ran, 0 if nothing was written: c1 and c0 only, c1 first (as the ops), after
 * every read of a0 and a1, so they may be a1 and a0 (a squaring in place). */
static inline __attribute__((always_inline)) int
fp2_square(mulmont384_fn *mulmont, const uint8_t *mod_inv, uint8_t *c1, uint8_t *c0,
           const uint8_t *a0, const uint8_t *a1)
{
    if (!fp2_product_applies(mod_inv, a0, a1, a0, a1))
        return 0;
    uint8_t sum[BYTES384], diff[BYTES384], twice[BYTES384];
    add384_unreduced(sum, a0, a1);
    sub384_plus_mod(diff, a0, a1, mod_inv);
    add384_unreduced(twice, a0, a0);
    mulmont(c1, twice, a1, mod_inv);     /* reads a1 before it writes c1 */
    mulmont(c0, sum, diff, mod_inv);
    return 1;
}

/* fp2_square on the five records at r (`fields` uint32 each; out, x, y, mod at fields
 * out .. out + 3): a0, a1 are the first record's operands, c1 the third's output, c0 the
 * fifth's. */
static inline __attribute__((always_inline)) int
fp2_square_of_records(mulmont384_fn *mulmont, uint8_t *m, const uint32_t *r, int fields,
                      int out)
{
    const int x = out + 1, y = out + 2, mod = out + 3;
    return fp2_square(mulmont, m + r[mod], m + r[2 * fields + out], m + r[4 * fields + out],
                      m + r[x], m + r[y]);
}

#endif
