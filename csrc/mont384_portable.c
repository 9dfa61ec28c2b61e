/* Portable C Montgomery multiplication (any 64-bit GCC/Clang target). */
#include "mont384.h"

void mulmont384_portable(uint8_t out[BYTES384], const uint8_t x_bytes[BYTES384],
                         const uint8_t y_bytes[BYTES384],
                         const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t x[LIMBS384], y[LIMBS384], mod[LIMBS384];
    load_limbs384(x, x_bytes);
    load_limbs384(y, y_bytes);
    load_limbs384(mod, mod_inv);
    const limb_t inv = load_le64(mod_inv + BYTES384);

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

        limb_t u = acc[0] * inv;
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
    subtract_mod_if_not_below(out, acc, acc[LIMBS384], mod_inv);
}
