"""What the subcommands run: CODE and calldata arguments, and the options of ``execute``.

CODE is hex text, ``@FILE`` (a file of hex text), or ``contract:NAME`` for a built-in
contract (BLS12-381's or BN254's: :mod:`evm384_native.contracts`), which also brings its
assembled program (labels, source map, memory layout) so that the tools can name routines
and slots. Raw bytes come from files named by ``--code-file`` / ``--calldata-file``: one
rule each, never a guess (FILE_RULES).
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from ..asm import Program
from ..contracts import CONTRACTS, build_program
from ..evm.api import ENGINES, execute
from ..evm.backends import BACKENDS
from ..evm.costs import COST_MODELS, DEFAULT_COSTS, EvmmaxCosts, load_costs
from ..evm.forks import DEFAULT_FORK, FORKS
from ..evm.gas import DEFAULT_GAS, DEFAULT_SCHEDULE, SCHEDULES
from ..evm.opcode_sets import DEFAULT_OPCODES, OPCODE_SETS
from ..evm.result import ExecutionResult
from ..evm.tracing import TracerLike
from .errors import CliError, not_applied, warn
from .gas_limit import add_gas_argument

CONTRACT_PREFIX = "contract:"
_RAW_OPTIONS = {"CODE": "--code-file", "calldata": "--calldata-file"}
FILE_RULES = ("@FILE reads a file of hex text (an optional 0x, whitespace ignored); "
              "--code-file / --calldata-file read a file's raw bytes")


@dataclass(frozen=True)
class Target:
    """Bytecode to run, with its program when it is a built-in contract."""
    code: bytes
    program: Optional[Program] = None


def _hex(text: str, what: str) -> bytes:
    digits = "".join(text.split())
    if digits[:2].lower() == "0x":
        digits = digits[2:]
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise CliError(f"{what} is not valid hex: {text[:40]!r}") from None


def load_bytes(argument: str, what: str) -> bytes:
    """Hex text, or ``@FILE``: a file of hex text."""
    if not argument.startswith("@"):
        return _hex(argument, what)
    path = argument[1:]
    data = read_file(path, what)
    try:
        return _hex(data.decode("ascii"), f"{what} file {path!r}")
    except (UnicodeDecodeError, CliError):
        shown = repr(data[:20]) + ("..." if len(data) > 20 else "")
        option = _RAW_OPTIONS.get(what)
        hint = f"; for raw bytes use {option} FILE" if option else ""
        raise CliError(f"{what} file {path!r} is not hex text: {shown} "
                       f"(@FILE reads hex{hint})") from None


def read_file(path: str, what: str) -> bytes:
    """A file's bytes, or a CliError saying why not."""
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise CliError(f"cannot read {what} file {path!r}: {error.strerror}") from None


def contract_name(text: str) -> str:
    """A built-in contract's name, with or without the contract: prefix."""
    name = text[len(CONTRACT_PREFIX):] if text.startswith(CONTRACT_PREFIX) else text
    if name not in CONTRACTS:
        raise CliError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
    return name


def load_target(argument: Optional[str], code_file: Optional[str] = None,
                opcodes: str = DEFAULT_OPCODES) -> Target:
    """CODE (hex, ``@FILE`` or ``contract:NAME``) or the raw bytes of ``--code-file``, to
    run with the opcode set ``opcodes``."""
    if (argument is None) == (code_file is None):
        raise CliError("give CODE or --code-file FILE (one of them)")
    if code_file is not None:
        return Target(read_file(code_file, "CODE"))
    if argument.startswith(CONTRACT_PREFIX):
        name = contract_name(argument)
        try:                    # the opcode set is the toolchain's target
            program = build_program(name, target=opcodes)
        except ValueError as error:
            raise CliError(str(error)) from None
        return Target(program.code, program)
    return Target(load_bytes(argument, "CODE"))


def add_code_argument(parser: argparse.ArgumentParser) -> None:
    """CODE, or --code-file."""
    parser.add_argument("code", metavar="CODE", nargs="?",
                        help="hex bytecode, @FILE (hex text), or contract:NAME "
                             f"({', '.join(CONTRACTS)})")
    parser.add_argument("--code-file", metavar="FILE", help="read CODE as raw bytes from FILE")


def add_opcodes_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opcodes", choices=sorted(OPCODE_SETS), default=DEFAULT_OPCODES,
                        help="the opcode set: EVM384 (ADDMOD384... at 0xc0-0xc2), EVM768 "
                             "(EVM384's ops at 96-byte values: ADDMOD768... at 0xc0-0xc2, "
                             "priced by --schedule at twelve limbs), EVMMAX "
                             "(EIP-6690's SETMODX... at 0xc0-0xc5; --schedule does not "
                             "apply) or evm (today's mainnet EVM at --fork: 0xc0-0xc5 "
                             f"undefined; neither --schedule nor --costs applies) (default "
                             f"{DEFAULT_OPCODES})")


def add_fork_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fork", choices=list(FORKS), default=DEFAULT_FORK,
                        help="the mainnet revision: osaka (CLZ at 0x1e), prague or cancun "
                             f"(0x1e undefined) (default {DEFAULT_FORK})")


def add_code_arguments(parser: argparse.ArgumentParser, engine: bool = True) -> None:
    """CODE, --calldata and the execution options; ``engine=False`` for the commands that
    trace (tracing always runs the Python engine's step loop)."""
    add_code_argument(parser)
    parser.add_argument("--calldata", default="", metavar="HEX|@FILE",
                        help="call data: hex, or @FILE (hex text); default empty")
    parser.add_argument("--calldata-file", metavar="FILE",
                        help="read the call data as raw bytes from FILE")
    add_gas_argument(parser, DEFAULT_GAS)
    if engine:
        parser.add_argument("--engine", choices=sorted(ENGINES), default="python",
                            help="the python loop or the C loop (default python)")
    parser.add_argument("--backend", choices=sorted(BACKENDS), default="native",
                        help="EVM384 kernels (default native)")
    # no defaults here: load_run tells a pricing option given from one left out, to warn
    # when one is given that does not apply to the opcode set run
    parser.add_argument("--schedule", choices=sorted(SCHEDULES),
                        help=f"EVM384 gas schedule (default {DEFAULT_SCHEDULE})")
    parser.add_argument("--costs", metavar="NAME|FILE",
                        help=f"EVMMAX cost model: {', '.join(COST_MODELS)} or a JSON table "
                             "file of SETMODX, ADDMODX, MULMODX rows (12 gas values each, 1..12 "
                             f"limbs) (default {DEFAULT_COSTS})")
    add_opcodes_argument(parser)
    add_fork_argument(parser)


def cost_model(text: str) -> EvmmaxCosts:
    """``--costs``: a named EVMMAX cost model, else a JSON table file (its errors name the
    file, the key and what it must hold)."""
    if text in COST_MODELS:
        return COST_MODELS[text]
    if not Path(text).is_file():
        raise CliError(f"--costs: not one of {', '.join(COST_MODELS)}, nor a file: {text!r}")
    try:
        return load_costs(text)
    except ValueError as error:
        raise CliError(f"--costs: {error}") from None


def _pricing(args: argparse.Namespace) -> Tuple[str, EvmmaxCosts]:
    """The EVM384 schedule and the EVMMAX cost model to run with, the defaults for those
    not given; a warning for each given that does not apply to the opcode set run."""
    costs = cost_model(args.costs if args.costs is not None else DEFAULT_COSTS)
    if args.costs is not None and costs.opcodes != args.opcodes:
        warn(not_applied("--costs", args.costs, args.opcodes, costs.opcodes))
    if args.schedule is not None and not OPCODE_SETS[args.opcodes].scheduled:
        warn(not_applied("--schedule", args.schedule, args.opcodes, "evm384"))
    return args.schedule or DEFAULT_SCHEDULE, costs


def load_run(args: argparse.Namespace) -> Tuple[Target, bytes, Dict[str, Any]]:
    """The target, the calldata and the keyword options of ``execute`` from parsed options."""
    schedule, costs = _pricing(args)
    options: Dict[str, Any] = {"gas": args.gas, "backend": args.backend,
                               "schedule": schedule, "opcodes": args.opcodes,
                               "costs": costs, "fork": args.fork}
    if getattr(args, "engine", None) is not None:
        options["engine"] = args.engine
    if args.calldata and args.calldata_file is not None:
        raise CliError("give --calldata or --calldata-file, not both")
    calldata = (read_file(args.calldata_file, "calldata") if args.calldata_file is not None
                else load_bytes(args.calldata, "calldata"))
    return load_target(args.code, args.code_file, args.opcodes), calldata, options


def execute_target(target: Target, calldata: bytes, options: Dict[str, Any],
                   tracer: Optional[TracerLike] = None) -> ExecutionResult:
    """``execute`` with the options of :func:`load_run`. The options are checked one by
    one by argparse; a combination the engine refuses (an engine without the opcode set)
    is an input error too."""
    try:
        return execute(target.code, calldata, tracer=tracer, **options)
    except ValueError as error:
        raise CliError(str(error)) from None
