/* x86-64 CIOS Montgomery multiplication with MULX and the two independent
 * carry chains of ADCX (CF) and ADOX (OF). Only called after cpu_features
 * reports BMI2 and ADX; the assembler accepts these mnemonics without any
 * -m flag, so the rest of the build stays baseline x86-64. */
#if defined(__x86_64__)
#include "mont384.h"

#define OP(name) "%[" #name "]"
#define OP32(name) "%k[" #name "]"

/* acc[A0..A7] += rdx * src[0..5]: low halves ride CF, high halves OF.
 * A7 receives both chains' final carries. */
#define MUL_ADD_ROW(SRC, A0, A1, A2, A3, A4, A5, A6, A7)                  \
    "mulxq 0(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"                    \
    "adcxq " OP(lo) ", " OP(A0) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(A1) "\n\t"                                    \
    "mulxq 8(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"                    \
    "adcxq " OP(lo) ", " OP(A1) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(A2) "\n\t"                                    \
    "mulxq 16(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"                   \
    "adcxq " OP(lo) ", " OP(A2) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(A3) "\n\t"                                    \
    "mulxq 24(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"                   \
    "adcxq " OP(lo) ", " OP(A3) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(A4) "\n\t"                                    \
    "mulxq 32(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"                   \
    "adcxq " OP(lo) ", " OP(A4) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(A5) "\n\t"                                    \
    "mulxq 40(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"                   \
    "adcxq " OP(lo) ", " OP(A5) "\n\t"                                    \
    "adoxq " OP(hi) ", " OP(A6) "\n\t"                                    \
    "movl $0, " OP32(lo) "\n\t" /* mov keeps the flags */                 \
    "adcxq " OP(lo) ", " OP(A6) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(A7) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A7) "\n\t"

/* One CIOS round: acc += x[i]*y; acc = (acc + u*mod) >> 64. The shift is a
 * renaming: the next round passes the registers rotated by one. */
#define CIOS_ROUND(XOFF, A0, A1, A2, A3, A4, A5, A6, A7)                  \
    "xorl " OP32(A7) ", " OP32(A7) "\n\t" /* also clears CF and OF */     \
    "movq " #XOFF "(" OP(xp) "), %%rdx\n\t"                               \
    MUL_ADD_ROW(yp, A0, A1, A2, A3, A4, A5, A6, A7)                       \
    "movq " OP(A0) ", %%rdx\n\t"                                          \
    "imulq 48(" OP(mp) "), %%rdx\n\t" /* inv */                                        \
    "xorl " OP32(lo) ", " OP32(lo) "\n\t"                                 \
    MUL_ADD_ROW(mp, A0, A1, A2, A3, A4, A5, A6, A7)

/* x, y and mod_inv are read in place: x86-64 loads need no alignment. */
void mulmont384_mulx(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                     const uint8_t y[BYTES384], const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    limb_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;
    limb_t lo, hi;
    __asm__ volatile(
        CIOS_ROUND(0, r0, r1, r2, r3, r4, r5, r6, r7)
        CIOS_ROUND(8, r1, r2, r3, r4, r5, r6, r7, r0)
        CIOS_ROUND(16, r2, r3, r4, r5, r6, r7, r0, r1)
        CIOS_ROUND(24, r3, r4, r5, r6, r7, r0, r1, r2)
        CIOS_ROUND(32, r4, r5, r6, r7, r0, r1, r2, r3)
        CIOS_ROUND(40, r5, r6, r7, r0, r1, r2, r3, r4)
        : [r0] "+r"(r0), [r1] "+r"(r1), [r2] "+r"(r2), [r3] "+r"(r3),
          [r4] "+r"(r4), [r5] "+r"(r5), [r6] "+r"(r6), [r7] "+r"(r7),
          [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [xp] "r"(x), [yp] "r"(y), [mp] "r"(mod_inv)
        : "rdx", "cc", "memory");
    /* After six rotations the accumulator's limbs sit in r6, r7, r0..r3 and
     * its top bit in r4. */
    const limb_t acc[LIMBS384] = {r6, r7, r0, r1, r2, r3};
    subtract_mod_if_not_below(out, acc, r4, mod_inv);
}
#endif
