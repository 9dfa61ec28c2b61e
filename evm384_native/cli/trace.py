"""``evm384 trace``: EIP-3155 JSON lines, one per instruction, then the summary."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext

from ..evm.tracing import Eip3155Tracer
from .errors import CliError
from .inputs import add_code_arguments, execute_target, load_run


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("trace", help="EIP-3155 trace of CODE as JSON lines")
    add_code_arguments(parser, engine=False)
    parser.add_argument("--out", metavar="FILE", help="write the trace here (default stdout)")
    parser.add_argument("--memory", action="store_true", help="include memory in every line")
    parser.add_argument("--registers", action="store_true",
                        help="EVMMAX: include the active field context's registers in every "
                             "line (canonical values: out of Montgomery form)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    try:
        out = open(args.out, "w") if args.out else nullcontext(sys.stdout)
    except OSError as error:
        raise CliError(f"cannot write {args.out!r}: {error.strerror}") from None
    with out as stream:
        result = execute_target(target, calldata, options,
                                Eip3155Tracer(stream, args.memory, args.registers))
    return 0 if result.success else 1
