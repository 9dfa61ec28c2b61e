#!/bin/sh
# Builds the library bench/blst_msm.py loads (BLST_MSM_LIB) from a checkout of blst
# (https://github.com/supranational/blst): blst's own shared library, as its build.sh makes
# it, with blst_p1s_mult_pippenger / blst_p2s_mult_pippenger (the MSMs the precompiles of
# go-ethereum and others call) and the point (de)serialisation and subgroup checks.
#   bench/blst_msm.sh /path/to/blst /tmp/libblst.so
set -eu
blst=${1:?usage: bench/blst_msm.sh BLST_DIR [OUT]}
out=$(realpath -m "${2:-libblst.so}")
work=$(mktemp -d)
trap 'rm -r "$work"' EXIT
cp -r "$blst"/. "$work"
(cd "$work" && sh build.sh -shared >/dev/null 2>&1)
cp "$work/libblst.so" "$out"
echo "$out"
