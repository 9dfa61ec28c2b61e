/* The three EVM384 field operations, on values as they lie in EVM memory:
 * 48-byte little-endian integers at any alignment (see limbs384.h).
 * Every function reads all inputs before writing `out`, so `out` may overlap
 * `x`, `y` and `mod` in any way. Inputs need not be reduced; the modulus may be even and
 * `inv` arbitrary: results follow the EVM384 "v7" definitions exactly.
 * Working on memory directly (limbs in registers, 8-byte loads and stores)
 * matters: copying through limb arrays cost as much as ADDMOD384 itself. */
#ifndef EVM384_MONT384_H
#define EVM384_MONT384_H

#include "limbs384.h"

/* The bytes at `mod_inv`: the modulus (48) then inv = -mod^-1 mod 2^64 (8). */
#define MODULUS_WITH_INV_BYTES (BYTES384 + MONT_CONSTANT_BYTES)

/* CIOS Montgomery product x*y/2^384 with the final conditional subtraction. */
typedef void mulmont384_fn(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                           const uint8_t y[BYTES384],
                           const uint8_t mod_inv[MODULUS_WITH_INV_BYTES]);

mulmont384_fn mulmont384_portable;
#if defined(__x86_64__)
mulmont384_fn mulmont384_mulx; /* needs BMI2 + ADX: see cpu_features.h */
#endif

/* The implementation chosen by evm384_select_implementation (evm384_ops.c). */
mulmont384_fn *selected_mulmont(void);

/* Shared tail of ADDMOD384 and every CIOS variant: a 385-bit accumulator (six
 * limbs plus a top bit) minus mod if it is >= mod, truncated to 384 bits. */
static inline void subtract_mod_if_not_below(uint8_t out[BYTES384], const limb_t acc[LIMBS384],
                                             limb_t acc_top, const uint8_t mod[BYTES384])
{
    limb_t diff[LIMBS384];
    limb_t borrow = 0;
    for (int i = 0; i < LIMBS384; i++)
        diff[i] = sub_with_borrow(acc[i], load_le64(mod + 8 * i), &borrow);
    /* acc >= mod exactly when the 385-bit subtraction does not borrow. */
    limb_t keep_acc = (limb_t)0 - (borrow & ~acc_top & 1);
    for (int i = 0; i < LIMBS384; i++)
        store_le64(out + 8 * i, (acc[i] & keep_acc) | (diff[i] & ~keep_acc));
}

static inline void addmod384(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                             const uint8_t y[BYTES384], const uint8_t mod[BYTES384])
{
    limb_t sum[LIMBS384];
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        sum[i] = add_with_carry(load_le64(x + 8 * i), load_le64(y + 8 * i), &carry);
    subtract_mod_if_not_below(out, sum, carry, mod);
}

static inline void submod384(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                             const uint8_t y[BYTES384], const uint8_t mod[BYTES384])
{
    limb_t diff[LIMBS384], m[LIMBS384];
    limb_t borrow = 0;
    for (int i = 0; i < LIMBS384; i++) { /* every input is read before out is written */
        diff[i] = sub_with_borrow(load_le64(x + 8 * i), load_le64(y + 8 * i), &borrow);
        m[i] = load_le64(mod + 8 * i);
    }
    limb_t add_mod = (limb_t)0 - borrow;
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        store_le64(out + 8 * i, add_with_carry(diff[i], m[i] & add_mod, &carry));
}

#endif
