"""Observing an execution: the tracer protocol, an EIP-3155 JSON-lines tracer, a
step hook for debuggers, and a profiler.

A traced execution runs instruction by instruction (no block dispatch), calling
``on_step`` before each instruction and ``on_step_end`` after it. ``gas_cost`` is
the gas the instruction consumed, so an exceptional halt's step costs all the
gas that was left and the costs of all steps add up to the gas used.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Dict, IO, Optional, Sequence, Tuple, Union

from .frame import Frame
from .result import ExecutionResult


class Step:
    """The instruction about to run, with read-only views of the live machine state.

    ``stack`` (bottom first) and ``memory`` are copied when read, so read them in
    ``on_step`` for the state before the instruction.
    """

    __slots__ = ("_frame", "pc", "opcode", "name", "gas")

    def __init__(self, frame: Frame, pc: int, opcode: int, name: str) -> None:
        self._frame = frame
        self.pc = pc
        self.opcode = opcode
        self.name = name
        self.gas = frame.gas  # gas left before the instruction

    @property
    def stack(self) -> Tuple[int, ...]:
        return tuple(self._frame.stack)

    @property
    def memory(self) -> bytes:
        return bytes(self._frame.memory)

    @property
    def memory_size(self) -> int:
        return len(self._frame.memory)


class Tracer:
    """Base class: override the events you need."""

    def on_start(self, code: bytes, calldata: bytes, gas: int) -> None:
        pass

    def on_step(self, step: Step) -> None:
        pass

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        pass

    def on_end(self, result: ExecutionResult) -> None:
        pass


class StepHook(Tracer):
    """Calls ``hook(step)`` before every instruction."""

    def __init__(self, hook: Callable[[Step], None]) -> None:
        self.hook = hook

    def on_step(self, step: Step) -> None:
        self.hook(step)


class Eip3155Tracer(Tracer):
    """Writes one JSON object per instruction and a summary line (EIP-3155).

    Set ``memory=True`` to include the whole memory in every line.
    """

    def __init__(self, out: IO[str], memory: bool = False) -> None:
        self.out = out
        self.memory = memory
        self._line: Dict[str, object] = {}

    def on_step(self, step: Step) -> None:
        line: Dict[str, object] = {
            "pc": step.pc, "op": step.opcode, "gas": hex(step.gas), "gasCost": "0x0",
            "memSize": step.memory_size, "stack": [hex(word) for word in step.stack],
            "depth": 1, "returnData": "0x", "refund": 0, "opName": step.name,
        }
        if self.memory:
            line["memory"] = "0x" + step.memory.hex()
        self._line = line

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        self._line["gasCost"] = hex(gas_cost)
        if error is not None:
            self._line["error"] = error
        self.out.write(json.dumps(self._line, separators=(",", ":")) + "\n")

    def on_end(self, result: ExecutionResult) -> None:
        summary: Dict[str, object] = {"output": "0x" + result.output.hex(),
                                      "gasUsed": hex(result.gas_used), "pass": result.success}
        if result.error is not None:
            summary["error"] = result.error
        self.out.write(json.dumps(summary, separators=(",", ":")) + "\n")


@dataclass
class OpcodeProfile:
    count: int = 0
    gas: int = 0


class Profiler(Tracer):
    """Count and gas per mnemonic, and count per pc."""

    def __init__(self) -> None:
        self.by_opcode: Dict[str, OpcodeProfile] = {}
        self.by_pc: Dict[int, int] = {}

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        entry = self.by_opcode.setdefault(step.name, OpcodeProfile())
        entry.count += 1
        entry.gas += gas_cost
        self.by_pc[step.pc] = self.by_pc.get(step.pc, 0) + 1

    def report(self) -> str:
        """A table of mnemonics, most gas first."""
        rows = sorted(self.by_opcode.items(), key=lambda item: (-item[1].gas, item[0]))
        lines = [f"{'opcode':<16}{'count':>12}{'gas':>14}"]
        lines += [f"{name:<16}{entry.count:>12}{entry.gas:>14}" for name, entry in rows]
        return "\n".join(lines)


class _Tracers(Tracer):
    def __init__(self, tracers: Sequence[Tracer]) -> None:
        self.tracers = tuple(tracers)

    def on_start(self, code: bytes, calldata: bytes, gas: int) -> None:
        for tracer in self.tracers:
            tracer.on_start(code, calldata, gas)

    def on_step(self, step: Step) -> None:
        for tracer in self.tracers:
            tracer.on_step(step)

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        for tracer in self.tracers:
            tracer.on_step_end(step, gas_cost, error)

    def on_end(self, result: ExecutionResult) -> None:
        for tracer in self.tracers:
            tracer.on_end(result)


TracerLike = Union[Tracer, Callable[[Step], None], Sequence[Union[Tracer, Callable[[Step], None]]]]


def as_tracer(tracer: Optional[TracerLike]) -> Optional[Tracer]:
    """A Tracer from a Tracer, a step hook callable, or a list of these."""
    if tracer is None or isinstance(tracer, Tracer):
        return tracer
    if isinstance(tracer, (list, tuple)):
        return _Tracers([as_tracer(item) for item in tracer])
    if callable(tracer):
        return StepHook(tracer)
    raise TypeError("tracer must be a Tracer, a callable step hook or a list of them, "
                    f"not {type(tracer).__name__}")
