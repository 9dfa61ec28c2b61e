"""Observing an execution: the tracer protocol, an EIP-3155 JSON-lines tracer, a
step hook for debuggers, and a profiler.

A traced execution runs instruction by instruction (no block dispatch), calling
``on_step`` before each instruction and ``on_step_end`` after it. ``gas_cost`` is
the gas the instruction consumed, so an exceptional halt's step costs all the
gas that was left and the costs of all steps add up to the gas used.

Under EVMMAX (``opcodes="evmmax"``) a step also shows the frame's field contexts
(:attr:`Step.field_contexts`, :attr:`Step.active_context`) with their registers as
canonical values (read through LOADX's conversion out of Montgomery form), and the
immediates of ADDMODX/SUBMODX/MULMODX by name (:attr:`Step.immediates`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, IO, List, Optional, Sequence, Tuple, Union

from .evmmax import EVMMAX_HANDLERS
from .frame import Frame
from .kernels.modx_common import VECTOR_IMMEDIATES
from .opcodes import EVMMAX_OPCODES
from .result import ExecutionResult

EVMMAX_MNEMONICS = tuple(EVMMAX_OPCODES[code].name for code in sorted(EVMMAX_HANDLERS))
# ADDMODX, SUBMODX, MULMODX: the instructions with immediates among them
EVMMAX_VECTOR_MNEMONICS = tuple(EVMMAX_OPCODES[code].name for code in sorted(EVMMAX_HANDLERS)
                                if EVMMAX_OPCODES[code].immediate)


@dataclass(frozen=True)
class FieldContextView:
    """One EVMMAX field context: its id, modulus, element size in bytes and register
    count (the values: :meth:`Step.registers`)."""
    id: int
    modulus: int
    element_size: int
    register_count: int


def _view(context_id: int, registers: Any) -> FieldContextView:
    context = registers.context
    return FieldContextView(context_id, context.modulus, context.element_size, registers.count)


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

    @property
    def active_context(self) -> Optional[int]:
        """EVMMAX: the id of the active field context (None when there is none, and
        under EVM384)."""
        state = self._frame.evmmax
        if state is None or state.active is None:
            return None
        return next(i for i, registers in state.by_id.items() if registers is state.active)

    @property
    def field_contexts(self) -> Optional[List[FieldContextView]]:
        """EVMMAX: the frame's field contexts in id order (None under EVM384)."""
        state = self._frame.evmmax
        if state is None:
            return None
        return [_view(i, registers) for i, registers in sorted(state.by_id.items())]

    def field_context(self, context_id: Optional[int] = None) -> Optional[FieldContextView]:
        """EVMMAX: field context ``context_id`` (default: the active one), or None."""
        found = self._register_file(context_id)
        return None if found is None else _view(found[0], found[1])

    def registers(self, context_id: Optional[int] = None) -> Tuple[int, ...]:
        """EVMMAX: the registers of field context ``context_id`` (default: the active
        one) as canonical values, copied: converted out of Montgomery form for odd moduli
        (as LOADX does), as they are for powers of two. KeyError if there is no such
        context."""
        found = self._register_file(context_id)
        if found is None:
            raise KeyError("no active field context" if context_id is None
                           else f"no field context {context_id}")
        registers = found[1]
        size = registers.context.element_size
        data = registers.loadx(0, registers.count)
        return tuple(int.from_bytes(data[i:i + size], "big") for i in range(0, len(data), size))

    def _register_file(self, context_id: Optional[int]) -> Optional[Tuple[int, Any]]:
        chosen = self.active_context if context_id is None else context_id
        state = self._frame.evmmax
        registers = state.by_id.get(chosen) if state is not None else None
        return None if registers is None else (chosen, registers)

    @property
    def immediates(self) -> Optional[Dict[str, int]]:
        """ADDMODX/SUBMODX/MULMODX's immediates by name (out_idx, out_stride, x_idx,
        x_stride, y_idx, y_stride, count), as the instruction reads them; else None."""
        if self.name not in EVMMAX_VECTOR_MNEMONICS:
            return None
        return dict(zip(VECTOR_IMMEDIATES, self._frame.code.instruction_at[self.pc].arg))


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

    Set ``memory=True`` to include the whole memory in every line. Under EVMMAX a line
    also has ``immediates`` (ADDMODX/SUBMODX/MULMODX, by name) and, while a field context
    is active, ``fieldContext`` (its id, modulus and element size); ``registers=True``
    adds that context's registers as canonical values (``registers``, hex, by index).
    """

    def __init__(self, out: IO[str], memory: bool = False, registers: bool = False) -> None:
        self.out = out
        self.memory = memory
        self.registers = registers
        self._line: Dict[str, object] = {}

    def on_step(self, step: Step) -> None:
        line: Dict[str, object] = {
            "pc": step.pc, "op": step.opcode, "gas": hex(step.gas), "gasCost": "0x0",
            "memSize": step.memory_size, "stack": [hex(word) for word in step.stack],
            "depth": 1, "returnData": "0x", "refund": 0, "opName": step.name,
        }
        if self.memory:
            line["memory"] = "0x" + step.memory.hex()
        immediates = step.immediates
        if immediates is not None:
            line["immediates"] = immediates
        active = step.active_context
        if active is not None:
            context = step.field_context(active)
            assert context is not None
            line["fieldContext"] = {"id": active, "modulus": hex(context.modulus),
                                    "elementSize": context.element_size}
            if self.registers:
                line["registers"] = [hex(value) for value in step.registers()]
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


@dataclass
class ContextProfile:
    """EVMMAX instructions run with one field context active (SETMODX: the context it
    made active), their vector elements (the ``count`` of ADDMODX/SUBMODX/MULMODX) and gas."""
    context: FieldContextView
    instructions: int = 0
    elements: int = 0
    gas: int = 0


class Profiler(Tracer):
    """Count and gas per mnemonic, count per pc and, under EVMMAX, per field context."""

    def __init__(self) -> None:
        self.by_opcode: Dict[str, OpcodeProfile] = {}
        self.by_pc: Dict[int, int] = {}
        self.by_context: Dict[int, ContextProfile] = {}

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        entry = self.by_opcode.setdefault(step.name, OpcodeProfile())
        entry.count += 1
        entry.gas += gas_cost
        self.by_pc[step.pc] = self.by_pc.get(step.pc, 0) + 1
        if step.name in EVMMAX_MNEMONICS:
            self._count_context(step, gas_cost)

    def _count_context(self, step: Step, gas_cost: int) -> None:
        context = step.field_context()
        if context is None:                       # halted before any context was active
            return
        profile = self.by_context.setdefault(context.id, ContextProfile(context))
        profile.instructions += 1
        profile.gas += gas_cost
        immediates = step.immediates
        if immediates is not None:
            profile.elements += immediates["count"]

    def report(self) -> str:
        """A table of mnemonics, most gas first; under EVMMAX, one of field contexts."""
        rows = sorted(self.by_opcode.items(), key=lambda item: (-item[1].gas, item[0]))
        lines = [f"{'opcode':<16}{'count':>12}{'gas':>14}"]
        lines += [f"{name:<16}{entry.count:>12,}{entry.gas:>14,}" for name, entry in rows]
        if self.by_context:
            lines += ["", f"{'field context':<16}{'modulus bits':>14}{'element':>9}"
                          f"{'EVMMAX ops':>12}{'elements':>12}{'gas':>14}"]
            lines += [f"{context_id:<16}{p.context.modulus.bit_length():>14}"
                      f"{p.context.element_size:>8}B{p.instructions:>12,}{p.elements:>12,}{p.gas:>14,}"
                      for context_id, p in sorted(self.by_context.items())]
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
