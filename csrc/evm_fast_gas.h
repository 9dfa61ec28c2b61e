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

/* The operands of an instruction of EVM384's interface v7 (EVM384's, EVM768's): four
 * 32-bit memory offsets packed into the popped word, out, x, y, mod from bits 96..127 down
 * to 0..31 (lo: bits 0..63, hi: 64..127), and `end`, the first byte past all of them for
 * values of value_size bytes (mod_size at mod). */
struct packed_operands {
    uint64_t out, x, y, mod, end;
};

static inline struct packed_operands unpack_operands(uint64_t lo, uint64_t hi,
                                                     uint64_t value_size, uint64_t mod_size)
{
    struct packed_operands p = {hi >> 32, hi & 0xffffffffu, lo >> 32, lo & 0xffffffffu, 0};
    p.end = p.mod + mod_size;
    if (p.out + value_size > p.end) p.end = p.out + value_size;
    if (p.x + value_size > p.end) p.end = p.x + value_size;
    if (p.y + value_size > p.end) p.end = p.y + value_size;
    return p;
}

/* Charges for and grows memory to cover [0, end), in whole words (evm_fast.c): -1
 * (EVM_CONTINUE), or the halt. */
int evm_fast_expand_to(evm_frame *f, uint64_t end);

static inline int charge(evm_frame *f, uint64_t cost)
{
    if (cost > (uint64_t)f->gas)
        return EVM_OUT_OF_GAS;
    f->gas -= (int64_t)cost;
    return EVM_CONTINUE;
}

#endif
