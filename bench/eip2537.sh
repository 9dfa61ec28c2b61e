#!/bin/sh
# The EIP-2537 point-precompile benchmarks end to end: run bench/test_bench_eip2537.py, then
# write the table (bench/results/eip2537.md) from the JSON.
#
#   bench/eip2537.sh            # run the suite, then the table
#   bench/eip2537.sh --report   # the table from the existing JSON only
set -e
cd "$(dirname "$0")/.."
json=bench/results/eip2537.json
if [ "$1" != "--report" ]; then
    python -m pytest bench/test_bench_eip2537.py -q --benchmark-json="$json"
fi
python bench/eip2537_table.py "$json" > bench/results/eip2537.md
