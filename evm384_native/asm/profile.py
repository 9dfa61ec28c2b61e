"""Attribute an execution profile (count or gas per pc) to the code that emitted it, through
the source map: "fp2_sqr in line_dbl in ml_dbl_all" instead of "pc 4711"."""
from __future__ import annotations

from collections import Counter
from typing import Dict, Mapping, Optional, Tuple

from ..evm.tracing import Step, Tracer
from .assembler import Program
from .disasm import disassemble

Path = Tuple[str, ...]


def by_scope(program: Program, counts_by_pc: Mapping[int, int], depth: Optional[int] = None,
             only: Optional[Tuple[str, ...]] = None) -> Dict[Path, int]:
    """Executed instructions per scope path (cut to ``depth`` levels). ``only`` restricts
    the count to some mnemonics, e.g. the three EVM384 ops. A PUSH16 folded into an EVM384
    op counts as that op."""
    names = {ins.pc: ins.name
             for ins in disassemble(program.code, program.code_size, program.opcodes)}
    totals: Counter = Counter()
    for pc, count in counts_by_pc.items():
        if only is not None and names.get(pc) not in only:
            continue
        path = program.source_map[pc].path
        totals[path[:depth] if depth else path] += count
    return dict(totals)


class GasByPc(Tracer):
    """Gas per pc (``by_pc``), to pass to :func:`by_scope` for gas per scope: the steps'
    costs add up to the gas used, EVM384 or EVMMAX alike."""

    def __init__(self) -> None:
        self.by_pc: Counter = Counter()

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        self.by_pc[step.pc] += gas_cost


def report(totals: Mapping[Path, int], limit: int = 25) -> str:
    """The biggest entries, one line each: count, share, "inner in ... in outer"."""
    grand = sum(totals.values()) or 1
    rows = sorted(totals.items(), key=lambda item: -item[1])[:limit]
    return "\n".join(f"{count:>10} {100 * count / grand:5.1f}%  {' in '.join(reversed(path))}"
                     for path, count in rows)


def step_printer(program: Program, out, only: Optional[Tuple[str, ...]] = None):
    """A step hook for ``execute(..., tracer=hook)`` that prints each instruction with the
    code that emitted it and, for EVM384 ops, the operand slots by name, e.g.
    ``4711 MULMODMONT384 out=... x=... mod=const.p  ; fp2_mul in line_dbl in ml_dbl_all``."""
    instructions = {ins.pc: ins
                    for ins in disassemble(program.code, program.code_size, program.opcodes)}

    def hook(step) -> None:
        ins = instructions.get(step.pc)
        if ins is None or (only is not None and ins.name not in only):
            return                            # the opcode of a folded PUSH16 + EVM384 pair
        out.write(f"{step.pc:6d} {ins.text(program.memory)}  ; {program.source_map[step.pc]}\n")
    return hook
