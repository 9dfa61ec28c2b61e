/* The 12-limb EVMMAX Montgomery product for MULX + ADX: mont768_mulx.h's kernel behind the
 * kernel rows' signature (evmmax_mulx.c's row takes it). A translation unit of its own:
 * GCC gives its optimize attribute's rbp to the kernel here, but not next to
 * evmmax_mulx.c's 4-limb kernel (an "impossible constraints" error when the frame
 * pointer is kept, as in the sanitizer build). */
#if defined(__x86_64__)
#include "evmmax_kernels.h"

#if defined(EVMMAX_MULX768)
#include "mont768_mulx.h"

void evmmax_mulx768_mul(limb_t *out, const limb_t *x, const limb_t *y,
                        const struct evmmax_context *ctx)
{
    mont768_mulx(out, x, y, ctx->mod_inv);
}
#endif
#endif
