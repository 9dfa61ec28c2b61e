/* The three EVM384 field operations on limb arrays (see limbs384.h).
 * Every function reads all inputs before writing `out`, so `out` may alias
 * `x` and/or `y`. Inputs need not be reduced; the modulus may be even and
 * `inv` arbitrary: results follow the EVM384 "v7" definitions exactly. */
#ifndef EVM384_MONT384_H
#define EVM384_MONT384_H

#include "limbs384.h"

void addmod384(limb_t out[LIMBS384], const limb_t x[LIMBS384],
               const limb_t y[LIMBS384], const limb_t mod[LIMBS384]);
void submod384(limb_t out[LIMBS384], const limb_t x[LIMBS384],
               const limb_t y[LIMBS384], const limb_t mod[LIMBS384]);

/* The modulus with its Montgomery constant inv = -mod^-1 mod 2^64, laid out
 * as MULMODMONT384 reads them from memory (inv may be garbage). */
typedef struct {
    limb_t limbs[LIMBS384];
    limb_t inv;
} montgomery_modulus;

/* CIOS Montgomery product x*y/2^384 with the final conditional subtraction. */
typedef void mulmont384_fn(limb_t out[LIMBS384], const limb_t x[LIMBS384],
                           const limb_t y[LIMBS384], const montgomery_modulus *mod);

mulmont384_fn mulmont384_portable;
#if defined(__x86_64__)
mulmont384_fn mulmont384_mulx; /* needs BMI2 + ADX: see cpu_features.h */
#endif

/* Shared tail of ADDMOD384 and every CIOS variant: a 385-bit accumulator (six
 * limbs plus a top bit) minus mod if it is >= mod, truncated to 384 bits.
 * Inline: as a call it cost a third of a Montgomery multiplication. */
static inline void subtract_mod_if_not_below(limb_t out[LIMBS384], const limb_t acc[LIMBS384],
                                             limb_t acc_top, const limb_t mod[LIMBS384])
{
    limb_t diff[LIMBS384];
    limb_t borrow = 0;
    for (int i = 0; i < LIMBS384; i++)
        diff[i] = sub_with_borrow(acc[i], mod[i], &borrow);
    /* acc >= mod exactly when the 385-bit subtraction does not borrow. */
    limb_t keep_acc = (limb_t)0 - (borrow & ~acc_top & 1);
    for (int i = 0; i < LIMBS384; i++)
        out[i] = (acc[i] & keep_acc) | (diff[i] & ~keep_acc);
}

#endif
