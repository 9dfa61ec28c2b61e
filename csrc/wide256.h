/* 512-bit products of 4-limb values and their Montgomery reduction, for the 4-limb Fp2
 * product (evmmax_kernels.h's evmmax_fp2_product_4): Karatsuba's three products combined
 * at double width and two reductions instead of three Montgomery products (issue 44; the
 * 6-limb model is wide384.h). A 512-bit value t stands for the residue t / 2^256 mod m.
 * The kernels come as MULX/ADX code (mont256_mulx.h: its product without the reduction,
 * its reduction without the product) and as portable C; `mulx` (a constant where they are
 * inlined) picks one. Limbs are native uint64, least significant first, as in EVMMAX
 * registers; the modulus is followed by its inv (-m^-1 mod 2^64), as in
 * struct evmmax_context's mod_inv. */
#ifndef EVM384_WIDE256_H
#define EVM384_WIDE256_H

#include "limbs384.h"
#include "mont256_mulx.h"

#define NARROW256_LIMBS 4
#define WIDE256_LIMBS 8

/* out = x y, schoolbook over unsigned __int128. */
static inline __attribute__((always_inline)) void
mul256x256_portable(limb_t out[WIDE256_LIMBS], const limb_t x[NARROW256_LIMBS],
                    const limb_t y[NARROW256_LIMBS])
{
    limb_t acc[WIDE256_LIMBS] = {0};
    for (int i = 0; i < NARROW256_LIMBS; i++) {
        limb_t carry = 0;
        for (int j = 0; j < NARROW256_LIMBS; j++) {
            dlimb_t s = (dlimb_t)x[i] * y[j] + acc[i + j] + carry;
            acc[i + j] = (limb_t)s;
            carry = (limb_t)(s >> 64);
        }
        acc[i + NARROW256_LIMBS] = carry;
    }
    for (int i = 0; i < WIDE256_LIMBS; i++)
        out[i] = acc[i];
}

/* out = t / 2^256 mod m, canonical, for t < m 2^256: a reduction row per low limb (u =
 * acc[i] inv, u m added at limb i, its carry rippled to the top), so acc = t + U m, U <
 * 2^256, and acc / 2^256 < 2m (a ninth limb holds its top bit): one conditional
 * subtraction. */
static inline __attribute__((always_inline)) void
redc512_portable(limb_t out[NARROW256_LIMBS], const limb_t t[WIDE256_LIMBS],
                 const limb_t mod_inv[NARROW256_LIMBS + 1])
{
    limb_t acc[WIDE256_LIMBS + 1];
    for (int i = 0; i < WIDE256_LIMBS; i++)
        acc[i] = t[i];
    acc[WIDE256_LIMBS] = 0;
    const limb_t inv = mod_inv[NARROW256_LIMBS];
    for (int i = 0; i < NARROW256_LIMBS; i++) {
        const limb_t u = acc[i] * inv;
        limb_t carry = 0;
        for (int j = 0; j < NARROW256_LIMBS; j++) {
            dlimb_t s = (dlimb_t)u * mod_inv[j] + acc[i + j] + carry;
            acc[i + j] = (limb_t)s;
            carry = (limb_t)(s >> 64);
        }
        limb_t ripple = 0;   /* add_with_carry's carry in is one bit: the word goes in as y */
        acc[i + NARROW256_LIMBS] = add_with_carry(acc[i + NARROW256_LIMBS], carry, &ripple);
        for (int j = i + NARROW256_LIMBS + 1; j <= WIDE256_LIMBS; j++)
            acc[j] = add_with_carry(acc[j], 0, &ripple);
    }
    limb_t diff[NARROW256_LIMBS], borrow = 0;
    for (int i = 0; i < NARROW256_LIMBS; i++)
        diff[i] = sub_with_borrow(acc[NARROW256_LIMBS + i], mod_inv[i], &borrow);
    const limb_t keep = (limb_t)0 - (borrow & ~acc[WIDE256_LIMBS] & 1);   /* acc < m */
    for (int i = 0; i < NARROW256_LIMBS; i++)
        out[i] = (acc[NARROW256_LIMBS + i] & keep) | (diff[i] & ~keep);
}

static inline __attribute__((always_inline)) void
mul256x256(limb_t out[WIDE256_LIMBS], const limb_t x[NARROW256_LIMBS],
           const limb_t y[NARROW256_LIMBS], int mulx)
{
#if defined(__x86_64__)
    if (mulx) {
        mul256x256_mulx(out, x, y);
        return;
    }
#endif
    (void)mulx;
    mul256x256_portable(out, x, y);
}

static inline __attribute__((always_inline)) void
redc512(limb_t out[NARROW256_LIMBS], const limb_t t[WIDE256_LIMBS],
        const limb_t mod_inv[NARROW256_LIMBS + 1], int mulx)
{
#if defined(__x86_64__)
    if (mulx) {
        redc512_mulx(out, t, mod_inv);
        return;
    }
#endif
    (void)mulx;
    redc512_portable(out, t, mod_inv);
}

/* out = x - y at double width; returns the borrow (1 when it is negative, wrapped). */
static inline limb_t sub512(limb_t out[WIDE256_LIMBS], const limb_t x[WIDE256_LIMBS],
                            const limb_t y[WIDE256_LIMBS])
{
    limb_t borrow = 0;
    for (int i = 0; i < WIDE256_LIMBS; i++)
        out[i] = sub_with_borrow(x[i], y[i], &borrow);
    return borrow;
}

/* out = x - y at double width, + m 2^256 if that is negative (m must exceed y's high half
 * for the result to be non-negative): a multiple of m, so the same residue. */
static inline void sub512_mod_high(limb_t out[WIDE256_LIMBS], const limb_t x[WIDE256_LIMBS],
                                   const limb_t y[WIDE256_LIMBS],
                                   const limb_t mod[NARROW256_LIMBS])
{
    const limb_t mask = (limb_t)0 - sub512(out, x, y);
    limb_t masked[NARROW256_LIMBS], carry = 0;
    for (int i = 0; i < NARROW256_LIMBS; i++)   /* before the carry chain: AND clobbers CF */
        masked[i] = mod[i] & mask;
    for (int i = 0; i < NARROW256_LIMBS; i++)   /* the carry out cancels the borrow */
        out[NARROW256_LIMBS + i] = add_with_carry(out[NARROW256_LIMBS + i], masked[i], &carry);
}

#endif
