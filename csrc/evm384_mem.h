/* The opcode adapters on EVM memory, inline: range checks, then the kernel.
 * evm384_ops.c exports them one call per operation. */
#ifndef EVM384_MEM_H
#define EVM384_MEM_H

#include "evm384.h"
#include "mont384.h"

/* True when [offset, offset + size) lies inside [0, len), without overflow. */
static inline int range_fits(size_t len, uint64_t offset, size_t size)
{
    return offset <= len && len - offset >= size;
}

/* The first operand (out, x, y, mod) of value_size bytes (mod_size at mod) outside
 * [0, len), as its enum evm384_status; EVM384_OK if none (EVM768 shares it). */
static inline int check_operands(size_t len, uint64_t out, uint64_t x, uint64_t y,
                                 uint64_t mod, size_t value_size, size_t mod_size)
{
    if (!range_fits(len, out, value_size))
        return EVM384_RANGE_OUT;
    if (!range_fits(len, x, value_size))
        return EVM384_RANGE_X;
    if (!range_fits(len, y, value_size))
        return EVM384_RANGE_Y;
    if (!range_fits(len, mod, mod_size))
        return EVM384_RANGE_MOD;
    return EVM384_OK;
}

static inline int addmod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                                uint64_t y, uint64_t mod)
{
    int status = check_operands(len, out, x, y, mod, BYTES384, BYTES384);
    if (status == EVM384_OK)
        addmod384(mem + out, mem + x, mem + y, mem + mod);
    return status;
}

static inline int submod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                                uint64_t y, uint64_t mod)
{
    int status = check_operands(len, out, x, y, mod, BYTES384, BYTES384);
    if (status == EVM384_OK)
        submod384(mem + out, mem + x, mem + y, mem + mod);
    return status;
}

static inline int mulmont384_mem(mulmont384_fn *mulmont, uint8_t *mem, size_t len,
                                 uint64_t out, uint64_t x, uint64_t y, uint64_t mod)
{
    int status = check_operands(len, out, x, y, mod, BYTES384, MODULUS_WITH_INV_BYTES);
    if (status == EVM384_OK)
        mulmont(mem + out, mem + x, mem + y, mem + mod);
    return status;
}

#endif
