"""python -m fuzz [differential|threads|eip2537|bn254] --seconds N --seed S

Exit code 0 when everything agreed, 1 after a failure (reported on stderr; the
differential fuzzer also writes a shrunk reproducer to --out).
"""
from __future__ import annotations

import argparse
import pathlib
import sys
from typing import List, Optional

from .programs import Limits

DEFAULTS = Limits()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("mode", nargs="?", default="differential",
                        choices=["differential", "threads", "eip2537", "bn254"])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--case", type=int, default=None,
                        help="differential: run only this case of the seed (a replay)")
    parser.add_argument("--max-gas", type=int, default=DEFAULTS.max_gas,
                        help="gas cap of cases that may loop (default %(default)s)")
    parser.add_argument("--pyevm", action="store_true",
                        help="differential: also compare with py-evm (slower)")
    parser.add_argument("--shrink-seconds", type=float, default=60.0)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("fuzz-failures"),
                        help="where reproducers go (default %(default)s)")
    parser.add_argument("--schedules", type=int, default=40,
                        help="threads: distinct custom schedules (default %(default)s)")
    parser.add_argument("--engine", default="fast", choices=["fast", "python"],
                        help="bn254: the engine the contracts run on (default %(default)s)")
    parser.add_argument("--target", default="evm384", choices=["evm384", "evmmax"],
                        help="bn254: the contracts' instruction set (default %(default)s)")
    args = parser.parse_args(argv)
    if args.mode == "threads":
        from .threads import stress
        return stress(args.seconds, args.seed, sys.stderr, schedules=args.schedules)
    if args.mode == "eip2537":
        from .eip2537 import fuzz as fuzz_eip2537
        return fuzz_eip2537(args.seconds, args.seed, sys.stderr)
    if args.mode == "bn254":
        from .bn254 import contract_runner, fuzz as fuzz_bn254
        return fuzz_bn254(args.seconds, args.seed, sys.stderr,
                          run=contract_runner(engine=args.engine, target=args.target))
    from .differential import fuzz, problems_of, problems_with_pyevm
    limits = Limits(max_gas=args.max_gas)
    return fuzz(args.seconds, args.seed, limits, args.out, sys.stderr, only_case=args.case,
                shrink_seconds=args.shrink_seconds,
                check=problems_with_pyevm if args.pyevm else problems_of)


if __name__ == "__main__":
    sys.exit(main())
