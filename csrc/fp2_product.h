/* An Fp2 product, the six field ops of bls12_381.fp2.mul (evm384_native/evm/kernels/fp2_shape.py)
 *
 *   t0 = a0 * b0   t1 = a1 * b1   t2 = a0 * b1   c1 = a1 * b0   c1 = c1 + t2   c0 = t0 - t1
 *
 * (one modulus p), run as Karatsuba at double width (wide384.h): three 768-bit products
 * and two reductions instead of six ops. The engines' hosts prove the shape, that the
 * locations do not alias where it matters and that t0, t1 and t2 are dead (overwritten
 * before anything reads them: evm/fp2_products.py for EVM384 segments,
 * modx_common.fp2_products for EVMMAX programs); this checks the values. When p is odd,
 * below 2^382 and followed by its inv (-p^-1 mod 2^64), and a0, a1, b0, b1 are below p,
 * each of the six ops returns the canonical residue, so with R = 2^384
 *   c0 = (a0 b0 - a1 b1) / R,  c1 = ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) / R  (mod p)
 * reduced to [0, p) leave the bytes the ops leave in c1 and c0: a0 b0 - a1 b1 (+ p R when
 * negative) and a0 b1 + a1 b0 < 2 p^2 are below p R, which one Montgomery reduction and
 * one conditional subtraction bring to [0, p); the sums a0 + a1, b0 + b1 stay unreduced
 * (below 2p < 2^383). Anything else: nothing is written and the caller runs the six ops.
 * Values are 48-byte little-endian, as in EVM384 memory and in 6-limb EVMMAX registers on
 * a little-endian machine. */
#ifndef EVM384_FP2_PRODUCT_H
#define EVM384_FP2_PRODUCT_H

#include "mont384.h"
#include "wide384.h"

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

/* Whether `mulmont` is the MULX/ADX product (then so are the wide kernels): a constant
 * where a constant kernel is inlined. */
static inline __attribute__((always_inline)) int uses_mulx(mulmont384_fn *mulmont)
{
#if defined(__x86_64__)
    return mulmont == mulmont384_mulx || mulmont == mulmont384_mulx_inline;
#else
    (void)mulmont;
    return 0;
#endif
}

/* Where fp2_product_applies: low = a0 b0, high = a1 b1 and cross = a0 b1 + a1 b0 at double
 * width (by (a0 + a1)(b0 + b1) - low - high), 1; else 0. */
static inline __attribute__((always_inline)) int
karatsuba768(int mulx, const uint8_t *mod_inv, limb_t low[WIDE_LIMBS], limb_t high[WIDE_LIMBS],
             limb_t cross[WIDE_LIMBS], const uint8_t *a0, const uint8_t *a1,
             const uint8_t *b0, const uint8_t *b1)
{
    if (!fp2_product_applies(mod_inv, a0, a1, b0, b1))
        return 0;
    uint8_t sum_a[BYTES384], sum_b[BYTES384];
    add384_unreduced(sum_a, a0, a1);
    add384_unreduced(sum_b, b0, b1);
    mul384x384(low, a0, b0, mulx);
    mul384x384(high, a1, b1, mulx);
    mul384x384(cross, sum_a, sum_b, mulx);
    sub768(cross, cross, low);
    sub768(cross, cross, high);
    return 1;
}

/* 1 if it ran as Karatsuba, 0 if nothing was written: c1 and c0 only (t0, t1, t2 are
 * dead), after every input is read, so they may alias the inputs. `mulx` (a constant
 * where it is inlined): the MULX/ADX kernels, else portable C. */
static inline __attribute__((always_inline)) int
fp2_product(int mulx, const uint8_t *mod_inv, uint8_t *c1, uint8_t *c0, const uint8_t *a0,
            const uint8_t *a1, const uint8_t *b0, const uint8_t *b1)
{
    limb_t t0[WIDE_LIMBS], t1[WIDE_LIMBS], cross[WIDE_LIMBS], real[WIDE_LIMBS];
    if (!karatsuba768(mulx, mod_inv, t0, t1, cross, a0, a1, b0, b1))
        return 0;
    sub768_mod_high(real, t0, t1, mod_inv);
    redc768(c1, cross, mod_inv, mulx, 1);
    redc768(c0, real, mod_inv, mulx, 1);
    return 1;
}

/* The first five ops of the product for another non-residue beta (t0 = a0 b0, t1 = a1 b1,
 * t2 = a0 b1, c1 = a1 b0 + t2; then t1 beta and c0 = t0 + t1 beta follow as ops): under the
 * same conditions as fp2_product, t0 and t1 as the reductions of a0 b0 and a1 b1 (below p
 * R) and c1 as fp2_product's, three 768-bit products and three reductions instead of four
 * products and an addition. 1 if it ran (t0, t1, c1 written after every input is read; t2
 * is dead), else 0 and nothing written. */
static inline __attribute__((always_inline)) int
fp2_cross(int mulx, const uint8_t *mod_inv, uint8_t *t0, uint8_t *t1, uint8_t *c1,
          const uint8_t *a0, const uint8_t *a1, const uint8_t *b0, const uint8_t *b1)
{
    limb_t low[WIDE_LIMBS], high[WIDE_LIMBS], cross[WIDE_LIMBS];
    if (!karatsuba768(mulx, mod_inv, low, high, cross, a0, a1, b0, b1))
        return 0;
    redc768(c1, cross, mod_inv, mulx, 1);
    redc768(t0, low, mod_inv, mulx, 1);
    redc768(t1, high, mod_inv, mulx, 1);
    return 1;
}

/* fp2_product on the six records at r (`fields` uint32 each; out, x, y, mod at fields
 * out .. out + 3): the operand offsets into m of both engines' record layouts. */
static inline __attribute__((always_inline)) int
fp2_product_of_records(int mulx, uint8_t *m, const uint32_t *r, int fields, int out)
{
    const int x = out + 1, y = out + 2, mod = out + 3;
    return fp2_product(mulx, m + r[mod], m + r[3 * fields + out], m + r[5 * fields + out],
                       m + r[x], m + r[fields + x], m + r[y], m + r[fields + y]);
}

#endif
