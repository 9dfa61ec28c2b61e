/* The exported MULX/ADX Montgomery multiplication (mont384_mulx.h has the
 * kernel and how it works). */
#include "mont384_mulx.h"

#if defined(__x86_64__)
void mulmont384_mulx(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                     const uint8_t y[BYTES384], const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    mulmont384_mulx_inline(out, x, y, mod_inv);
}
#endif
