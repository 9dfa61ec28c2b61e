/* Portable C Montgomery multiplication (any 64-bit GCC/Clang target): the fused
 * CIOS of mont_cios.h on 48-byte values in EVM memory. */
#include "mont384.h"
#include "mont_cios.h"

void mulmont384_portable(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                         const uint8_t y[BYTES384],
                         const uint8_t mod_inv[MODULUS_WITH_INV_BYTES])
{
    mont_mul_cios(out, x, y, mod_inv, load_le64(mod_inv + BYTES384), LIMBS384, LIMBS_LE_BYTES);
}
