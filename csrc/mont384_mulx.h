/* x86-64 CIOS Montgomery multiplication with MULX and the two independent
 * carry chains of ADCX (CF) and ADOX (OF). Only called after cpu_features
 * reports BMI2 and ADX; the assembler accepts these mnemonics without any
 * -m flag, so the rest of the build stays baseline x86-64.
 *
 * Latency matters as much as throughput (field code is mostly dependent
 * chains), so each round is ordered around its critical path, the reduction
 * factor u = acc[0] * inv: right after u is computed, the next row x[i+1] * y
 * (which does not need u) is added one limb up, hiding the IMUL; then u * mod
 * is added, and the next acc[0] is ready after its first two products. That
 * is the same exact integer as textbook CIOS, for any u:
 *   floor((acc + u*mod) / 2^64) + x[i+1]*y = floor((acc + u*mod + x[i+1]*y*2^64) / 2^64)
 * so results stay exact for unreduced inputs, even moduli and arbitrary inv.
 * Bounds (x, y, mod < 2^384): with acc = A + x[i]*y, A < 2^384 + mod, the sum
 * acc + u*mod + x[i+1]*y*2^64 is below 2^512 + 2^64*mod: nine limbs, hence
 * nine accumulator registers (x's pointer waits in memory to free one). The
 * final conditional subtraction is in the same block (SBB chain, CMOV).
 * In a header so that the fast engine's segment loop can inline it (no call,
 * no callee-saved register saves per multiplication); mont384_mulx.c exports
 * it as mulmont384_mulx. */
#ifndef EVM384_MONT384_MULX_H
#define EVM384_MONT384_MULX_H

#if defined(__x86_64__)
#include "mont384.h"

#define OP(name) "%[" #name "]"
#define OP32(name) "%k[" #name "]"

/* acc[A0..A6] = x[0] * y, with rdx = x[0]. */
#define FIRST_ROW(A0, A1, A2, A3, A4, A5, A6)                             \
    "mulxq 0(" OP(yp) "), " OP(A0) ", " OP(A1) "\n\t"                     \
    "mulxq 8(" OP(yp) "), " OP(lo) ", " OP(A2) "\n\t"                     \
    "addq " OP(lo) ", " OP(A1) "\n\t"                                     \
    "mulxq 16(" OP(yp) "), " OP(lo) ", " OP(A3) "\n\t"                    \
    "adcq " OP(lo) ", " OP(A2) "\n\t"                                     \
    "mulxq 24(" OP(yp) "), " OP(lo) ", " OP(A4) "\n\t"                    \
    "adcq " OP(lo) ", " OP(A3) "\n\t"                                     \
    "mulxq 32(" OP(yp) "), " OP(lo) ", " OP(A5) "\n\t"                    \
    "adcq " OP(lo) ", " OP(A4) "\n\t"                                     \
    "mulxq 40(" OP(yp) "), " OP(lo) ", " OP(A6) "\n\t"                    \
    "adcq " OP(lo) ", " OP(A5) "\n\t"                                     \
    "adcq $0, " OP(A6) "\n\t"

/* A0 = u = A0 * inv; the old A0 is kept in `saved` for the carry it makes. */
#define REDUCTION_FACTOR(A0)                                              \
    "movq " OP(A0) ", " OP(saved) "\n\t"                                  \
    "imulq 48(" OP(mp) "), " OP(A0) "\n\t"

/* lo:hi = rdx * SRC[OFF/8]; lo added into LO_DST by LO_ADD, hi into HI_DST by
 * HI_ADD (adcxq rides CF, adoxq OF). */
#define MULX_ADD(SRC, OFF, LO_ADD, LO_DST, HI_ADD, HI_DST)                \
    "mulxq " #OFF "(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"             \
    LO_ADD " " OP(lo) ", " OP(LO_DST) "\n\t"                              \
    HI_ADD " " OP(hi) ", " OP(HI_DST) "\n\t"

/* acc[A1..A8] += x[XOFF/8] * y (one limb up); A8 starts at zero. Low halves
 * ride OF, high halves CF. */
#define NEXT_ROW(XOFF, A1, A2, A3, A4, A5, A6, A7, A8)                    \
    "movq " OP(xm) ", %%rdx\n\t"                                          \
    "movq " #XOFF "(%%rdx), %%rdx\n\t"                                    \
    "xorl " OP32(A8) ", " OP32(A8) "\n\t" /* also clears CF and OF */     \
    MULX_ADD(yp, 0, "adoxq", A1, "adcxq", A2)                             \
    MULX_ADD(yp, 8, "adoxq", A2, "adcxq", A3)                             \
    MULX_ADD(yp, 16, "adoxq", A3, "adcxq", A4)                            \
    MULX_ADD(yp, 24, "adoxq", A4, "adcxq", A5)                            \
    MULX_ADD(yp, 32, "adoxq", A5, "adcxq", A6)                            \
    MULX_ADD(yp, 40, "adoxq", A6, "adcxq", A7)                            \
    "movl $0, " OP32(lo) "\n\t" /* mov keeps the flags */                 \
    "adoxq " OP(lo) ", " OP(A7) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A8) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(A8) "\n\t"

/* acc = (saved + 2^64 acc[A1..A7] + u * mod) / 2^64 with u in U: only the
 * carry of saved + low(u * mod[0]) survives the shift. Both chains' carries
 * out of A7 are left in CF and OF (see CARRY_INTO). Low halves ride CF, high
 * halves OF. */
#define REDUCE_ROW(U, A1, A2, A3, A4, A5, A6, A7)                         \
    "movq " OP(U) ", %%rdx\n\t"                                           \
    "xorl " OP32(lo) ", " OP32(lo) "\n\t" /* clears CF and OF */          \
    "mulxq 0(" OP(mp) "), " OP(lo) ", " OP(hi) "\n\t"                     \
    "adcxq " OP(saved) ", " OP(lo) "\n\t" /* only its carry is kept */     \
    "adoxq " OP(hi) ", " OP(A1) "\n\t"                                    \
    MULX_ADD(mp, 8, "adcxq", A1, "adoxq", A2)                             \
    MULX_ADD(mp, 16, "adcxq", A2, "adoxq", A3)                            \
    MULX_ADD(mp, 24, "adcxq", A3, "adoxq", A4)                            \
    MULX_ADD(mp, 32, "adcxq", A4, "adoxq", A5)                            \
    MULX_ADD(mp, 40, "adcxq", A5, "adoxq", A6)                            \
    "movl $0, " OP32(lo) "\n\t"                                           \
    "adcxq " OP(lo) ", " OP(A6) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(A7) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A7) "\n\t"

/* A8 += CF + OF, lo being zero. */
#define CARRY_INTO(A8)                                                    \
    "adoxq " OP(lo) ", " OP(A8) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A8) "\n\t"

/* One round: u from acc[0], the next row, the reduction. The accumulator
 * moves from A0..A7 to A1..A8: the next round passes the registers rotated by
 * one. */
#define ROUND(NEXT_XOFF, A0, A1, A2, A3, A4, A5, A6, A7, A8)              \
    REDUCTION_FACTOR(A0)                                                  \
    NEXT_ROW(NEXT_XOFF, A1, A2, A3, A4, A5, A6, A7, A8)                   \
    REDUCE_ROW(A0, A1, A2, A3, A4, A5, A6, A7)                            \
    CARRY_INTO(A8)

/* A0..A5 (with its top bit or limb in TOP) minus mod at MP, into D0..D5, and A0..A5 take
 * it unless the subtraction borrows (A < mod): one conditional subtraction without a
 * branch. Operands as asm strings (OP(r6), "%%rdx"); sqr384_mulx.h ends with it too. */
#define MULX384_SUBTRACT_IF_NOT_BELOW(MP, A0, A1, A2, A3, A4, A5, TOP, D0, D1, D2, D3, D4, D5) \
    "movq " A0 ", " D0 "\n\t" "subq 0(" MP "), " D0 "\n\t"                \
    "movq " A1 ", " D1 "\n\t" "sbbq 8(" MP "), " D1 "\n\t"                \
    "movq " A2 ", " D2 "\n\t" "sbbq 16(" MP "), " D2 "\n\t"               \
    "movq " A3 ", " D3 "\n\t" "sbbq 24(" MP "), " D3 "\n\t"               \
    "movq " A4 ", " D4 "\n\t" "sbbq 32(" MP "), " D4 "\n\t"               \
    "movq " A5 ", " D5 "\n\t" "sbbq 40(" MP "), " D5 "\n\t"               \
    "sbbq $0, " TOP "\n\t"                                               \
    "cmovncq " D0 ", " A0 "\n\t" "cmovncq " D1 ", " A1 "\n\t"           \
    "cmovncq " D2 ", " A2 "\n\t" "cmovncq " D3 ", " A3 "\n\t"           \
    "cmovncq " D4 ", " A4 "\n\t" "cmovncq " D5 ", " A5 "\n\t"

/* The block needs fourteen registers, all there are once the frame pointer is
 * kept (as in the sanitizer build). AddressSanitizer would take one more for
 * its fake stack frame (where `saved` and x's pointer live), so it is off for
 * this function; the asm's loads were never instrumented anyway, and the
 * stores to `out` stay in the instrumented caller. */
#if defined(__SANITIZE_ADDRESS__)
#define NO_FAKE_STACK __attribute__((no_sanitize_address))
#define INLINED_WHERE_CALLED /* a call: an instrumented caller's frame would take a register */
#else
#define NO_FAKE_STACK
#define INLINED_WHERE_CALLED __attribute__((always_inline))
#endif

/* x, y and mod_inv are read in place: x86-64 loads need no alignment. */
static inline INLINED_WHERE_CALLED NO_FAKE_STACK void
mulmont384_mulx_limbs(limb_t result[LIMBS384], const uint8_t x[BYTES384],
                      const uint8_t y[BYTES384], const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t r0, r1, r2, r3, r4, r5, r6, r7, r8, lo, hi, saved;
    const uint8_t *yp = y; /* free for the final subtraction */
    __asm__(
        "movq " OP(xm) ", %%rdx\n\t"
        "movq 0(%%rdx), %%rdx\n\t"
        "xorl " OP32(r7) ", " OP32(r7) "\n\t"
        FIRST_ROW(r0, r1, r2, r3, r4, r5, r6)
        ROUND(8, r0, r1, r2, r3, r4, r5, r6, r7, r8)
        ROUND(16, r1, r2, r3, r4, r5, r6, r7, r8, r0)
        ROUND(24, r2, r3, r4, r5, r6, r7, r8, r0, r1)
        ROUND(32, r3, r4, r5, r6, r7, r8, r0, r1, r2)
        ROUND(40, r4, r5, r6, r7, r8, r0, r1, r2, r3)
        /* The last round has no next row, and its sum, below 2^448 + 2^64*mod,
         * has no ninth limb. */
        REDUCTION_FACTOR(r5)
        REDUCE_ROW(r5, r6, r7, r8, r0, r1, r2, r3)
        /* acc = r6, r7, r8, r0, r1, r2 with its top bit in r3.
         * acc - mod goes into the registers no longer needed; acc is kept
         * when the 385-bit subtraction borrows (acc < mod). */
        MULX384_SUBTRACT_IF_NOT_BELOW(OP(mp), OP(r6), OP(r7), OP(r8), OP(r0), OP(r1), OP(r2),
                                      OP(r3), OP(r4), OP(r5), OP(lo), OP(hi), OP(yp), "%%rdx")
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),
          [r4] "=&r"(r4), [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [r8] "=&r"(r8),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [saved] "=&m"(saved), [yp] "+&r"(yp)
        : [xm] "m"(x), [mp] "r"(mod_inv)
        : "rdx", "cc", "memory");
    result[0] = r6, result[1] = r7, result[2] = r8;
    result[3] = r0, result[4] = r1, result[5] = r2;
}

/* mulmont384_mulx (mont384.h), inlined where it is called. */
static inline __attribute__((always_inline)) NO_FAKE_STACK void
mulmont384_mulx_inline(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                       const uint8_t y[BYTES384], const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t result[LIMBS384];
    mulmont384_mulx_limbs(result, x, y, mod_inv);
    store_limbs384(out, result); /* after every read: out may overlap the inputs */
}

/* --- double width, for lazy reduction (wide384.h) ---------------------------------- */

/* out[0..12) = x * y, the 768-bit product: the rows of mulmont384_mulx_limbs without
 * the reduction. Each row adds x[i] * y one limb up; the limb below it is final. */
static inline INLINED_WHERE_CALLED NO_FAKE_STACK void
mul384x384_mulx(limb_t out[2 * LIMBS384], const uint8_t x[BYTES384], const uint8_t y[BYTES384])
{
    limb_t r0, r1, r2, r3, r4, r5, r6, r7, r8, lo, hi;
    const uint8_t *yp = y;
    __asm__(
        "movq " OP(xm) ", %%rdx\n\t"
        "movq 0(%%rdx), %%rdx\n\t"
        "xorl " OP32(r7) ", " OP32(r7) "\n\t"
        FIRST_ROW(r0, r1, r2, r3, r4, r5, r6)
        "movq " OP(r0) ", " OP(o0) "\n\t"
        NEXT_ROW(8, r1, r2, r3, r4, r5, r6, r7, r8)
        "movq " OP(r1) ", " OP(o1) "\n\t"
        NEXT_ROW(16, r2, r3, r4, r5, r6, r7, r8, r0)
        "movq " OP(r2) ", " OP(o2) "\n\t"
        NEXT_ROW(24, r3, r4, r5, r6, r7, r8, r0, r1)
        "movq " OP(r3) ", " OP(o3) "\n\t"
        NEXT_ROW(32, r4, r5, r6, r7, r8, r0, r1, r2)
        "movq " OP(r4) ", " OP(o4) "\n\t"
        NEXT_ROW(40, r5, r6, r7, r8, r0, r1, r2, r3)
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),
          [r4] "=&r"(r4), [r5] "=&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7), [r8] "=&r"(r8),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [yp] "+&r"(yp),
          [o0] "=m"(out[0]), [o1] "=m"(out[1]), [o2] "=m"(out[2]), [o3] "=m"(out[3]),
          [o4] "=m"(out[4])
        : [xm] "m"(x)
        : "rdx", "cc", "memory");
    /* the product's limbs 5..11; r3 took the last row's carry out of limb 11: zero */
    out[5] = r5, out[6] = r6, out[7] = r7, out[8] = r8;
    out[9] = r0, out[10] = r1, out[11] = r2;
    (void)r3, (void)hi;
}

/* out = (t + m * mod) / 2^384 for the m < 2^384 that makes the sum divisible: the six
 * reduction rows of mulmont384_mulx_limbs on t alone (t < 2^384, so out <= mod, and
 * every intermediate sum stays below 2^448: seven limbs, the seventh zero after the
 * shift). The caller adds the high half of a 768-bit value and subtracts mod. */
static inline INLINED_WHERE_CALLED NO_FAKE_STACK void
redc384_low_mulx(limb_t out[LIMBS384], const limb_t t[LIMBS384],
                 const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t r0 = t[0], r1 = t[1], r2 = t[2], r3 = t[3], r4 = t[4], r5 = t[5], r6, r7, lo, hi;
    limb_t saved;
    __asm__(
        "xorl " OP32(r6) ", " OP32(r6) "\n\t"
        "xorl " OP32(r7) ", " OP32(r7) "\n\t"
        REDUCTION_FACTOR(r0)
        REDUCE_ROW(r0, r1, r2, r3, r4, r5, r6, r7)
        "xorl " OP32(r0) ", " OP32(r0) "\n\t"
        REDUCTION_FACTOR(r1)
        REDUCE_ROW(r1, r2, r3, r4, r5, r6, r7, r0)
        "xorl " OP32(r1) ", " OP32(r1) "\n\t"
        REDUCTION_FACTOR(r2)
        REDUCE_ROW(r2, r3, r4, r5, r6, r7, r0, r1)
        "xorl " OP32(r2) ", " OP32(r2) "\n\t"
        REDUCTION_FACTOR(r3)
        REDUCE_ROW(r3, r4, r5, r6, r7, r0, r1, r2)
        "xorl " OP32(r3) ", " OP32(r3) "\n\t"
        REDUCTION_FACTOR(r4)
        REDUCE_ROW(r4, r5, r6, r7, r0, r1, r2, r3)
        "xorl " OP32(r4) ", " OP32(r4) "\n\t"
        REDUCTION_FACTOR(r5)
        REDUCE_ROW(r5, r6, r7, r0, r1, r2, r3, r4)
        : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3),
          [r4] "+&r"(r4), [r5] "+&r"(r5), [r6] "=&r"(r6), [r7] "=&r"(r7),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [saved] "=&m"(saved)
        : [mp] "r"(mod_inv)
        : "rdx", "cc", "memory");
    /* the result in r6, r7, r0, r1, r2, r3; r4 (its seventh limb) is zero */
    out[0] = r6, out[1] = r7, out[2] = r0, out[3] = r1, out[4] = r2, out[5] = r3;
}

#undef OP
#undef INLINED_WHERE_CALLED
#undef OP32
#undef FIRST_ROW
#undef REDUCTION_FACTOR
#undef MULX_ADD
#undef NEXT_ROW
#undef REDUCE_ROW
#undef CARRY_INTO
#undef ROUND
#undef NO_FAKE_STACK
#endif /* __x86_64__ */

#endif
