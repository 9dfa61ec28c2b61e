"""``evm384 profile``: count and gas per opcode (under EVMMAX also per field context), the
hottest instructions, and for the built-in contracts EVM384 ops per routine
(:mod:`evm384_native.asm.profile`); ``--flamegraph`` / ``--folded``: gas by run-time call
path (:mod:`evm384_native.asm.flamegraph`)."""
from __future__ import annotations

import argparse
from contextlib import ExitStack
from typing import IO, List, Optional

from ..asm.flamegraph import CallPathGas, folded, svg
from ..asm.profile import by_scope, report
from ..evm.opcode_sets import resolve_opcodes
from ..evm.result import ExecutionResult
from ..evm.tracing import Profiler, Tracer
from .errors import CliError
from .gas_limit import failure_text
from .inputs import Target, add_code_arguments, execute_target, load_run
from .views import CodeView, result_text


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("profile", help="where CODE spends its instructions and gas")
    add_code_arguments(parser, engine=False)
    parser.add_argument("--top", type=int, default=15, help="rows of the hot lists (default 15)")
    parser.add_argument("--flamegraph", metavar="FILE.svg",
                        help="write a flame graph of gas by call path (SVG)")
    parser.add_argument("--folded", metavar="FILE",
                        help="write gas by call path as folded stacks (frame;frame GAS)")
    parser.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    target, calldata, options = load_run(args)
    with ExitStack() as files:
        # opened before the run: a path that cannot be written fails at once
        flame_out = _open(files, args.flamegraph)
        folded_out = _open(files, args.folded)
        profiler = Profiler()
        tracers: List[Tracer] = [profiler]
        call_paths: Optional[CallPathGas] = None
        if flame_out or folded_out:
            call_paths = CallPathGas(target.program)
            tracers.append(call_paths)
        result = execute_target(target, calldata, options, tracers)
        _print_profile(args, target, result, profiler)
        if call_paths is not None:
            stacks = call_paths.stacks()
            if flame_out:
                flame_out.write(svg(stacks, f"gas by call path ({args.opcodes.upper()})"))
            if folded_out:
                folded_out.write(folded(stacks))
    return 0 if result.success else 1


def _open(files: ExitStack, path: Optional[str]) -> Optional[IO[str]]:
    if path is None:
        return None
    try:
        return files.enter_context(open(path, "w"))
    except OSError as error:
        raise CliError(f"cannot write {path!r}: {error.strerror}") from None


def _print_profile(args: argparse.Namespace, target: Target, result: ExecutionResult,
                   profiler: Profiler) -> None:
    print(result_text(result, args.opcodes))
    if not result.success:
        print(f"the run failed: {failure_text(result.error, args.gas)}; what follows counts the "
              "instructions it ran, not the whole job")
    print("\nby opcode:")
    print(profiler.report())
    view = CodeView(target, args.opcodes, args.fork)
    # a folded PUSH16 + EVM384 pair is listed once, at the PUSH16's pc
    hot = sorted((pc for pc in profiler.by_pc if pc in view.instructions),
                 key=lambda pc: (-profiler.by_pc[pc], pc))[:args.top]
    print("\nhottest instructions (count, then the instruction):")
    for pc in hot:
        print(f"{profiler.by_pc[pc]:>10}  {view.line(view.instructions[pc]).strip()}")
    ops, title = resolve_opcodes(args.opcodes).own_mnemonics, args.opcodes.upper()
    if target.program is not None and ops:     # plain EVM adds no ops of its own
        print(f"\n{title} ops by routine:")
        print(report(by_scope(target.program, profiler.by_pc, depth=1, only=ops),
                     limit=args.top))
        print(f"\n{title} ops by innermost code:")
        print(report(by_scope(target.program, profiler.by_pc, only=ops), limit=args.top))
