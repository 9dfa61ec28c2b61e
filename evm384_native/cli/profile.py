"""``evm384 profile``: count and gas per opcode (under EVMMAX also per field context), the
hottest instructions, and for the built-in contracts EVM384 ops per routine
(:mod:`evm384_native.asm.profile`)."""
from __future__ import annotations

import argparse

from ..asm.profile import by_scope, report
from ..evm.tracing import Profiler
from .inputs import add_code_arguments, execute_target, load_run
from .views import SET_MNEMONICS, CodeView, result_text


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("profile", help="where CODE spends its instructions and gas")
    add_code_arguments(parser, engine=False)
    parser.add_argument("--top", type=int, default=15, help="rows of the hot lists (default 15)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    profiler = Profiler()
    result = execute_target(target, calldata, options, profiler)
    print(result_text(result, args.opcodes))
    print("\nby opcode:")
    print(profiler.report())
    view = CodeView(target, args.opcodes)
    # a folded PUSH16 + EVM384 pair is listed once, at the PUSH16's pc
    hot = sorted((pc for pc in profiler.by_pc if pc in view.instructions),
                 key=lambda pc: (-profiler.by_pc[pc], pc))[:args.top]
    print("\nhottest instructions (count, then the instruction):")
    for pc in hot:
        print(f"{profiler.by_pc[pc]:>10}  {view.line(view.instructions[pc]).strip()}")
    if target.program is not None:
        ops, title = SET_MNEMONICS[args.opcodes], args.opcodes.upper()
        print(f"\n{title} ops by routine:")
        print(report(by_scope(target.program, profiler.by_pc, depth=1, only=ops),
                     limit=args.top))
        print(f"\n{title} ops by innermost code:")
        print(report(by_scope(target.program, profiler.by_pc, only=ops), limit=args.top))
    return 0 if result.success else 1
