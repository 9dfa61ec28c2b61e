#!/bin/sh
# The EIP-2537 point-precompile benchmarks end to end: run bench/test_bench_eip2537.py (under
# a minute), then write its table (bench/results/eip2537.md) from the JSON. The second
# command alone remakes the table from an existing JSON.
set -e
cd "$(dirname "$0")/.."
python -m pytest bench/test_bench_eip2537.py -q --benchmark-json=bench/results/eip2537.json
python bench/eip2537_table.py bench/results/eip2537.json > bench/results/eip2537.md
