#!/bin/sh
# Builds the library bench/test_bench_blst_kernels.py compares with (BLST_KERNELS_LIB) from a
# checkout of blst (https://github.com/supranational/blst): blst's own x86-64 assembly of
# mulx_mont_384 (MULX/ADX), mul_mont_384 (the MULQ code, blst's path without ADX),
# add_mod_384, sub_mod_384 and mulx_mont_sparse_256 (4 limbs), those five exported (blst
# hides them).
#   bench/blst_kernels.sh /path/to/blst /tmp/libblst_kernels.so
set -eu
blst=${1:?usage: bench/blst_kernels.sh BLST_DIR [OUT]}
out=${2:-libblst_kernels.so}
work=$(mktemp -d)
trap 'rm -r "$work"' EXIT
exported='mulx_mont_384|mul_mont_384|add_mod_384|sub_mod_384|mulx_mont_sparse_256'
for file in mulx_mont_384-x86_64.s mulq_mont_384-x86_64.s add_mod_384-x86_64.s \
            mulx_mont_256-x86_64.s; do
    sed -E "/^\.hidden[[:space:]]+($exported)\$/d" "$blst/build/elf/$file" > "$work/$file"
done
# The files keep #ifdef __SGX_LVI_HARDENING__ blocks: assembled without the C preprocessor,
# both branches would be, and every return would go through an LFENCE (~18 ns a call).
# __BLST_PORTABLE__ stays undefined, so mul_mont_384 is the MULQ code with no run-time jump
# to the MULX one.
cc -shared -fPIC -Wl,-Bsymbolic -x assembler-with-cpp -o "$out" "$work"/*.s
