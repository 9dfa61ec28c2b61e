"""``evm384 debug``: the step debugger (:mod:`.debugger`) on CODE, commands from stdin."""
from __future__ import annotations

import argparse
import sys
from typing import Optional

from ..contracts import curve_of
from ..curves.bls12_381 import BLS12_381
from ..evm.kernels.limbs import LIMBS384, LIMBS768
from ..evm.kernels.montgomery import montgomery_inv
from ..evm.opcode_sets import resolve_opcodes
from .debugger import HELP, CommandReader, Debugger, Quit
from .errors import CliError
from .inputs import CONTRACT_PREFIX, add_code_arguments, contract_name, execute_target, load_run
from .views import CodeView


def _modulus(text: str) -> int:
    try:
        value = int(text, 0)
        montgomery_inv(value, LIMBS768)            # checks: odd, in (1, 2**768)
    except (ValueError, TypeError) as error:
        raise argparse.ArgumentTypeError(f"bad modulus {text!r}: {error}") from None
    return value


# --montgomery without P: the modulus of CODE's curve, known once CODE is parsed (not a
# string: argparse would convert a string const with the option's type)
_CURVE_P = object()


def _curve_p(code: Optional[str]) -> int:
    if code is not None and code.startswith(CONTRACT_PREFIX):
        return curve_of(contract_name(code)).p
    return BLS12_381.p


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "debug", help="step through CODE (commands from stdin, one per line)",
        description="Stops before the first instruction. Commands:\n" + HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_code_arguments(parser, engine=False)
    parser.add_argument("--montgomery", nargs="?", const=_CURVE_P, type=_modulus, metavar="P",
                        help="fp also shows values out of Montgomery form mod P (default: "
                             "the p of a contract's curve, else BLS12-381's; put it after "
                             "CODE or write --montgomery=P)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    montgomery = _curve_p(args.code) if args.montgomery is _CURVE_P else args.montgomery
    limbs = resolve_opcodes(args.opcodes).value_limbs or LIMBS384   # fp's value size
    if montgomery is not None and montgomery >= 1 << (64 * limbs):
        raise CliError(f"--montgomery: the modulus {montgomery:#x} does not fit the "
                       f"{8 * limbs}-byte values of --opcodes {args.opcodes}")
    debugger = Debugger(CodeView(target, args.opcodes, args.fork), CommandReader(sys.stdin, sys.stdout),
                        sys.stdout, montgomery, args.opcodes)
    try:
        with debugger.stop_on_interrupt():
            result = execute_target(target, calldata, options, debugger)
    except Quit:
        print("quit")
        return 0
    return 0 if result.success else 1
