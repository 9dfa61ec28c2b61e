"""The decode table of bench/README.md from a bench/test_bench_decode.py JSON file."""
import json
import sys


def main(path: str) -> None:
    rows = {}
    for bench in json.load(open(path))["benchmarks"]:
        info = bench["extra_info"]
        rows.setdefault((info["code"], info["bytes"]), {})[info["engine"]] = (
            bench["stats"]["median"] * 1e3, info["peak_mb"])
    print("| code | bytes | python engine: time / peak | fast engine: time / peak |")
    print("|---|---:|---:|---:|")
    for (code, size), engines in rows.items():
        cells = [f"{engines[e][0]:.1f} ms / {engines[e][1]:.1f} MB" for e in ("python", "fast")]
        print(f"| {code} | {size:,} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main(sys.argv[1])
