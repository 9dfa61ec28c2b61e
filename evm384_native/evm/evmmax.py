"""The EVMMAX instructions (EIP-6690, shared/docs/eip-6690.md; docs/evmmax.md).

A call frame holds up to 257 field contexts by id (0..256), each a modulus with its
register file, and an active one. SETMODX sets or creates the active context,
STOREX/LOADX copy values between EVM memory and its registers (converting to and from
Montgomery form for odd moduli), ADDMODX/SUBMODX/MULMODX run vectors of operations
on its registers, their operands in seven immediate bytes. The arithmetic is the
backend's :mod:`.kernels.modx` (C kernels) or :mod:`.kernels.modx_reference`.

Every assert is an exceptional halt (:class:`.halts.EvmmaxAssertion`) whose reason
names the instruction. Choices where the EIP's text is open, all in docs/evmmax.md:
memory ranges are asserted inside memory (these instructions never expand it) and an
empty range always is; the register space counts in memory-expansion gas as bytes
after memory (``Frame.register_bytes``); LOADX on a power-of-two modulus charges the
copy of all ``count`` values, as STOREX does (the EIP's LOADX text charges one
element whatever the count, which would not make time proportional to gas).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import UnreducedValueError
from .costs import EIP_6690, EvmmaxCosts
from .frame import Frame
from .gas import copy_cost, memory_cost, words
from .halts import EvmmaxAssertion, ResumeInSteps
from .kernels.modx_common import (MAX_MODULUS_BYTES, MAX_REGISTER_BYTES, MAX_REGISTERS,
                                  VectorProgram, element_limbs, immediates_error, modulus_error,
                                  transfer_error, vector_error)
from .opcodes import EVMMAX_BY_NAME

MAX_CONTEXT_ID = 256


class FieldContexts:
    """One call frame's EVMMAX state: register files by context id, the active one, and the
    cost model its instructions are priced by (:mod:`.costs`, by limb count - 1)."""

    __slots__ = ("modx", "by_id", "active", "costs")

    def __init__(self, modx: Any, costs: EvmmaxCosts = EIP_6690) -> None:
        self.modx = modx                 # kernels.modx or kernels.modx_reference
        self.by_id: Dict[int, Any] = {}  # id -> RegisterFile (its .context is the modulus)
        self.active: Optional[Any] = None
        self.costs = costs


def _active(f: Frame, name: str) -> Any:
    registers = f.evmmax.active
    if registers is None:
        raise EvmmaxAssertion(f"{name}: no active field context")
    return registers


def _transfer_gas(f: Frame, registers: Any, count: int) -> int:
    """LOADX/STOREX: a multiplication per value (the Montgomery conversion) for odd
    moduli, a memory copy for powers of two."""
    context = registers.context
    if context.is_power_of_two:
        return copy_cost(count * context.element_size)
    return count * f.evmmax.costs.mul[context.limbs - 1]


def _memory_range(f: Frame, name: str, offset: int, size: int) -> None:
    if size and offset + size > len(f.memory):
        raise EvmmaxAssertion(f"{name}: memory [{offset}, {offset}+{size}) lies outside the "
                              f"{len(f.memory)}-byte memory")


def op_setmodx(f: Frame, _: object) -> None:
    s = f.stack
    context_id, offset, size, alloc_count = s.pop(), s.pop(), s.pop(), s.pop()
    state = f.evmmax
    if context_id > MAX_CONTEXT_ID:
        raise EvmmaxAssertion(f"SETMODX: id {context_id} is above {MAX_CONTEXT_ID}")
    existing = state.by_id.get(context_id)
    if existing is not None:
        state.active = existing
        return
    if size > MAX_MODULUS_BYTES:
        raise EvmmaxAssertion(f"SETMODX: modulus_size {size} is above {MAX_MODULUS_BYTES}")
    _memory_range(f, "SETMODX", offset, size)
    with memoryview(f.memory) as view:
        modulus_be = bytes(view[offset:offset + size])
    error = modulus_error(modulus_be)
    if error is not None:
        raise EvmmaxAssertion(f"SETMODX: {error}")
    if not 0 < alloc_count <= MAX_REGISTERS:
        raise EvmmaxAssertion(f"SETMODX: alloc_count {alloc_count} is not in 1..{MAX_REGISTERS}")
    modulus = int.from_bytes(modulus_be, "big")
    limbs = element_limbs(modulus)
    new_bytes = alloc_count * 8 * limbs
    if f.register_bytes + new_bytes > MAX_REGISTER_BYTES:
        raise EvmmaxAssertion(f"SETMODX: {new_bytes} more register bytes exceed the frame's "
                              f"{MAX_REGISTER_BYTES} ({f.register_bytes} allocated)")
    used = len(f.memory) + f.register_bytes
    f.charge(memory_cost(words(used + new_bytes)) - memory_cost(words(used)))
    if modulus & (modulus - 1):  # odd: the Montgomery precomputation
        f.charge(state.costs.setmodx[limbs - 1])
    registers = state.modx.RegisterFile(state.modx.FieldContext.from_bytes(modulus_be),
                                        alloc_count)
    f.register_bytes += new_bytes
    state.by_id[context_id] = state.active = registers


def _transfer_operands(f: Frame, name: str) -> Tuple[Any, int, int, int]:
    """LOADX/STOREX's operands (dest, source, count; memory is LOADX's dest and STOREX's
    source) after the active-context and register-range asserts:
    (registers, memory offset, first register, count)."""
    s = f.stack
    dest, source, count = s.pop(), s.pop(), s.pop()
    memory_offset, first = (dest, source) if name == "LOADX" else (source, dest)
    registers = _active(f, name)
    error = transfer_error(registers.count, first, count)
    if error is not None:
        raise EvmmaxAssertion(f"{name}: {error}")
    return registers, memory_offset, first, count


def op_loadx(f: Frame, _: object) -> None:
    registers, dest, source, count = _transfer_operands(f, "LOADX")
    size = count * registers.context.element_size
    _memory_range(f, "LOADX", dest, size)
    f.charge(_transfer_gas(f, registers, count))
    if count:
        data = registers.loadx(source, count)
        with memoryview(f.memory) as view:
            view[dest:dest + size] = data


def op_storex(f: Frame, _: object) -> None:
    registers, source, dest, count = _transfer_operands(f, "STOREX")
    f.charge(_transfer_gas(f, registers, count))
    size = count * registers.context.element_size
    _memory_range(f, "STOREX", source, size)
    if count:
        with memoryview(f.memory) as view:
            data = bytes(view[source:source + size])
        try:
            registers.storex(dest, data)
        except UnreducedValueError as unreduced:
            raise EvmmaxAssertion(f"STOREX: value {unreduced.index} is not below the "
                                  "modulus") from None


def _vector_op(name: str, method: str, table: str):
    def op_vector(f: Frame, immediates: Any) -> None:
        registers = _active(f, name)
        error = vector_error(registers.count, immediates)
        if error is not None:
            raise EvmmaxAssertion(f"{name}: {error}")
        f.charge(immediates[6] * getattr(f.evmmax.costs, table)[registers.context.limbs - 1])
        getattr(registers, method)(*immediates)
    op_vector.__name__ = f"op_{method}"
    return op_vector


# --- runs of vector operations, for the Python engine's block loop -------------------------

_OPERATION_OF = {EVMMAX_BY_NAME[name].code: operation for name, operation in
                 (("ADDMODX", "add"), ("SUBMODX", "sub"), ("MULMODX", "mul"))}
VECTOR_OPCODES = frozenset(_OPERATION_OF)


class VectorRun:
    """Consecutive ADDMODX/SUBMODX/MULMODX that the block loop runs as one step: all their
    gas depends only on the active context, which none of them changes, and their bounds
    on its register count alone, so one check before the first decides for them all."""

    __slots__ = ("program", "add_elements", "mul_elements", "start_pc")

    def __init__(self, program: VectorProgram, start_pc: int) -> None:
        self.program, self.start_pc = program, start_pc
        counts = {"add": 0, "sub": 0, "mul": 0}
        for operation, immediates in program.operations:
            counts[operation] += immediates[6]
        self.add_elements, self.mul_elements = counts["add"] + counts["sub"], counts["mul"]


def joins_vector_run(opcode: int, immediates: Sequence[int]) -> bool:
    """Whether the instruction may run in a VectorRun (its own asserts on the immediates
    hold; one that fails them runs alone, and halts)."""
    return opcode in _OPERATION_OF and immediates_error(immediates) is None


def vector_run(operations: Sequence[Tuple[int, Sequence[int]]], start_pc: int) -> VectorRun:
    """The run of (opcode, immediates) that ``joins_vector_run`` admits, from start_pc."""
    return VectorRun(VectorProgram([(_OPERATION_OF[opcode], immediates)
                                    for opcode, immediates in operations]), start_pc)


def vector_run_entry(instructions: List[Any]) -> Tuple[Any, VectorRun]:
    """The block body entry for instructions that ``joins_vector_run`` admits."""
    return op_vector_run, vector_run([(ins.opcode, ins.arg) for ins in instructions],
                                     instructions[0].pc)


def op_vector_run(f: Frame, run: VectorRun) -> None:
    registers = f.evmmax.active
    if registers is None or run.program.register_end >= registers.count:
        raise ResumeInSteps(run.start_pc, len(run.program))   # an assert fails: it says which
    limbs, costs = registers.context.limbs - 1, f.evmmax.costs
    cost = run.add_elements * costs.add_sub[limbs] + run.mul_elements * costs.mul[limbs]
    if cost > f.gas:
        raise ResumeInSteps(run.start_pc, len(run.program))   # out of gas partway: where
    f.gas -= cost
    registers.run(run.program)


EVMMAX_HANDLERS = {
    EVMMAX_BY_NAME["SETMODX"].code: op_setmodx,
    EVMMAX_BY_NAME["LOADX"].code: op_loadx,
    EVMMAX_BY_NAME["STOREX"].code: op_storex,
    EVMMAX_BY_NAME["ADDMODX"].code: _vector_op("ADDMODX", "addmodx", "add_sub"),
    EVMMAX_BY_NAME["SUBMODX"].code: _vector_op("SUBMODX", "submodx", "add_sub"),
    EVMMAX_BY_NAME["MULMODX"].code: _vector_op("MULMODX", "mulmodx", "mul"),
}
