/* Implementation selection, EVM-memory adapters and batch loops. */
#include "evm384.h"
#include "cpu_features.h"
#include "evm384_mem.h"

static mulmont384_fn *mulmont384_selected = NULL;

int evm384_mulx_available(void)
{
#if defined(__x86_64__)
    return cpu_has_mulx_adx();
#else
    return 0;
#endif
}

int evm384_select_implementation(int requested)
{
    if (requested == EVM384_IMPL_AUTO)
        requested = evm384_mulx_available() ? EVM384_IMPL_MULX : EVM384_IMPL_PORTABLE;
    switch (requested) {
    case EVM384_IMPL_PORTABLE:
        mulmont384_selected = mulmont384_portable;
        return EVM384_IMPL_PORTABLE;
#if defined(__x86_64__)
    case EVM384_IMPL_MULX:
        if (!evm384_mulx_available())
            return -1;
        mulmont384_selected = mulmont384_mulx;
        return EVM384_IMPL_MULX;
#endif
    default:
        return -1;
    }
}

mulmont384_fn *selected_mulmont(void)
{
    if (mulmont384_selected == NULL)
        evm384_select_implementation(EVM384_IMPL_AUTO);
    return mulmont384_selected;
}

int evm384_current_implementation(void)
{
    return selected_mulmont() == mulmont384_portable ? EVM384_IMPL_PORTABLE : EVM384_IMPL_MULX;
}

int evm384_addmod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    return addmod384_mem(mem, len, out, x, y, mod);
}

int evm384_submod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    return submod384_mem(mem, len, out, x, y, mod);
}

int evm384_mulmodmont384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                             uint64_t y, uint64_t mod)
{
    return mulmont384_mem(selected_mulmont(), mem, len, out, x, y, mod);
}

/* Batches: rows of six uint64 limbs are, on a little-endian host, exactly the
 * 48-byte values the kernels read (kernel.py refuses big-endian hosts). */
void evm384_addmod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod)
{
    for (size_t i = 0; i < n; i++)
        addmod384((uint8_t *)(out + LIMBS384 * i), (const uint8_t *)(x + LIMBS384 * i),
                  (const uint8_t *)(y + LIMBS384 * i), (const uint8_t *)mod);
}

void evm384_submod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod)
{
    for (size_t i = 0; i < n; i++)
        submod384((uint8_t *)(out + LIMBS384 * i), (const uint8_t *)(x + LIMBS384 * i),
                  (const uint8_t *)(y + LIMBS384 * i), (const uint8_t *)mod);
}

void evm384_mulmont384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                             size_t n, const uint64_t *mod, uint64_t inv)
{
    mulmont384_fn *mulmont = selected_mulmont();
    uint8_t mod_inv[MODULUS_WITH_INV_BYTES];
    memcpy(mod_inv, mod, BYTES384);
    store_le64(mod_inv + BYTES384, inv);
    for (size_t i = 0; i < n; i++)
        mulmont((uint8_t *)(out + LIMBS384 * i), (const uint8_t *)(x + LIMBS384 * i),
                (const uint8_t *)(y + LIMBS384 * i), mod_inv);
}
