/* The EVMMAX element kernels for odd moduli: one function per operation and
 * limb count, written once here as always-inline templates and instantiated
 * with a constant limb count (so every loop unrolls and the limbs live in
 * registers) by evmmax_portable.c and, compiled for BMI2/ADX, evmmax_mulx.c;
 * the portable Montgomery product is mont_cios.h's, shared with EVM384.
 * Inputs are below the modulus (see evmmax.h); out may alias x and y: every
 * kernel reads all inputs before writing out. */
#ifndef EVMMAX_KERNELS_H
#define EVMMAX_KERNELS_H

#include "evmmax.h"
#include "limbs384.h"
#include "mont_cios.h"
#include "wide256.h"

/* kernels[limbs - 1] */
typedef evmmax_op_fn *const evmmax_kernel_row[EVMMAX_MAX_LIMBS];

extern evmmax_kernel_row evmmax_add_kernels, evmmax_sub_kernels, evmmax_portable_mul_kernels;
/* secp256k1's product in plain form (ctx->plain_form), where MULX does not run. */
extern evmmax_op_fn evmmax_secp256k1_portable_mul;
#if defined(__x86_64__)
extern evmmax_kernel_row evmmax_mulx_mul_kernels; /* needs BMI2 + ADX: see cpu_features.h */
/* SETMODX: ctx->mulx_mul and ctx->mulx_square (mont256_mulx.h): both for P-256 and
 * secp256k1 (in plain form: ctx->plain_form set first), the squaring for any other 4-limb odd modulus; left NULL for the rest. */
void evmmax_mulx_select_kernels(struct evmmax_context *ctx);

#if defined(__GNUC__) && !defined(__clang__)
/* The row's 12-limb entry, the register kernel of mont768_mulx.h (GCC only: see there). */
#define EVMMAX_MULX768 1
extern evmmax_op_fn evmmax_mulx768_mul;
#endif
#endif

/* An Fp2 product on 4-limb registers, its six records at r (evmmax_fp2_product_4 below). */
typedef int evmmax_fp2_product_4_fn(const struct evmmax_context *ctx, uint64_t *regs,
                                    const uint8_t *r);
extern evmmax_fp2_product_4_fn evmmax_portable_fp2_product_4;
#if defined(__x86_64__)
extern evmmax_fp2_product_4_fn evmmax_mulx_fp2_product_4; /* BMI2 + ADX, as the row */
#endif

/* An Fp2 squaring on 4-limb registers, its five records at r (evmmax_fp2_square_4 below). */
typedef evmmax_fp2_product_4_fn evmmax_fp2_square_4_fn;
extern evmmax_fp2_square_4_fn evmmax_portable_fp2_square_4;
#if defined(__x86_64__)
extern evmmax_fp2_square_4_fn evmmax_mulx_fp2_square_4; /* BMI2 + ADX, as the row */
#endif

/* What a run has learnt of the multiplier k of its products by xi = k + u
 * (evmmax_fp2_xi_product_4 below): the register value last read, and whether the integer
 * s = k / R mod m it stands for is small enough for small_product_sum_4 (then s).
 * run_program keeps one per run, `seen` 0 at its start: it decides how the step computes,
 * never what. */
struct evmmax_xi_multiplier {
    limb_t k[4];
    limb_t small;   /* s, when is_small */
    int seen, is_small;
};

/* An Fp2 product by xi = k + u on 4-limb registers, its three records at r
 * (evmmax_fp2_xi_product_4 below). */
typedef int evmmax_fp2_xi_product_4_fn(const struct evmmax_context *ctx, uint64_t *regs,
                                       const uint8_t *r, struct evmmax_xi_multiplier *known);
extern evmmax_fp2_xi_product_4_fn evmmax_portable_fp2_xi_product_4;
#if defined(__x86_64__)
extern evmmax_fp2_xi_product_4_fn evmmax_mulx_fp2_xi_product_4; /* BMI2 + ADX, as the row */
#endif

#define EVMMAX_INLINE MONT_INLINE
#define EVMMAX_UNROLL MONT_UNROLL /* see mont_cios.h */

/* out = acc - m when the (n limbs + top bit) accumulator is >= m, else acc. */
EVMMAX_INLINE void reduce_once_n(limb_t *out, const limb_t *acc, limb_t acc_top,
                                 const limb_t *m, int n)
{
    limb_t diff[EVMMAX_MAX_LIMBS];
    limb_t borrow = 0;
    EVMMAX_UNROLL
    for (int i = 0; i < n; i++)
        diff[i] = sub_with_borrow(acc[i], m[i], &borrow);
    sub_with_borrow(acc_top, 0, &borrow);   /* the borrow out of the top: acc < m */
    EVMMAX_UNROLL
    for (int i = 0; i < n; i++)
        out[i] = borrow ? acc[i] : diff[i];
}

EVMMAX_INLINE void addmod_n(limb_t *out, const limb_t *x, const limb_t *y, const limb_t *m, int n)
{
    limb_t sum[EVMMAX_MAX_LIMBS];
    limb_t carry = 0;
    EVMMAX_UNROLL
    for (int i = 0; i < n; i++)
        sum[i] = add_with_carry(x[i], y[i], &carry);
    reduce_once_n(out, sum, carry, m, n);
}

EVMMAX_INLINE void submod_n(limb_t *out, const limb_t *x, const limb_t *y, const limb_t *m, int n)
{
    limb_t diff[EVMMAX_MAX_LIMBS];
    limb_t borrow = 0;
    EVMMAX_UNROLL
    for (int i = 0; i < n; i++)
        diff[i] = sub_with_borrow(x[i], y[i], &borrow);
    limb_t add_mod = (limb_t)0 - borrow, masked[EVMMAX_MAX_LIMBS];
    EVMMAX_UNROLL
    for (int i = 0; i < n; i++)   /* before the carry chain: AND clobbers the flags */
        masked[i] = m[i] & add_mod;
    limb_t carry = 0;
    EVMMAX_UNROLL
    for (int i = 0; i < n; i++)
        out[i] = add_with_carry(diff[i], masked[i], &carry);
}

/* addmod_n and submod_n at 4 limbs, for the run loop's vector records (evmmax.c's
 * add_sub_vector_4). On x86-64 one asm block each: GCC's code for the carry intrinsics in
 * that loop passes their results through a stack slot (a store and a reload per limb) and
 * the borrow through SETB and a byte in memory; here the carries stay in CF. Elsewhere (or
 * with EVM384_GENERIC_CARRIES, as the sanitizer build) the n-limb code. */
typedef limb_t limbs4_t[4];
#if defined(__x86_64__) && !defined(EVM384_GENERIC_CARRIES)
EVMMAX_INLINE void addmod_4(limb_t *out, const limb_t *x, const limb_t *y, const limb_t *m)
{
    limb_t a0, a1, a2, a3, d0, d1, d2, d3, top;
    /* top = -carry; after acc - m's borrow b, top - b borrows exactly when acc < m:
     * keep acc then, else take the difference */
    __asm__("movq 0(%[x]), %[a0]\n\t"
            "addq 0(%[y]), %[a0]\n\t"
            "movq 8(%[x]), %[a1]\n\t"
            "adcq 8(%[y]), %[a1]\n\t"
            "movq 16(%[x]), %[a2]\n\t"
            "adcq 16(%[y]), %[a2]\n\t"
            "movq 24(%[x]), %[a3]\n\t"
            "adcq 24(%[y]), %[a3]\n\t"
            "sbbq %[top], %[top]\n\t"
            "movq %[a0], %[d0]\n\t"
            "subq 0(%[m]), %[d0]\n\t"
            "movq %[a1], %[d1]\n\t"
            "sbbq 8(%[m]), %[d1]\n\t"
            "movq %[a2], %[d2]\n\t"
            "sbbq 16(%[m]), %[d2]\n\t"
            "movq %[a3], %[d3]\n\t"
            "sbbq 24(%[m]), %[d3]\n\t"
            "sbbq $0, %[top]\n\t"
            "cmovncq %[d0], %[a0]\n\t"
            "cmovncq %[d1], %[a1]\n\t"
            "cmovncq %[d2], %[a2]\n\t"
            "cmovncq %[d3], %[a3]\n\t"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),
              [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [d3] "=&r"(d3),
              [top] "=&r"(top)
            : [x] "r"(x), [y] "r"(y), [m] "r"(m), "m"(*(const limbs4_t *)x),
              "m"(*(const limbs4_t *)y), "m"(*(const limbs4_t *)m)
            : "cc");
    out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
}

EVMMAX_INLINE void submod_4(limb_t *out, const limb_t *x, const limb_t *y, const limb_t *m)
{
    limb_t a0, a1, a2, a3, d0, d1, d2, mask;
    /* mask = -borrow: m added where x - y wrapped */
    __asm__("movq 0(%[x]), %[a0]\n\t"
            "subq 0(%[y]), %[a0]\n\t"
            "movq 8(%[x]), %[a1]\n\t"
            "sbbq 8(%[y]), %[a1]\n\t"
            "movq 16(%[x]), %[a2]\n\t"
            "sbbq 16(%[y]), %[a2]\n\t"
            "movq 24(%[x]), %[a3]\n\t"
            "sbbq 24(%[y]), %[a3]\n\t"
            "sbbq %[mask], %[mask]\n\t"
            "movq 0(%[m]), %[d0]\n\t"
            "andq %[mask], %[d0]\n\t"
            "movq 8(%[m]), %[d1]\n\t"
            "andq %[mask], %[d1]\n\t"
            "movq 16(%[m]), %[d2]\n\t"
            "andq %[mask], %[d2]\n\t"
            "andq 24(%[m]), %[mask]\n\t"
            "addq %[d0], %[a0]\n\t"
            "adcq %[d1], %[a1]\n\t"
            "adcq %[d2], %[a2]\n\t"
            "adcq %[mask], %[a3]\n\t"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),
              [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2), [mask] "=&r"(mask)
            : [x] "r"(x), [y] "r"(y), [m] "r"(m), "m"(*(const limbs4_t *)x),
              "m"(*(const limbs4_t *)y), "m"(*(const limbs4_t *)m)
            : "cc");
    out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
}
#else
EVMMAX_INLINE void addmod_4(limb_t *out, const limb_t *x, const limb_t *y, const limb_t *m)
{
    addmod_n(out, x, y, m, 4);
}

EVMMAX_INLINE void submod_4(limb_t *out, const limb_t *x, const limb_t *y, const limb_t *m)
{
    submod_n(out, x, y, m, 4);
}
#endif

/* x < m, n limbs. */
EVMMAX_INLINE int below_modulus_n(const limb_t *x, const limb_t *m, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (x[i] != m[i])
            return x[i] < m[i];
    return 0;
}

/* The Fp2 product of the six one-element records at r (EVMMAX_FP2_PRODUCT_GROUP: the shape
 * of evm384_native/evm/kernels/fp2_shape.py, t0 = a0 b0, t1 = a1 b1, t2 = a0 b1, c1 = a1 b0,
 * c1 = c1 + t2, c0 = t0 - t1) on 4-limb registers (bounds checked by the caller) of an odd
 * modulus m < 2^254, as Karatsuba at double width (wide256.h; `mulx`, a constant where it
 * is inlined, picks its kernels): three 512-bit products and two Montgomery reductions
 * instead of four products, with R = 2^256,
 *   c1 = REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1),  c0 = REDC(a0 b0 - a1 b1 [+ m R]).
 * Bounds, for a0, a1, b0, b1 < m < 2^254: the sums stay unreduced, below 2m < 2^255 (no
 * carry out of four limbs), and their product below 4 m^2 < 2^510; the cross term a0 b1 +
 * a1 b0 (no borrow: it is not negative) is below 2 m^2 < m R; a0 b0 - a1 b1 lies in
 * (-m^2, m^2), and m R added where it is negative brings it to [0, m R) (m > m^2 / R, the
 * high half of a1 b1). REDC(t) for t < m R is the canonical t / R mod m (wide256.h), and
 * t / R is a1 b0 / R + a0 b1 / R and a0 b0 / R - a1 b1 / R mod m: the residues the six
 * records leave, each reduced, so the same bytes. t0, t1 and t2 are dead (the host proved
 * it: modx_common.fp2_products) and not written; c1 and c0 are written after every read,
 * so they may alias the inputs. 1 if it ran, 0 if nothing was written (the modulus too
 * wide, an input not below it: the caller runs the six records). */
EVMMAX_INLINE int evmmax_fp2_product_4(const struct evmmax_context *ctx, uint64_t *regs,
                                       const uint8_t *r, int mulx)
{
    enum { R = EVMMAX_RECORD_BYTES, OUT = 1, X = 3, Y = 5, N = 4 };
    const limb_t *m = ctx->mod_inv;
    const limb_t *a0 = regs + N * r[X], *a1 = regs + N * r[R + X];
    const limb_t *b0 = regs + N * r[Y], *b1 = regs + N * r[R + Y];
    if (m[N - 1] >> 62 != 0 || !below_modulus_n(a0, m, N) || !below_modulus_n(a1, m, N)
        || !below_modulus_n(b0, m, N) || !below_modulus_n(b1, m, N))
        return 0;
    limb_t sum_a[N], sum_b[N], low[2 * N], high[2 * N], cross[2 * N], real[2 * N];
    limb_t carry_a = 0, carry_b = 0;   /* both stay 0: the sums are below 2^255 */
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++)   /* one chain at a time: ADC keeps the carry in CF */
        sum_a[i] = add_with_carry(a0[i], a1[i], &carry_a);
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++)
        sum_b[i] = add_with_carry(b0[i], b1[i], &carry_b);
    mul256x256(low, a0, b0, mulx);
    mul256x256(high, a1, b1, mulx);
    mul256x256(cross, sum_a, sum_b, mulx);
    sub512(cross, cross, low);
    sub512(cross, cross, high);
    sub512_mod_high(real, low, high, m);
    redc512(regs + N * r[3 * R + OUT], cross, m, mulx);
    redc512(regs + N * r[5 * R + OUT], real, m, mulx);
    return 1;
}

/* The Fp2 squaring of the five one-element records at r (EVMMAX_FP2_PRODUCT_GROUP on an
 * addition: the shape of modx_common.FP2_SQUARE_SHAPE, t0 = a0 + a1, t1 = a0 - a1,
 * c1 = a0 a1, c1 = c1 + c1, c0 = t0 t1) on 4-limb registers (bounds checked by the
 * caller) of an odd modulus m < 2^254, with two Montgomery products `mul` (a constant
 * where it is inlined) and the sum, difference and doubling in registers instead of
 * five records:
 *   c1 = M(2 a0, a1), c0 = M(a0 + a1, a0 - a1 mod m),
 * the doubling and the sum left unreduced (below 2m < 2^255): each product is below
 * 2 m^2 < m 2^256 (m < 2^254 = 2^256 / 4), so M(x, y) = (x y + u m) / 2^256 < 2m and its
 * one conditional subtraction leaves the canonical residue the records leave. t0 and t1
 * are dead (the host proved it: modx_common.fp2_squares) and not written; c1 and c0 are
 * written after every read, so they may alias the inputs. 1 if it ran, 0 if nothing was
 * written (the modulus too wide, an input not below it: the caller runs the five
 * records). */
EVMMAX_INLINE int evmmax_fp2_square_4(const struct evmmax_context *ctx, uint64_t *regs,
                                      const uint8_t *r, evmmax_op_fn *mul)
{
    enum { R = EVMMAX_RECORD_BYTES, OUT = 1, X = 3, Y = 5, N = 4 };
    const limb_t *m = ctx->mod_inv;
    const limb_t *a0 = regs + N * r[X], *a1 = regs + N * r[Y];
    if (m[N - 1] >> 62 != 0 || !below_modulus_n(a0, m, N) || !below_modulus_n(a1, m, N))
        return 0;
    limb_t sum[N], twice[N], diff[N], c1[N], c0[N];
    limb_t carry = 0;   /* stays 0: the sum is below 2^255 */
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++)
        sum[i] = add_with_carry(a0[i], a1[i], &carry);
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++)   /* a0 < 2^254: nothing shifts out */
        twice[i] = a0[i] << 1 | (i > 0 ? a0[i - 1] >> 63 : 0);
    submod_n(diff, a0, a1, m, N);
    mul(c1, twice, a1, ctx);
    mul(c0, sum, diff, ctx);
    limb_t *out1 = regs + N * r[2 * R + OUT], *out0 = regs + N * r[4 * R + OUT];
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++) {
        out1[i] = c1[i];
        out0[i] = c0[i];
    }
    return 1;
}

#define XI_SMALL_BITS 16

/* out = (s x + y) mod m, canonical, for x < m, y <= m, s < 2^XI_SMALL_BITS and a modulus
 * with 2^253 <= m < 2^254 (its top limb m3 in [2^61, 2^62)), `reciprocal` =
 * floor(2^125 / (m3 + 1)) (below 2^64: ctx->top_reciprocal): no Montgomery product, ten
 * limb products. t = s x + y
 * < (s + 1) m < 2^271 in five limbs; with T = floor(t / 2^192) (t's top two limbs, below
 * 2^79), q = floor(floor(T_low reciprocal / 2^64) + T_high reciprocal) / 2^61) is
 * floor(t / m) or one less:
 *   q <= T reciprocal / 2^125 <= T / (m3 + 1) <= t / m, as (m3 + 1) 2^192 > m;
 *   T reciprocal / 2^125 > T / (m3 + 1) - T / 2^125, the dropped word costs below 2^-61,
 *   and t / m - T / (m3 + 1) < (T + m3 + 1) / (m3 (m3 + 1)) < (s + 2) / m3 < 2^-44,
 * so q > t / m - 1 - 2^-43, and t - q m (below 2^255: its four low limbs) lies in [0, 2m):
 * one conditional subtraction. */
EVMMAX_INLINE void small_product_sum_4(limb_t out[4], limb_t s, const limb_t *x,
                                       const limb_t *y, const limb_t *m, limb_t reciprocal)
{
    enum { N = 4 };
    limb_t t[N + 1], carry = 0;
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++) {   /* s x[i] + y[i] + carry < 2^128: one double word */
        const dlimb_t sum = (dlimb_t)s * x[i] + y[i] + carry;
        t[i] = (limb_t)sum;
        carry = (limb_t)(sum >> 64);
    }
    t[N] = carry;
    const dlimb_t estimate = ((dlimb_t)t[N - 1] * reciprocal >> 64)
                             + (dlimb_t)t[N] * reciprocal;
    const limb_t q = (limb_t)(estimate >> 61);
    limb_t qm[N], rest = 0;   /* the low four limbs of q m: t - q m is below 2^256 */
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++) {
        const dlimb_t product = (dlimb_t)q * m[i] + rest;
        qm[i] = (limb_t)product;
        rest = (limb_t)(product >> 64);
    }
    limb_t difference[N];
    sub_limbs(difference, t, qm, N);
    reduce_once_n(out, difference, 0, m, N);
}

/* Reads the register value k into `known`: for a modulus that small_product_sum_4 takes
 * (ctx->top_reciprocal set), s = k / R mod m is M(k, 1) (`mul`, the context's Montgomery
 * product), small if below 2^XI_SMALL_BITS. */
EVMMAX_INLINE void learn_xi_multiplier(struct evmmax_xi_multiplier *known, const limb_t *k,
                                       const struct evmmax_context *ctx, evmmax_op_fn *mul)
{
    enum { N = 4 };
    static const limb_t one[N] = {1, 0, 0, 0};
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++)
        known->k[i] = k[i];
    known->seen = 1;
    known->is_small = 0;
    if (ctx->top_reciprocal == 0)
        return;
    limb_t s[N];
    mul(s, k, one, ctx);
    known->is_small = (s[1] | s[2] | s[3]) == 0 && s[0] >> XI_SMALL_BITS == 0;
    known->small = s[0];
}

/* The product by xi = k + u of the three records at r (EVMMAX_XI_PRODUCT_GROUP: (c0, c1) =
 * (a0, a1) k, one record of two elements by the register k; c0 = c0 - a1; c1 = c1 + a0;
 * modx_common.fp2_xi_products) on 4-limb registers (bounds checked by the caller) of an odd
 * modulus. The records leave c0 = (s a0 - a1) mod m and c1 = (s a1 + a0) mod m, canonical,
 * for the integer s = k / R mod m that k stands for. Where s is small (BN254's xi = 9 + u:
 * s = 9) and the modulus is one small_product_sum_4 takes, the step computes those
 * directly, c0 as (s a0 + (m - a1)) mod m; else it runs the records' own operations (two
 * Montgomery products `mul`, a subtraction and an addition). Either way the same bytes, for
 * any modulus and values. `known` carries s from step to step while k's register holds the
 * same value (BN254's k stays put in a run). a0 and a1 are apart from c0 and c1 (the host
 * checked: the records read them after the products land); k may be any register: every
 * read comes before the writes, as the product record's. Always runs (1). */
EVMMAX_INLINE int evmmax_fp2_xi_product_4(const struct evmmax_context *ctx, uint64_t *regs,
                                          const uint8_t *r, struct evmmax_xi_multiplier *known,
                                          evmmax_op_fn *mul)
{
    enum { OUT = 1, X = 3, Y = 5, N = 4 };
    const limb_t *m = ctx->mod_inv;
    const limb_t *a0 = regs + N * r[X], *a1 = a0 + N, *k = regs + N * r[Y];
    if (!known->seen || ((k[0] ^ known->k[0]) | (k[1] ^ known->k[1]) | (k[2] ^ known->k[2])
                         | (k[3] ^ known->k[3])) != 0)
        learn_xi_multiplier(known, k, ctx, mul);
    limb_t c0[N], c1[N];
    if (known->is_small) {
        limb_t minus_a1[N];
        sub_limbs(minus_a1, m, a1, N);   /* in (0, m]: a1 < m */
        small_product_sum_4(c0, known->small, a0, minus_a1, m, ctx->top_reciprocal);
        small_product_sum_4(c1, known->small, a1, a0, m, ctx->top_reciprocal);
    } else {
        mul(c0, a0, k, ctx);
        mul(c1, a1, k, ctx);
        submod_n(c0, c0, a1, m, N);
        addmod_n(c1, c1, a0, m, N);
    }
    limb_t *out0 = regs + N * r[OUT], *out1 = out0 + N;
    EVMMAX_UNROLL
    for (int i = 0; i < N; i++) {
        out0[i] = c0[i];
        out1[i] = c1[i];
    }
    return 1;
}

/* The kernels of one operation for limb count N: add and sub exist once (they
 * have no products), mul once per implementation, with its attributes. */
#define EVMMAX_DEFINE_ADD_SUB(N)                                                             \
    static void add_##N(limb_t *out, const limb_t *x, const limb_t *y,                      \
                        const struct evmmax_context *ctx)                                   \
    {                                                                                       \
        addmod_n(out, x, y, ctx->mod_inv, N);                                               \
    }                                                                                       \
    static void sub_##N(limb_t *out, const limb_t *x, const limb_t *y,                      \
                        const struct evmmax_context *ctx)                                   \
    {                                                                                       \
        submod_n(out, x, y, ctx->mod_inv, N);                                               \
    }
#define EVMMAX_DEFINE_MUL(PREFIX, ATTRIBUTES, N)                                             \
    ATTRIBUTES static void PREFIX##_##N(limb_t *out, const limb_t *x, const limb_t *y,      \
                                        const struct evmmax_context *ctx)                   \
    {                                                                                       \
        mont_mul_cios(out, x, y, ctx->mod_inv, ctx->inv, N, LIMBS_NATIVE);                  \
    }

/* Limb counts 1..5 and 7..12: 6 limbs (BLS12-381) reuse the mont384 kernels. */
#define EVMMAX_FOR_ALL_BUT_6(DEFINE)                                                        \
    DEFINE(1) DEFINE(2) DEFINE(3) DEFINE(4) DEFINE(5) DEFINE(7) DEFINE(8) DEFINE(9)         \
    DEFINE(10) DEFINE(11) DEFINE(12)

/* A row of kernels[limbs - 1], with the 6-limb entry given. */
#define EVMMAX_ROW(PREFIX, SIX)                                                             \
    { PREFIX##_1, PREFIX##_2, PREFIX##_3, PREFIX##_4, PREFIX##_5, SIX, PREFIX##_7,          \
      PREFIX##_8, PREFIX##_9, PREFIX##_10, PREFIX##_11, PREFIX##_12 }

/* The 6-limb entries: the EVM384 kernels of mont384.h on the same limbs. Their
 * byte interface reads little-endian limbs, which are the uint64 limbs
 * themselves on a little-endian host; elsewhere the generic template runs. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EVMMAX_REUSE_MONT384 1
#define EVMMAX_AS_BYTES(p) ((uint8_t *)(p))
#define EVMMAX_AS_CONST_BYTES(p) ((const uint8_t *)(p))
#else
#define EVMMAX_REUSE_MONT384 0
#endif

#endif
