/* One native call for a whole run of EVM384 operations: the cffi call costs more
 * than the arithmetic, so the interpreter batches straight-line runs here. The
 * arithmetic is the inline kernels of mont384.h; each record's operands are checked
 * against the memory's length first. */
#include <string.h>

#include "evm384_block.h"
#include "fp2_product.h"
#include "fp2_square.h"
#include "fp4_square.h"
#include "mont384.h"
#include "mont384_mulx.h"

enum { F = EVM384_RECORD_FIELDS, OPCODE = 0, OUT = 1, X = 2, Y = 3, MOD = 4,
       GROUP_RECORDS = 6 };

/* Every operand of the `records` records at r, and the modulus with its inv, in
 * mem[0..len). */
static inline int group_in_range(const uint32_t *r, size_t len, int records)
{
    if ((uint64_t)r[MOD] + MODULUS_WITH_INV_BYTES > len)
        return 0;
    for (int k = 0; k < records; k++, r += F)
        if ((uint64_t)r[OUT] + BYTES384 > len || (uint64_t)r[X] + BYTES384 > len
            || (uint64_t)r[Y] + BYTES384 > len)
            return 0;
    return 1;
}

/* Inlined at each use (always_inline), so a constant `mulmont` is inlined too. */
static inline __attribute__((always_inline)) size_t
run_records(mulmont384_fn *mulmont, uint8_t *mem, size_t len, const uint32_t *records,
            size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t *r = records + F * i;
        uint32_t opcode = r[OPCODE];
        if (opcode == (EVM384_OP_MULMODMONT384 | EVM384_FP2_PRODUCT_GROUP)) {
            if (i + GROUP_RECORDS <= n && group_in_range(r, len, GROUP_RECORDS)
                && fp2_product_of_records(uses_mulx(mulmont), mem, r, F, OUT)) {
                i += GROUP_RECORDS - 1;
                continue;
            }
            opcode = EVM384_OP_MULMODMONT384; /* a guard failed: op by op */
        } else if (opcode == (EVM384_OP_ADDMOD384 | EVM384_FP4_SQUARE_GROUP)) {
            if (i + EVM384_FP4_SQUARE_RECORDS <= n
                && group_in_range(r, len, EVM384_FP4_SQUARE_RECORDS)
                && fp4_square_of_records(uses_mulx(mulmont), mem, r, F, OUT)) {
                i += EVM384_FP4_SQUARE_RECORDS - 1;
                continue;
            }
            opcode = EVM384_OP_ADDMOD384;
        } else if (opcode == (EVM384_OP_ADDMOD384 | EVM384_FP2_SQUARE_GROUP)) {
            if (i + EVM384_FP2_SQUARE_RECORDS <= n
                && group_in_range(r, len, EVM384_FP2_SQUARE_RECORDS)
                && fp2_square_of_records(mulmont, mem, r, F, OUT)) {
                i += EVM384_FP2_SQUARE_RECORDS - 1;
                continue;
            }
            opcode = EVM384_OP_ADDMOD384;
        }
        /* 32-bit offsets plus a few bytes cannot overflow 64 bits: one bound each */
        uint64_t out = r[OUT], x = r[X], y = r[Y], mod = r[MOD];
        int in_range = out + BYTES384 <= len && x + BYTES384 <= len && y + BYTES384 <= len;
        switch (opcode) {
        case EVM384_OP_ADDMOD384:
            if (!in_range || mod + BYTES384 > len)
                return i;
            addmod384(mem + out, mem + x, mem + y, mem + mod);
            break;
        case EVM384_OP_SUBMOD384:
            if (!in_range || mod + BYTES384 > len)
                return i;
            submod384(mem + out, mem + x, mem + y, mem + mod);
            break;
        case EVM384_OP_MULMODMONT384:
            if (!in_range || mod + MODULUS_WITH_INV_BYTES > len)
                return i;
            mulmont(mem + out, mem + x, mem + y, mem + mod);
            break;
        case EVM384_OP_MCOPY: /* out, x, y: dest, source, size */
            if (out + y > len || x + y > len)
                return i;
            memmove(mem + out, mem + x, (size_t)y);
            break;
        default:
            return i;
        }
    }
    return n;
}

size_t evm384_run_records(uint8_t *mem, size_t len, const uint32_t *records, size_t n)
{
    mulmont384_fn *const mulmont = selected_mulmont();
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
    if (mulmont == mulmont384_mulx) /* the usual choice, inlined (ASan's frame would
                                     * leave the kernel too few registers) */
        return run_records(mulmont384_mulx_inline, mem, len, records, n);
#endif
    return run_records(mulmont, mem, len, records, n);
}
