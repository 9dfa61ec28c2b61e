"""The "python" engine: dispatch loops over decoded code.

Two loops share the instruction semantics of :mod:`.instructions`:

* the block loop checks stack bounds and static gas once per block (see
  :mod:`.code`), then calls the handlers of the block without further checks;
* the step loop checks and charges every instruction, and reports to a tracer.

When a block's checks fail, the block would halt partway (out of gas, stack
underflow or overflow), so the step loop takes over from the block's start and
halts at the exact instruction with the exact gas.
"""
from __future__ import annotations

from collections import defaultdict
from typing import DefaultDict, Dict, List, NoReturn, Optional, Tuple

from .backends import Backend
from .costs import EIP_6690, EvmmaxCosts
from .code import Code, Instruction, decode
from .frame import MAX_MEMORY_BYTES, Frame
from .gas import Evm384Schedule, memory_expansion_cost
from .opcode_sets import DEFAULT_OPCODE_SET, OpcodeSet
from .halts import (ExceptionalHalt, Halt, OutOfGas, ResumeInSteps, StackOverflow,
                    StackUnderflow, Stopped)
from .opcodes import STACK_LIMIT
from .result import ExecutionResult
from .tracing import Step, Tracer


class _Counts:
    """Instructions executed: whole blocks by the block loop, single steps by the step loop."""

    def __init__(self, code: Code) -> None:
        self.code: Optional[Code] = code
        self.block_runs: DefaultDict[int, int] = defaultdict(int)   # by the block's start pc
        self.steps: Dict[str, int] = {}
        self.blocks: List[Tuple[Tuple[Tuple[str, int], ...], int]] = []  # see ``detach``

    def add_partial(self, start_pc: int, ran: int) -> None:
        """The block starting at ``start_pc`` halted at its instruction ``ran - 1``."""
        for name in self.code.block_names(start_pc)[:ran]:
            self.steps[name] = self.steps.get(name, 0) + 1

    def detach(self) -> None:
        """After the run: the blocks that ran as their tallies (made at decode) and how
        often, without the code, so that a result keeping these counts to name them when
        read keeps no decoded program alive."""
        self.blocks = [(self.code.block_name_counts(start_pc), runs)
                       for start_pc, runs in self.block_runs.items()]
        self.code = None

    def by_name(self) -> Dict[str, int]:
        counts = dict(self.steps)
        for tally, runs in self.blocks:
            for name, count in tally:
                counts[name] = counts.get(name, 0) + count * runs
        return counts


def _run_blocks(f: Frame, code: Code, counts: _Counts) -> NoReturn:
    dispatch_at = code.dispatch_at
    block_runs = counts.block_runs
    stack = f.stack
    pc = ran = 0
    try:
        while True:
            gas, stack_min, stack_max, segment_end, next_pc, body = dispatch_at[pc]
            if f.gas < gas or not stack_min <= len(stack) <= stack_max:
                break
            # segments and fixed MCOPYs grow memory to segment_end (0: none): their gas too
            if segment_end and segment_end > len(f.memory):
                if segment_end > MAX_MEMORY_BYTES or \
                        f.gas < gas + memory_expansion_cost(len(f.memory), segment_end):
                    break  # out of gas partway: the step loop finds where
            f.gas -= gas
            f.pc = next_pc
            for handler, arg, ran in body:
                handler(f, arg)
            block_runs[pc] += 1
            pc = f.pc
    except Halt:
        counts.add_partial(pc, ran)
        raise
    except ResumeInSteps as resume:   # nothing of the entry ran: its instructions one by one
        counts.add_partial(pc, ran - resume.skipped)
        pc = resume.pc
    _run_steps(f, code, pc, counts, None)


def _step(f: Frame, ins: Instruction) -> None:
    height = len(f.stack)
    if height < ins.inputs:
        raise StackUnderflow()
    if height - ins.inputs + ins.outputs > STACK_LIMIT:
        raise StackOverflow()
    if f.gas < ins.gas:
        raise OutOfGas()
    f.gas -= ins.gas
    f.pc = ins.next_pc
    ins.handler(f, ins.arg)


def _traced_step(f: Frame, ins: Instruction, tracer: Tracer) -> None:
    step = Step(f, ins.pc, ins.opcode, ins.name)
    tracer.on_step(step)
    try:
        _step(f, ins)
    except ExceptionalHalt as halt:
        tracer.on_step_end(step, step.gas, halt.reason)
        raise
    except Stopped:
        tracer.on_step_end(step, step.gas - f.gas, None)
        raise
    tracer.on_step_end(step, step.gas - f.gas, None)


def _run_steps(f: Frame, code: Code, pc: int, counts: _Counts,
               tracer: Optional[Tracer]) -> NoReturn:
    instruction_at = code.instruction_at
    steps = counts.steps
    while True:
        ins = instruction_at[pc]
        steps[ins.name] = steps.get(ins.name, 0) + 1
        if tracer is None:
            _step(f, ins)
        else:
            _traced_step(f, ins, tracer)
        pc = f.pc


def run_python(bytecode: bytes, calldata: bytes, gas: int, backend: Backend,
               schedule: Evm384Schedule, tracer: Optional[Tracer],
               fuse_evm384: bool = True, opcodes: OpcodeSet = DEFAULT_OPCODE_SET,
               costs: EvmmaxCosts = EIP_6690) -> ExecutionResult:
    """Run ``bytecode`` to its end with the ``opcodes`` set (its own instructions priced by
    ``costs`` where the set takes a cost model). ``fuse_evm384=False`` makes one backend
    call per EVM384 instruction (the naive loop, kept for comparison)."""
    code = decode(bytecode, schedule, fuse_evm384, opcodes)
    f = Frame(code, calldata, gas, backend)
    if opcodes.new_frame_state is not None:
        f.evmmax = opcodes.new_frame_state(backend.modx, costs)
    counts = _Counts(code)
    try:
        if tracer is None:
            _run_blocks(f, code, counts)
        else:
            _run_steps(f, code, 0, counts, tracer)
    except Stopped as stop:
        output, error = stop.output, "revert" if stop.reverted else None
        gas_left = f.gas
    except ExceptionalHalt as halt:
        output, error, gas_left = b"", halt.reason, 0
    finally:
        f.unpin()
    counts.detach()
    return ExecutionResult.lazy(output, gas - gas_left, gas_left, error, (counts.by_name, ()))
