#!/bin/sh
# The pairing benchmarks end to end: run bench/test_bench_pairing.py (under a minute), then
# write its Markdown tables (bench/results/pairing.md) and its chart
# (bench/results/two_pairing.png) from the JSON.
#
#   bench/pairing.sh            # run the suite, then tables and chart
#   bench/pairing.sh --report   # tables and chart from the existing JSON only
set -e
cd "$(dirname "$0")/.."
json=bench/results/pairing.json
if [ "$1" != "--report" ]; then
    python -m pytest bench/test_bench_pairing.py -q --benchmark-json="$json"
fi
python bench/report.py "$json" > bench/results/pairing.md
python bench/plot.py "$json" bench/results/two_pairing.png
