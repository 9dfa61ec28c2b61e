"""``evm384 SUBCOMMAND ...``: the entry point of the console script and ``python -m
evm384_native.cli``. Every failure is one line on stderr (``evm384: error: ...``), never a
traceback; the exit codes are EXIT_CODES."""
from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import Optional, Sequence

from ..errors import Evm384Error
from .errors import CliError, Parser

EXIT_CODES = """\
exit codes:
  0    success
  1    a run failed (revert or exceptional halt, out of gas included; gas, pairing: any
       of their runs; pairing: also an answer that disagreed)
  2    bad input or environment: arguments, files, EVM384_NATIVE_IMPL, output not writable
  141  stdout was closed early (a broken pipe, as in `evm384 trace ... | head`)"""
BROKEN_PIPE = 141          # what a shell reports for a process ended by SIGPIPE


def build_parser() -> argparse.ArgumentParser:
    # The commands import the engine, which reads EVM384_NATIVE_IMPL: imported here, inside
    # main's error handling, so a bad value is one line too.
    from .. import __version__
    from . import (build, calldata, debug, disasm, fixtures, gas, groth16, pairing, price,
                   profile, report, run, trace)
    from .inputs import FILE_RULES
    parser = Parser(prog="evm384", description="Run, trace, disassemble, profile and debug "
                                                "EVM384 (or, --opcodes evmmax, EVMMAX; "
                                                "--opcodes evm, today's EVM) "
                                                "bytecode; build the BLS12-381 "
                                                "and BN254 contracts, their calldata and "
                                                "gas table; Groth16 verifiers; "
                                                "fit gas prices from measured time; "
                                                "run the conformance fixtures.",
                     epilog=textwrap.fill(f"files: {FILE_RULES}.", 88) + "\n\n" + EXIT_CODES,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"evm384 {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (run, trace, disasm, profile, debug, build, gas, calldata, groth16, pairing,
                   price, report, fixtures):
        module.register(subparsers)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        parser = build_parser()
        args, rest = parser.parse_known_args(argv)
        if rest and not getattr(args, "passes_options", False):
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
        args.rest = rest
        status = args.func(args)
        sys.stdout.flush()                 # a write error shows here, not at exit
        return status
    except SystemExit as exit:             # --help, --version
        return exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 2
    except BrokenPipeError:
        # the reader went away: stop quietly; stdout is pointed at /dev/null so that the
        # interpreter's final flush does not fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except (CliError, OSError, Evm384Error) as error:
        _fail(error)
        return error.exit_code if isinstance(error, CliError) else 2


def _fail(error: Exception) -> None:
    if isinstance(error, OSError) and error.strerror:
        where = f" ({error.filename})" if error.filename else ""
        message = f"cannot write output{where}: {error.strerror}"
    else:
        message = str(error)
    print(f"evm384: error: {message}", file=sys.stderr)
