/* 768-bit products and their Montgomery reduction, for the Fp2 product (fp2_product.h):
 * Karatsuba's three products at double width, combined there, and two reductions instead
 * of three Montgomery products (measured in one process on AMD EPYC: 101-118 ns against
 * 128-153 ns, blst's mulx_mont_384x 103-127; bench/README.md, issue 25).
 *
 * A 768-bit value t stands for the residue t / 2^384 mod p. The kernels come as MULX/ADX
 * code (mont384_mulx.h: the rows of its Montgomery product without the reduction, and the
 * reduction without the rows) and as portable C; `mulx` (a constant where they are
 * inlined) picks one. */
#ifndef EVM384_WIDE384_H
#define EVM384_WIDE384_H

#include "mont384.h"
#include "mont384_mulx.h"

#define WIDE_LIMBS (2 * LIMBS384)

/* out = x * y, schoolbook over unsigned __int128. */
static inline void mul384x384_portable(limb_t out[WIDE_LIMBS], const uint8_t x[BYTES384],
                                       const uint8_t y[BYTES384])
{
    limb_t a[LIMBS384], b[LIMBS384];
    for (int i = 0; i < LIMBS384; i++)
        a[i] = load_le64(x + 8 * i), b[i] = load_le64(y + 8 * i), out[i] = 0;
    for (int i = 0; i < LIMBS384; i++) {
        limb_t carry = 0;
        for (int j = 0; j < LIMBS384; j++) {
            dlimb_t t = (dlimb_t)a[i] * b[j] + out[i + j] + carry;
            out[i + j] = (limb_t)t;
            carry = (limb_t)(t >> 64);
        }
        out[i + LIMBS384] = carry;
    }
}

/* out = (t + m * mod) / 2^384 <= mod, m the Montgomery factor of t < 2^384: a reduction
 * row per limb, u = acc[0] * inv. acc + u * mod < 2^384 + 2^64 * mod keeps acc below
 * 2^384 after each shift, so six limbs hold it. */
static inline void redc384_low_portable(limb_t out[LIMBS384], const limb_t t[LIMBS384],
                                        const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t mod[LIMBS384];
    const limb_t inv = load_le64(mod_inv + BYTES384);
    for (int i = 0; i < LIMBS384; i++)
        out[i] = t[i], mod[i] = load_le64(mod_inv + 8 * i);
    for (int round = 0; round < LIMBS384; round++) {
        const limb_t u = out[0] * inv;
        limb_t carry = (limb_t)(((dlimb_t)u * mod[0] + out[0]) >> 64); /* low half: 0 */
        for (int j = 1; j < LIMBS384; j++) {
            dlimb_t s = (dlimb_t)u * mod[j] + out[j] + carry;
            out[j - 1] = (limb_t)s;
            carry = (limb_t)(s >> 64);
        }
        out[LIMBS384 - 1] = carry;
    }
}

static inline __attribute__((always_inline)) void
mul384x384(limb_t out[WIDE_LIMBS], const uint8_t x[BYTES384], const uint8_t y[BYTES384],
           int mulx)
{
#if defined(__x86_64__)
    if (mulx) {
        mul384x384_mulx(out, x, y);
        return;
    }
#endif
    (void)mulx;
    mul384x384_portable(out, x, y);
}

/* out = x - y at double width; returns the borrow (1 when it is negative, wrapped). */
static inline limb_t sub768(limb_t out[WIDE_LIMBS], const limb_t x[WIDE_LIMBS],
                            const limb_t y[WIDE_LIMBS])
{
    return sub_limbs(out, x, y, WIDE_LIMBS);
}

/* out = x - y at double width; if that is negative, + mod * 2^384 (mod must exceed y's
 * high half for the result to be non-negative). */
static inline void sub768_mod_high(limb_t out[WIDE_LIMBS], const limb_t x[WIDE_LIMBS],
                                   const limb_t y[WIDE_LIMBS], const uint8_t mod[BYTES384])
{
    const limb_t mask = (limb_t)0 - sub768(out, x, y);
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)  /* the carry out cancels the borrow */
        out[LIMBS384 + i] = add_with_carry(out[LIMBS384 + i], load_le64(mod + 8 * i) & mask,
                                           &carry);
}

/* out = x + y at double width (the caller's bounds: no carry out of 768 bits). */
static inline void add768(limb_t out[WIDE_LIMBS], const limb_t x[WIDE_LIMBS],
                          const limb_t y[WIDE_LIMBS])
{
    limb_t carry = 0;
    for (int i = 0; i < WIDE_LIMBS; i++)
        out[i] = add_with_carry(x[i], y[i], &carry);
}

/* out = t / 2^384 mod mod, in [0, mod), for t < k mod 2^384 with k = `subtractions`
 * (a constant where it is inlined): REDC of the low half (<= mod) plus the high half
 * (< k mod) is below (k + 1) mod, so k conditional subtractions, each without a branch. */
static inline __attribute__((always_inline)) void
redc768(uint8_t out[BYTES384], const limb_t t[WIDE_LIMBS],
        const uint8_t mod_inv[MODULUS_WITH_INV_BYTES], int mulx, int subtractions)
{
    limb_t r[LIMBS384], top = 0;
    (void)mulx;
#if defined(__x86_64__)
    if (mulx)
        redc384_low_mulx(r, t, mod_inv);
    else
#endif
        redc384_low_portable(r, t, mod_inv);
    for (int i = 0; i < LIMBS384; i++)
        r[i] = add_with_carry(r[i], t[LIMBS384 + i], &top);
    for (int k = 0; k < subtractions; k++) {
        limb_t diff[LIMBS384], borrow = 0;
        for (int i = 0; i < LIMBS384; i++)
            diff[i] = sub_with_borrow(r[i], load_le64(mod_inv + 8 * i), &borrow);
        const limb_t keep = (limb_t)0 - (borrow & ~top & 1);   /* r < mod: keep r */
        top = (top & keep) | ((top - borrow) & ~keep);
        for (int i = 0; i < LIMBS384; i++)
            r[i] = (r[i] & keep) | (diff[i] & ~keep);
    }
    store_limbs384(out, r);
}

#endif
