/* x86-64 4-limb products and squarings with MULX and ADCX/ADOX (issue 44: `p256verify`
 * and `ecrecover` spent over half their time in the generic 4-limb product). For the two
 * 256-bit moduli whose shape makes the reduction cheap:
 *   P-256:     p = 2^256 - 2^224 + 2^192 + 2^96 - 1, p = -1 mod 2^64, so the reduction
 *              factor u is the accumulator's low limb itself and u * p is shifts, one
 *              MULX (by p[3]) and additions: a round's next factor is two instructions
 *              away from the last (the generic round's chain is IMUL, MULX and adds);
 *   secp256k1: p = 2^256 - c, c = 2^32 + 977, whose registers are in plain form
 *              (secp256k1_plain.h): t = x y folded twice by 2^256 = c mod p, no
 *              Montgomery rounds;
 * and a squaring for any odd 4-limb modulus (the generic reduction: four MULX a round).
 * Each forms the 512-bit t = x y (16 MULX; a square takes 10), reduces it and subtracts
 * the modulus once: P-256's and the squarings give the same canonical x y / 2^256 mod p
 * as the generic product (evmmax_mulx.c's mulx_mul_4), so those are interchangeable with
 * it; secp256k1's give x y mod p, for its plain registers. Inputs below the
 * modulus (every EVMMAX register holds one). The special moduli's constants are read from
 * memory: a kernel is only selected for its modulus (evmmax_setup). Only called after
 * cpu_features reports BMI2 and ADX. Thirteen registers with rdx: they fit beside the
 * frame pointer of the sanitizer build. */
#ifndef EVM384_MONT256_MULX_H
#define EVM384_MONT256_MULX_H

#if defined(__x86_64__)
#include <stdint.h>

#include "secp256k1_plain.h"   /* its modulus, c, and the plain form */

typedef uint64_t limb256_t;

/* The moduli's limbs, least significant first, and what the reductions multiply by. */
static const limb256_t P256_MODULUS[4] = {0xffffffffffffffffULL, 0x00000000ffffffffULL, 0,
                                          0xffffffff00000001ULL};

#define OP(name) "%[" #name "]"
#define OP32(name) "%k[" #name "]"

/* lo:hi = rdx * SRC[OFF/8]; lo added into LO_DST by LO_ADD, hi into HI_DST by HI_ADD
 * (adcxq rides CF, adoxq OF). */
#define M256_MULX_ADD(SRC, OFF, LO_ADD, LO_DST, HI_ADD, HI_DST)           \
    "mulxq " #OFF "(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"             \
    LO_ADD " " OP(lo) ", " OP(LO_DST) "\n\t"                              \
    HI_ADD " " OP(hi) ", " OP(HI_DST) "\n\t"

/* r0..r7 += x[XOFF/8] * y at limbs XOFF/8 .. XOFF/8 + 4, rdx = x[XOFF/8]; the row's top
 * limb T starts at zero. Low halves ride OF, high halves CF; x y < 2^512 keeps each row's
 * carries inside T. */
#define M256_PRODUCT_ROW(XOFF, A0, A1, A2, A3, T)                         \
    "movq " #XOFF "(" OP(xp) "), %%rdx\n\t"                               \
    "xorl " OP32(T) ", " OP32(T) "\n\t" /* also clears CF and OF */       \
    M256_MULX_ADD(yp, 0, "adoxq", A0, "adcxq", A1)                        \
    M256_MULX_ADD(yp, 8, "adoxq", A1, "adcxq", A2)                        \
    M256_MULX_ADD(yp, 16, "adoxq", A2, "adcxq", A3)                       \
    M256_MULX_ADD(yp, 24, "adoxq", A3, "adcxq", T)                        \
    "movl $0, " OP32(lo) "\n\t" /* mov keeps the flags */                 \
    "adoxq " OP(lo) ", " OP(T) "\n\t"

/* t = x y in r0..r7 (16 MULX). */
#define M256_PRODUCT                                                      \
    "movq 0(" OP(xp) "), %%rdx\n\t"                                       \
    "mulxq 0(" OP(yp) "), " OP(r0) ", " OP(r1) "\n\t"                     \
    "mulxq 8(" OP(yp) "), " OP(lo) ", " OP(r2) "\n\t"                     \
    "addq " OP(lo) ", " OP(r1) "\n\t"                                     \
    "mulxq 16(" OP(yp) "), " OP(lo) ", " OP(r3) "\n\t"                    \
    "adcq " OP(lo) ", " OP(r2) "\n\t"                                     \
    "mulxq 24(" OP(yp) "), " OP(lo) ", " OP(r4) "\n\t"                    \
    "adcq " OP(lo) ", " OP(r3) "\n\t"                                     \
    "adcq $0, " OP(r4) "\n\t"                                             \
    M256_PRODUCT_ROW(8, r1, r2, r3, r4, r5)                               \
    M256_PRODUCT_ROW(16, r2, r3, r4, r5, r6)                              \
    M256_PRODUCT_ROW(24, r3, r4, r5, r6, r7)

/* t = x^2 in r0..r7 (10 MULX): the six products x_i x_j (i < j) once, then in one pass
 * the doubling on CF (adcx r, r) and the diagonal x_i^2 on OF. */
#define M256_SQUARE                                                       \
    "movq 0(" OP(xp) "), %%rdx\n\t"                                       \
    "mulxq 8(" OP(xp) "), " OP(r1) ", " OP(r2) "\n\t"                     \
    "mulxq 16(" OP(xp) "), " OP(lo) ", " OP(r3) "\n\t"                    \
    "addq " OP(lo) ", " OP(r2) "\n\t"                                     \
    "mulxq 24(" OP(xp) "), " OP(lo) ", " OP(r4) "\n\t"                    \
    "adcq " OP(lo) ", " OP(r3) "\n\t"                                     \
    "adcq $0, " OP(r4) "\n\t"                                             \
    "movq 8(" OP(xp) "), %%rdx\n\t"                                       \
    "xorl " OP32(r5) ", " OP32(r5) "\n\t"                                 \
    "mulxq 16(" OP(xp) "), " OP(lo) ", " OP(hi) "\n\t"                    \
    "adoxq " OP(lo) ", " OP(r3) "\n\t"                                    \
    "adcxq " OP(hi) ", " OP(r4) "\n\t"                                    \
    "mulxq 24(" OP(xp) "), " OP(lo) ", " OP(hi) "\n\t"                    \
    "adoxq " OP(lo) ", " OP(r4) "\n\t"                                    \
    "adcxq " OP(hi) ", " OP(r5) "\n\t"                                    \
    "movl $0, " OP32(lo) "\n\t"                                           \
    "adoxq " OP(lo) ", " OP(r5) "\n\t"                                    \
    "movq 16(" OP(xp) "), %%rdx\n\t"                                      \
    "mulxq 24(" OP(xp) "), " OP(lo) ", " OP(r6) "\n\t"                    \
    "addq " OP(lo) ", " OP(r5) "\n\t"                                     \
    "adcq $0, " OP(r6) "\n\t"                                             \
    /* 2 s + the diagonal; r7 = 0 takes the doubling's last carry */       \
    "xorl " OP32(r7) ", " OP32(r7) "\n\t"                                 \
    "movq 0(" OP(xp) "), %%rdx\n\t"                                       \
    "mulxq %%rdx, " OP(r0) ", " OP(hi) "\n\t"                             \
    "adcxq " OP(r1) ", " OP(r1) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r1) "\n\t"                                    \
    "movq 8(" OP(xp) "), %%rdx\n\t"                                       \
    "mulxq %%rdx, " OP(lo) ", " OP(hi) "\n\t"                             \
    "adcxq " OP(r2) ", " OP(r2) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(r2) "\n\t"                                    \
    "adcxq " OP(r3) ", " OP(r3) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r3) "\n\t"                                    \
    "movq 16(" OP(xp) "), %%rdx\n\t"                                      \
    "mulxq %%rdx, " OP(lo) ", " OP(hi) "\n\t"                             \
    "adcxq " OP(r4) ", " OP(r4) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(r4) "\n\t"                                    \
    "adcxq " OP(r5) ", " OP(r5) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r5) "\n\t"                                    \
    "movq 24(" OP(xp) "), %%rdx\n\t"                                      \
    "mulxq %%rdx, " OP(lo) ", " OP(hi) "\n\t"                             \
    "adcxq " OP(r6) ", " OP(r6) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(r6) "\n\t"                                    \
    "adcxq " OP(r7) ", " OP(r7) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r7) "\n\t"

/* One P-256 round on the low half, u = U (p = -1 mod 2^64 makes the factor the limb):
 * U + u (2^64 - 1) = u 2^64, and u (2^32 - 1) one limb up makes u 2^32 there with it, so
 * the shifted sum gets u 2^32 at A1 (u << 32 into A1, u >> 32 into A2) and u p[3] at A3
 * (the MULX, its high limb the window's new top NEW). Every partial sum (t's low limbs +
 * the factors so far times p) / 2^(64(i+1)) is below 2^192 + p < 2^256, so the window's
 * four limbs hold it and NEW takes the chain's last carry. U is free afterwards. */
#define P256_REDUCE_ROUND(U, A1, A2, A3, NEW)                             \
    "movq " OP(U) ", %%rdx\n\t"                                           \
    "movq " OP(U) ", " OP(lo) "\n\t"                                      \
    "shlq $32, " OP(lo) "\n\t"                                            \
    "shrq $32, " OP(U) "\n\t"                                             \
    "addq " OP(lo) ", " OP(A1) "\n\t"                                     \
    "adcq " OP(U) ", " OP(A2) "\n\t"                                      \
    "mulxq " OP(p3) ", " OP(lo) ", " OP(NEW) "\n\t" /* keeps the flags */ \
    "adcq " OP(lo) ", " OP(A3) "\n\t"                                     \
    "adcq $0, " OP(NEW) "\n\t"

/* t in r0..r7 -> the canonical (t + U p) / 2^256 in s0 (a free register's name), r0, r1,
 * r2: the low half reduced (<= p), the high half (< p: t < p^2) added, p subtracted
 * unless that borrows. */
#define P256_REDUCE(s0)                                                   \
    P256_REDUCE_ROUND(r0, r1, r2, r3, s0)                                 \
    P256_REDUCE_ROUND(r1, r2, r3, s0, r0)                                 \
    P256_REDUCE_ROUND(r2, r3, s0, r0, r1)                                 \
    P256_REDUCE_ROUND(r3, s0, r0, r1, r2)                                 \
    "xorl " OP32(r3) ", " OP32(r3) "\n\t"                                 \
    "addq " OP(r4) ", " OP(s0) "\n\t"                                     \
    "adcq " OP(r5) ", " OP(r0) "\n\t"                                     \
    "adcq " OP(r6) ", " OP(r1) "\n\t"                                     \
    "adcq " OP(r7) ", " OP(r2) "\n\t"                                     \
    "adcq $0, " OP(r3) "\n\t"                                             \
    "movq " OP(s0) ", " OP(r4) "\n\t"                                     \
    "subq $-1, " OP(r4) "\n\t" /* p[0] = 2^64 - 1 */                      \
    "movq " OP(r0) ", " OP(r5) "\n\t"                                     \
    "sbbq " OP(p1) ", " OP(r5) "\n\t"                                     \
    "movq " OP(r1) ", " OP(r6) "\n\t"                                     \
    "sbbq $0, " OP(r6) "\n\t" /* p[2] = 0 */                              \
    "movq " OP(r2) ", " OP(r7) "\n\t"                                     \
    "sbbq " OP(p3) ", " OP(r7) "\n\t"                                     \
    "sbbq $0, " OP(r3) "\n\t"                                             \
    "cmovncq " OP(r4) ", " OP(s0) "\n\t"                                  \
    "cmovncq " OP(r5) ", " OP(r0) "\n\t"                                  \
    "cmovncq " OP(r6) ", " OP(r1) "\n\t"                                  \
    "cmovncq " OP(r7) ", " OP(r2) "\n\t"

/* t in r0..r7 -> t mod p in r0..r3 for secp256k1's p in plain form (secp256k1_plain.h
 * has the bounds): v = H c + L, its top limb T in r4 (adox takes OF's carry, adcx CF's:
 * each flag rides its own chain), v += T c, s0 = the carry out of 2^256. Almost always
 * (but for 2^-64 of the values) s0 = 0 and v's top limb is below p's (2^64 - 1), so v < p
 * is the result: a branch the predictor learns, so that the result's latency (what the
 * chains of field operations wait for) ends there. Else w = v + c in r4..r7, s0 += its
 * carry; s0 = 1 takes w (v >= 2^256, or v >= p), s0 = 0 keeps v. */
#define SECP_FOLD(s0)                                                     \
    "movq " OP(c) ", %%rdx\n\t"                                           \
    "xorl " OP32(s0) ", " OP32(s0) "\n\t" /* also clears CF and OF */     \
    "mulxq " OP(r4) ", " OP(lo) ", " OP(hi) "\n\t"                        \
    "adcxq " OP(lo) ", " OP(r0) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r1) "\n\t"                                    \
    "mulxq " OP(r5) ", " OP(lo) ", " OP(hi) "\n\t"                        \
    "adcxq " OP(lo) ", " OP(r1) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r2) "\n\t"                                    \
    "mulxq " OP(r6) ", " OP(lo) ", " OP(hi) "\n\t"                        \
    "adcxq " OP(lo) ", " OP(r2) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(r3) "\n\t"                                    \
    "mulxq " OP(r7) ", " OP(lo) ", " OP(r4) "\n\t"                        \
    "adcxq " OP(lo) ", " OP(r3) "\n\t"                                    \
    "adoxq " OP(s0) ", " OP(r4) "\n\t" /* s0 = 0: OF's carry */           \
    "adcxq " OP(s0) ", " OP(r4) "\n\t" /* CF's: T < 2^33 + 1 */           \
    "mulxq " OP(r4) ", " OP(lo) ", " OP(hi) "\n\t" /* T c < 2^67 */        \
    "addq " OP(lo) ", " OP(r0) "\n\t"                                     \
    "adcq " OP(hi) ", " OP(r1) "\n\t"                                     \
    "adcq $0, " OP(r2) "\n\t"                                             \
    "adcq $0, " OP(r3) "\n\t"                                             \
    "adcq $0, " OP(s0) "\n\t"                                             \
    "testq " OP(s0) ", " OP(s0) "\n\t"                                    \
    "jnz 1f\n\t"                                                          \
    "cmpq $-1, " OP(r3) "\n\t"                                            \
    "jne 2f\n\t" /* v < p: done */                                        \
    "1:\n\t"                                                              \
    "movq " OP(r0) ", " OP(r4) "\n\t"                                     \
    "addq %%rdx, " OP(r4) "\n\t"                                          \
    "movq " OP(r1) ", " OP(r5) "\n\t"                                     \
    "adcq $0, " OP(r5) "\n\t"                                             \
    "movq " OP(r2) ", " OP(r6) "\n\t"                                     \
    "adcq $0, " OP(r6) "\n\t"                                             \
    "movq " OP(r3) ", " OP(r7) "\n\t"                                     \
    "adcq $0, " OP(r7) "\n\t"                                             \
    "adcq $0, " OP(s0) "\n\t" /* at most one of the two carries */        \
    "negq " OP(s0) "\n\t" /* CF = (s0 != 0) */                             \
    "cmovcq " OP(r4) ", " OP(r0) "\n\t"                                   \
    "cmovcq " OP(r5) ", " OP(r1) "\n\t"                                   \
    "cmovcq " OP(r6) ", " OP(r2) "\n\t"                                   \
    "cmovcq " OP(r7) ", " OP(r3) "\n\t"                                   \
    "2:\n\t"

/* t in r0..r7 -> the canonical (t + U m) / 2^256 in r4..r7 for any odd 4-limb modulus m
 * (limbs and inv at mp, the context's mod_inv): four rounds of u = t_i inv and u m added at
 * limb i, in place, each round's carry out of limb i + 4 kept in k for the next round's
 * limb i + 5 (the last one's is the result's top bit: < 2m), m subtracted unless that
 * borrows (k: the name of a free register). */
#define GENERIC_REDUCE_ROUND(A0, A1, A2, A3, A4, k)                       \
    "movq " OP(A0) ", %%rdx\n\t"                                          \
    "imulq 32(" OP(mp) "), %%rdx\n\t"                                     \
    "xorl " OP32(lo) ", " OP32(lo) "\n\t" /* clears CF and OF */          \
    M256_MULX_ADD(mp, 0, "adcxq", A0, "adoxq", A1)                        \
    M256_MULX_ADD(mp, 8, "adcxq", A1, "adoxq", A2)                        \
    M256_MULX_ADD(mp, 16, "adcxq", A2, "adoxq", A3)                       \
    M256_MULX_ADD(mp, 24, "adcxq", A3, "adoxq", A4)                       \
    "adcxq " OP(k) ", " OP(A4) "\n\t"                                     \
    "movl $0, " OP32(k) "\n\t" /* mov keeps the flags */                  \
    "movl $0, " OP32(lo) "\n\t"                                           \
    "adcxq " OP(lo) ", " OP(k) "\n\t"                                     \
    "adoxq " OP(lo) ", " OP(k) "\n\t"

#define GENERIC_REDUCE(k)                                                 \
    "xorl " OP32(k) ", " OP32(k) "\n\t"                                   \
    GENERIC_REDUCE_ROUND(r0, r1, r2, r3, r4, k)                              \
    GENERIC_REDUCE_ROUND(r1, r2, r3, r4, r5, k)                              \
    GENERIC_REDUCE_ROUND(r2, r3, r4, r5, r6, k)                              \
    GENERIC_REDUCE_ROUND(r3, r4, r5, r6, r7, k)                              \
    "movq " OP(r4) ", " OP(r0) "\n\t"                                     \
    "subq 0(" OP(mp) "), " OP(r0) "\n\t"                                  \
    "movq " OP(r5) ", " OP(r1) "\n\t"                                     \
    "sbbq 8(" OP(mp) "), " OP(r1) "\n\t"                                  \
    "movq " OP(r6) ", " OP(r2) "\n\t"                                     \
    "sbbq 16(" OP(mp) "), " OP(r2) "\n\t"                                 \
    "movq " OP(r7) ", " OP(r3) "\n\t"                                     \
    "sbbq 24(" OP(mp) "), " OP(r3) "\n\t"                                 \
    "sbbq $0, " OP(k) "\n\t"                                              \
    "cmovncq " OP(r0) ", " OP(r4) "\n\t"                                  \
    "cmovncq " OP(r1) ", " OP(r5) "\n\t"                                  \
    "cmovncq " OP(r2) ", " OP(r6) "\n\t"                                  \
    "cmovncq " OP(r3) ", " OP(r7) "\n\t"

/* The outputs every kernel shares: t's eight limbs and two scratch registers. The
 * reductions need one more register: y's pointer's, free once t is formed ("+r": the
 * asm overwrites it), or the squaring's own. */
#define M256_OUTPUTS                                                                     \
    [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),     \
    [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi)

/* out = x y / 2^256 mod p, P-256's p; out may alias x and y. */
static inline __attribute__((always_inline)) void
p256_mul_mulx(limb256_t out[4], const limb256_t x[4], const limb256_t y[4])
{
    limb256_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi;
    uintptr_t xp = (uintptr_t)x, yp = (uintptr_t)y;
    __asm__(M256_PRODUCT P256_REDUCE(yp)
            : M256_OUTPUTS, [yp] "+&r"(yp)
            : [xp] "r"(xp), [p1] "m"(P256_MODULUS[1]), [p3] "m"(P256_MODULUS[3])
            : "rdx", "cc", "memory");
    out[0] = yp, out[1] = r0, out[2] = r1, out[3] = r2; /* y's pointer's register */
}

/* out = x^2 / 2^256 mod p, P-256's p; out may alias x. */
static inline __attribute__((always_inline)) void
p256_square_mulx(limb256_t out[4], const limb256_t x[4])
{
    limb256_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi, s0;
    uintptr_t xp = (uintptr_t)x;
    __asm__(M256_SQUARE P256_REDUCE(s0)
            : M256_OUTPUTS, [s0] "=&r"(s0)
            : [xp] "r"(xp), [p1] "m"(P256_MODULUS[1]), [p3] "m"(P256_MODULUS[3])
            : "rdx", "cc", "memory");
    out[0] = s0, out[1] = r0, out[2] = r1, out[3] = r2;
}

/* out = x y mod p, secp256k1's p, plain form (secp256k1_plain.h); out may alias x and y. */
static inline __attribute__((always_inline)) void
secp256k1_plain_mul_mulx(limb256_t out[4], const limb256_t x[4], const limb256_t y[4])
{
    limb256_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi;
    uintptr_t xp = (uintptr_t)x, yp = (uintptr_t)y;
    __asm__(M256_PRODUCT SECP_FOLD(yp)
            : M256_OUTPUTS, [yp] "+&r"(yp)
            : [xp] "r"(xp), [c] "m"(SECP256K1_C)
            : "rdx", "cc", "memory");
    out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;
}

/* out = x^2 mod p, secp256k1's p, plain form; out may alias x. */
static inline __attribute__((always_inline)) void
secp256k1_plain_square_mulx(limb256_t out[4], const limb256_t x[4])
{
    limb256_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi, s0;
    uintptr_t xp = (uintptr_t)x;
    __asm__(M256_SQUARE SECP_FOLD(s0)
            : M256_OUTPUTS, [s0] "=&r"(s0)
            : [xp] "r"(xp), [c] "m"(SECP256K1_C)
            : "rdx", "cc", "memory");
    out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;
    (void)s0;
}

/* out = x^2 / 2^256 mod m for any odd 4-limb modulus m (mod_inv: its limbs, then
 * -m^-1 mod 2^64, as struct evmmax_context holds them); out may alias x. */
static inline __attribute__((always_inline)) void
mont256_square_mulx(limb256_t out[4], const limb256_t x[4], const limb256_t mod_inv[5])
{
    limb256_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi;
    uintptr_t xp = (uintptr_t)x;
    __asm__(M256_SQUARE GENERIC_REDUCE(xp)
            : M256_OUTPUTS, [xp] "+&r"(xp)
            : [mp] "r"(mod_inv)
            : "rdx", "cc", "memory");
    out[0] = r4, out[1] = r5, out[2] = r6, out[3] = r7;
}

/* out = x y, the 512-bit product of two 4-limb values (16 MULX): the Fp2 product's
 * Karatsuba terms (wide256.h), reduced after they are combined. */
static inline __attribute__((always_inline)) void
mul256x256_mulx(limb256_t out[8], const limb256_t x[4], const limb256_t y[4])
{
    limb256_t r0, r1, r2, r3, r4, r5, r6, r7, lo, hi;
    __asm__(M256_PRODUCT
            : M256_OUTPUTS
            : [xp] "r"(x), [yp] "r"(y)
            : "rdx", "cc", "memory");
    out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;
    out[4] = r4, out[5] = r5, out[6] = r6, out[7] = r7;
}

/* out = t / 2^256 mod m, canonical, for t < m 2^256 and any odd 4-limb modulus m (mod_inv
 * as mont256_square_mulx's): GENERIC_REDUCE's (t + U m) / 2^256 is below 2m, one
 * conditional subtraction. out may alias t. */
static inline __attribute__((always_inline)) void
redc512_mulx(limb256_t out[4], const limb256_t t[8], const limb256_t mod_inv[5])
{
    limb256_t r0 = t[0], r1 = t[1], r2 = t[2], r3 = t[3], r4 = t[4], r5 = t[5], r6 = t[6],
              r7 = t[7], lo, hi, k;
    __asm__(GENERIC_REDUCE(k)
            : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
              [r5] "+&r"(r5), [r6] "+&r"(r6), [r7] "+&r"(r7), [lo] "=&r"(lo), [hi] "=&r"(hi),
              [k] "=&r"(k)
            : [mp] "r"(mod_inv)
            : "rdx", "cc", "memory");
    out[0] = r4, out[1] = r5, out[2] = r6, out[3] = r7;
}

#undef OP
#undef OP32
#undef M256_MULX_ADD
#undef M256_PRODUCT_ROW
#undef M256_PRODUCT
#undef M256_SQUARE
#undef P256_REDUCE_ROUND
#undef P256_REDUCE
#undef SECP_FOLD
#undef GENERIC_REDUCE_ROUND
#undef GENERIC_REDUCE
#undef M256_OUTPUTS
#endif /* __x86_64__ */

#endif
