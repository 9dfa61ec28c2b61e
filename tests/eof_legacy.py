"""Peers' EOF code (evmone's EOF Poseidon and NTT, tests/vectors/evmone) taken into legacy
bytecode, where that is faithful, so these engines (legacy code only) run it; and the pieces
of bytecode with labels that the rewrites here (and tests/evmone_adapter.py) assemble.

An EOF container (EIP-3540: magic ``EF00``, version 1, a types section, code sections, a
data section; no subcontainers here) becomes: code section 0, then the others, then any
routines the caller adds, then the data section, last. Each instruction is kept but these:

- ``CALLF i`` (EIP-4750) -> ``PUSH2 ret, PUSH2 section_i, JUMP, JUMPDEST(ret)``, ``RETF`` ->
  ``JUMP``. The return address sits below the callee's frame, so this is CALLF only for a
  section of no inputs and no outputs (EOF validation then leaves its stack empty at RETF:
  the address is on top); a section with inputs or outputs is refused.
- ``RJUMP`` / ``RJUMPI`` (EIP-4200) -> ``PUSH2 target, JUMP`` / ``JUMPI`` with a JUMPDEST at
  the target instruction.
- ``DATACOPY`` (EIP-7480: memory offset, data offset, size) -> ``CODECOPY`` with the data's
  start in the code added to the data offset: the data is the code's last bytes, so a read
  past its end gives zeros as DATACOPY's does (for data offsets below 2**256 minus that
  start).

What differs, and no output depends on: gas (the added pushes and JUMPDESTs; CALLF and RETF
against JUMP; CODECOPY and DATACOPY cost alike), code size and the stack's height by one per
call in progress. Anything else EOF adds (RJUMPV, JUMPF, DATALOAD, DATALOADN, DATASIZE, DUPN,
SWAPN, EXCHANGE, the EXT*CALLs, EOFCREATE, RETURNCONTRACT, RETURNDATALOAD) or that EOF forbids
(JUMP, JUMPI, PC, GAS, CODESIZE, CODECOPY, the CALLs, CREATEs, SELFDESTRUCT, EXTCODE*) is
refused with a ValueError naming it, as is a container that does not parse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

PUSH1, PUSH2, PUSH32 = 0x60, 0x61, 0x7F
JUMP, JUMPI, JUMPDEST = 0x56, 0x57, 0x5B
SWAP1, ADD, CODECOPY = 0x90, 0x01, 0x39
RJUMP, RJUMPI, CALLF, RETF, DATACOPY = 0xE0, 0xE1, 0xE3, 0xE4, 0xD3
MAGIC = b"\xef\x00"

# EOF instructions with immediates, and their sizes (RJUMPV's depends on its table)
EOF_IMMEDIATES = {0xD1: 2, RJUMP: 2, RJUMPI: 2, CALLF: 2, 0xE5: 2, 0xE6: 1, 0xE7: 1, 0xE8: 1,
                  0xEC: 1, 0xEE: 1}
REFUSED = {0xD0: "DATALOAD", 0xD1: "DATALOADN", 0xD2: "DATASIZE", 0xE2: "RJUMPV",
           0xE5: "JUMPF", 0xE6: "DUPN", 0xE7: "SWAPN", 0xE8: "EXCHANGE", 0xEC: "EOFCREATE",
           0xEE: "RETURNCONTRACT", 0xF7: "RETURNDATALOAD", 0xF8: "EXTCALL",
           0xF9: "EXTDELEGATECALL", 0xFB: "EXTSTATICCALL"}
INVALID_IN_EOF = {0x38: "CODESIZE", 0x39: "CODECOPY", 0x3B: "EXTCODESIZE", 0x3C: "EXTCODECOPY",
                  0x3F: "EXTCODEHASH", JUMP: "JUMP", JUMPI: "JUMPI", 0x58: "PC", 0x5A: "GAS",
                  0xF0: "CREATE", 0xF1: "CALL", 0xF2: "CALLCODE", 0xF4: "DELEGATECALL",
                  0xF5: "CREATE2", 0xFA: "STATICCALL", 0xFF: "SELFDESTRUCT"}


# --- bytecode with labels ----------------------------------------------------------------

class Label:
    """A position in the assembled code: a JUMPDEST there (``jumpdest``), or only its
    offset (the data's start)."""

    def __init__(self, jumpdest: bool = True) -> None:
        self.jumpdest = jumpdest


@dataclass(frozen=True)
class Ref:
    """PUSH2 of a label's offset."""
    label: Label


Piece = Union[bytes, Label, Ref]


def assemble(pieces: Sequence[Piece]) -> bytes:
    """The bytes of ``pieces``: labels placed (a JUMPDEST each where asked), references
    pushed as two bytes."""
    offsets: Dict[Label, int] = {}
    at = 0
    for piece in pieces:
        if isinstance(piece, Label):
            offsets[piece] = at
            at += piece.jumpdest
        else:
            at += 3 if isinstance(piece, Ref) else len(piece)
    if at > 0xFFFF:
        raise ValueError(f"the code would be {at} bytes: a label above 65,535 cannot be pushed")
    out = bytearray()
    for piece in pieces:
        if isinstance(piece, Label):
            out += bytes([JUMPDEST]) * piece.jumpdest
        elif isinstance(piece, Ref):
            out += bytes([PUSH2]) + offsets[piece.label].to_bytes(2, "big")
        else:
            out += piece
    return bytes(out)


# --- instructions ------------------------------------------------------------------------

Instruction = Tuple[int, int, bytes]            # (offset, opcode, immediates)


def instructions(code: bytes, immediates: Dict[int, int]) -> Iterator[Instruction]:
    """``code``'s instructions; ``immediates`` sizes the immediates of the opcodes that have
    them beyond the PUSHes (a truncated one is refused)."""
    pc = 0
    while pc < len(code):
        op = code[pc]
        size = op - PUSH1 + 1 if PUSH1 <= op <= PUSH32 else immediates.get(op, 0)
        if pc + 1 + size > len(code):
            raise ValueError(f"opcode {op:#04x} at {pc}: truncated immediates")
        yield pc, op, code[pc + 1:pc + 1 + size]
        pc += 1 + size


Rewrite = Callable[[int, int, bytes], Optional[List[Piece]]]


def keep(pc: int, op: int, immediate: bytes) -> Optional[List[Piece]]:
    """No rewrite: every instruction as it is."""
    return None


# --- EOF ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Section:
    inputs: int
    outputs: int                # 0x80: returns to no caller
    max_stack_height: int
    code: bytes


@dataclass(frozen=True)
class Container:
    sections: Tuple[Section, ...]
    data: bytes


def _u16(data: bytes, at: int) -> int:
    if at + 2 > len(data):
        raise ValueError("EOF container: header truncated")
    return int.from_bytes(data[at:at + 2], "big")


def parse(container: bytes) -> Container:
    """The sections and data of an EOF version 1 container (EIP-3540)."""
    if container[:2] != MAGIC or container[2:3] != b"\x01":
        raise ValueError("not an EOF version 1 container (magic EF00, version 01)")
    if container[3:4] != b"\x01":
        raise ValueError("EOF container: the types section's header must come first")
    types_size = _u16(container, 4)
    if container[6:7] != b"\x02":
        raise ValueError("EOF container: the code sections' header must follow the types'")
    count = _u16(container, 7)
    sizes = [_u16(container, 9 + 2 * i) for i in range(count)]
    at = 9 + 2 * count
    if container[at:at + 1] == b"\x03":
        raise ValueError("EOF container: subcontainers (EOFCREATE's) have no legacy form")
    if container[at:at + 1] != b"\x04":
        raise ValueError("EOF container: the data section's header is missing")
    data_size = _u16(container, at + 1)
    if container[at + 3:at + 4] != b"\x00":
        raise ValueError("EOF container: the header's terminator is missing")
    at += 4
    if count == 0 or types_size != 4 * count:
        raise ValueError(f"EOF container: {count} code sections and {types_size} bytes of types")
    types = container[at:at + types_size]
    at += types_size
    sections = []
    for i, size in enumerate(sizes):
        sections.append(Section(types[4 * i], types[4 * i + 1],
                                int.from_bytes(types[4 * i + 2:4 * i + 4], "big"),
                                container[at:at + size]))
        at += size
    data = container[at:]
    if any(len(s.code) != size for s, size in zip(sections, sizes)) or len(data) != data_size:
        raise ValueError("EOF container: its length is not what its header declares")
    return Container(tuple(sections), data)


def to_legacy(container: bytes, immediates: Dict[int, int], rewrite: Rewrite = keep,
              prefix: Sequence[Piece] = (), routines: Sequence[Piece] = ()) -> bytes:
    """``container`` as legacy bytecode: ``prefix``, its code sections (each instruction
    through ``rewrite`` first: its pieces, or None to keep it), ``routines``, its data.
    ``immediates`` sizes the immediates of the code's own opcodes beyond EOF's."""
    parsed = parse(container)
    sizes = {**EOF_IMMEDIATES, **immediates}
    starts = [Label() for _ in parsed.sections]
    data_start = Label(jumpdest=False)
    pieces: List[Piece] = list(prefix)
    for index, section in enumerate(parsed.sections):
        listed = list(instructions(section.code, sizes))
        at = {pc: Label() for pc, _, _ in listed}           # a label wherever a jump lands
        jumps = {pc: at[_relative_target(pc, imm, at)] for pc, op, imm in listed
                 if op in (RJUMP, RJUMPI)}
        landed = set(jumps.values())
        pieces.append(starts[index])
        for pc, op, imm in listed:
            if at[pc] in landed:
                pieces.append(at[pc])
            pieces += _lowered(pc, op, imm, parsed, starts, jumps.get(pc), data_start, rewrite)
    return assemble(pieces + list(routines) + [data_start, parsed.data])


def _relative_target(pc: int, immediate: bytes, at: Dict[int, Label]) -> int:
    target = pc + 3 + int.from_bytes(immediate, "big", signed=True)
    if target not in at:
        raise ValueError(f"relative jump at {pc} to {target}: not an instruction of its section")
    return target


def _lowered(pc: int, op: int, imm: bytes, parsed: Container, starts: List[Label],
             jump: Optional[Label], data_start: Label, rewrite: Rewrite) -> List[Piece]:
    if op in REFUSED:
        raise ValueError(f"{REFUSED[op]} at {pc}: no faithful legacy form here")
    if op in INVALID_IN_EOF:
        raise ValueError(f"{INVALID_IN_EOF[op]} at {pc}: not valid in EOF code")
    if jump is not None:                             # RJUMP, RJUMPI
        return [Ref(jump), bytes([JUMP if op == RJUMP else JUMPI])]
    if op == CALLF:
        callee = int.from_bytes(imm, "big")
        if callee >= len(parsed.sections):
            raise ValueError(f"CALLF at {pc}: no code section {callee}")
        section = parsed.sections[callee]
        if (section.inputs, section.outputs) != (0, 0):
            raise ValueError(f"CALLF at {pc}: section {callee} takes {section.inputs} inputs "
                             f"and returns {section.outputs}: only sections of neither are "
                             "rewritten (the return address sits below their frame)")
        back = Label()
        return [Ref(back), Ref(starts[callee]), bytes([JUMP]), back]
    if op == RETF:
        return [bytes([JUMP])]
    if op == DATACOPY:
        return [bytes([SWAP1]), Ref(data_start), bytes([ADD, SWAP1, CODECOPY])]
    rewritten = rewrite(pc, op, imm)
    return [bytes([op]) + imm] if rewritten is None else rewritten
