/* What the fast engine's loop (evm_fast.c) shares with the C modules of the opcode
 * sets' own instructions (evm_fast_evmmax.c): gas arithmetic and the convention for
 * "go on with the next instruction". Internal: not part of the cffi API. */
#ifndef EVM_FAST_GAS_H
#define EVM_FAST_GAS_H

#include <stdint.h>

#include "evm_fast.h"

#define EVM_CONTINUE (-1) /* an instruction's helper returns this or an evm_status */
#define WORD_BYTES 32
#define MEMORY_WORD_GAS 3
#define MEMORY_QUADRATIC_DIVISOR 512
#define COPY_WORD_GAS 3

static inline uint64_t words(uint64_t bytes)
{
    return (bytes + WORD_BYTES - 1) / WORD_BYTES;
}

/* The yellow paper's C_mem of a memory of `words` words. */
static inline uint64_t memory_cost(uint64_t words)
{
    return MEMORY_WORD_GAS * words + words * words / MEMORY_QUADRATIC_DIVISOR;
}

static inline int charge(evm_frame *f, uint64_t cost)
{
    if (cost > (uint64_t)f->gas)
        return EVM_OUT_OF_GAS;
    f->gas -= (int64_t)cost;
    return EVM_CONTINUE;
}

#endif
