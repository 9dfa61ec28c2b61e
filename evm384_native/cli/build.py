"""``evm384 build CONTRACT``: a built-in contract's bytecode (hex, or raw bytes), or with
``--json`` everything the tools know about it: bytecode, labels, source map, memory layout."""
from __future__ import annotations

import argparse
import json
from typing import Any, Dict

from ..asm import Program, Slot
from ..contracts import CONTRACTS, TARGETS, build_program
from .errors import CliError
from .inputs import contract_name
from .output import add_output_arguments, hex_or_binary, write


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "build", help="a built-in contract's bytecode (or --json: with its symbols)",
        description=f"Contracts: {', '.join(CONTRACTS)}.")
    parser.add_argument("contract", metavar="CONTRACT", help="a contract name (or contract:NAME)")
    add_output_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help="one JSON object: bytecode, labels, source map, memory layout")
    parser.add_argument("--target", choices=TARGETS, default="evm384",
                        help="the instruction set to build for: EVM384 (default) or EVMMAX "
                             "(EIP-6690; the contracts `evm384 gas --target evmmax` lists)")
    parser.add_argument("--inline", action="store_true",
                        help="inline the cold routines (compact=False: less gas, bigger code; "
                             "the EVMMAX default)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    name = contract_name(args.contract)
    try:                    # without --inline, the target's default build
        program = build_program(name, compact=False if args.inline else None,
                                target=args.target)
    except ValueError as error:
        raise CliError(str(error)) from None
    if args.json:
        write(json.dumps(program_fields(name, program)) + "\n", args.out)
    else:
        write(hex_or_binary(program.code, args.binary), args.out)
    return 0


def program_fields(name: str, program: Program) -> Dict[str, Any]:
    """The program as JSON-ready fields (what ``evm384 debug`` reads from a contract)."""
    return {
        "name": name,
        "bytecode": "0x" + program.code.hex(),
        "size": len(program.code),
        "code_size": program.code_size,
        "labels": dict(sorted(program.labels.items(), key=lambda item: item[1])),
        "source_map": [{"pc": pc, "path": list(location.path), "label": location.label}
                       for pc, location in zip(program.source_map.starts,
                                               program.source_map.locations)],
        "memory": [{"region": region.name, "offset": region.base_offset(), "size": region.size,
                    "slots": [_slot(slot) for slot in region.allocations]}
                   for region in program.memory.regions],
    }


def _slot(slot: Slot) -> Dict[str, Any]:
    fields: Dict[str, Any] = {"name": slot.name, "type": type(slot).__name__,
                              "offset": slot.offset, "size": slot.size}
    if slot.fields:                     # its field values, as the debugger's fp shows them
        fields["fps"] = [[fp.name, fp.offset] for fp in slot.fps()]
    return fields
