/* x86-64 6-limb Montgomery squaring with MULX and the ADCX (CF) / ADOX (OF) carry chains,
 * for the MULMODX elements whose two operands are one register (BLS12-381's inversions
 * and square roots by exponentiation are mostly these). The 768-bit square t takes the 15
 * off-diagonal products once, doubled by shifts, plus the 6 diagonal ones (21 word products
 * where the product's rows take 36); then the six reduction rows of t's low half, its high
 * half added and one conditional subtraction, all in one block (composed of wide384.h's
 * pieces it was slower than the product: bench/README.md, issue 44). Only called after
 * cpu_features reports BMI2 and ADX, as mont384_mulx.h. */
#ifndef EVM384_SQR384_MULX_H
#define EVM384_SQR384_MULX_H

#if defined(__x86_64__)
#include "mont384_mulx.h"

#define OP(name) "%[" #name "]"
#define OP32(name) "%k[" #name "]"

/* lo:hi = rdx * x[OFF/8]; lo added into LO_DST by LO_ADD, hi into HI_DST by HI_ADD. */
#define SQR_MULX_ADD(OFF, LO_ADD, LO_DST, HI_ADD, HI_DST)                 \
    "mulxq " #OFF "(" OP(xp) "), " OP(lo) ", " OP(hi) "\n\t"              \
    LO_ADD " " OP(lo) ", " OP(LO_DST) "\n\t"                              \
    HI_ADD " " OP(hi) ", " OP(HI_DST) "\n\t"

/* Limbs LO_DST, HI_DST += x[OFF/8]^2 on the CF chain (mov and mulx keep the flags). */
#define SQR_DIAG_ADD(OFF, LO_DST, HI_DST)                                 \
    "movq " #OFF "(" OP(xp) "), %%rdx\n\t"                                \
    "mulxq %%rdx, " OP(hi) ", %%rdx\n\t"                                  \
    "adcq " OP(hi) ", " OP(LO_DST) "\n\t"                                 \
    "adcq %%rdx, " OP(HI_DST) "\n\t"

/* lo:hi = rdx * mod[OFF/8] (mod_inv's pointer in s10), added as MULX_ADD does. */
#define SQR_MOD_ADD(OFF, LO_ADD, LO_DST, HI_ADD, HI_DST)                  \
    "mulxq " #OFF "(" OP(s10) "), " OP(lo) ", " OP(hi) "\n\t"             \
    LO_ADD " " OP(lo) ", " OP(LO_DST) "\n\t"                              \
    HI_ADD " " OP(hi) ", " OP(HI_DST) "\n\t"

/* acc = (A0 + 2^64 acc[A1..A7] + u * mod) / 2^64 with u = A0 * inv: mont384_mulx.h's
 * REDUCE_ROW, but u goes straight into rdx and A0 (a register or memory operand) keeps
 * the old limb, whose carry into A1 is all that survives the shift. A7 (the limb above,
 * the last row's A0) is zeroed first. */
#define SQR_REDUCE_ROW(A0, A1, A2, A3, A4, A5, A6, A7)                    \
    "xorl " OP32(A7) ", " OP32(A7) "\n\t"                                  \
    "movq " A0 ", %%rdx\n\t"                                              \
    "imulq 48(" OP(s10) "), %%rdx\n\t"                                    \
    "xorl " OP32(lo) ", " OP32(lo) "\n\t" /* clears CF and OF */          \
    "mulxq 0(" OP(s10) "), " OP(lo) ", " OP(hi) "\n\t"                     \
    "adcxq " A0 ", " OP(lo) "\n\t" /* only its carry is kept */            \
    "adoxq " OP(hi) ", " OP(A1) "\n\t"                                    \
    SQR_MOD_ADD(8, "adcxq", A1, "adoxq", A2)                              \
    SQR_MOD_ADD(16, "adcxq", A2, "adoxq", A3)                             \
    SQR_MOD_ADD(24, "adcxq", A3, "adoxq", A4)                             \
    SQR_MOD_ADD(32, "adcxq", A4, "adoxq", A5)                             \
    SQR_MOD_ADD(40, "adcxq", A5, "adoxq", A6)                             \
    "movl $0, " OP32(lo) "\n\t"                                           \
    "adcxq " OP(lo) ", " OP(A6) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(A7) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A7) "\n\t"

/* out = x^2 / 2^384 mod mod, for x < mod (every EVMMAX register holds one). The rows'
 * bound: after row i the partial off-diagonal sum is below 2^(64(i+7)), so each row's
 * carries end in its new top limb; s < 2^704 and t = 2 s + the diagonal < 2^768. t < mod^2
 * makes t's high half < mod. Fourteen registers with rdx: not in the sanitizer build, which
 * keeps the frame pointer (evmmax.c calls it where the EVM384 kernels are inlined). */
static inline __attribute__((always_inline)) void
sqrmont384_mulx_inline(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                       const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, lo, hi, h[LIMBS384], t0;
    uintptr_t xp = (uintptr_t)x;
    __asm__(
        /* s = the off-diagonal sum, row i = x_i * x_{i+1..5} at limbs 2i+1..i+6 */
        "movq 0(" OP(xp) "), %%rdx\n\t"
        "mulxq 8(" OP(xp) "), " OP(s1) ", " OP(s2) "\n\t"
        "mulxq 16(" OP(xp) "), " OP(lo) ", " OP(s3) "\n\t"
        "addq " OP(lo) ", " OP(s2) "\n\t"
        "mulxq 24(" OP(xp) "), " OP(lo) ", " OP(s4) "\n\t"
        "adcq " OP(lo) ", " OP(s3) "\n\t"
        "mulxq 32(" OP(xp) "), " OP(lo) ", " OP(s5) "\n\t"
        "adcq " OP(lo) ", " OP(s4) "\n\t"
        "mulxq 40(" OP(xp) "), " OP(lo) ", " OP(s6) "\n\t"
        "adcq " OP(lo) ", " OP(s5) "\n\t"
        "adcq $0, " OP(s6) "\n\t"
        "movq 8(" OP(xp) "), %%rdx\n\t"
        "xorl " OP32(s7) ", " OP32(s7) "\n\t" /* also clears CF and OF */
        SQR_MULX_ADD(16, "adoxq", s3, "adcxq", s4)
        SQR_MULX_ADD(24, "adoxq", s4, "adcxq", s5)
        SQR_MULX_ADD(32, "adoxq", s5, "adcxq", s6)
        SQR_MULX_ADD(40, "adoxq", s6, "adcxq", s7)
        "movl $0, " OP32(lo) "\n\t" /* mov keeps the flags */
        "adoxq " OP(lo) ", " OP(s7) "\n\t"
        "movq 16(" OP(xp) "), %%rdx\n\t"
        "xorl " OP32(s8) ", " OP32(s8) "\n\t"
        SQR_MULX_ADD(24, "adoxq", s5, "adcxq", s6)
        SQR_MULX_ADD(32, "adoxq", s6, "adcxq", s7)
        SQR_MULX_ADD(40, "adoxq", s7, "adcxq", s8)
        "movl $0, " OP32(lo) "\n\t"
        "adoxq " OP(lo) ", " OP(s8) "\n\t"
        "movq 24(" OP(xp) "), %%rdx\n\t"
        "xorl " OP32(s9) ", " OP32(s9) "\n\t"
        SQR_MULX_ADD(32, "adoxq", s7, "adcxq", s8)
        SQR_MULX_ADD(40, "adoxq", s8, "adcxq", s9)
        "movl $0, " OP32(lo) "\n\t"
        "adoxq " OP(lo) ", " OP(s9) "\n\t"
        "movq 32(" OP(xp) "), %%rdx\n\t"
        "mulxq 40(" OP(xp) "), " OP(lo) ", " OP(s10) "\n\t"
        "addq " OP(lo) ", " OP(s9) "\n\t"
        "adcq $0, " OP(s10) "\n\t"
        /* 2 s by shifts (off the carry ports), limbs 11..1, each before its lower
         * neighbour changes; lo becomes limb 11 */
        "xorl " OP32(lo) ", " OP32(lo) "\n\t"
        "shldq $1, " OP(s10) ", " OP(lo) "\n\t" "shldq $1, " OP(s9) ", " OP(s10) "\n\t"
        "shldq $1, " OP(s8) ", " OP(s9) "\n\t" "shldq $1, " OP(s7) ", " OP(s8) "\n\t"
        "shldq $1, " OP(s6) ", " OP(s7) "\n\t" "shldq $1, " OP(s5) ", " OP(s6) "\n\t"
        "shldq $1, " OP(s4) ", " OP(s5) "\n\t" "shldq $1, " OP(s3) ", " OP(s4) "\n\t"
        "shldq $1, " OP(s2) ", " OP(s3) "\n\t" "shldq $1, " OP(s1) ", " OP(s2) "\n\t"
        "addq " OP(s1) ", " OP(s1) "\n\t"
        /* + the diagonal x_i^2 at limbs 2i, 2i+1, one carry chain; t0 to memory */
        "movq 0(" OP(xp) "), %%rdx\n\t"
        "mulxq %%rdx, " OP(hi) ", %%rdx\n\t"
        "movq " OP(hi) ", " OP(t0m) "\n\t"
        "addq %%rdx, " OP(s1) "\n\t"
        SQR_DIAG_ADD(8, s2, s3)
        SQR_DIAG_ADD(16, s4, s5)
        SQR_DIAG_ADD(24, s6, s7)
        SQR_DIAG_ADD(32, s8, s9)
        SQR_DIAG_ADD(40, s10, lo)
        /* the high half t6..t11 to memory; the low half t0..t5 = t0m, s1..s5 is reduced
         * as redc384_low_mulx does it, with mod_inv's pointer in s10 */
        "movq " OP(s6) ", " OP(h0) "\n\t" "movq " OP(s7) ", " OP(h1) "\n\t"
        "movq " OP(s8) ", " OP(h2) "\n\t" "movq " OP(s9) ", " OP(h3) "\n\t"
        "movq " OP(s10) ", " OP(h4) "\n\t" "movq " OP(lo) ", " OP(h5) "\n\t"
        "movq " OP(mm) ", " OP(s10) "\n\t"
        "xorl " OP32(s6) ", " OP32(s6) "\n\t"
        SQR_REDUCE_ROW(OP(t0m), s1, s2, s3, s4, s5, s6, s7)
        SQR_REDUCE_ROW(OP(s1), s2, s3, s4, s5, s6, s7, xp)
        SQR_REDUCE_ROW(OP(s2), s3, s4, s5, s6, s7, xp, s1)
        SQR_REDUCE_ROW(OP(s3), s4, s5, s6, s7, xp, s1, s2)
        SQR_REDUCE_ROW(OP(s4), s5, s6, s7, xp, s1, s2, s3)
        SQR_REDUCE_ROW(OP(s5), s6, s7, xp, s1, s2, s3, s4)
        /* (t0..t5 + u mod) / 2^384 <= mod is in s6, s7, xp, s1, s2, s3 (s4 zero); + the
         * high half (< mod): below 2 mod, one conditional subtraction */
        "addq " OP(h0) ", " OP(s6) "\n\t"
        "adcq " OP(h1) ", " OP(s7) "\n\t"
        "adcq " OP(h2) ", " OP(xp) "\n\t"
        "adcq " OP(h3) ", " OP(s1) "\n\t"
        "adcq " OP(h4) ", " OP(s2) "\n\t"
        "adcq " OP(h5) ", " OP(s3) "\n\t"
        "adcq $0, " OP(s4) "\n\t"
        MULX384_SUBTRACT_IF_NOT_BELOW(OP(s10), OP(s6), OP(s7), OP(xp), OP(s1), OP(s2), OP(s3),
                                      OP(s4), OP(s5), OP(s8), OP(s9), OP(lo), OP(hi), "%%rdx")
        : [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4), [s5] "=&r"(s5),
          [s6] "=&r"(s6), [s7] "=&r"(s7), [s8] "=&r"(s8), [s9] "=&r"(s9), [s10] "=&r"(s10),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [xp] "+&r"(xp),
          [h0] "=&m"(h[0]), [h1] "=&m"(h[1]), [h2] "=&m"(h[2]), [h3] "=&m"(h[3]),
          [h4] "=&m"(h[4]), [h5] "=&m"(h[5]), [t0m] "=&m"(t0)
        : [mm] "m"(mod_inv)
        : "rdx", "cc", "memory");
    const limb_t result[LIMBS384] = {s6, s7, (limb_t)xp, s1, s2, s3};
    store_limbs384(out, result); /* after every read: out may be x */
}


#undef OP
#undef OP32
#undef SQR_MULX_ADD
#undef SQR_DIAG_ADD
#undef SQR_MOD_ADD
#undef SQR_REDUCE_ROW
#endif /* __x86_64__ */

#endif
