/* One native call for a whole run of EVM384 operations: the cffi call costs more
 * than the arithmetic, so the interpreter batches straight-line runs here. The
 * arithmetic is the inline kernels of mont384.h; each record's operands are checked
 * against the memory's length first. */
#include "evm384_block.h"
#include "mont384.h"
#include "mont384_mulx.h"

/* Inlined at each use (always_inline), so a constant `mulmont` is inlined too. */
static inline __attribute__((always_inline)) size_t
run_records(mulmont384_fn *mulmont, uint8_t *mem, size_t len, const uint32_t *records,
            size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const uint32_t *r = records + EVM384_RECORD_FIELDS * i;
        /* 32-bit offsets plus a few bytes cannot overflow 64 bits: one bound each */
        uint64_t out = r[1], x = r[2], y = r[3], mod = r[4];
        int in_range = out + BYTES384 <= len && x + BYTES384 <= len && y + BYTES384 <= len;
        switch (r[0]) {
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
