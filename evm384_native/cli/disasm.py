"""``evm384 disasm``: the EVM384-aware listing (routines and slot names for contracts), or
with ``--opcodes evmmax`` the EVMMAX one (immediates by name), or with ``--opcodes evm``
today's EVM's (0xc0..0xc5 unknown)."""
from __future__ import annotations

import argparse

from ..contracts import CONTRACTS
from .inputs import (FILE_RULES, add_code_argument, add_fork_argument, add_opcodes_argument,
                     load_target)
from .views import CodeView


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "disasm", help="disassemble CODE (EVM384 ops as out/x/y/mod)",
        description="Disassemble CODE: a PUSH16 feeding an EVM384 op reads as the op with "
                    "out/x/y/mod; a contract's listing names its routines and memory slots. "
                    "Under --opcodes evmmax, ADDMODX/SUBMODX/MULMODX show their seven "
                    "immediates by name; under --opcodes evm, 0xc0-0xc5 are unknown bytes. "
                    f"Contracts: {', '.join(CONTRACTS)}. {FILE_RULES}.")
    add_code_argument(parser)
    add_opcodes_argument(parser)
    add_fork_argument(parser)
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target = load_target(args.code, args.code_file, args.opcodes)
    print("\n".join(CodeView(target, args.opcodes, args.fork).lines()))
    return 0
