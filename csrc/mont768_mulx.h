/* The 12-limb (768-bit) Montgomery product for MULX + ADX with the accumulator in
 * registers: x * y / 2^768 mod m by CIOS, canonical for EVMMAX's registers (x, y < m, m
 * odd: BW6-761's 761-bit p, and every 12-limb modulus, which EIP-6690 prices alike).
 * Only called after cpu_features reports BMI2 and ADX. GCC only (evmmax_kernels.h's
 * EVMMAX_MULX768; elsewhere evmmax_mulx.c runs its generic rows): its optimize attribute
 * frees rbp for this function whatever the build's -f[no-]omit-frame-pointer (the
 * sanitizer build keeps the frame pointer, and so may CPython's own CFLAGS); clang has no
 * such attribute and keeps the frame pointer on some systems.
 *
 * Why it is faster than the generic rows (one load and one store of a memory accumulator
 * per limb and row): every limb of every row is one MULX and two additions on registers.
 * The accumulator is twelve limbs and a small top (the bound below); during a round it
 * takes a thirteenth limb, and the top waits in memory for the next reduction row.
 * Thirteen accumulator registers, `lo` and rdx make fifteen: every register but rsp.
 * Hence y and the modulus (with inv) are read from copies on the stack (rsp-relative
 * operands, no pointer register), x's pointer waits in memory, and rbp is taken as well.
 *
 * Each round: the row x[i] * y (low halves ride OF, high halves CF), then
 * u = acc[0] * inv and the row u * m (low halves CF, high halves OF). Of acc[0] +
 * low(u m[0]) only the carry is kept, so low(u m[0]) comes from an imul, which frees
 * acc[0]'s register for the high halves. The accumulator then moves down one limb; in the
 * unrolled code that is the next round naming the registers rotated by one, with the free
 * one as the new top limb.
 *
 * Exact for any x, y < 2^768, any modulus (even, or 768 bits) and any inv, as EVM768's
 * MULMODMONT768 (which runs this kernel on operands from memory) needs: the same integer
 * as textbook CIOS (evm/kernels/reference.py's mulmont_int). The row x[i] * y added to
 * the twelve low limbs stays below 2^768 + (2^64 - 1)(2^768 - 1) < 2^832; the reduction
 * row's sum, with u * m < 2^832 and the top (at most 2), below 3 * 2^832, so its carries
 * out of the thirteenth limb (one per chain) make the next top exactly. The result is
 * reduced once (acc >= m: subtract) and taken mod 2^768, as the spec's formula. */
#ifndef EVM384_MONT768_MULX_H
#define EVM384_MONT768_MULX_H

#if defined(__x86_64__)
#include "limbs384.h"

#define LIMBS768 12

#define OP(name) "%[" #name "]"
/* limb J of a stack copy passed as an "m" operand: "J*8+off(%rsp)" */
#define AT(ARRAY, J) #J "*8+%[" #ARRAY "]"

/* rdx = x[I], through x's pointer in memory. */
#define LOAD_X(I) "movq " OP(xp) ", %%rdx\n\t" "movq " #I "*8(%%rdx), %%rdx\n\t"

/* lo:hi = rdx * SRC[J]; lo added into LO_DST by LO_ADD, hi into HI_DST by HI_ADD. */
#define MULX_ADD(SRC, J, HI, LO_ADD, LO_DST, HI_ADD, HI_DST)                                 \
    "mulxq " AT(SRC, J) ", " OP(lo) ", " OP(HI) "\n\t"                                        \
    LO_ADD " " OP(lo) ", " OP(LO_DST) "\n\t"                                                  \
    HI_ADD " " OP(HI) ", " OP(HI_DST) "\n\t"

/* acc[T0..T11, T12] = x[0] * y: the first round's row writes the limbs directly. */
#define FIRST_ROW(T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12)                     \
    LOAD_X(0)                                                                                 \
    "mulxq " AT(ys, 0) ", " OP(T0) ", " OP(T1) "\n\t"                                          \
    "mulxq " AT(ys, 1) ", " OP(lo) ", " OP(T2) "\n\t" "addq " OP(lo) ", " OP(T1) "\n\t"       \
    "mulxq " AT(ys, 2) ", " OP(lo) ", " OP(T3) "\n\t" "adcq " OP(lo) ", " OP(T2) "\n\t"       \
    "mulxq " AT(ys, 3) ", " OP(lo) ", " OP(T4) "\n\t" "adcq " OP(lo) ", " OP(T3) "\n\t"       \
    "mulxq " AT(ys, 4) ", " OP(lo) ", " OP(T5) "\n\t" "adcq " OP(lo) ", " OP(T4) "\n\t"       \
    "mulxq " AT(ys, 5) ", " OP(lo) ", " OP(T6) "\n\t" "adcq " OP(lo) ", " OP(T5) "\n\t"       \
    "mulxq " AT(ys, 6) ", " OP(lo) ", " OP(T7) "\n\t" "adcq " OP(lo) ", " OP(T6) "\n\t"       \
    "mulxq " AT(ys, 7) ", " OP(lo) ", " OP(T8) "\n\t" "adcq " OP(lo) ", " OP(T7) "\n\t"       \
    "mulxq " AT(ys, 8) ", " OP(lo) ", " OP(T9) "\n\t" "adcq " OP(lo) ", " OP(T8) "\n\t"       \
    "mulxq " AT(ys, 9) ", " OP(lo) ", " OP(T10) "\n\t" "adcq " OP(lo) ", " OP(T9) "\n\t"      \
    "mulxq " AT(ys, 10) ", " OP(lo) ", " OP(T11) "\n\t" "adcq " OP(lo) ", " OP(T10) "\n\t"    \
    "mulxq " AT(ys, 11) ", " OP(lo) ", " OP(T12) "\n\t" "adcq " OP(lo) ", " OP(T11) "\n\t"    \
    "adcq $0, " OP(T12) "\n\t"

/* acc[T0..T11] += x[I] * y into T0..T11 and the new top limb T12, free on entry: it holds
 * the high halves until the last one, which becomes the top limb. The carries out of T12
 * are zero (the bound above; the top bit is added in the reduction row). */
#define PRODUCT_ROW(I, T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12)                \
    LOAD_X(I)                                                                                 \
    "xorl %k[lo], %k[lo]\n\t" /* clears CF and OF */                                          \
    MULX_ADD(ys, 0, T12, "adoxq", T0, "adcxq", T1)                                            \
    MULX_ADD(ys, 1, T12, "adoxq", T1, "adcxq", T2)                                            \
    MULX_ADD(ys, 2, T12, "adoxq", T2, "adcxq", T3)                                            \
    MULX_ADD(ys, 3, T12, "adoxq", T3, "adcxq", T4)                                            \
    MULX_ADD(ys, 4, T12, "adoxq", T4, "adcxq", T5)                                            \
    MULX_ADD(ys, 5, T12, "adoxq", T5, "adcxq", T6)                                            \
    MULX_ADD(ys, 6, T12, "adoxq", T6, "adcxq", T7)                                            \
    MULX_ADD(ys, 7, T12, "adoxq", T7, "adcxq", T8)                                            \
    MULX_ADD(ys, 8, T12, "adoxq", T8, "adcxq", T9)                                            \
    MULX_ADD(ys, 9, T12, "adoxq", T9, "adcxq", T10)                                           \
    MULX_ADD(ys, 10, T12, "adoxq", T10, "adcxq", T11)                                         \
    "mulxq " AT(ys, 11) ", " OP(lo) ", " OP(T12) "\n\t"                                       \
    "adoxq " OP(lo) ", " OP(T11) "\n\t"                                                       \
    "movl $0, %k[lo]\n\t" /* mov keeps the flags */                                           \
    "adcxq " OP(lo) ", " OP(T12) "\n\t"                                                       \
    "adoxq " OP(lo) ", " OP(T12) "\n\t"

/* acc = (acc[T0..T12] + top * 2^768 + u * m) / 2^64, u = T0 * inv: the result in T1..T12
 * and its top bit (the carries out of T12) in `top`, T0 free. */
#define REDUCE_ROW(T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12)                    \
    "movq " OP(T0) ", %%rdx\n\t"                                                              \
    "imulq " AT(ms, 12) ", %%rdx\n\t" /* u; inv follows the modulus */                        \
    "movq %%rdx, " OP(lo) "\n\t"                                                              \
    "imulq " AT(ms, 0) ", " OP(lo) "\n\t" /* low(u m[0]) */                                   \
    "testq " OP(lo) ", " OP(lo) "\n\t"   /* clears CF and OF */                                \
    "adcxq " OP(T0) ", " OP(lo) "\n\t"   /* CF: the carry of T0 + low(u m[0]), all it leaves */ \
    "mulxq " AT(ms, 0) ", " OP(T0) ", " OP(T0) "\n\t" /* equal destinations: the high half */ \
    "adoxq " OP(T0) ", " OP(T1) "\n\t"                                                        \
    MULX_ADD(ms, 1, T0, "adcxq", T1, "adoxq", T2)                                             \
    MULX_ADD(ms, 2, T0, "adcxq", T2, "adoxq", T3)                                             \
    MULX_ADD(ms, 3, T0, "adcxq", T3, "adoxq", T4)                                             \
    MULX_ADD(ms, 4, T0, "adcxq", T4, "adoxq", T5)                                             \
    MULX_ADD(ms, 5, T0, "adcxq", T5, "adoxq", T6)                                             \
    MULX_ADD(ms, 6, T0, "adcxq", T6, "adoxq", T7)                                             \
    MULX_ADD(ms, 7, T0, "adcxq", T7, "adoxq", T8)                                             \
    MULX_ADD(ms, 8, T0, "adcxq", T8, "adoxq", T9)                                             \
    MULX_ADD(ms, 9, T0, "adcxq", T9, "adoxq", T10)                                            \
    MULX_ADD(ms, 10, T0, "adcxq", T10, "adoxq", T11)                                          \
    MULX_ADD(ms, 11, T0, "adcxq", T11, "adoxq", T12)                                          \
    "adcxq " OP(top) ", " OP(T12) "\n\t" /* the last round's top bit, with CF */             \
    "movl $0, %k[lo]\n\t"                                                                     \
    "adcxq " OP(lo) ", " OP(lo) "\n\t"                                                        \
    "adoxq " AT(ms, 13) ", " OP(lo) "\n\t" /* a zero limb: lo = CF + OF, at most 2 */         \
    "movq " OP(lo) ", " OP(top) "\n\t"

/* diff[J] = A - m[J] with the borrow of the limbs below (SUB: subq first, then sbbq). */
#define SUBTRACT_LIMB(SUB, J, A)                                                             \
    "movq " OP(A) ", " OP(lo) "\n\t"                                                          \
    SUB " " AT(ms, J) ", " OP(lo) "\n\t"                                                      \
    "movq " OP(lo) ", " AT(diff, J) "\n\t"
#define TAKE_IF_NO_BORROW(J, A) "cmovncq " AT(diff, J) ", " OP(A) "\n\t"

/* Rounds 1..11: the accumulator's registers rotated by one each round. */
#define ROUND(I, T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12)                      \
    PRODUCT_ROW(I, T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12)                    \
    REDUCE_ROW(T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12)

/* out = x * y / 2^768 mod m for x < 2^768, y < m; mod_inv holds m's twelve limbs then
 * inv = -m^-1 mod 2^64. out may alias x and y. */
/* no_sanitize_address: AddressSanitizer would move the stack copies to its fake stack,
 * addressed through a register; the asm's loads were never instrumented anyway. */
static __attribute__((optimize("omit-frame-pointer"), no_sanitize_address)) void
mont768_mulx(limb_t out[LIMBS768], const limb_t *x, const limb_t *y, const limb_t *mod_inv)
{
    limb_t ys[LIMBS768], ms[LIMBS768 + 2], top = 0;
    memcpy(ys, y, sizeof ys);
    memcpy(ms, mod_inv, (LIMBS768 + 1) * sizeof(limb_t));
    ms[LIMBS768 + 1] = 0;
    limb_t r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, lo, diff[LIMBS768];
    __asm__(
        FIRST_ROW(r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12)
        REDUCE_ROW(r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12)
        ROUND(1, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r0)
        ROUND(2, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r0, r1)
        ROUND(3, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r0, r1, r2)
        ROUND(4, r4, r5, r6, r7, r8, r9, r10, r11, r12, r0, r1, r2, r3)
        ROUND(5, r5, r6, r7, r8, r9, r10, r11, r12, r0, r1, r2, r3, r4)
        ROUND(6, r6, r7, r8, r9, r10, r11, r12, r0, r1, r2, r3, r4, r5)
        ROUND(7, r7, r8, r9, r10, r11, r12, r0, r1, r2, r3, r4, r5, r6)
        ROUND(8, r8, r9, r10, r11, r12, r0, r1, r2, r3, r4, r5, r6, r7)
        ROUND(9, r9, r10, r11, r12, r0, r1, r2, r3, r4, r5, r6, r7, r8)
        ROUND(10, r10, r11, r12, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9)
        ROUND(11, r11, r12, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10)
        /* acc = r12, r0..r10 and its top bit, below 2m: acc - m into `diff`, then acc
         * takes it unless the subtraction borrows (acc < m) */
        SUBTRACT_LIMB("subq", 0, r12) SUBTRACT_LIMB("sbbq", 1, r0)
        SUBTRACT_LIMB("sbbq", 2, r1) SUBTRACT_LIMB("sbbq", 3, r2)
        SUBTRACT_LIMB("sbbq", 4, r3) SUBTRACT_LIMB("sbbq", 5, r4)
        SUBTRACT_LIMB("sbbq", 6, r5) SUBTRACT_LIMB("sbbq", 7, r6)
        SUBTRACT_LIMB("sbbq", 8, r7) SUBTRACT_LIMB("sbbq", 9, r8)
        SUBTRACT_LIMB("sbbq", 10, r9) SUBTRACT_LIMB("sbbq", 11, r10)
        "sbbq $0, " OP(top) "\n\t"
        TAKE_IF_NO_BORROW(0, r12) TAKE_IF_NO_BORROW(1, r0) TAKE_IF_NO_BORROW(2, r1)
        TAKE_IF_NO_BORROW(3, r2) TAKE_IF_NO_BORROW(4, r3) TAKE_IF_NO_BORROW(5, r4)
        TAKE_IF_NO_BORROW(6, r5) TAKE_IF_NO_BORROW(7, r6) TAKE_IF_NO_BORROW(8, r7)
        TAKE_IF_NO_BORROW(9, r8) TAKE_IF_NO_BORROW(10, r9) TAKE_IF_NO_BORROW(11, r10)
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
          [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [r8] "=&r"(r8), [r9] "=&r"(r9),
          [r10] "=&r"(r10), [r11] "=&r"(r11), [r12] "=&r"(r12), [lo] "=&r"(lo), [diff] "=&m"(diff),
          [top] "+m"(top)
        : [xp] "m"(x), [ys] "m"(ys), [ms] "m"(ms)
        : "rdx", "cc", "memory");
    out[0] = r12, out[1] = r0, out[2] = r1, out[3] = r2, out[4] = r3, out[5] = r4;
    out[6] = r5, out[7] = r6, out[8] = r7, out[9] = r8, out[10] = r9, out[11] = r10;
    (void)r11, (void)lo;
}

#undef OP
#undef AT
#undef LOAD_X
#undef MULX_ADD
#undef FIRST_ROW
#undef PRODUCT_ROW
#undef REDUCE_ROW
#undef ROUND
#undef SUBTRACT_LIMB
#undef TAKE_IF_NO_BORROW
#endif /* __x86_64__ */

#endif
