/* Runs a straight-line block of EVM384 operations in one call (the interpreter
 * decodes PUSH + ADDMOD384/SUBMOD384/MULMODMONT384 runs into these records). */
#ifndef EVM384_BLOCK_H
#define EVM384_BLOCK_H

#include <stddef.h>
#include <stdint.h>

/* EVM opcode bytes, used as the record's first field. */
enum evm384_opcode {
    EVM384_OP_ADDMOD384 = 0xc0,
    EVM384_OP_SUBMOD384 = 0xc1,
    EVM384_OP_MULMODMONT384 = 0xc2,
};

/* One record is five uint32: opcode, out, x, y, mod (byte offsets into mem). */
#define EVM384_RECORD_FIELDS 5

/* Runs records[0..n) in order on mem[0..len). Returns n when all ran, else the
 * index of the first record that did not run (an operand range outside the
 * buffer or an unknown opcode); memory then holds the results of the records
 * before it. Never touches memory outside mem[0..len). */
size_t evm384_run_records(uint8_t *mem, size_t len, const uint32_t *records, size_t n);

#endif
