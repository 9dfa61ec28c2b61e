"""Where a plain-EVM build's stack moves go (issue 48; docs/tower.md, "Plain EVM: the floor
under issue 48's ECDSA and ECMUL targets"): on the input with the most gas of 20 random
valid ones (`USAGE[name].example(random.Random(7), 1, True)`), the operations' floor as
docs/tower.md counts it and the gas beyond it, and the gas of the block compiler's steps
(takes, compaction of dead slots, early stores, block ends), each step's code made a
profiler scope of its own:

    PYTHONPATH=. python bench/stack_moves.py [p256verify ecrecover bn254_mul ...]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Callable, Dict, List, Tuple

from evm384_native import execute
from evm384_native.cli.main import main as cli
from evm384_native.contracts import BUILT_FOR, USAGE, build_contract
from evm384_native.tower import stack_code

STEPS = {"_take_first": "take", "_compact": "compact", "_store_early": "store early",
         "_finish": "block end", "_evict_value": "evict"}


def worst_input(name: str) -> Tuple[int, bytes]:
    """The gas and calldata of the input with the most gas of 20 random valid ones."""
    code = build_contract(name, target="evm")
    rng = random.Random(7)
    runs = [(execute(code, data, opcodes="evm", engine="fast").gas_used, data)
            for data in (USAGE[name].example(rng, 1, True) for _ in range(20))]
    return max(runs)


def profile(name: str, data: bytes) -> Tuple[str, Dict[str, int]]:
    """`evm384 profile`'s text for ``data`` and its gas by call path's last frame."""
    with tempfile.NamedTemporaryFile("r", suffix=".folded") as folded:
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            cli(["profile", f"contract:{name}", "--opcodes", "evm", "--calldata", data.hex(),
                 "--top", "500", "--folded", folded.name])
        scopes: Counter = Counter()
        for line in folded.read().splitlines():
            path, gas = line.rsplit(" ", 1)
            scopes[path.split(";")[-1]] += int(gas)
    return text.getvalue(), scopes


def opcodes(text: str) -> Tuple[Counter, Counter]:
    """Counts and gas by opcode from `evm384 profile`'s table."""
    counts: Counter = Counter()
    gas: Counter = Counter()
    for line in text.splitlines():
        cells = line.split()
        if len(cells) == 3 and all(c.replace(",", "").isdigit() for c in cells[1:]):
            counts[cells[0]], gas[cells[0]] = (int(c.replace(",", "")) for c in cells[1:])
    return counts, gas


def floor_line(gas_used: int, counts: Counter, gas: Counter) -> str:
    """docs/tower.md's floor: 11 gas a MULMOD or ADDMOD (with p), 3 a SUB or ADD, p for
    each SUB, one operand DUP an operation, and memory and the rest as run."""
    family = lambda prefix: sum(g for op, g in gas.items() if op.startswith(prefix))  # noqa: E731
    products = counts["MULMOD"] + counts["ADDMOD"]
    moves = (gas["MULMOD"] + gas["ADDMOD"] + gas["SUB"] + gas["ADD"] + gas["POP"]
             + family("DUP") + family("SWAP") + family("PUSH"))
    floor = (11 * products + 3 * (counts["SUB"] + counts["ADD"]) + 3 * counts["SUB"]
             + 3 * products + gas_used - moves)
    return (f"floor {floor:,}, stack moves beyond it {gas_used - floor:,} "
            f"({(gas_used - floor) / products:.1f} an operation of {products:,}); "
            f"DUP {family('DUP'):,}, SWAP {family('SWAP'):,}, POP {gas['POP']:,}")


def tag_steps() -> None:
    """Make each compiler step's code a segment of its own, its path ending in the step."""
    compiler = stack_code._Compiler

    def tagged(method: Callable, step: str) -> Callable:
        def run(self, *args, **kwargs):
            path = getattr(self, "step_path", ())
            self._flush(path)
            result = method(self, *args, **kwargs)
            self._flush(path + (f"~{step}",))
            return result
        return run

    root = compiler._root

    def root_with_path(self, i: int, index: int) -> None:
        self.step_path = self.values[index].path
        root(self, i, index)

    compiler._root = root_with_path
    for method, step in STEPS.items():
        setattr(compiler, method, tagged(getattr(compiler, method), step))


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="plain-EVM contracts (default: p256verify ecrecover bn254_mul)")
    names = parser.parse_args(argv).names or ["p256verify", "ecrecover", "bn254_mul"]
    unknown = sorted(set(names) - set(BUILT_FOR["evm"]))
    if unknown:
        parser.error(f"unknown contract {unknown[0]!r}: one of {', '.join(BUILT_FOR['evm'])}")
    tag_steps()                     # before any build (they are cached): the same bytecode
    for name in names:
        gas_used, data = worst_input(name)
        text, scopes = profile(name, data)
        counts, gas = opcodes(text)
        steps = {step: scopes.get(f"~{step}", 0) for step in STEPS.values()}
        assert sum(scopes.values()) == gas_used
        print(f"{name}: {gas_used:,} gas; {floor_line(gas_used, counts, gas)}")
        print("  by step: " + ", ".join(f"{step} {g:,}" for step, g in steps.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
