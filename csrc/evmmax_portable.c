/* The portable EVMMAX kernels (any 64-bit GCC/Clang target), and the one set
 * of addition and subtraction kernels. */
#include "evmmax_kernels.h"
#include "mont384.h"
#include "secp256k1_plain.h"

#define PORTABLE_MUL(N) EVMMAX_DEFINE_MUL(portable_mul, , N)

EVMMAX_FOR_ALL_BUT_6(EVMMAX_DEFINE_ADD_SUB)
EVMMAX_FOR_ALL_BUT_6(PORTABLE_MUL)

int evmmax_portable_fp2_product_4(const struct evmmax_context *ctx, uint64_t *regs,
                                  const uint8_t *r)
{
    return evmmax_fp2_product_4(ctx, regs, r, 0);
}

int evmmax_portable_fp2_square_4(const struct evmmax_context *ctx, uint64_t *regs,
                                 const uint8_t *r)
{
    return evmmax_fp2_square_4(ctx, regs, r, portable_mul_4);
}

int evmmax_portable_fp2_xi_product_4(const struct evmmax_context *ctx, uint64_t *regs,
                                     const uint8_t *r, struct evmmax_xi_multiplier *known)
{
    return evmmax_fp2_xi_product_4(ctx, regs, r, known, portable_mul_4);
}

#if EVMMAX_REUSE_MONT384
static void add_6(limb_t *out, const limb_t *x, const limb_t *y, const struct evmmax_context *ctx)
{
    addmod384(EVMMAX_AS_BYTES(out), EVMMAX_AS_CONST_BYTES(x), EVMMAX_AS_CONST_BYTES(y),
              EVMMAX_AS_CONST_BYTES(ctx->mod_inv));
}

static void sub_6(limb_t *out, const limb_t *x, const limb_t *y, const struct evmmax_context *ctx)
{
    submod384(EVMMAX_AS_BYTES(out), EVMMAX_AS_CONST_BYTES(x), EVMMAX_AS_CONST_BYTES(y),
              EVMMAX_AS_CONST_BYTES(ctx->mod_inv));
}

static void portable_mul_6(limb_t *out, const limb_t *x, const limb_t *y,
                           const struct evmmax_context *ctx)
{
    mulmont384_portable(EVMMAX_AS_BYTES(out), EVMMAX_AS_CONST_BYTES(x),
                        EVMMAX_AS_CONST_BYTES(y), EVMMAX_AS_CONST_BYTES(ctx->mod_inv));
}
#else
EVMMAX_DEFINE_ADD_SUB(6)
PORTABLE_MUL(6)
#endif

void evmmax_secp256k1_portable_mul(limb_t *out, const limb_t *x, const limb_t *y,
                                   const struct evmmax_context *ctx)
{
    (void)ctx;
    secp256k1_plain_mul_portable(out, x, y);
}

evmmax_kernel_row evmmax_add_kernels = EVMMAX_ROW(add, add_6);
evmmax_kernel_row evmmax_sub_kernels = EVMMAX_ROW(sub, sub_6);
evmmax_kernel_row evmmax_portable_mul_kernels = EVMMAX_ROW(portable_mul, portable_mul_6);
