/* An Fp2 product, the six field ops of bls12_381.fp2.mul (evm384_native/fp2_shape.py)
 *
 *   t0 = a0 * b0   t1 = a1 * b1   t2 = a0 * b1   c1 = a1 * b0   c1 = c1 + t2   c0 = t0 - t1
 *
 * (one modulus p), run as Karatsuba: three Montgomery products instead of four. The
 * engines' hosts prove the shape, that the locations do not alias where it matters and
 * that t2 is dead (evm/fp2_products.py for EVM384 segments, modx_common.fp2_products for
 * EVMMAX programs); this checks the values. When p is odd, below 2^382 and followed by
 * its inv (-p^-1 mod 2^64), and a0, a1, b0, b1 are below p, each of the six ops returns
 * the canonical residue (a Montgomery product of inputs whose product is below p * 2^384
 * is reduced to [0, p)), so
 *   c1 = (a0 + a1)(b0 + b1)/R - t0 - t1 (mod p),  R = 2^384,
 * with the sums unreduced (below 2p, so their product is below 4p^2 < p * 2^384), leaves
 * the same bytes in t0, t1, c1 and c0 as the six ops. Anything else: nothing is written
 * and the caller runs the six ops. Values are 48-byte little-endian, as in EVM384 memory
 * and in 6-limb EVMMAX registers on a little-endian machine. */
#ifndef EVM384_FP2_PRODUCT_H
#define EVM384_FP2_PRODUCT_H

#include "mont384.h"

/* x < the modulus at mod (both 48-byte little-endian). */
static inline int below_modulus384(const uint8_t *x, const uint8_t *mod)
{
    for (int i = LIMBS384 - 1; i >= 0; i--) {
        limb_t a = load_le64(x + 8 * i), m = load_le64(mod + 8 * i);
        if (a != m)
            return a < m;
    }
    return 0;
}

/* out = x + y, both below 2^383: no carry out of 384 bits. */
static inline void add384_unreduced(uint8_t out[BYTES384], const uint8_t *x, const uint8_t *y)
{
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        store_le64(out + 8 * i, add_with_carry(load_le64(x + 8 * i), load_le64(y + 8 * i),
                                               &carry));
}

/* Whether Karatsuba gives the six ops' bytes (see above). */
static inline int fp2_product_applies(const uint8_t *mod_inv, const uint8_t *a0,
                                      const uint8_t *a1, const uint8_t *b0, const uint8_t *b1)
{
    limb_t p0 = load_le64(mod_inv), top = load_le64(mod_inv + 8 * (LIMBS384 - 1));
    limb_t inv = load_le64(mod_inv + BYTES384);
    return (p0 & 1) && top >> 62 == 0 && p0 * inv == (limb_t)-1
           && below_modulus384(a0, mod_inv) && below_modulus384(a1, mod_inv)
           && below_modulus384(b0, mod_inv) && below_modulus384(b1, mod_inv);
}

/* 1 if it ran as Karatsuba, 0 if nothing was written. t0 and t1 alias no input, c1 and
 * c0 may (the hosts' proofs). Inlined so that a constant `mulmont` is the inlined kernel. */
static inline __attribute__((always_inline)) int
fp2_product(mulmont384_fn *mulmont, const uint8_t *mod_inv, uint8_t *t0, uint8_t *t1,
            uint8_t *c1, uint8_t *c0, const uint8_t *a0, const uint8_t *a1,
            const uint8_t *b0, const uint8_t *b1)
{
    if (!fp2_product_applies(mod_inv, a0, a1, b0, b1))
        return 0;
    uint8_t sum_a[BYTES384], sum_b[BYTES384], cross[BYTES384];
    add384_unreduced(sum_a, a0, a1);
    add384_unreduced(sum_b, b0, b1);
    mulmont(t0, a0, b0, mod_inv);
    mulmont(t1, a1, b1, mod_inv);
    mulmont(cross, sum_a, sum_b, mod_inv);
    submod384(cross, cross, t0, mod_inv);
    submod384(c1, cross, t1, mod_inv);  /* every input has been read */
    submod384(c0, t0, t1, mod_inv);
    return 1;
}

/* fp2_product on the six records at r (`fields` uint32 each; out, x, y, mod at fields
 * out .. out + 3): the operand offsets into m of both engines' record layouts. */
static inline __attribute__((always_inline)) int
fp2_product_of_records(mulmont384_fn *mulmont, uint8_t *m, const uint32_t *r, int fields,
                       int out)
{
    const int x = out + 1, y = out + 2, mod = out + 3;
    return fp2_product(mulmont, m + r[mod], m + r[out], m + r[fields + out],
                       m + r[3 * fields + out], m + r[5 * fields + out], m + r[x],
                       m + r[fields + x], m + r[y], m + r[fields + y]);
}

#endif
