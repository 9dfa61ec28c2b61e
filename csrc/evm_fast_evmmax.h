/* EVMMAX (EIP-6690) in the fast engine: SETMODX, LOADX, STOREX, ADDMODX, SUBMODX
 * and MULMODX, run through the opcode table's extension (evm_fast.h) on the
 * kernels of evmmax.h, with the gas, asserts and order of the Python engine
 * (evm384_native/evm/evmmax.py; docs/evmmax.md). An instruction that fails an
 * assert is left to the host (EVM_NEEDS_HOST, nothing changed), whose Python
 * handler raises the halt with its reason.
 *
 * The host owns the state (one per run): zero it, point `gas` at the tables and
 * the frame's `extension` at it. */
#ifndef EVM_FAST_EVMMAX_H
#define EVM_FAST_EVMMAX_H

#include <stdint.h>

#include "evm_fast.h"
#include "evmmax.h"

#define EVM_EVMMAX_CONTEXTS 257          /* ids 0..256 */
#define EVM_EVMMAX_MAX_REGISTERS 256     /* SETMODX: 0 < alloc_count <= 256 */
#define EVM_EVMMAX_REGISTER_BYTES 24576  /* the registers of all a frame's contexts */
#define EVM_EVMMAX_REGISTER_LIMBS 3072   /* EVM_EVMMAX_REGISTER_BYTES / 8 */

/* The EIP's gas by limb count - 1, filled in from evm384_native/evm/evmmax.py. */
struct evm_evmmax_gas {
    uint32_t setmodx_odd[EVMMAX_MAX_LIMBS];
    uint32_t add_sub[EVMMAX_MAX_LIMBS];
    uint32_t mul[EVMMAX_MAX_LIMBS];
};

/* A distinct modulus of the run: SETMODX's precomputation, made once per modulus. */
struct evm_evmmax_modulus {
    struct evmmax_context context;
    uint32_t size; /* bytes: the modulus big-endian without leading zeros */
    uint8_t bytes[EVMMAX_MAX_MODULUS_BYTES];
};

/* A field context id: its modulus and registers; context NULL until SETMODX creates it. */
struct evm_evmmax_slot {
    const struct evmmax_context *context;
    uint64_t *registers;
    uint32_t register_count;
};

/* A run of consecutive ADDMODX/SUBMODX/MULMODX, found by the host in the code: when the
 * active context's registers hold all its operands and the gas pays for all of it, it
 * runs in one step; otherwise its instructions run one by one, so halts happen where
 * they would. */
struct evm_evmmax_run {
    const char *program;         /* `count` records for evmmax_vector_run */
    uint64_t add_sub_elements;   /* ADDMODX/SUBMODX elements: times the add/sub gas */
    uint64_t mul_elements;       /* MULMODX elements: times the mul gas */
    uint32_t count;              /* its instructions */
    uint32_t register_end;       /* the largest idx + stride * count of its operands */
    uint32_t adds, subs, muls;   /* its instructions per opcode, for the frame's counts */
    uint32_t next_pc;
};

struct evm_fast_evmmax {
    const struct evm_evmmax_gas *gas;
    /* the code's runs (NULL: none): run_at has an entry per code byte, an index into
     * runs at each run's first instruction, else -1 */
    const int32_t *run_at;
    const struct evm_evmmax_run *runs;
    struct evm_evmmax_slot *active; /* NULL: no active context */
    uint32_t modulus_count;
    struct evm_evmmax_slot slots[EVM_EVMMAX_CONTEXTS];
    /* each new id brings at most one new modulus, or halts the run */
    struct evm_evmmax_modulus moduli[EVM_EVMMAX_CONTEXTS];
    /* every context's registers in creation order; the frame's extra_memory_bytes
     * are those in use */
    uint64_t registers[EVM_EVMMAX_REGISTER_LIMBS];
};

/* Makes s the state of a run with no contexts: the cost model's gas and the code's runs
 * (NULL, NULL: none). Only the slots are cleared: the moduli and registers are written
 * before they are read (a context's registers are zeroed as SETMODX makes it), so a
 * state (115 KB, more to clear than a short run costs) may come from an allocator that
 * leaves memory as it was. */
void evm_fast_evmmax_init(struct evm_fast_evmmax *s, const struct evm_evmmax_gas *gas,
                          const int32_t *run_at, const struct evm_evmmax_run *runs);

/* The extension (evm_extension_fn) for the opcodes of evm_fast_evmmax_implements. */
int evm_fast_evmmax_step(evm_frame *f, int opcode);

/* 1 for the opcodes evm_fast_evmmax_step runs: 0xc0..0xc5. */
int evm_fast_evmmax_implements(int opcode);

#endif
