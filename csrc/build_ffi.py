"""The one cffi build script: compiles csrc/ into ``evm384_native._native``.

Set ``EVM384_NATIVE_SANITIZE=1`` at build time for an AddressSanitizer +
UndefinedBehaviorSanitizer build (run it with libasan preloaded; see .ci/run).
"""
import os

from cffi import FFI

SOURCES = ["cpu_features.c", "mont384_portable.c", "mont384_mulx.c", "evm384_ops.c",
           "evm384_block.c", "evm_fast.c", "keccak256.c"]

CDEF = """
enum evm384_implementation { EVM384_IMPL_AUTO, EVM384_IMPL_PORTABLE, EVM384_IMPL_MULX, ... };
enum evm384_status { EVM384_OK, EVM384_RANGE_OUT, EVM384_RANGE_X, EVM384_RANGE_Y,
                     EVM384_RANGE_MOD, ... };
int evm384_select_implementation(int requested);
int evm384_current_implementation(void);
int evm384_mulx_available(void);

int evm384_addmod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod);
int evm384_submod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod);
int evm384_mulmodmont384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                             uint64_t y, uint64_t mod);

#define EVM384_RECORD_FIELDS 5
size_t evm384_run_records(uint8_t *mem, size_t len, const uint32_t *records, size_t n);
void evm_keccak256(const uint8_t *data, size_t len, uint8_t *out);

void evm384_addmod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod);
void evm384_submod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod);
void evm384_mulmont384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                             size_t n, const uint64_t *mod, uint64_t inv);
"""

CDEF_FAST_ENGINE = """
#define EVM_STACK_LIMIT 1024
typedef struct { uint64_t limb[4]; } evm_word;
typedef struct {
    uint32_t static_gas;
    uint8_t stack_inputs;
    uint8_t stack_outputs;
    uint8_t native;
} evm_opcode_info;
typedef struct { evm_opcode_info op[256]; } evm_opcode_table;
typedef struct {
    uint64_t gas;
    uint64_t memory_end;
    const uint32_t *records;
    uint32_t count;
    uint32_t next_pc;
} evm_segment;
#define EVM_SEGMENT_RECORD_FIELDS 6
typedef struct {
    const uint8_t *code;
    size_t code_size;
    const uint8_t *jumpdest;
    const uint8_t *calldata;
    size_t calldata_size;
    const evm_opcode_table *table;
    const int32_t *segment_at;
    const evm_segment *segments;
    evm_word stack[1024];
    size_t stack_size;
    uint8_t *memory;
    size_t memory_size;
    size_t memory_capacity;
    int64_t gas;
    size_t pc;
    uint64_t counts[256];
    size_t output_offset;
    size_t output_size;
} evm_frame;
enum evm_status { EVM_STOP, EVM_RETURN, EVM_REVERT, EVM_OUT_OF_GAS, EVM_STACK_UNDERFLOW,
                  EVM_STACK_OVERFLOW, EVM_INVALID_JUMP, EVM_NEEDS_HOST, EVM_OUT_OF_MEMORY, ... };
int evm_fast_implements(int opcode);
int evm_fast_run(evm_frame *f);
int evm_frame_grow_memory(evm_frame *f, size_t size);
void evm_frame_release(evm_frame *f);
"""

# Baseline ISA only: the MULX path is chosen at run time, never by -march.
# No auto-vectorisation: it packs limb selects into SSE through stack stores that
# then stall on store forwarding (ADDMOD384 9.5 -> 13.5 ns when it kicks in).
COMPILE_ARGS = ["-std=gnu11", "-O3", "-fno-tree-vectorize", "-Wall", "-Wextra"]
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
# The sanitizer build also compiles the generic carry helpers, so CI covers them.
SANITIZER_COMPILE_ARGS = SANITIZER_FLAGS + ["-fno-omit-frame-pointer", "-O1", "-g",
                                            "-DEVM384_GENERIC_CARRIES"]
SANITIZE = os.environ.get("EVM384_NATIVE_SANITIZE", "") not in ("", "0")

ffibuilder = FFI()
ffibuilder.cdef(CDEF + CDEF_FAST_ENGINE)
ffibuilder.set_source(
    "evm384_native._native",
    '#include "evm384.h"\n#include "evm384_block.h"\n#include "evm_fast.h"\n#include "keccak256.h"',
    # setuptools wants source paths relative to the project root (cwd of the build).
    sources=[f"csrc/{name}" for name in SOURCES],
    include_dirs=["csrc"],
    extra_compile_args=COMPILE_ARGS + (SANITIZER_COMPILE_ARGS if SANITIZE else []),
    extra_link_args=SANITIZER_FLAGS if SANITIZE else [],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
