"""``evm384 disasm``: the EVM384-aware listing (routines and slot names for contracts)."""
from __future__ import annotations

import argparse

from .inputs import CONTRACT_PREFIX, load_target
from .views import CodeView


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "disasm", help="disassemble CODE (EVM384 ops as out/x/y/mod)")
    parser.add_argument("code", metavar="CODE",
                        help=f"hex bytecode, @FILE (hex or binary), or {CONTRACT_PREFIX}NAME")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    print("\n".join(CodeView(load_target(args.code)).lines()))
    return 0
