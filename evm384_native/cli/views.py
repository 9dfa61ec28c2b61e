"""How the tools show things: an execution's outcome, the instruction at a pc (EVM384
operands decoded, slot and routine names for contracts; EVMMAX immediates and stack operands
by name), field values (48 bytes, 96 under EVM768) and EVMMAX registers."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence, Set

from ..asm import Instruction, disassemble
from ..evm.forks import DEFAULT_FORK, resolve_fork
from ..evm.kernels.montgomery import from_montgomery
from ..evm.opcode_sets import DEFAULT_OPCODES, resolve_opcodes
from ..evm.kernels.limbs import LIMB_BITS
from ..evm.opcodes import PACKED_OFFSET_MNEMONICS, OpcodeInfo
from ..evm.result import ExecutionResult
from ..evm.tracing import FieldContextView
from .inputs import Target

# EVMMAX instructions whose operands are on the stack, top first (the EIP's names)
EVMMAX_STACK_OPERANDS = {"SETMODX": ("id", "modulus_offset", "modulus_size", "alloc_count"),
                         "LOADX": ("dest", "source", "count"),
                         "STOREX": ("dest", "source", "count")}


def own_op_counts(result: ExecutionResult, opcodes: str) -> Dict[str, int]:
    """How often each instruction the opcode set adds to mainnet's ran (none for "evm")."""
    return {op: result.opcode_counts.get(op, 0)
            for op in resolve_opcodes(opcodes).own_mnemonics}


def result_fields(result: ExecutionResult, opcodes: str = DEFAULT_OPCODES) -> Dict[str, Any]:
    """The outcome as JSON-ready fields (``evm384_ops`` or ``evmmax_ops``: the counts of
    the opcode set's own instructions; plain EVM has none, so no such field)."""
    fields = {"success": result.success, "error": result.error,
              "output": "0x" + result.output.hex(), "gas_used": result.gas_used,
              "gas_left": result.gas_left, "steps": result.steps}
    ops = own_op_counts(result, opcodes)
    if ops:
        fields[f"{opcodes}_ops"] = ops
    fields["opcode_counts"] = dict(sorted(result.opcode_counts.items()))
    return fields


def result_text(result: ExecutionResult, opcodes: str = DEFAULT_OPCODES) -> str:
    fields = result_fields(result, opcodes)
    ops = fields.get(f"{opcodes}_ops", {})
    own_line = ([f"{opcodes.upper()} ops: " + ", ".join(f"{op} {n:,}" for op, n in ops.items())
                 + f"; total {sum(ops.values()):,}"] if ops else [])
    return "\n".join([
        f"success:    {str(result.success).lower()}",
        f"error:      {result.error or '-'}",
        f"output:     {fields['output']}",
        f"gas used:   {result.gas_used:,}",
        f"gas left:   {result.gas_left:,}",
        # the limit, so that a halt's gas used (all of it) reads as the limit it is; every
        # outcome keeps used + left equal to it (an exceptional halt leaves 0)
        f"gas limit:  {result.gas_used + result.gas_left:,}",
        f"steps:      {result.steps:,}"] + own_line)


def transaction_cap_note(result: ExecutionResult, fork: str = DEFAULT_FORK) -> Optional[str]:
    """A line saying the run used more gas than one transaction of ``fork`` may
    (EIP-7825), else None. The gas used, not the limit, says whether one transaction
    could have run it; the run itself is never refused."""
    chosen = resolve_fork(fork)
    if not chosen.exceeds_cap(result.gas_used):
        return None
    return (f"note: gas used {result.gas_used:,} exceeds {chosen.name.capitalize()}'s "
            f"per-transaction cap {chosen.transaction_gas_cap:,} (EIP-7825)")


class CodeView:
    """The code of a target read back: instructions by pc (a ``PUSH16`` + EVM384 pair folded
    at the ``PUSH16``'s pc, as the disassembler does) and, for contracts, where code came
    from and what memory slots are called."""

    def __init__(self, target: Target, opcodes: str = DEFAULT_OPCODES,
                 fork: str = DEFAULT_FORK) -> None:
        self.code = target.code
        self.program = target.program
        self.memory = target.program.memory if target.program else None
        self.table = resolve_opcodes(opcodes, fork).table
        end = target.program.code_size if target.program else None
        self.instructions = {ins.pc: ins for ins in disassemble(self.code, end, opcodes, fork)}

    def lines(self) -> List[str]:
        """The disassembly, one instruction a line."""
        if self.program is not None:
            return self.program.listing().splitlines()
        return [self.line(ins) for ins in self.instructions.values()]

    def step_line(self, pc: int, name: str, stack: Sequence[int]) -> str:
        """The instruction a step runs: an EVM384 op with the operands on top of the live
        stack (so it reads right whatever pushed them); a folded pair's ``PUSH16`` as
        itself, with the op it feeds."""
        if name in PACKED_OFFSET_MNEMONICS:
            return self.line(Instruction(pc, name, stack[-1] if stack else None))
        if name in EVMMAX_STACK_OPERANDS:
            return self.line(Instruction(pc, name), stack_operands(name, stack))
        ins = self.instructions.get(pc)
        if ins is None:                        # the implicit STOP past the end, or data
            return self.line(Instruction(pc, name))
        if ins.name != name:
            return self.line(Instruction(pc, name, ins.immediate),
                             f"  (for {ins.text(self.memory)})")
        return self.line(ins)

    def line(self, ins: Instruction, note: str = "") -> str:
        """One line: pc, instruction, and the code that emitted it when known."""
        text = f"{ins.pc:6d}  {ins.text(self.memory)}{note}"
        location = self.location(ins.pc)
        return f"{text}  ; {location}" if location else text

    def location(self, pc: int) -> Optional[str]:
        if self.program is None or pc >= self.program.code_size:
            return None
        return str(self.program.source_map[pc])

    def info_at(self, pc: int) -> Optional[OpcodeInfo]:
        """The opcode of the byte at ``pc`` (None past the end or for unassigned bytes)."""
        return self.table.get(self.code[pc]) if pc < len(self.code) else None

    def starts(self) -> Set[int]:
        """Every pc where an instruction starts, the EVM384 op of a folded pair included."""
        folded = {ins.pc + ins.size - 1 for ins in self.instructions.values()
                  if ins.offsets() is not None}
        return set(self.instructions) | folded


def stack_operands(name: str, stack: Sequence[int]) -> str:
    """`` id=0 modulus_offset=0 ...``: an EVMMAX instruction's operands on the live stack
    (those present; small values in decimal)."""
    names = EVMMAX_STACK_OPERANDS[name]
    values = list(reversed(stack))[:len(names)]
    return "".join(f" {key}={value if value < 2**32 else hex(value)}"
                   for key, value in zip(names, values))


def context_text(context: FieldContextView, active: bool) -> str:
    """One line about an EVMMAX field context."""
    kind = "power of two" if context.modulus & (context.modulus - 1) == 0 else "odd"
    return (f"context {context.id}{' (active)' if active else ''}: modulus {context.modulus:#x} "
            f"({context.modulus.bit_length()} bits, {kind}), {context.element_size}-byte "
            f"elements, {context.register_count} registers")


def register_lines(registers: Sequence[int], indices: Iterable[int],
                   element_size: int) -> Iterable[str]:
    """``r5 = 0x...`` for each index, values padded to the element size."""
    for index in indices:
        yield f"r{index:<4}= {registers[index]:#0{2 + 2 * element_size}x}"


def fp_text(data: bytes, montgomery: Optional[int]) -> str:
    """A little-endian value (48 bytes, or 96 under EVM768) in hex; with a modulus, also
    out of Montgomery form (R = 2**(8 * len(data)))."""
    value = int.from_bytes(data, "little")
    text = f"{value:#0{2 + 2 * len(data)}x}"
    if montgomery is None:
        return text
    note = "" if value < montgomery else " (not reduced)"
    limbs = 8 * len(data) // LIMB_BITS
    return f"{text}  from Montgomery: {from_montgomery(value, montgomery, limbs):#x}{note}"


def hexdump(memory: bytes, offset: int, length: int, width: int = 16) -> Iterable[str]:
    """``offset: bytes`` rows of memory[offset:offset + length]."""
    for start in range(offset, offset + length, width):
        chunk = memory[start:min(start + width, offset + length)]
        yield f"{start:#08x}: {chunk.hex(' ')}"
