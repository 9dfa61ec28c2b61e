/* Portable C implementation (any 64-bit GCC/Clang target). */
#include "mont384.h"

void addmod384(limb_t out[LIMBS384], const limb_t x[LIMBS384],
               const limb_t y[LIMBS384], const limb_t mod[LIMBS384])
{
    limb_t sum[LIMBS384];
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        sum[i] = add_with_carry(x[i], y[i], &carry);
    subtract_mod_if_not_below(out, sum, carry, mod);
}

void submod384(limb_t out[LIMBS384], const limb_t x[LIMBS384],
               const limb_t y[LIMBS384], const limb_t mod[LIMBS384])
{
    limb_t diff[LIMBS384];
    limb_t borrow = 0;
    for (int i = 0; i < LIMBS384; i++)
        diff[i] = sub_with_borrow(x[i], y[i], &borrow);
    limb_t add_mod = (limb_t)0 - borrow;
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        out[i] = add_with_carry(diff[i], mod[i] & add_mod, &carry);
}

void mulmont384_portable(limb_t out[LIMBS384], const limb_t x[LIMBS384],
                         const limb_t y[LIMBS384], const montgomery_modulus *modulus)
{
    const limb_t *mod = modulus->limbs;
    /* acc < 2^384 + mod between rounds, so six limbs and a top word suffice. */
    limb_t acc[LIMBS384 + 1] = {0};
    for (int i = 0; i < LIMBS384; i++) {
        dlimb_t t;
        limb_t carry = 0;
        for (int j = 0; j < LIMBS384; j++) {
            t = (dlimb_t)x[i] * y[j] + acc[j] + carry;
            acc[j] = (limb_t)t;
            carry = (limb_t)(t >> 64);
        }
        t = (dlimb_t)acc[LIMBS384] + carry;
        limb_t top = (limb_t)t;
        limb_t top_carry = (limb_t)(t >> 64);

        limb_t u = acc[0] * modulus->inv;
        carry = (limb_t)(((dlimb_t)u * mod[0] + acc[0]) >> 64);
        for (int j = 1; j < LIMBS384; j++) {
            t = (dlimb_t)u * mod[j] + acc[j] + carry;
            acc[j - 1] = (limb_t)t;
            carry = (limb_t)(t >> 64);
        }
        t = (dlimb_t)top + carry;
        acc[LIMBS384 - 1] = (limb_t)t;
        acc[LIMBS384] = top_carry + (limb_t)(t >> 64);
    }
    subtract_mod_if_not_below(out, acc, acc[LIMBS384], mod);
}
