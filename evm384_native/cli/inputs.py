"""What the subcommands run: CODE and calldata arguments, and the options of ``execute``.

CODE is hex text, ``@FILE`` (hex text or raw bytes), or ``contract:NAME`` for a built-in
BLS12-381 contract, which also brings its assembled program (labels, source map, memory
layout) so that the tools can name routines and slots.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Optional, Tuple

from ..asm import Program
from ..bls12_381.contracts import CONTRACTS, build_program
from ..evm.api import ENGINES
from ..evm.backends import BACKENDS
from ..evm.gas import DEFAULT_SCHEDULE, SCHEDULES
from .errors import CliError

CONTRACT_PREFIX = "contract:"
_TEXT = frozenset(range(0x20, 0x7F)) | frozenset(b"\t\n\r")


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
    """Hex text, or ``@FILE`` holding hex text or raw bytes (a file of printable text is
    read as hex, so a typo is an error rather than bytes)."""
    if not argument.startswith("@"):
        return _hex(argument, what)
    path = Path(argument[1:])
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CliError(f"cannot read {what} file {str(path)!r}: {error.strerror}") from None
    if data and all(byte in _TEXT for byte in data):   # text must be hex: no silent misreads
        return _hex(data.decode("ascii"), f"{what} file {str(path)!r}")
    return data


def load_target(argument: str) -> Target:
    """CODE: hex, ``@FILE`` or ``contract:NAME``."""
    if argument.startswith(CONTRACT_PREFIX):
        name = argument[len(CONTRACT_PREFIX):]
        if name not in CONTRACTS:
            raise CliError(f"unknown contract {name!r}; choose one of {', '.join(CONTRACTS)}")
        program = build_program(name)
        return Target(program.code, program)
    return Target(load_bytes(argument, "CODE"))


def add_code_arguments(parser: argparse.ArgumentParser, engine: bool = True) -> None:
    """CODE, --calldata and the execution options; ``engine=False`` for the commands that
    trace (tracing always runs the Python engine's step loop)."""
    parser.add_argument("code", metavar="CODE",
                        help="hex bytecode, @FILE (hex or binary), or contract:NAME "
                             f"({', '.join(CONTRACTS)})")
    parser.add_argument("--calldata", default="", metavar="HEX|@FILE",
                        help="call data: hex or @FILE (hex or binary); default empty")
    parser.add_argument("--gas", type=int, default=30_000_000, help="gas limit (default 30M)")
    if engine:
        parser.add_argument("--engine", choices=sorted(ENGINES), default="python")
    parser.add_argument("--backend", choices=sorted(BACKENDS), default="native",
                        help="EVM384 kernels (default native)")
    parser.add_argument("--schedule", choices=sorted(SCHEDULES), default=DEFAULT_SCHEDULE,
                        help=f"EVM384 gas schedule (default {DEFAULT_SCHEDULE})")


def load_run(args: argparse.Namespace) -> Tuple[Target, bytes, Dict[str, Any]]:
    """The target, the calldata and the keyword options of ``execute`` from parsed options."""
    if not 0 <= args.gas < 2**63:
        raise CliError(f"--gas must be in [0, 2**63), got {args.gas}")
    options: Dict[str, Any] = {"gas": args.gas, "backend": args.backend,
                               "schedule": args.schedule}
    if getattr(args, "engine", None) is not None:
        options["engine"] = args.engine
    return load_target(args.code), load_bytes(args.calldata, "calldata"), options
