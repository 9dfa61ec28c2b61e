/* Implementation selection, EVM-memory adapters and batch loops. */
#include "evm384.h"
#include "cpu_features.h"
#include "mont384.h"

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

static mulmont384_fn *selected_mulmont(void)
{
    if (mulmont384_selected == NULL)
        evm384_select_implementation(EVM384_IMPL_AUTO);
    return mulmont384_selected;
}

int evm384_current_implementation(void)
{
    return selected_mulmont() == mulmont384_portable ? EVM384_IMPL_PORTABLE : EVM384_IMPL_MULX;
}

/* True when [offset, offset + size) lies inside [0, len), without overflow. */
static int range_fits(size_t len, uint64_t offset, size_t size)
{
    return offset <= len && len - offset >= size;
}

static int check_operands(size_t len, uint64_t out, uint64_t x, uint64_t y,
                          uint64_t mod, size_t mod_size)
{
    if (!range_fits(len, out, BYTES384))
        return EVM384_RANGE_OUT;
    if (!range_fits(len, x, BYTES384))
        return EVM384_RANGE_X;
    if (!range_fits(len, y, BYTES384))
        return EVM384_RANGE_Y;
    if (!range_fits(len, mod, mod_size))
        return EVM384_RANGE_MOD;
    return EVM384_OK;
}

typedef void addsub384_fn(limb_t out[LIMBS384], const limb_t x[LIMBS384],
                          const limb_t y[LIMBS384], const limb_t mod[LIMBS384]);

static int addsub384_mem(addsub384_fn *op, uint8_t *mem, size_t len, uint64_t out,
                         uint64_t x, uint64_t y, uint64_t mod)
{
    int status = check_operands(len, out, x, y, mod, BYTES384);
    if (status != EVM384_OK)
        return status;
    limb_t a[LIMBS384], b[LIMBS384], m[LIMBS384], r[LIMBS384];
    load_limbs384(a, mem + x);
    load_limbs384(b, mem + y);
    load_limbs384(m, mem + mod);
    op(r, a, b, m);
    store_limbs384(mem + out, r);
    return EVM384_OK;
}

int evm384_addmod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    return addsub384_mem(addmod384, mem, len, out, x, y, mod);
}

int evm384_submod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    return addsub384_mem(submod384, mem, len, out, x, y, mod);
}

int evm384_mulmodmont384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                             uint64_t y, uint64_t mod)
{
    int status = check_operands(len, out, x, y, mod, BYTES384 + MONT_CONSTANT_BYTES);
    if (status != EVM384_OK)
        return status;
    limb_t a[LIMBS384], b[LIMBS384], r[LIMBS384];
    montgomery_modulus m;
    load_limbs384(a, mem + x);
    load_limbs384(b, mem + y);
    load_limbs384(m.limbs, mem + mod);
    m.inv = load_le64(mem + mod + BYTES384);
    selected_mulmont()(r, a, b, &m);
    store_limbs384(mem + out, r);
    return EVM384_OK;
}

void evm384_addmod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod)
{
    for (size_t i = 0; i < n; i++)
        addmod384(out + LIMBS384 * i, x + LIMBS384 * i, y + LIMBS384 * i, mod);
}

void evm384_submod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod)
{
    for (size_t i = 0; i < n; i++)
        submod384(out + LIMBS384 * i, x + LIMBS384 * i, y + LIMBS384 * i, mod);
}

void evm384_mulmont384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                             size_t n, const uint64_t *mod, uint64_t inv)
{
    mulmont384_fn *mulmont = selected_mulmont();
    montgomery_modulus m;
    memcpy(m.limbs, mod, sizeof m.limbs);
    m.inv = inv;
    for (size_t i = 0; i < n; i++)
        mulmont(out + LIMBS384 * i, x + LIMBS384 * i, y + LIMBS384 * i, &m);
}
