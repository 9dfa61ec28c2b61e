"""The decode table of bench/README.md from a bench/test_bench_decode.py JSON file."""
import json
import sys


def main(path: str) -> None:
    rows = {}
    benchmarks = json.load(open(path))["benchmarks"]
    for bench in benchmarks:
        info = bench["extra_info"]
        if bench["group"] != "decode":
            continue
        rows.setdefault((info["code"], info["bytes"]), {})[info["engine"]] = (
            bench["stats"]["median"] * 1e3, info["peak_mb"])
    print("| code | bytes | python engine: time / peak | fast engine: time / peak |")
    print("|---|---:|---:|---:|")
    for (code, size), engines in rows.items():
        cells = [f"{engines[e][0]:.1f} ms / {engines[e][1]:.1f} MB" for e in ("python", "fast")]
        print(f"| {code} | {size:,} | {cells[0]} | {cells[1]} |")
    print("\n| disassembly (`evm384 disasm`'s listing) | bytes | time |")
    print("|---|---:|---:|")
    for bench in benchmarks:
        if bench["group"] == "disassembly":
            info = bench["extra_info"]
            print(f"| {info['code']} | {info['bytes']:,} | {bench['stats']['median'] * 1e3:.0f} ms |")


if __name__ == "__main__":
    main(sys.argv[1])
