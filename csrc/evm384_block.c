/* One native call for a whole run of EVM384 operations: the cffi call costs more
 * than the arithmetic, so the interpreter batches straight-line runs here. The
 * arithmetic and bounds checks are the inline opcode adapters of evm384_mem.h. */
#include "evm384_block.h"
#include "evm384_mem.h"

size_t evm384_run_records(uint8_t *mem, size_t len, const uint32_t *records, size_t n)
{
    mulmont384_fn *const mulmont = selected_mulmont();
    for (size_t i = 0; i < n; i++) {
        const uint32_t *r = records + EVM384_RECORD_FIELDS * i;
        int status;
        switch (r[0]) {
        case EVM384_OP_ADDMOD384:
            status = addmod384_mem(mem, len, r[1], r[2], r[3], r[4]);
            break;
        case EVM384_OP_SUBMOD384:
            status = submod384_mem(mem, len, r[1], r[2], r[3], r[4]);
            break;
        case EVM384_OP_MULMODMONT384:
            status = mulmont384_mem(mulmont, mem, len, r[1], r[2], r[3], r[4]);
            break;
        default:
            return i;
        }
        if (status != EVM384_OK)
            return i;
    }
    return n;
}
