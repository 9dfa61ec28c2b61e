"""Threads with many schedules: long fast-engine runs (which release the GIL) while other
threads execute with dozens of distinct custom EVM384 schedules, so every per-schedule
cache is filled and evicted under the long runs (issue 15 item 1: a run must own what it
points to). Each result must equal the one computed beforehand on one thread; on the
sanitizer build, AddressSanitizer reports any use of freed memory.
"""
from __future__ import annotations

import random
import threading
import time
from typing import Dict, List, TextIO, Tuple

from evm384_native.evm.api import run
from evm384_native.evm.gas import EVM384_NAMES
from evm384_native.evm.result import ExecutionResult

from .programs import op, push

Key = Tuple[str, bytes, int, Tuple[int, int, int]]

# The reproducer: JUMPDEST PUSH0 JUMP until out of gas.
JUMP_LOOP = bytes.fromhex("5b5f56")
# An EVM384 loop: its gas per iteration comes from the schedule's table entry.
EVM384_LOOP = (op("JUMPDEST") + push(0x30_00000000_00000060_00000000, 16) + op("ADDMOD384")
               + push(0x30_00000060_00000000_00000000, 16) + op("MULMODMONT384") + push(0) + op("JUMP"))
# Short programs for the other threads: an EVM384 op, a host step (EXP), a return.
SHORT = (push(0x60_00000000_00000030_00000000, 16) + op("SUBMOD384") + push(3) + push(5) + op("EXP")
         + push(32) + push(0) + op("RETURN"))


def distinct_schedules(rng: random.Random, count: int) -> List[Tuple[int, int, int]]:
    found: Dict[Tuple[int, int, int], None] = {}
    while len(found) < count:
        found[(rng.randint(0, 50), rng.randint(0, 50), rng.randint(0, 150))] = None
    return list(found)


def _run(key: Key) -> ExecutionResult:
    engine, code, gas, schedule = key
    return run(code, b"", gas=gas, engine=engine, schedule=dict(zip(EVM384_NAMES, schedule)))


def stress(seconds: float, seed: int, log: TextIO, schedules: int = 40, gas: int = 30_000_000,
           long_threads: int = 2, churn_threads: int = 2) -> int:
    """0 when every threaded result equals its single-threaded one, else 1."""
    rng = random.Random(seed)
    chosen = distinct_schedules(rng, schedules + long_threads)
    long_keys = [("fast", JUMP_LOOP if i % 2 == 0 else EVM384_LOOP, gas, chosen[i])
                 for i in range(long_threads)]
    short_keys = [(engine, SHORT, 100_000, schedule)
                  for schedule in chosen[long_threads:] for engine in ("fast", "python")]
    expected = {key: _run(key) for key in long_keys + short_keys}
    deadline = time.monotonic() + seconds
    failures: List[str] = []
    runs = [0]

    def check(key: Key) -> None:
        result = _run(key)
        runs[0] += 1
        if result != expected[key]:
            failures.append(f"{key[0]} {key[1].hex()} gas {key[2]} schedule {key[3]}: "
                            f"{result} but alone {expected[key]}")

    def long_runner(key: Key) -> None:
        while time.monotonic() < deadline and not failures:
            check(key)

    def churner(index: int) -> None:
        order = random.Random(seed * 1000 + index)
        while time.monotonic() < deadline and not failures:
            for key in order.sample(short_keys, len(short_keys)):
                check(key)

    threads = ([threading.Thread(target=long_runner, args=(key,)) for key in long_keys]
               + [threading.Thread(target=churner, args=(i,)) for i in range(churn_threads)])
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        print("threads: FAILED:", *failures[:5], sep="\n  ", file=log)
        return 1
    print(f"threads: {runs[0]} runs on {len(threads)} threads with {len(chosen)} schedules "
          "agree with single-threaded runs", file=log)
    return 0
