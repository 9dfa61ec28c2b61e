/* The portable Montgomery product, written once for every limb count: the EVM384
 * kernel (6 limbs of EVM memory, mont384_portable.c) and the EVMMAX element
 * kernels (1..12 limbs of a register file, evmmax_portable.c) instantiate it with
 * a constant limb count, so that every loop unrolls and the accumulator lives in
 * registers.
 *
 * Each round of CIOS is fused into one pass over the limbs: u = acc[0] * inv
 * needs only the first column of acc + x[i] * y, so it is computed first, and
 * then each limb j adds x[i] * y[j] (carry chain c1) and u * mod[j] (carry chain
 * c2) and lands one limb down. The accumulator is read and written once a round
 * instead of twice, and every step is one 64x64 -> 128 product plus two 64-bit
 * addends, which cannot overflow 128 bits: (2^64-1)^2 + 2(2^64-1) = 2^128 - 1.
 * That is the same integer as textbook two-pass CIOS for any u,
 *   acc' = floor((acc + x[i]*y + u*mod) / 2^64), u = low64(acc + x[i]*y) * inv,
 * so results stay exact for unreduced inputs, even moduli and arbitrary inv. */
#ifndef EVM384_MONT_CIOS_H
#define EVM384_MONT_CIOS_H

#include "limbs384.h"

#define MONT_MAX_LIMBS 12
#define MONT_INLINE static inline __attribute__((always_inline))
/* Full unrolling for a constant limb count: GCC's own limits stop at ~6 limbs for
 * nested loops, and the rolled loops cost 3x (315 vs ~100 ns at 7 limbs). */
#define MONT_UNROLL _Pragma("GCC unroll 12")

/* Where a value's limbs lie: EVM memory (little-endian bytes, any alignment) or an
 * EVMMAX register (native uint64 limbs). A constant after inlining. */
enum limb_layout { LIMBS_LE_BYTES, LIMBS_NATIVE };

MONT_INLINE limb_t limb_load(const void *p, int i, enum limb_layout layout)
{
    if (layout == LIMBS_LE_BYTES)
        return load_le64((const uint8_t *)p + 8 * i);
    return ((const limb_t *)p)[i];
}

MONT_INLINE void limb_store(void *p, int i, limb_t v, enum limb_layout layout)
{
    if (layout == LIMBS_LE_BYTES)
        store_le64((uint8_t *)p + 8 * i, v);
    else
        ((limb_t *)p)[i] = v;
}

/* low64(a*b + c + *carry), *carry = the high word. */
#if defined(__x86_64__) && !defined(EVM384_GENERIC_CARRIES)
MONT_INLINE limb_t mul_add_add(limb_t a, limb_t b, limb_t c, limb_t *carry)
{
    const dlimb_t p = (dlimb_t)a * b;
    unsigned long long lo1, lo2, hi1, hi2;
    _addcarry_u64(_addcarry_u64(0, (limb_t)p, c, &lo1), (limb_t)(p >> 64), 0, &hi1);
    _addcarry_u64(_addcarry_u64(0, lo1, *carry, &lo2), hi1, 0, &hi2);
    *carry = hi2;
    return lo2;
}
#else
MONT_INLINE limb_t mul_add_add(limb_t a, limb_t b, limb_t c, limb_t *carry)
{
    dlimb_t t = (dlimb_t)a * b + c + *carry;
    *carry = (limb_t)(t >> 64);
    return (limb_t)t;
}
#endif

/* out = x*y/2^(64n) by CIOS, minus mod once if that is not below mod (as an n-limb
 * + top bit number), truncated to n limbs. For x, y, mod < 2^(64n) the accumulator
 * stays below 2^(64n+1): n limbs and a top word. All inputs are read before out is
 * written, so out may alias them. */
MONT_INLINE void mont_mul_cios(void *out, const void *x, const void *y, const void *mod,
                               limb_t inv, int n, enum limb_layout layout)
{
    limb_t acc[MONT_MAX_LIMBS + 1] = {0};
    MONT_UNROLL
    for (int i = 0; i < n; i++) {
        const limb_t xi = limb_load(x, i, layout);
        limb_t c1 = 0, c2 = 0;
        const limb_t first = mul_add_add(xi, limb_load(y, 0, layout), acc[0], &c1);
        const limb_t u = first * inv;
        (void)mul_add_add(u, limb_load(mod, 0, layout), first, &c2); /* only its carry */
        MONT_UNROLL
        for (int j = 1; j < n; j++) {
            const limb_t t = mul_add_add(xi, limb_load(y, j, layout), acc[j], &c1);
            acc[j - 1] = mul_add_add(u, limb_load(mod, j, layout), t, &c2);
        }
        limb_t k1 = 0, k2 = 0;
        acc[n - 1] = add_with_carry(add_with_carry(acc[n], c1, &k1), c2, &k2);
        acc[n] = k1 + k2;
    }
    limb_t diff[MONT_MAX_LIMBS];
    limb_t borrow = 0;
    MONT_UNROLL
    for (int i = 0; i < n; i++)
        diff[i] = sub_with_borrow(acc[i], limb_load(mod, i, layout), &borrow);
    /* acc >= mod exactly when the (n limbs + top bit) subtraction does not borrow. */
    const limb_t keep_acc = (limb_t)0 - (borrow & ~acc[n] & 1);
    MONT_UNROLL
    for (int i = 0; i < n; i++)
        limb_store(out, i, (acc[i] & keep_acc) | (diff[i] & ~keep_acc), layout);
}

#endif
