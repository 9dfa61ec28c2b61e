/* The EVMMAX Montgomery products for MULX + ADX (x86-64): CIOS with the two
 * carry chains of ADCX (CF) and ADOX (OF). Only called after cpu_features reports
 * BMI2 and ADX; the assembler accepts these mnemonics without any -m flag, so
 * the rest of the build stays baseline x86-64. The 4-limb product (BN254,
 * secp256k1/r1, 256-bit fields) and the 6-limb one (BLS12-381, the kernel of
 * mont384_mulx.c) keep the whole accumulator in registers; the other sizes use
 * one assembler row per multiplier word over a memory accumulator, which lets
 * one row serve every limb count. */
#if defined(__x86_64__)
#include "evmmax_kernels.h"
#include "mont384.h"
#include "mont256_mulx.h"

/* acc[0..N+1] += rdx * src[0..N-1]: low halves ride CF, high halves OF (via
 * `high`, added one word up). acc[N + 1] takes both chains' final carries. */
#define MULX_ROW(N)                                                                       \
    "xorl %k[high], %k[high]\n\t" /* also clears CF and OF */                             \
    ".set .Lword, 0\n\t"                                                                  \
    ".rept " #N "\n\t"                                                                    \
    "movq .Lword*8(%[acc]), %[t]\n\t"                                                     \
    "mulxq .Lword*8(%[src]), %[low], %[next]\n\t"                                         \
    "adcxq %[low], %[t]\n\t"                                                              \
    "adoxq %[high], %[t]\n\t"                                                             \
    "movq %[t], .Lword*8(%[acc])\n\t"                                                     \
    "movq %[next], %[high]\n\t"                                                           \
    ".set .Lword, .Lword + 1\n\t"                                                         \
    ".endr\n\t"                                                                           \
    "movl $0, %k[low]\n\t" /* mov keeps the flags */                                      \
    "movq " #N "*8(%[acc]), %[t]\n\t"                                                     \
    "adcxq %[low], %[t]\n\t"                                                              \
    "adoxq %[high], %[t]\n\t"                                                             \
    "movq %[t], " #N "*8(%[acc])\n\t"                                                     \
    "movq " #N "*8+8(%[acc]), %[t]\n\t"                                                   \
    "adcxq %[low], %[t]\n\t"                                                              \
    "adoxq %[low], %[t]\n\t"                                                              \
    "movq %[t], " #N "*8+8(%[acc])\n\t"

#define MULX_MUL(N)                                                                       \
    static void mulx_mul_##N(limb_t *out, const limb_t *x, const limb_t *y,                 \
                             const struct evmmax_context *ctx)                              \
    {                                                                                       \
        /* Round i works on acc + i: the CIOS shift is a pointer step. */                   \
        limb_t acc[2 * N + 2] = {0};                                                        \
        limb_t t, low, high, next;                                                          \
        for (int i = 0; i < N; i++) {                                                       \
            limb_t *window = acc + i;                                                       \
            __asm__ volatile(MULX_ROW(N)                                                    \
                             : [t] "=&r"(t), [low] "=&r"(low), [high] "=&r"(high),          \
                               [next] "=&r"(next)                                           \
                             : [acc] "r"(window), [src] "r"(y), "d"(x[i])                   \
                             : "cc", "memory");                                             \
            __asm__ volatile(MULX_ROW(N)                                                    \
                             : [t] "=&r"(t), [low] "=&r"(low), [high] "=&r"(high),          \
                               [next] "=&r"(next)                                           \
                             : [acc] "r"(window), [src] "r"(ctx->mod_inv),                  \
                               "d"(window[0] * ctx->inv)                                    \
                             : "cc", "memory");                                             \
        }                                                                                   \
        reduce_once_n(out, acc + N, acc[2 * N], ctx->mod_inv, N);                           \
    }

MULX_MUL(2) MULX_MUL(3) MULX_MUL(5) MULX_MUL(7) MULX_MUL(8) MULX_MUL(9)
MULX_MUL(10) MULX_MUL(11) MULX_MUL(12)

/* The 4-limb product of mont256_mulx.h (register-resident). */
static void mulx_mul_4(limb_t *out, const limb_t *x, const limb_t *y,
                       const struct evmmax_context *ctx)
{
    mulmont256_mulx_inline(out, x, y, ctx->mod_inv);
}

/* One limb: the plain CIOS is a handful of instructions, faster than a row's set-up. */
static void mulx_mul_1(limb_t *out, const limb_t *x, const limb_t *y,
                       const struct evmmax_context *ctx)
{
    mont_mul_cios(out, x, y, ctx->mod_inv, ctx->inv, 1, LIMBS_NATIVE);
}

static void mulx_mul_6(limb_t *out, const limb_t *x, const limb_t *y,
                       const struct evmmax_context *ctx)
{
    mulmont384_mulx((uint8_t *)out, (const uint8_t *)x, (const uint8_t *)y,
                    (const uint8_t *)ctx->mod_inv);
}

evmmax_kernel_row evmmax_mulx_mul_kernels = EVMMAX_ROW(mulx_mul, mulx_mul_6);

#endif
