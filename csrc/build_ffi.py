"""The one cffi build script: compiles csrc/ into ``evm384_native._native``.

Set ``EVM384_NATIVE_SANITIZE=1`` at build time for an AddressSanitizer +
UndefinedBehaviorSanitizer build (run it with libasan preloaded; see .ci/run).
"""
import os
import pathlib
import re

from cffi import FFI

SOURCES = ["cpu_features.c", "mont384_portable.c", "mont384_mulx.c", "evm384_ops.c",
           "evm384_block.c", "evm_word.c", "evm_fast.c", "keccak256.c", "evmmax.c",
           "evmmax_portable.c", "evmmax_mulx.c", "evmmax_mulx768.c", "evm_fast_evmmax.c", "evm768.c",
           "evm_fast_evm768.c"]

# The headers the Python package calls into; cffi reads its declarations from them.
PUBLIC_HEADERS = ["evm384.h", "evm384_block.h", "evm_word.h", "evm_fast.h", "keccak256.h",
                  "evmmax.h", "evm_fast_evmmax.h", "evm768.h",
                  "evm_fast_evm768.h"]
INTEGER_DEFINE = re.compile(r"#define\s+\w+\s+\d+")


def declarations(header: str) -> str:
    """A header as cffi's cdef wants it: no preprocessor lines but integer #defines, so
    the headers stay the one statement of the C API."""
    kept = []
    for line in header.splitlines():
        if line.lstrip().startswith("#"):
            match = INTEGER_DEFINE.match(line.strip())
            line = match.group(0) if match else ""
        kept.append(line)
    return "\n".join(kept)


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
ffibuilder.cdef("\n".join(declarations(pathlib.Path("csrc", name).read_text())
                          for name in PUBLIC_HEADERS))
ffibuilder.set_source(
    "evm384_native._native",
    "\n".join(f'#include "{name}"' for name in PUBLIC_HEADERS),
    # setuptools wants source paths relative to the project root (cwd of the build).
    sources=[f"csrc/{name}" for name in SOURCES],
    include_dirs=["csrc"],
    extra_compile_args=COMPILE_ARGS + (SANITIZER_COMPILE_ARGS if SANITIZE else []),
    extra_link_args=SANITIZER_FLAGS if SANITIZE else [],
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
