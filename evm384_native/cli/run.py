"""``evm384 run``: execute CODE and print the outcome (or one JSON object)."""
from __future__ import annotations

import argparse
import json
import sys

from .inputs import add_code_arguments, execute_target, load_run
from .views import result_fields, result_text, transaction_cap_note


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("run", help="execute CODE and print the outcome")
    add_code_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    result = execute_target(target, calldata, options)
    print(json.dumps(result_fields(result, args.opcodes)) if args.json
          else result_text(result, args.opcodes))
    note = transaction_cap_note(result, args.fork)
    if note is not None:        # stdout stays one JSON object under --json
        print(note, file=sys.stderr if args.json else sys.stdout)
    return 0 if result.success else 1
