/* The EVMMAX Montgomery products for MULX + ADX (x86-64): CIOS with the two
 * carry chains of ADCX (CF) and ADOX (OF). Only called after cpu_features reports
 * BMI2 and ADX; the assembler accepts these mnemonics without any -m flag, so
 * the rest of the build stays baseline x86-64. The 4-limb product (BN254,
 * secp256k1/r1, 256-bit fields) and the 6-limb one (BLS12-381, the kernel of
 * mont384_mulx.c) keep the whole accumulator in registers, and so does the 12-limb
 * one (BW6-761, mont768_mulx.h, where GCC builds it); the other sizes use one
 * assembler row per multiplier word over a memory accumulator, which lets one row serve
 * every limb count. */
#if defined(__x86_64__)
#include "evmmax_kernels.h"
#include "mont256_mulx.h"
#include "mont384.h"

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

#define MULX_ROWS(NAME, N)                                                                \
    static void NAME(limb_t *out, const limb_t *x, const limb_t *y,                         \
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

#define MULX_MUL(N) MULX_ROWS(mulx_mul_##N, N)
MULX_MUL(2) MULX_MUL(3) MULX_MUL(5) MULX_MUL(7) MULX_MUL(8) MULX_MUL(9)
MULX_MUL(10) MULX_MUL(11)
#if defined(EVMMAX_MULX768)
#define mulx_mul_12 evmmax_mulx768_mul /* the row's entry: evmmax_mulx768.c */
#else
MULX_MUL(12)
#endif

/* The 4-limb product, ordered as the 6-limb kernel of mont384_mulx.h is (its
 * comment has the why and the proof that it is the same integer as textbook
 * CIOS): right after u = acc[0] * inv, the next row x[i+1] * y is added one limb
 * up, then u * mod. Bounds (x, y, mod < 2^256): the sum stays below
 * 2^384 + 2^64 * mod, seven limbs, so seven accumulator registers rotate
 * through the rounds. */
#define OP(name) "%[" #name "]"
#define OP32(name) "%k[" #name "]"

/* lo:hi = rdx * SRC[OFF/8]; lo added into LO_DST by LO_ADD, hi into HI_DST by
 * HI_ADD (adcxq rides CF, adoxq OF). */
#define MULX_ADD4(SRC, OFF, LO_ADD, LO_DST, HI_ADD, HI_DST)               \
    "mulxq " #OFF "(" OP(SRC) "), " OP(lo) ", " OP(hi) "\n\t"             \
    LO_ADD " " OP(lo) ", " OP(LO_DST) "\n\t"                              \
    HI_ADD " " OP(hi) ", " OP(HI_DST) "\n\t"

/* acc[A0..A4] = x[0] * y, with rdx = x[0]. */
#define FIRST_ROW4(A0, A1, A2, A3, A4)                                    \
    "mulxq 0(" OP(yp) "), " OP(A0) ", " OP(A1) "\n\t"                     \
    "mulxq 8(" OP(yp) "), " OP(lo) ", " OP(A2) "\n\t"                     \
    "addq " OP(lo) ", " OP(A1) "\n\t"                                     \
    "mulxq 16(" OP(yp) "), " OP(lo) ", " OP(A3) "\n\t"                    \
    "adcq " OP(lo) ", " OP(A2) "\n\t"                                     \
    "mulxq 24(" OP(yp) "), " OP(lo) ", " OP(A4) "\n\t"                    \
    "adcq " OP(lo) ", " OP(A3) "\n\t"                                     \
    "adcq $0, " OP(A4) "\n\t"

/* A0 = u = A0 * inv (inv follows the modulus limbs); the old A0 is kept in
 * `saved` for the carry it makes. */
#define REDUCTION_FACTOR4(A0)                                             \
    "movq " OP(A0) ", " OP(saved) "\n\t"                                  \
    "imulq 32(" OP(mp) "), " OP(A0) "\n\t"

/* acc[A1..A6] += x[XOFF/8] * y (one limb up); A6 starts at zero. Low halves
 * ride OF, high halves CF. */
#define NEXT_ROW4(XOFF, A1, A2, A3, A4, A5, A6)                           \
    "movq " OP(xm) ", %%rdx\n\t"                                          \
    "movq " #XOFF "(%%rdx), %%rdx\n\t"                                    \
    "xorl " OP32(A6) ", " OP32(A6) "\n\t" /* also clears CF and OF */     \
    MULX_ADD4(yp, 0, "adoxq", A1, "adcxq", A2)                            \
    MULX_ADD4(yp, 8, "adoxq", A2, "adcxq", A3)                            \
    MULX_ADD4(yp, 16, "adoxq", A3, "adcxq", A4)                           \
    MULX_ADD4(yp, 24, "adoxq", A4, "adcxq", A5)                           \
    "movl $0, " OP32(lo) "\n\t" /* mov keeps the flags */                 \
    "adoxq " OP(lo) ", " OP(A5) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A6) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(A6) "\n\t"

/* acc = (saved + 2^64 acc[A1..A5] + u * mod) / 2^64 with u in U: only the
 * carry of saved + low(u * mod[0]) survives the shift. Both chains' carries
 * out of A5 are left in CF and OF, lo zero (see CARRY_INTO4). */
#define REDUCE_ROW4(U, A1, A2, A3, A4, A5)                                \
    "movq " OP(U) ", %%rdx\n\t"                                           \
    "xorl " OP32(lo) ", " OP32(lo) "\n\t" /* clears CF and OF */          \
    "mulxq 0(" OP(mp) "), " OP(lo) ", " OP(hi) "\n\t"                     \
    "adcxq " OP(saved) ", " OP(lo) "\n\t" /* only its carry is kept */     \
    "adoxq " OP(hi) ", " OP(A1) "\n\t"                                    \
    MULX_ADD4(mp, 8, "adcxq", A1, "adoxq", A2)                            \
    MULX_ADD4(mp, 16, "adcxq", A2, "adoxq", A3)                           \
    MULX_ADD4(mp, 24, "adcxq", A3, "adoxq", A4)                           \
    "movl $0, " OP32(lo) "\n\t"                                           \
    "adcxq " OP(lo) ", " OP(A4) "\n\t"                                    \
    "adoxq " OP(lo) ", " OP(A5) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A5) "\n\t"

/* A6 += CF + OF, lo being zero. */
#define CARRY_INTO4(A6)                                                   \
    "adoxq " OP(lo) ", " OP(A6) "\n\t"                                    \
    "adcxq " OP(lo) ", " OP(A6) "\n\t"

/* One round: u from acc[0], the next row, the reduction. The accumulator
 * moves from A0..A5 to A1..A6: the next round passes the registers rotated. */
#define ROUND4(NEXT_XOFF, A0, A1, A2, A3, A4, A5, A6)                     \
    REDUCTION_FACTOR4(A0)                                                 \
    NEXT_ROW4(NEXT_XOFF, A1, A2, A3, A4, A5, A6)                          \
    REDUCE_ROW4(A0, A1, A2, A3, A4, A5)                                   \
    CARRY_INTO4(A6)

/* D = acc limb A minus mod limb OFF; SUB is subq for the first limb, then sbbq. */
#define COPY_SUB4(SUB, A, D, OFF)                                         \
    "movq " OP(A) ", " OP(D) "\n\t"                                       \
    SUB " " #OFF "(" OP(mp) "), " OP(D) "\n\t"

/* Inlined where called here (the Fp2 product below); the row takes its address too. */
static inline __attribute__((always_inline)) void
mulx_mul_4(limb_t *out, const limb_t *x, const limb_t *y, const struct evmmax_context *ctx)
{
    limb_t r0, r1, r2, r3, r4, r5, r6, lo, hi, saved;
    __asm__("movq " OP(xm) ", %%rdx\n\t"
            "movq 0(%%rdx), %%rdx\n\t"
            "xorl " OP32(r5) ", " OP32(r5) "\n\t"
            FIRST_ROW4(r0, r1, r2, r3, r4)
            ROUND4(8, r0, r1, r2, r3, r4, r5, r6)
            ROUND4(16, r1, r2, r3, r4, r5, r6, r0)
            ROUND4(24, r2, r3, r4, r5, r6, r0, r1)
            /* The last round has no next row: its sum has no seventh limb. */
            REDUCTION_FACTOR4(r3)
            REDUCE_ROW4(r3, r4, r5, r6, r0, r1)
            /* acc = r4, r5, r6, r0 with its top bit in r1. acc - mod goes into
             * the registers no longer needed; acc is kept when the subtraction
             * with the top bit borrows (acc < mod). */
            COPY_SUB4("subq", r4, r2, 0)
            COPY_SUB4("sbbq", r5, r3, 8)
            COPY_SUB4("sbbq", r6, lo, 16)
            COPY_SUB4("sbbq", r0, hi, 24)
            "sbbq $0, " OP(r1) "\n\t"
            "cmovncq " OP(r2) ", " OP(r4) "\n\t"
            "cmovncq " OP(r3) ", " OP(r5) "\n\t"
            "cmovncq " OP(lo) ", " OP(r6) "\n\t"
            "cmovncq " OP(hi) ", " OP(r0) "\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3),
              [r4] "=&r"(r4), [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo),
              [hi] "=&r"(hi), [saved] "=&r"(saved)
            : [xm] "m"(x), [yp] "r"(y), [mp] "r"(ctx->mod_inv)
            : "rdx", "cc", "memory");
    /* after every read: out may alias x and y */
    out[0] = r4, out[1] = r5, out[2] = r6, out[3] = r0;
}

#undef OP
#undef OP32
#undef MULX_ADD4
#undef FIRST_ROW4
#undef REDUCTION_FACTOR4
#undef NEXT_ROW4
#undef REDUCE_ROW4
#undef CARRY_INTO4
#undef ROUND4
#undef COPY_SUB4

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

/* With the 512-bit products and reductions inlined: one function, no calls. */
int evmmax_mulx_fp2_product_4(const struct evmmax_context *ctx, uint64_t *regs,
                              const uint8_t *r)
{
    return evmmax_fp2_product_4(ctx, regs, r, 1);
}

/* The kernels of mont256_mulx.h with the element kernels' signature. */
static void p256_mul(limb_t *out, const limb_t *x, const limb_t *y,
                     const struct evmmax_context *ctx)
{
    (void)ctx;
    p256_mul_mulx(out, x, y);
}

static void p256_square(limb_t *out, const limb_t *x, const limb_t *y,
                        const struct evmmax_context *ctx)
{
    (void)y, (void)ctx;
    p256_square_mulx(out, x);
}

static void secp256k1_mul(limb_t *out, const limb_t *x, const limb_t *y,
                          const struct evmmax_context *ctx)
{
    (void)ctx;
    secp256k1_plain_mul_mulx(out, x, y);
}

static void secp256k1_square(limb_t *out, const limb_t *x, const limb_t *y,
                             const struct evmmax_context *ctx)
{
    (void)y, (void)ctx;
    secp256k1_plain_square_mulx(out, x);
}

static void square_4(limb_t *out, const limb_t *x, const limb_t *y,
                     const struct evmmax_context *ctx)
{
    (void)y;
    mont256_square_mulx(out, x, ctx->mod_inv);
}

void evmmax_mulx_select_kernels(struct evmmax_context *ctx)
{
    const size_t bytes = 4 * sizeof(limb_t);
    if (ctx->limbs != 4 || ctx->power_of_two)
        return;
    if (memcmp(ctx->mod_inv, P256_MODULUS, bytes) == 0)
        ctx->mulx_mul = p256_mul, ctx->mulx_square = p256_square;
    else if (ctx->plain_form)
        ctx->mulx_mul = secp256k1_mul, ctx->mulx_square = secp256k1_square;
    else
        ctx->mulx_square = square_4;
}

int evmmax_mulx_fp2_square_4(const struct evmmax_context *ctx, uint64_t *regs,
                             const uint8_t *r)
{
    return evmmax_fp2_square_4(ctx, regs, r, mulx_mul_4);
}

int evmmax_mulx_fp2_xi_product_4(const struct evmmax_context *ctx, uint64_t *regs,
                                 const uint8_t *r, struct evmmax_xi_multiplier *known)
{
    return evmmax_fp2_xi_product_4(ctx, regs, r, known, mulx_mul_4);
}
#endif
