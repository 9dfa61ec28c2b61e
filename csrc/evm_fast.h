/* The "fast" engine: an EVM interpreter loop in C over standalone code.
 *
 * It runs every instruction the host marks native in the opcode table: all that
 * need no world state except INVALID (see evm_fast_implements). It stops with
 * EVM_NEEDS_HOST before any other one (INVALID, an undefined byte, or an opcode
 * needing state; each halts), leaving the frame at that instruction, uncharged
 * and uncounted, for the host to report the halt. Gas, memory expansion and
 * halts follow the Python engine (evm384_native.evm) exactly, and each
 * instruction takes time bounded by its gas. */
#ifndef EVM_FAST_H
#define EVM_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "evm_word.h"

#define EVM_STACK_LIMIT 1024

typedef struct evm_frame evm_frame;

/* An opcode set's own instructions (EVMMAX: evm_fast_evmmax_step): runs the one at
 * f->pc - 1 (its static gas charged, its stack depth checked) and returns -1 to go
 * on, or an evm_status. EVM_NEEDS_HOST leaves it to the host, which raises its halt:
 * the extension must then have changed nothing. */
typedef int (*evm_extension_fn)(evm_frame *f, int opcode);

/* Per-opcode facts, filled in by the host from its one opcode table. */
typedef struct {
    uint64_t static_gas; /* up to 2^63 - 1 (Evm384Schedule) */
    uint8_t stack_inputs;
    uint8_t stack_outputs;
    uint8_t native; /* 1: this engine executes it; 0: EVM_NEEDS_HOST */
    uint8_t extended; /* 1 (and native): the table's extension executes it */
} evm_opcode_info;

/* An opcode set, as evmone passes a revision: what the loop needs of each opcode. */
typedef struct {
    evm_opcode_info op[256];
    evm_extension_fn extension; /* the set's own instructions; NULL if it has none */
} evm_opcode_table;

/* How a segment ends (evm384_native/evm/segment_edges.py): on at next_pc, or with the
 * jump after it run as part of it: a JUMP to the address on the stack (a subroutine's
 * return; the loop checks it first), PUSHn dest; JUMP, or PUSHn ret; PUSHm dest; JUMP (a
 * call: ret stays on the stack). The host checked dest. Decimal for cffi's cdef. */
#define EVM_SEGMENT_FALL 0
#define EVM_SEGMENT_RETURN 1
#define EVM_SEGMENT_JUMP 2
#define EVM_SEGMENT_CALL 3

/* A run of PUSHn + EVM384-op pairs and fixed copies (PUSH PUSH PUSH MCOPY: an MCOPY
 * record), decoded by the host, maybe with a JUMPDEST before it and the jump after it
 * (`exit`). When the frame can pay for all of it (static gas, memory growth, the stack
 * its instructions need), it runs in one go; otherwise instruction by instruction, so
 * halts happen where they would. */
typedef struct {
    uint64_t gas;        /* static gas of all its instructions */
    uint64_t memory_end; /* memory all its operands need */
    const uint32_t *records; /* count x (PUSH opcode, EVM384 opcode, out, x, y, mod) */
    /* its instructions per opcode, tallied once by the host: tally_size x (opcode,
     * how many), so a run adds to the frame's counts per opcode, not per instruction */
    const uint32_t *tally;
    uint32_t count;
    uint32_t tally_size;
    uint32_t next_pc;
    uint32_t exit;       /* EVM_SEGMENT_FALL .. EVM_SEGMENT_CALL */
    uint32_t jump_pc;    /* EVM_SEGMENT_JUMP, EVM_SEGMENT_CALL: dest */
    uint32_t pushed;     /* EVM_SEGMENT_CALL: ret */
    uint32_t stack_room; /* stack slots above the height it starts at that it needs */
} evm_segment;

/* A record's EVM384 opcode is ADDMOD384, SUBMOD384, MULMODMONT384 (maybe with a group
 * flag below) or MCOPY (a fixed copy: out, x, y are dest, source, size). */
#define EVM_SEGMENT_RECORD_FIELDS 6
/* Or'ed into a record's EVM384 opcode by the host: this record and the next five are an
 * Fp2 product the loop may run as one (fp2_product.h). 256: decimal for cffi's cdef. */
#define EVM_FP2_PRODUCT_GROUP 256
/* Or'ed into a record's EVM384 opcode by the host: this record and the next 22 are an
 * Fp4 squaring the loop may run as one (fp4_square.h). */
#define EVM_FP4_SQUARE_GROUP 512
/* Or'ed into a record's EVM384 opcode by the host: this record and the next four are an
 * Fp2 squaring the loop may run as two products (fp2_square.h). */
#define EVM_FP2_SQUARE_GROUP 1024

struct evm_frame {
    /* inputs, owned by the host */
    const uint8_t *code;
    size_t code_size;
    const uint8_t *jumpdest; /* code_size flags: 1 at JUMPDESTs that are not PUSH data */
    const uint8_t *calldata;
    size_t calldata_size;
    const evm_opcode_table *table;
    const int32_t *segment_at; /* code_size entries: index into segments, or -1; NULL: none */
    const evm_segment *segments;
    void *extension; /* the opcode set's state for its extension (EVMMAX: its contexts) */
    /* machine state */
    evm_word stack[EVM_STACK_LIMIT];
    size_t stack_size;
    uint8_t *memory; /* owned by the engine: evm_frame_release frees it */
    size_t memory_size;
    size_t memory_capacity;
    /* bytes the opcode set keeps beside memory (EVMMAX's registers): memory-expansion
     * gas counts them as if they followed memory */
    uint64_t extra_memory_bytes;
    int64_t gas;
    size_t pc;
    uint64_t counts[256]; /* instructions executed by this engine, per opcode */
    /* RETURN/REVERT data: memory[output_offset, output_offset + output_size) */
    size_t output_offset;
    size_t output_size;
};

enum evm_status {
    EVM_STOP = 0,
    EVM_RETURN = 1,
    EVM_REVERT = 2,
    EVM_OUT_OF_GAS = 3,
    EVM_STACK_UNDERFLOW = 4,
    EVM_STACK_OVERFLOW = 5,
    EVM_INVALID_JUMP = 6,
    EVM_NEEDS_HOST = 7,
    EVM_OUT_OF_MEMORY = 8, /* the C allocator failed: not an EVM halt */
    EVM_RETURNDATA_OUT_OF_BOUNDS = 9,
};

/* 1 when this engine executes `opcode` itself. */
int evm_fast_implements(int opcode);

/* The Fp2-product group whose first of six records is `records` (EVM_FP2_PRODUCT_GROUP),
 * on memory that holds every operand, as the segment loop runs it: 1 if it ran as
 * Karatsuba, 0 if a guard failed (nothing written; the loop then runs the six records). */
int evm_fast_fp2_product(uint8_t *memory, const uint32_t *records);

/* Runs from f->pc until a halt or an instruction for the host. */
int evm_fast_run(evm_frame *f);

/* One run from pc 0 on an empty machine: sets the run's inputs (calldata, read only
 * during this call; gas; the extension's state), clears the stack, counts and extra
 * memory bytes, then evm_fast_run. The frame's memory must be empty (a new frame, or
 * evm_frame_release after its last run); it is released on return unless the status is
 * EVM_RETURN, EVM_REVERT or EVM_NEEDS_HOST, after which the host reads memory (the output,
 * the host's instruction) and then releases it. So a host reuses one frame for many runs
 * of a code, its code inputs set once: one call, not a field set each from Python. */
int evm_fast_start(evm_frame *f, const uint8_t *calldata, size_t calldata_size, int64_t gas,
                   void *extension);

/* Grows memory to size bytes (zero-filled), for the host's instructions.
 * Returns 0, or EVM_OUT_OF_MEMORY. Never shrinks. */
int evm_frame_grow_memory(evm_frame *f, size_t size);

void evm_frame_release(evm_frame *f);

#endif
