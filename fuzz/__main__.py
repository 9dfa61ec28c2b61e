"""python -m fuzz [differential|threads|eip2537|bn254|modexp] --seconds N --seed S

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


# The targets each contract mode builds for, its default first.
MODE_TARGETS = {"bn254": ("evm384", "evmmax"), "modexp": ("evm", "evmmax")}


def _target(parser: argparse.ArgumentParser, args: argparse.Namespace, mode: str) -> str:
    """--target, or the mode's default; an error (exit 2) if the mode has no such build."""
    allowed = MODE_TARGETS[mode]
    if args.target is None:
        return allowed[0]
    if args.target not in allowed:
        parser.error(f"{mode} is built for --target {' or '.join(allowed)}")
    return args.target


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("mode", nargs="?", default="differential",
                        choices=["differential", "threads", "eip2537", "bn254", "modexp"])
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
                        help="bn254, modexp: the engine the contracts run on (default %(default)s)")
    parser.add_argument("--target", default=None, choices=["evm384", "evmmax", "evm"],
                        help="bn254: the contracts' instruction set (evm384, the default, or "
                             "evmmax); modexp: evm (the default) or evmmax")
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
                          run=contract_runner(engine=args.engine,
                                              target=_target(parser, args, "bn254")))
    if args.mode == "modexp":
        from .modexp import contract_runner as modexp_runner, fuzz as fuzz_modexp
        return fuzz_modexp(args.seconds, args.seed, sys.stderr,
                           run=modexp_runner(target=_target(parser, args, "modexp"),
                                             engine=args.engine))
    from .differential import fuzz, problems_of, problems_with_pyevm
    limits = Limits(max_gas=args.max_gas)
    return fuzz(args.seconds, args.seed, limits, args.out, sys.stderr, only_case=args.case,
                shrink_seconds=args.shrink_seconds,
                check=problems_with_pyevm if args.pyevm else problems_of)


if __name__ == "__main__":
    sys.exit(main())
