"""Disassembler that knows EVM384: ``PUSH16 w; ADDMOD384`` reads as
``ADDMOD384 out=.. x=.. y=.. mod=..``, with slot names when the memory layout is known."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, List, Optional

from ..evm.opcodes import OPCODES
from .assembler import EVM384_MNEMONICS, unpack_offsets
from .layout import Memory

if TYPE_CHECKING:
    from .assembler import Program

PUSH16 = 0x6F


@dataclass(frozen=True)
class Instruction:
    pc: int
    name: str                        # mnemonic, or "UNKNOWN_0x.." for unassigned bytes
    immediate: Optional[int] = None  # PUSHn value; for folded EVM384 ops, the packed word
    size: int = 1                    # bytes, including a folded PUSH16
    missing: int = 0                 # PUSH data bytes cut off by the end of the code

    def offsets(self) -> Optional[tuple]:
        """(out, x, y, mod) for an EVM384 op whose PUSH16 was folded in, else None."""
        if self.name in EVM384_MNEMONICS and self.immediate is not None:
            return unpack_offsets(self.immediate)
        return None

    def text(self, memory: Optional[Memory] = None) -> str:
        offsets = self.offsets()
        if offsets is not None:
            name = (lambda v: memory.name_of(v)) if memory else hex
            return self.name + " " + " ".join(
                f"{key}={name(value)}" for key, value in zip(("out", "x", "y", "mod"), offsets))
        if self.immediate is not None:
            cut = (f"  (truncated: {self.missing} byte{'s' if self.missing > 1 else ''} past "
                   "the end of the code, read as zeros)") if self.missing else ""
            return f"{self.name} {self.immediate:#x}{cut}"
        return self.name


def disassemble(code: bytes, end: Optional[int] = None) -> List[Instruction]:
    """Instructions of ``code[:end]``; a PUSH16 directly followed by an EVM384 op is
    folded into that op (its pc stays the PUSH16's)."""
    end = len(code) if end is None else end
    result: List[Instruction] = []
    pc = 0
    while pc < end:
        byte = code[pc]
        info = OPCODES.get(byte)
        if info is None:
            result.append(Instruction(pc, f"UNKNOWN_{byte:#04x}"))
            pc += 1
            continue
        width = info.immediate
        data = code[pc + 1:pc + 1 + width]
        value = int.from_bytes(data.ljust(width, b"\0"), "big") if width else None
        follower = OPCODES.get(code[pc + 1 + width]) if pc + 1 + width < end else None
        if byte == PUSH16 and follower is not None and follower.name in EVM384_MNEMONICS:
            result.append(Instruction(pc, follower.name, value, 1 + width + 1))
            pc += width + 2
            continue
        result.append(Instruction(pc, info.name, value, 1 + width, width - len(data)))
        pc += 1 + width
    return result


def listing(program: "Program") -> str:
    """One line per instruction: pc, where it came from, the instruction."""
    lines = []
    previous = None
    for ins in disassemble(program.code, program.code_size):
        location = program.source_map[ins.pc]
        if location != previous:
            lines.append(f"; {location}")
            previous = location
        lines.append(f"{ins.pc:6d}  {ins.text(program.memory)}")
    if program.code_size < len(program.code):
        lines.append(f"; data: {len(program.code) - program.code_size} bytes")
    return "\n".join(lines)
