"""Disassembler that knows EVM384, EVM768 and EVMMAX: ``PUSH16 w; ADDMOD384`` (or
``ADDMOD768``...) reads as ``ADDMOD384 out=.. x=.. y=.. mod=..``, with slot names when the memory layout is known;
under the EVMMAX opcode set, ``ADDMODX``/``SUBMODX``/``MULMODX`` show their seven
immediates by name; under plain EVM ("evm") those bytes are ``UNKNOWN_0x..``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

from ..evm.evm384 import unpack_offsets
from ..evm.forks import DEFAULT_FORK, ForkLike
from ..evm.kernels.modx_common import VECTOR_IMMEDIATES
from ..evm.opcode_sets import DEFAULT_OPCODES, resolve_opcodes
from ..evm.opcodes import PACKED_OFFSET_MNEMONICS
from .layout import Memory

PUSH16 = 0x6F
_EVMMAX_VECTOR_NAMES = ("ADDMODX", "SUBMODX", "MULMODX")


@dataclass(frozen=True)
class Instruction:
    pc: int
    name: str                        # mnemonic, or "UNKNOWN_0x.." for unassigned bytes
    # PUSHn value; for folded EVM384 ops, the packed word; EVMMAX's seven immediate bytes
    immediate: Optional[int] = None
    size: int = 1                    # bytes, including a folded PUSH16
    missing: int = 0                 # PUSH data bytes cut off by the end of the code

    def offsets(self) -> Optional[tuple]:
        """(out, x, y, mod) for an EVM384 (or EVM768) op whose PUSH16 was folded in, else
        None."""
        if self.name in PACKED_OFFSET_MNEMONICS and self.immediate is not None:
            return unpack_offsets(self.immediate)
        return None

    def vector_immediates(self) -> Optional[tuple]:
        """out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count of an EVMMAX
        vector op, else None."""
        if self.name in _EVMMAX_VECTOR_NAMES and self.immediate is not None:
            return tuple(self.immediate.to_bytes(len(VECTOR_IMMEDIATES), "big"))
        return None

    def text(self, memory: Optional[Memory] = None) -> str:
        cut = (f"  (truncated: {self.missing} byte{'s' if self.missing > 1 else ''} past "
               "the end of the code, read as zeros)") if self.missing else ""
        vector = self.vector_immediates()
        if vector is not None:
            return self.name + " " + " ".join(
                f"{key}={value}" for key, value in zip(VECTOR_IMMEDIATES, vector)) + cut
        offsets = self.offsets()
        if offsets is not None:
            name = (lambda v: memory.name_of(v)) if memory else hex
            return self.name + " " + " ".join(
                f"{key}={name(value)}" for key, value in zip(("out", "x", "y", "mod"), offsets))
        if self.immediate is not None:
            return f"{self.name} {self.immediate:#x}{cut}"
        return self.name


def disassemble(code: bytes, end: Optional[int] = None, opcodes: str = DEFAULT_OPCODES,
                fork: ForkLike = DEFAULT_FORK) -> List[Instruction]:
    """Instructions of ``code[:end]`` under the opcode set ``opcodes`` ("evm384", "evm768",
    "evmmax" or "evm") and ``fork`` (default Osaka: 0x1e is CLZ; before it, UNKNOWN_0x1e); a
    PUSH16 directly followed by an EVM384 (EVM768) op is folded into that op (its pc stays the
    PUSH16's)."""
    end = len(code) if end is None else end
    table = resolve_opcodes(opcodes, fork).table
    result: List[Instruction] = []
    pc = 0
    while pc < end:
        byte = code[pc]
        info = table.get(byte)
        if info is None:
            result.append(Instruction(pc, f"UNKNOWN_{byte:#04x}"))
            pc += 1
            continue
        width = info.immediate
        data = code[pc + 1:pc + 1 + width]
        value = int.from_bytes(data.ljust(width, b"\0"), "big") if width else None
        follower = table.get(code[pc + 1 + width]) if pc + 1 + width < end else None
        if byte == PUSH16 and follower is not None and follower.name in PACKED_OFFSET_MNEMONICS:
            result.append(Instruction(pc, follower.name, value, 1 + width + 1))
            pc += width + 2
            continue
        result.append(Instruction(pc, info.name, value, 1 + width, width - len(data)))
        pc += 1 + width
    return result
