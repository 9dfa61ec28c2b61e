/* The EVMMAX Montgomery products compiled for BMI2 + ADX (x86-64), so that the
 * 64x64-bit products become MULX; only called after cpu_features reports both,
 * so the rest of the build stays baseline x86-64. The 6-limb product is the
 * hand-scheduled MULX/ADCX/ADOX kernel of mont384_mulx.c. */
#if defined(__x86_64__)
#include "evmmax_kernels.h"
#include "mont384.h"

#define MULX_MUL(N) EVMMAX_DEFINE_MUL(mulx_mul, __attribute__((target("bmi2,adx"))), N)

EVMMAX_FOR_ALL_BUT_6(MULX_MUL)

static void mulx_mul_6(limb_t *out, const limb_t *x, const limb_t *y,
                       const struct evmmax_context *ctx)
{
    mulmont384_mulx((uint8_t *)out, (const uint8_t *)x, (const uint8_t *)y,
                    (const uint8_t *)ctx->mod_inv);
}

evmmax_kernel_row evmmax_mulx_mul_kernels = EVMMAX_ROW(mulx_mul, mulx_mul_6);
#endif
