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
    /* MCOPY with operands fixed when decoding, which the python engine puts between the
     * EVM384 records it joins: out = dest, x = source, y = size (mod unused) */
    EVM384_OP_MCOPY = 0x5e,
};

/* One record is five uint32: opcode, out, x, y, mod (byte offsets into mem). */
#define EVM384_RECORD_FIELDS 5
/* Or'ed into a record's opcode by the host: this record and the next five are an Fp2
 * product (fp2_product.h) whose shape, aliasing and dead t2 the host has proven; it runs
 * as Karatsuba when the values pass its guards, else op by op. The fast engine's flag
 * (EVM_FP2_PRODUCT_GROUP) has the same value. 256: decimal for cffi's cdef. */
#define EVM384_FP2_PRODUCT_GROUP 256
/* Or'ed into a record's opcode by the host: this record and the next 22 are an Fp4
 * squaring (fp4_square.h) whose shape, aliasing and dead temporaries the host has proven;
 * it runs as one step when the values pass its guards, else op by op. The fast engine's
 * flag (EVM_FP4_SQUARE_GROUP) has the same value. */
#define EVM384_FP4_SQUARE_GROUP 512
#define EVM384_FP4_SQUARE_RECORDS 23
/* Or'ed into a record's opcode by the host: this record and the next four are an Fp2
 * squaring (fp2_square.h) whose shape, aliasing and dead temporaries the host has proven;
 * it runs as two products when the values pass its guards, else op by op. The fast
 * engine's flag (EVM_FP2_SQUARE_GROUP) has the same value. */
#define EVM384_FP2_SQUARE_GROUP 1024
#define EVM384_FP2_SQUARE_RECORDS 5

/* Runs records[0..n) in order on mem[0..len) (an MCOPY record as a memmove). Returns
 * n when all ran, else the index of the first record that did not run (an operand
 * range outside the buffer or an unknown opcode); memory then holds the results of
 * the records before it. Never touches memory outside mem[0..len). */
size_t evm384_run_records(uint8_t *mem, size_t len, const uint32_t *records, size_t n);

#endif
