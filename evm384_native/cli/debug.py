"""``evm384 debug``: the step debugger (:mod:`.debugger`) on CODE, commands from stdin."""
from __future__ import annotations

import argparse
import sys

from ..curves.bls12_381 import BLS12_381
from ..montgomery import montgomery_inv
from .debugger import HELP, CommandReader, Debugger, Quit
from .inputs import add_code_arguments, execute_target, load_run
from .views import CodeView


def _modulus(text: str) -> int:
    try:
        value = int(text, 0)
        montgomery_inv(value)                      # checks: odd, in (1, 2**384)
    except (ValueError, TypeError) as error:
        raise argparse.ArgumentTypeError(f"bad modulus {text!r}: {error}") from None
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "debug", help="step through CODE (commands from stdin, one per line)",
        description="Stops before the first instruction. Commands:\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_code_arguments(parser, engine=False)
    parser.add_argument("--montgomery", nargs="?", const=BLS12_381.p, type=_modulus, metavar="P",
                        help="fp also shows values out of Montgomery form mod P (default "
                             "BLS12-381's p; put it after CODE or write --montgomery=P)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    debugger = Debugger(CodeView(target, args.opcodes, args.fork), CommandReader(sys.stdin, sys.stdout),
                        sys.stdout, args.montgomery, args.opcodes)
    try:
        with debugger.stop_on_interrupt():
            result = execute_target(target, calldata, options, debugger)
    except Quit:
        print("quit")
        return 0
    return 0 if result.success else 1
