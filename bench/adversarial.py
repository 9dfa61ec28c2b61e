"""The adversarial corpus (evm384_native/pricing/adversarial.py: loops that make the most
of each unit of gas, each run until it is out of gas) timed on every engine and backend. It
reports the worst nanoseconds per gas for each engine and backend, and each run's peak
resident memory over the EVM memory it reached:

    python bench/adversarial.py                 # 30M gas, every engine and backend
    python bench/adversarial.py --gas 1000000 --engines fast

(bench/test_bench_adversarial.py times the same corpus with pytest-benchmark.)
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional

from evm384_native.evm.api import run
from evm384_native.pricing.adversarial import MIB, Program, corpus

GAS = 30_000_000


# engine and backend: run() options
ENGINES: Dict[str, dict] = {
    "fast": dict(engine="fast"),
    "python native": dict(engine="python", backend="native"),
    "python native, unfused": dict(engine="python", backend="native", fuse_evm384=False),
    "python reference": dict(engine="python", backend="reference"),
}


def applies(engine: str, program: Program) -> bool:
    """The backends differ only on EVM384 and EVMMAX programs, fusion on EVM384 ones."""
    if program.opcodes == "evmmax":
        return engine != "python native, unfused"
    return program.evm384 or engine in ("fast", "python native")


def run_program(program: Program, engine: str, gas: int):
    result = run(program.code, program.calldata, gas=gas, schedule=program.schedule,
                 opcodes=program.opcodes, **ENGINES[engine])
    assert result.error == "out of gas" and result.gas_used == gas, (program.name, result)
    return result


def _status(field_name: str) -> int:
    with open("/proc/self/status") as status:
        return 1024 * int(re.search(field_name + r":\s+(\d+)", status.read()).group(1))


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # Linux: VmHWM = VmRSS


@dataclass
class Measurement:
    program: Program
    engine: str
    seconds: float              # a run with the decoded code cached: execution only
    decode_seconds: float       # what the first run (it decodes) took more
    peak_growth: Optional[int]  # resident bytes above the start at the first run's peak


def measure(program: Program, engine: str, gas: int) -> Measurement:
    """A first run (decoding the code, peak memory measured), then a timed one."""
    from evm384_native.evm import code, fast
    code._CACHE.clear()                   # every first run decodes afresh
    fast.forget_analyses()
    linux = sys.platform.startswith("linux")
    if linux:
        _reset_peak()
        start = _status("VmRSS")
    begin = time.perf_counter()
    run_program(program, engine, gas)
    first = time.perf_counter() - begin
    peak = _status("VmHWM") - start if linux else None
    begin = time.perf_counter()
    run_program(program, engine, gas)
    seconds = time.perf_counter() - begin
    return Measurement(program, engine, seconds, max(0.0, first - seconds), peak)


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gas", type=int, default=GAS)
    parser.add_argument("--engines", nargs="+", default=list(ENGINES), choices=list(ENGINES))
    parser.add_argument("--only", help="programs whose name contains this text")
    args = parser.parse_args(argv)
    programs = [p for p in corpus() if args.only is None or args.only in p.name]
    worst: Dict[str, Measurement] = {}
    print(f"{'program':<40}{'engine':<24}{'run s':>7}{'ns/gas':>8}{'decode s':>9}"
          f"{'peak MB':>8}{'memory MB':>10}")
    for program in programs:
        for engine in args.engines:
            if not applies(engine, program):
                continue
            m = measure(program, engine, args.gas)
            peak = "-" if m.peak_growth is None else f"{m.peak_growth / MIB:.0f}"
            print(f"{program.name:<40}{engine:<24}{m.seconds:>7.2f}{1e9 * m.seconds / args.gas:>8.1f}"
                  f"{m.decode_seconds:>9.2f}{peak:>8}{program.memory / MIB:>10.2f}", flush=True)
            if engine not in worst or m.seconds > worst[engine].seconds:
                worst[engine] = m
    print(f"\nslowest run per engine at {args.gas:,} gas (decoding not included):")
    for engine, m in worst.items():
        print(f"  {engine:<24}{m.seconds:>7.2f} s {1e9 * m.seconds / args.gas:>7.1f} ns/gas  "
              f"({m.program.name})")


if __name__ == "__main__":
    main()
