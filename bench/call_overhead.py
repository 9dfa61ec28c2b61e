"""Per-call cost of ``execute`` (issue 25): what a call costs beyond the work in it, beside
revm's (pyrevm) STOP on a reused EVM, in one process.

    python bench/call_overhead.py                    # 200 rounds of 200 calls each
    python bench/call_overhead.py --rounds 50 --calls 100

Each round runs every contender ``--calls`` times in a row, in turn, so that all see the
same load (the machine is shared); each call is timed alone (perf_counter around it, the
same ~0.1 us for all), after its untimed preparation. A contender's time is the min and
the median over the rounds of its per-call mean, the first tenth of the rounds left out as
warm-up. Ratios, to pyrevm's STOP and between contenders, are the headline: absolute times
move with the load.

Contenders, on the fast and the python engine:

- ``1-byte``: ``execute(b"\x00")`` (STOP), under the default opcode set (EVM384) and under
  EVMMAX (which makes a per-run state of field contexts);
- ``24 KB``: a STOP, then the bn254_pairing_check contract (EVMMAX build), padded to
  EIP-170's 24,576 bytes, under EVMMAX: a full-size contract that stops at once, so what
  it costs beyond the 1-byte EVMMAX call is the per-call cost of its size. ``same
  object``: one bytes object for every call; ``equal copy``: a new bytes object of equal
  content for every call (copied in the untimed preparation), whose hash CPython has not
  cached;
- ``pairing, bad input``: the bn254_pairing_check contract with a 1-byte calldata, which it
  reverts after 30 instructions (a real contract's quick answer);

and ``pyrevm STOP``: ``message_call`` to an account whose code is STOP, on one reused EVM.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from evm384_native.contracts import build_contract
from evm384_native.evm import execute
from machine import cpu_model  # bench/machine.py (bench/ is the script's path)

EIP170_LIMIT = 24_576
STOP_ADDRESS = "0x" + "22" * 20
CALLER = "0x" + "10" * 20
PYREVM = "pyrevm STOP (reused EVM)"
# (untimed preparation, the timed call of what it made)
Contender = Tuple[Callable[[], Any], Callable[[Any], object]]


def _nothing() -> None:
    return None


def pyrevm_stop() -> Optional[Callable[[], object]]:
    """revm's STOP through pyrevm on one reused EVM, or None without pyrevm."""
    try:
        from pyrevm import EVM, AccountInfo
    except ImportError:
        return None
    evm = EVM(spec_id="PRAGUE")
    evm.insert_account_info(STOP_ADDRESS, AccountInfo(code=b"\x00"))
    return lambda: evm.message_call(caller=CALLER, to=STOP_ADDRESS, calldata=b"",
                                    gas=1_000_000)


def _call(code: bytes, calldata: bytes = b"", **options: str) -> Callable[[Any], object]:
    return lambda _: execute(code, calldata, **options)


def _call_copy(**options: str) -> Callable[[bytes], object]:
    return lambda copy: execute(copy, **options)


def contenders() -> Dict[str, Contender]:
    pairing = build_contract("bn254_pairing_check", target="evmmax")
    big = (b"\x00" + pairing).ljust(EIP170_LIMIT, b"\x00")
    out: Dict[str, Contender] = {}
    for engine in ("fast", "python"):
        out[f"{engine}: 1-byte (STOP)"] = (_nothing, _call(b"\x00", engine=engine))
        out[f"{engine}: 1-byte, EVMMAX"] = (_nothing, _call(b"\x00", engine=engine,
                                                            opcodes="evmmax"))
        out[f"{engine}: 24 KB, same object"] = (_nothing, _call(big, engine=engine,
                                                                opcodes="evmmax"))
        out[f"{engine}: 24 KB, equal copy"] = (lambda: bytes(bytearray(big)),
                                               _call_copy(engine=engine, opcodes="evmmax"))
        out[f"{engine}: pairing, bad input"] = (_nothing, _call(pairing, b"\x01", engine=engine,
                                                                opcodes="evmmax"))
    stop = pyrevm_stop()
    if stop is not None:
        out[PYREVM] = (_nothing, lambda _: stop())
    return out


def measure(rounds: int, calls: int) -> Dict[str, List[float]]:
    """Per-call mean of each contender in each round (seconds), warm-up rounds dropped."""
    runs = contenders()
    times: Dict[str, List[float]] = {label: [] for label in runs}
    clock = time.perf_counter
    for _ in range(rounds):
        for label, (prepare, call) in runs.items():
            total = 0.0
            for _ in range(calls):
                made = prepare()
                start = clock()
                call(made)
                total += clock() - start
            times[label].append(total / calls)
    warm_up = rounds // 10
    return {label: t[warm_up:] for label, t in times.items()}


def table(times: Dict[str, List[float]]) -> List[str]:
    base = times.get(PYREVM)
    rows = ["| call | min (us) | median (us) | min / pyrevm STOP | median / pyrevm STOP |",
            "|---|---:|---:|---:|---:|"]
    for label, t in times.items():
        low, middle = min(t), statistics.median(t)
        ratios = (f"{low / min(base):.2f} | {middle / statistics.median(base):.2f}"
                  if base else "- | -")
        rows.append(f"| {label} | {low * 1e6:.2f} | {middle * 1e6:.2f} | {ratios} |")
    rows += ["", "| size's cost (24 KB less 1-byte, EVMMAX) | min (us) | median (us) |",
             "|---|---:|---:|"]
    for engine in ("fast", "python"):
        one = times[f"{engine}: 1-byte, EVMMAX"]
        for kind in ("same object", "equal copy"):
            big = times[f"{engine}: 24 KB, {kind}"]
            rows.append(f"| {engine}, {kind} | {(min(big) - min(one)) * 1e6:.2f} | "
                        f"{(statistics.median(big) - statistics.median(one)) * 1e6:.2f} |")
    return rows


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--calls", type=int, default=200, help="calls per contender a round")
    args = parser.parse_args(argv)
    times = measure(args.rounds, args.calls)
    print(f"{cpu_model()}, Python {sys.version.split()[0]}, {args.rounds} rounds of "
          f"{args.calls} calls\n")
    print("\n".join(table(times)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
