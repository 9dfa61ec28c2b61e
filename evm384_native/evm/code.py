"""Decoding: bytecode is analysed once into instructions and blocks, then cached.

Jump destinations are the JUMPDEST bytes that are not PUSH data. Instructions are
grouped into *blocks* for the block dispatcher: a block starts at pc 0, at every
JUMPDEST and after the previous block's last instruction, and it ends after any
instruction that jumps, halts, or whose gas depends on operands or on the gas
counter (see ``instructions.GAS_DEPENDENT``). So inside a block only the last
instruction charges dynamic gas, and it does so with the exact remaining gas.
With ``fuse``, a run of ``PUSHn; EVM384-op`` pairs becomes one *segment* that ends
its block and runs in one backend call.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Tuple

from .evm384 import Segment, op_segment, unpack_offsets
from .gas import Evm384Schedule
from .instructions import GAS_DEPENDENT, HANDLERS, Handler, op_invalid
from .opcodes import BY_NAME, EVM384_OPCODES, OPCODES, STACK_LIMIT

JUMPDEST = BY_NAME["JUMPDEST"].code
STOP = BY_NAME["STOP"].code
_ENDS_BLOCK = GAS_DEPENDENT | {BY_NAME[name].code for name in
                               ("STOP", "JUMP", "JUMPI", "RETURN", "REVERT", "INVALID")}


@dataclass(frozen=True)
class Instruction:
    pc: int
    opcode: int
    name: str
    handler: Handler
    arg: object     # see instructions.py
    gas: int        # static gas; 0 for instructions that halt before anything else
    inputs: int
    outputs: int
    next_pc: int
    ends_block: bool


@dataclass(frozen=True)
class Block:
    index: int
    start_pc: int
    next_pc: int                              # where execution goes unless it jumps
    instructions: Tuple[Instruction, ...]
    body: Tuple[Tuple[Handler, object, int], ...] = field(repr=False)  # (handler, arg, pc)
    gas: int                                  # total static gas
    stack_min: int                            # fewest items on entry without underflow
    stack_max: int                            # most items on entry without overflow
    segment_end: int                          # memory its segment needs (0: no segment)


@dataclass(frozen=True)
class Code:
    bytecode: bytes
    jumpdests: FrozenSet[int]
    instruction_at: List[Optional[Instruction]] = field(repr=False)  # by pc, up to len(bytecode)
    blocks: Tuple[Block, ...] = field(repr=False)
    block_at: List[Optional[Block]] = field(repr=False)              # by start pc


def _instruction(bytecode: bytes, pc: int, evm384_gas: Dict[int, int]) -> Instruction:
    opcode = bytecode[pc] if pc < len(bytecode) else STOP  # running off the end is STOP
    info = OPCODES.get(opcode)
    if info is None:
        return Instruction(pc, opcode, f"UNDEFINED_0x{opcode:02x}", op_invalid, opcode,
                           0, 0, 0, pc + 1, True)
    if info.needs_state or info.name == "INVALID":
        return Instruction(pc, opcode, info.name, HANDLERS[opcode], opcode, 0, 0, 0, pc + 1, True)
    arg: object = None
    if info.immediate or info.name == "PUSH0":
        # PUSH data cut off by the end of the code reads as zero bytes on the right.
        data = bytecode[pc + 1:pc + 1 + info.immediate]
        arg = int.from_bytes(data.ljust(info.immediate, b"\0"), "big")
    elif info.name.startswith(("DUP", "SWAP")):
        arg = int(info.name.lstrip("DUPSWAP"))
    elif info.name == "PC":
        arg = pc
    elif opcode in EVM384_OPCODES:
        arg = opcode
    # PUSH data cut off by the end of the code: execution continues at the end (STOP).
    next_pc = min(pc + 1 + info.immediate, len(bytecode))
    return Instruction(pc, opcode, info.name, HANDLERS[opcode], arg,
                       evm384_gas.get(opcode, info.gas), info.inputs, info.outputs,
                       next_pc, opcode in _ENDS_BLOCK)


def _is_evm384_pair(instructions: List[Instruction], i: int) -> bool:
    return (i + 1 < len(instructions) and instructions[i].name.startswith("PUSH")
            and instructions[i + 1].opcode in EVM384_OPCODES)


def _stack_bounds(instructions: Tuple[Instruction, ...]) -> Tuple[int, int]:
    """(stack_min, stack_max) on entry for the block to run without stack errors."""
    height = need = growth = 0
    for ins in instructions:
        need = max(need, ins.inputs - height)
        height += ins.outputs - ins.inputs
        growth = max(growth, height)
    return need, STACK_LIMIT - growth


def _block(index: int, instructions: List[Instruction], next_pc: int,
           segment: Optional[Segment], segment_from: int) -> Block:
    """A block of ``instructions``; those from index ``segment_from`` on form ``segment``."""
    plain = instructions[:segment_from] if segment else instructions
    body = [(ins.handler, ins.arg, ins.pc) for ins in plain if ins.opcode != JUMPDEST]
    if segment is not None:
        body.append((op_segment, segment, instructions[segment_from].pc))
    stack_min, stack_max = _stack_bounds(tuple(instructions))
    return Block(index, instructions[0].pc, next_pc, tuple(instructions), tuple(body),
                 sum(ins.gas for ins in instructions), stack_min, stack_max,
                 segment.end if segment else 0)


def _blocks(instructions: List[Instruction], end_pc: int, fuse: bool) -> List[Block]:
    blocks: List[Block] = []
    current: List[Instruction] = []

    def close(next_pc: int, segment: Optional[Segment] = None, segment_from: int = 0) -> None:
        blocks.append(_block(len(blocks), current[:], next_pc, segment, segment_from))
        current.clear()

    i = 0
    while i < len(instructions):
        ins = instructions[i]
        if ins.opcode == JUMPDEST and current:
            close(ins.pc)
        if fuse and _is_evm384_pair(instructions, i):
            segment_from = len(current)
            operations = []
            while _is_evm384_pair(instructions, i):
                push, op = instructions[i], instructions[i + 1]
                operations.append((op.opcode, *unpack_offsets(push.arg)))
                current.extend((push, op))
                i += 2
            close(current[-1].next_pc, Segment.from_operations(tuple(operations)), segment_from)
            continue
        current.append(ins)
        i += 1
        if ins.ends_block:
            close(ins.next_pc)
    if current:
        close(end_pc)
    return blocks


@lru_cache(maxsize=256)
def decode(bytecode: bytes, schedule: Evm384Schedule, fuse: bool = True) -> Code:
    """The analysed program (cached: the key hashes the code bytes)."""
    evm384_gas = schedule.by_opcode()
    instructions: List[Instruction] = []
    pc = 0
    while pc < len(bytecode):
        ins = _instruction(bytecode, pc, evm384_gas)
        instructions.append(ins)
        pc = ins.next_pc
    end = _instruction(bytecode, len(bytecode), evm384_gas)
    instruction_at: List[Optional[Instruction]] = [None] * (len(bytecode) + 1)
    for ins in instructions:
        instruction_at[ins.pc] = ins
    instruction_at[end.pc] = end
    blocks = _blocks(instructions, end.pc, fuse)
    blocks.append(_block(len(blocks), [end], end.next_pc, None, 0))
    block_at: List[Optional[Block]] = [None] * (len(bytecode) + 1)
    for block in blocks:
        block_at[block.start_pc] = block
    jumpdests = frozenset(ins.pc for ins in instructions if ins.opcode == JUMPDEST)
    return Code(bytecode, jumpdests, instruction_at, tuple(blocks), block_at)
