"""The one cffi build script: compiles csrc/ into ``evm384_native._native``.

Set ``EVM384_NATIVE_SANITIZE=1`` at build time for an AddressSanitizer +
UndefinedBehaviorSanitizer build (run it with libasan preloaded; see .ci/run).
"""
import os

from cffi import FFI

SOURCES = ["cpu_features.c", "mont384_portable.c", "mont384_mulx.c", "evm384_ops.c",
           "evm384_block.c"]

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

void evm384_addmod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod);
void evm384_submod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod);
void evm384_mulmont384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                             size_t n, const uint64_t *mod, uint64_t inv);
"""

# Baseline ISA only: the MULX path is chosen at run time, never by -march.
COMPILE_ARGS = ["-std=gnu11", "-O3", "-Wall", "-Wextra"]
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
# The sanitizer build also compiles the generic carry helpers, so CI covers them.
SANITIZER_COMPILE_ARGS = SANITIZER_FLAGS + ["-fno-omit-frame-pointer", "-O1", "-g",
                                            "-DEVM384_GENERIC_CARRIES"]
SANITIZE = os.environ.get("EVM384_NATIVE_SANITIZE", "") not in ("", "0")

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "evm384_native._native",
    '#include "evm384.h"\n#include "evm384_block.h"',
    # setuptools wants source paths relative to the project root (cwd of the build).
    sources=[f"csrc/{name}" for name in SOURCES],
    include_dirs=["csrc"],
    extra_compile_args=COMPILE_ARGS + (SANITIZER_COMPILE_ARGS if SANITIZE else []),
    extra_link_args=SANITIZER_FLAGS if SANITIZE else [],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
