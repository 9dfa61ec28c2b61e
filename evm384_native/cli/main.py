"""``evm384 SUBCOMMAND ...``: the entry point of the console script and ``python -m
evm384_native.cli``. Bad input is one line on stderr and exit code 2, never a traceback;
the commands that execute code exit 1 when the execution fails (revert or halt)."""
from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn, Optional, Sequence

from . import debug, disasm, pairing, profile, run, trace
from .errors import CliError

SUBCOMMANDS = (run, trace, disasm, profile, debug, pairing)


class _Parser(argparse.ArgumentParser):
    """argparse's errors as CliError, so that they read like every other input error."""

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} (see: {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="evm384", description="Run, trace, disassemble, profile and debug "
                                                "EVM384 bytecode.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.register(subparsers)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args, rest = parser.parse_known_args(argv)
        if rest and not getattr(args, "passes_options", False):
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        args.rest = rest
        return args.func(args)
    except CliError as error:
        print(f"evm384: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``evm384 trace ... | head``): stop quietly; stdout is
        # pointed at /dev/null so that the interpreter's final flush does not fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
