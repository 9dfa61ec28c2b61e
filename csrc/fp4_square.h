/* An Fp4 squaring, the 23 field ops of tower.fp12._sqr_fp4 for xi = 1 + u
 * (evm384_native/evm/fp4_squares.py has them and the roles' names): (a + b t)^2 in
 * Fp4 = Fp2[t]/(t^2 - xi) for a = a0 + a1 u, b = b0 + b1 u, from the half squarings
 *   A0 = (a0 + a1)(a0 - a1), A1 = a0 a1, B0, B1 likewise of b, C0, C1 of a + b,
 *   o00 = A0 + B0 - 2 B1,  o01 = 2 (A1 + B1) + B0,  o10 = C0 - A0 - B0,  o11 = 2 (C1 - A1 - B1)
 * (all over R = 2^384, mod p), run as six 768-bit products (wide384.h) and four
 * reductions, where the ops run six Montgomery products and 17 additions. The hosts prove
 * the shape, that its 12 locations are apart and apart from the modulus, and that the four
 * temporaries (ta0, ta1, tb0, tb1) are dead; this checks the values. When p is odd,
 * below 2^382 and followed by its inv, and a0, a1, b0, b1 are below p, every op returns
 * the canonical residue, so the four outputs reduced to [0, p) are the ops' bytes. With
 * every factor below p, each product is below p^2 < p R / 4, and the sums below:
 *   o00: A0 + B0 - 2 B1 in (-2 p^2, 2 p^2), + p R when negative: below p R;
 *   o01: below 5 p^2 < 2 p R;  o10: C0 - A0 - B0 in (-2 p^2, p^2), + p R: below p R;
 *   o11: twice C1 - A1 - B1 (+ p R when negative), below 2 p R;
 * so one or two conditional subtractions after the reduction. Anything else: nothing is
 * written and the caller runs the 23 ops. */
#ifndef EVM384_FP4_SQUARE_H
#define EVM384_FP4_SQUARE_H

#include "evm384_block.h"
#include "fp2_product.h"
#include "wide384.h"

/* out = x * x' for the half squaring of (x0, x1): re = (x0 + x1)(x0 - x1), im = x0 x1. */
static inline __attribute__((always_inline)) void
half_square(limb_t re[WIDE_LIMBS], limb_t im[WIDE_LIMBS], const uint8_t *x0,
            const uint8_t *x1, const uint8_t *mod, int mulx)
{
    uint8_t sum[BYTES384], diff[BYTES384];
    addmod384(sum, x0, x1, mod);
    submod384(diff, x0, x1, mod);
    mul384x384(re, sum, diff, mulx);
    mul384x384(im, x0, x1, mulx);
}

/* 1 if it ran, 0 if nothing was written: the four outputs only, after every input is
 * read (the outputs lie apart from the inputs: the hosts' proof). */
static inline __attribute__((always_inline)) int
fp4_square(int mulx, const uint8_t *mod_inv, uint8_t *o00, uint8_t *o01, uint8_t *o10,
           uint8_t *o11, const uint8_t *a0, const uint8_t *a1, const uint8_t *b0,
           const uint8_t *b1)
{
    if (!fp2_product_applies(mod_inv, a0, a1, b0, b1))
        return 0;
    uint8_t c0[BYTES384], c1[BYTES384];
    limb_t A0[WIDE_LIMBS], A1[WIDE_LIMBS], B0[WIDE_LIMBS], B1[WIDE_LIMBS], C0[WIDE_LIMBS],
        C1[WIDE_LIMBS], sum[WIDE_LIMBS], t[WIDE_LIMBS];
    addmod384(c0, a0, b0, mod_inv);
    addmod384(c1, a1, b1, mod_inv);
    half_square(C0, C1, c0, c1, mod_inv, mulx);
    half_square(A0, A1, a0, a1, mod_inv, mulx);
    half_square(B0, B1, b0, b1, mod_inv, mulx);
    add768(sum, A0, B0);
    sub768_mod_high(t, C0, sum, mod_inv);              /* o10 */
    redc768(o10, t, mod_inv, mulx, 1);
    add768(t, B1, B1);
    sub768_mod_high(t, sum, t, mod_inv);               /* o00 */
    redc768(o00, t, mod_inv, mulx, 1);
    add768(sum, A1, B1);
    sub768_mod_high(t, C1, sum, mod_inv);
    add768(t, t, t);                                   /* o11 */
    redc768(o11, t, mod_inv, mulx, 2);
    add768(t, sum, sum);
    add768(t, t, B0);                                  /* o01 */
    redc768(o01, t, mod_inv, mulx, 2);
    return 1;
}

/* fp4_square on the 23 records at r (`fields` uint32 each; out, x, y, mod at fields
 * out .. out + 3): a0, b0 are the first record's operands, a1, b1 the second's, and the
 * outputs those of records 20 (o00), 22 (o01), 16 (o10) and 18 (o11). */
static inline __attribute__((always_inline)) int
fp4_square_of_records(int mulx, uint8_t *m, const uint32_t *r, int fields, int out)
{
    const int x = out + 1, y = out + 2, mod = out + 3;
    return fp4_square(mulx, m + r[mod], m + r[20 * fields + out], m + r[22 * fields + out],
                      m + r[16 * fields + out], m + r[18 * fields + out], m + r[x],
                      m + r[fields + x], m + r[y], m + r[fields + y]);
}

#endif
