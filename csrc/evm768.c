/* EVM768 on EVM memory: see evm768.h. The operands are loaded into limbs and handed to
 * the EVMMAX element kernel of 12 limbs that the implementation switch selects (portable
 * or MULX), with a field context made on the fly from the modulus (and inv) in memory. */
#include "evm768.h"

#include "evm384_mem.h"
#include "evm768_apply.h"
#include "evmmax.h"

void evm768_apply(int op, uint8_t *out, const uint8_t *x, const uint8_t *y,
                  const uint8_t *mod_inv)
{
    struct evmmax_context ctx;
    limb_t a[EVM768_LIMBS], b[EVM768_LIMBS], result[EVM768_LIMBS];
    ctx.limbs = EVM768_LIMBS;
    ctx.power_of_two = ctx.plain_form = 0;
    ctx.mulx_mul = ctx.mulx_square = NULL;   /* the limb count's kernels */
    for (int i = 0; i < EVM768_LIMBS; i++) {
        a[i] = load_le64(x + 8 * i);
        b[i] = load_le64(y + 8 * i);
        ctx.mod_inv[i] = load_le64(mod_inv + 8 * i);
    }
    /* only the product reads inv: the 8 bytes after the modulus are not an operand of
     * ADDMOD768 and SUBMOD768, and may lie past memory */
    ctx.inv = op == EVMMAX_OP_MUL ? load_le64(mod_inv + EVM768_BYTES) : 0;
    ctx.mod_inv[EVM768_LIMBS] = ctx.inv;
    evmmax_element_kernel(&ctx, op)(result, a, b, &ctx);
    for (int i = 0; i < EVM768_LIMBS; i++)
        store_le64(out + 8 * i, result[i]);
}

static int run_on_memory(int op, uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    size_t mod_size = op == EVMMAX_OP_MUL ? EVM768_MODULUS_WITH_INV_BYTES : EVM768_BYTES;
    int status = check_operands(len, out, x, y, mod, EVM768_BYTES, mod_size);
    if (status == EVM384_OK)
        evm768_apply(op, mem + out, mem + x, mem + y, mem + mod);
    return status;
}

int evm768_addmod768_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    return run_on_memory(EVMMAX_OP_ADD, mem, len, out, x, y, mod);
}

int evm768_submod768_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod)
{
    return run_on_memory(EVMMAX_OP_SUB, mem, len, out, x, y, mod);
}

int evm768_mulmodmont768_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                             uint64_t y, uint64_t mod)
{
    return run_on_memory(EVMMAX_OP_MUL, mem, len, out, x, y, mod);
}
