#!/bin/sh
# Builds the library bench/test_bench_blst_kernels.py compares with (BLST_KERNELS_LIB) from a
# checkout of blst (https://github.com/supranational/blst): blst's own x86-64 assembly of
# mulx_mont_384, add_mod_384 and sub_mod_384, those three exported (blst hides them).
#   bench/blst_kernels.sh /path/to/blst /tmp/libblst_kernels.so
set -eu
blst=${1:?usage: bench/blst_kernels.sh BLST_DIR [OUT]}
out=${2:-libblst_kernels.so}
work=$(mktemp -d)
trap 'rm -r "$work"' EXIT
for file in mulx_mont_384-x86_64.s add_mod_384-x86_64.s; do
    sed -E '/^\.hidden[[:space:]]+(mulx_mont_384|add_mod_384|sub_mod_384)$/d' \
        "$blst/build/elf/$file" > "$work/$file"
done
# The files keep #ifdef __SGX_LVI_HARDENING__ blocks: assembled without the C preprocessor,
# both branches would be, and every return would go through an LFENCE (~18 ns a call).
cc -shared -fPIC -Wl,-Bsymbolic -x assembler-with-cpp -o "$out" "$work"/*.s
