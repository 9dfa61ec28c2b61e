"""``evm384 trace``: EIP-3155 JSON lines, one per instruction, then the summary.

A trace bigger than SIZE_LIMIT is refused unless ``--force`` is given: its size is counted
first by a dry run (issue 42: ``--memory`` on the pairing contract wrote 6.8 GB in 43 s)."""
from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from typing import Any, Dict, List

from ..evm.tracing import Eip3155Tracer, Step, Tracer
from .errors import CliError
from .inputs import Target, add_code_arguments, execute_target, load_run

SIZE_LIMIT = 10**9                    # bytes
# What --memory adds to a line besides two hex digits a byte
_MEMORY_FIELD = len(',"memory":"0x"')


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("trace", help="EIP-3155 trace of CODE as JSON lines")
    add_code_arguments(parser, engine=False)
    parser.add_argument("--out", metavar="FILE", help="write the trace here (default stdout)")
    parser.add_argument("--memory", action="store_true", help="include memory in every line")
    parser.add_argument("--registers", action="store_true",
                        help="EVMMAX: include the active field context's registers in every "
                             "line (canonical values: out of Montgomery form)")
    parser.add_argument("--force", action="store_true",
                        help=f"write the trace even if it is over {_size_text(SIZE_LIMIT)} "
                             "(by default a dry run counts its size first)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    if not args.force:
        _refuse_if_too_big(trace_size(target, calldata, options, args.memory, args.registers),
                           args.memory)
    try:
        out = open(args.out, "w") if args.out else nullcontext(sys.stdout)
    except OSError as error:
        raise CliError(f"cannot write {args.out!r}: {error.strerror}") from None
    with out as stream:
        result = execute_target(target, calldata, options,
                                Eip3155Tracer(stream, args.memory, args.registers))
    return 0 if result.success else 1


class _Length:
    """A text stream that keeps only the length of what is written (JSON is ASCII: the
    characters are the bytes)."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


class _MemoryHexSize(Tracer):
    """What ``--memory`` adds to the lines: each step's memory in hex, with its key."""

    def __init__(self) -> None:
        self.size = 0

    def on_step(self, step: Step) -> None:
        self.size += 2 * step.memory_size + _MEMORY_FIELD


def trace_size(target: Target, calldata: bytes, options: Dict[str, Any], memory: bool,
               registers: bool) -> int:
    """The bytes the trace of ``target`` takes, from a dry run that writes the lines
    without memory nowhere and adds up the memory's hex (as big as the rest, by far)."""
    lines = _Length()
    memory_hex = _MemoryHexSize()
    tracers: List[Tracer] = [Eip3155Tracer(lines, False, registers)]  # type: ignore[arg-type]
    if memory:
        tracers.append(memory_hex)
    execute_target(target, calldata, options, tracers)
    return lines.size + memory_hex.size


def _refuse_if_too_big(size: int, memory: bool) -> None:
    if size > SIZE_LIMIT:
        raise CliError(f"the trace would be {_size_text(size)} ({size:,} bytes), over the "
                       f"limit of {_size_text(SIZE_LIMIT)}: pass --force to write it anyway"
                       + (" (or leave out --memory)" if memory else ""))


def _size_text(size: int) -> str:
    """``1.3 GB``: decimal units, one decimal."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"
