"""Decoding: bytecode is analysed once into instructions and blocks, then cached.

Jump destinations are the JUMPDEST bytes that are not PUSH data. Instructions are
grouped into *blocks* for the block dispatcher, which checks the stack bounds and
the static gas of a whole block once and then runs its *body* without checks. A
block starts at pc 0, at every JUMPDEST and after the previous block; it ends
after any instruction that jumps, halts, or whose gas depends on operands or on
the gas counter (``instructions.GAS_DEPENDENT``). So only a block's last
instruction charges dynamic gas, and it sees the exact remaining gas.

With ``fuse``, each run of ``PUSHn; EVM384-op`` pairs becomes one *segment* entry
of the body, run in one backend call. Its memory growth is known at decode time,
so the dispatcher adds it to the block's gas check and the segment need not end
the block. ``PUSHn dest; JUMP/JUMPI`` becomes one body entry with the destination
checked at decode time. The step loop never sees these fusions: it runs the
instructions one by one.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, FrozenSet, List, Optional, Tuple

from .evm384 import Segment, op_segment
from .gas import Evm384Schedule
from .instructions import (GAS_DEPENDENT, HANDLERS, Handler, op_invalid, op_jump_to,
                           op_jumpi_to, op_push)
from .opcodes import BY_NAME, EVM384_OPCODES, OPCODES, STACK_LIMIT

JUMPDEST = BY_NAME["JUMPDEST"].code
STOP = BY_NAME["STOP"].code
STATIC_JUMPS = {BY_NAME["JUMP"].code: op_jump_to, BY_NAME["JUMPI"].code: op_jumpi_to}
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
    # (handler, arg, pc of the last instruction the entry runs)
    body: Tuple[Tuple[Handler, object, int], ...] = field(repr=False)
    gas: int                                  # total static gas
    stack_min: int                            # fewest items on entry without underflow
    stack_max: int                            # most items on entry without overflow
    segment_end: int                          # memory its segments need (0: none)
    name_counts: Tuple[Tuple[str, int], ...]  # instructions per mnemonic, for opcode_counts


@dataclass(frozen=True)
class Code:
    bytecode: bytes
    jumpdests: FrozenSet[int]
    instruction_at: List[Optional[Instruction]] = field(repr=False)  # by pc, up to len(bytecode)
    blocks: Tuple[Block, ...] = field(repr=False)
    block_at: List[Optional[Block]] = field(repr=False)              # by start pc
    # What the block dispatcher reads, by start pc, unpacked in one step because
    # attribute loads would cost as much as the instructions:
    # (gas, stack_min, stack_max, segment_end, next_pc, body, index)
    dispatch_at: List[Optional[tuple]] = field(repr=False)


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
        # PUSH data cut off by the end of the code reads as zero bytes on the right,
        # and execution continues at the end (STOP).
        data = bytecode[pc + 1:pc + 1 + info.immediate]
        arg = int.from_bytes(data.ljust(info.immediate, b"\0"), "big")
    elif info.name.startswith("DUP"):
        arg = info.inputs       # DUPn copies the item n deep
    elif info.name.startswith("SWAP"):
        arg = info.inputs - 1   # SWAPn exchanges the top with the item n below it
    elif info.name == "PC":
        arg = pc
    elif opcode in EVM384_OPCODES:
        arg = opcode
    next_pc = min(pc + 1 + info.immediate, len(bytecode))
    return Instruction(pc, opcode, info.name, HANDLERS[opcode], arg,
                       evm384_gas.get(opcode, info.gas), info.inputs, info.outputs,
                       next_pc, opcode in _ENDS_BLOCK)


def _is_evm384_pair(instructions: List[Instruction], i: int) -> bool:
    return (i + 1 < len(instructions) and instructions[i].name.startswith("PUSH")
            and instructions[i + 1].opcode in EVM384_OPCODES)


def _stack_bounds(instructions: List[Instruction]) -> Tuple[int, int]:
    """(stack_min, stack_max) on entry for the block to run without stack errors."""
    height = need = growth = 0
    for ins in instructions:
        need = max(need, ins.inputs - height)
        height += ins.outputs - ins.inputs
        growth = max(growth, height)
    return need, STACK_LIMIT - growth


class _BlockBuilder:
    """Collects one block's instructions and the body that runs them."""

    def __init__(self, jumpdests: FrozenSet[int]) -> None:
        self.jumpdests = jumpdests
        self.instructions: List[Instruction] = []
        self.body: List[Tuple[Handler, object, int]] = []
        self.segment_end = 0

    def add(self, ins: Instruction) -> None:
        previous = self.instructions[-1] if self.instructions else None
        self.instructions.append(ins)
        if ins.opcode == JUMPDEST:
            return  # costs gas (charged with the block) and does nothing
        if ins.opcode in STATIC_JUMPS and previous is not None and \
                previous.handler is op_push and self.body and self.body[-1][2] == previous.pc:
            dest = previous.arg if previous.arg in self.jumpdests else None
            self.body[-1] = (STATIC_JUMPS[ins.opcode], dest, ins.pc)
            return
        self.body.append((ins.handler, ins.arg, ins.pc))

    def add_segment(self, pairs: List[Instruction]) -> None:
        segment = Segment.from_pairs(pairs)
        self.instructions.extend(pairs)
        self.body.append((op_segment, segment, pairs[-1].pc))
        self.segment_end = max(self.segment_end, segment.end)

    def build(self, index: int, next_pc: int) -> Block:
        stack_min, stack_max = _stack_bounds(self.instructions)
        name_counts = Counter(ins.name for ins in self.instructions)
        return Block(index, self.instructions[0].pc, next_pc, tuple(self.instructions),
                     tuple(self.body), sum(ins.gas for ins in self.instructions),
                     stack_min, stack_max, self.segment_end, tuple(name_counts.items()))


def _blocks(instructions: List[Instruction], jumpdests: FrozenSet[int], end_pc: int,
            fuse: bool) -> List[Block]:
    blocks: List[Block] = []
    current = _BlockBuilder(jumpdests)

    def close(next_pc: int) -> None:
        nonlocal current
        blocks.append(current.build(len(blocks), next_pc))
        current = _BlockBuilder(jumpdests)

    i = 0
    while i < len(instructions):
        ins = instructions[i]
        if ins.opcode == JUMPDEST and current.instructions:
            close(ins.pc)
        if fuse and _is_evm384_pair(instructions, i):
            start = i
            while _is_evm384_pair(instructions, i):
                i += 2
            current.add_segment(instructions[start:i])
            continue
        current.add(ins)
        i += 1
        if ins.ends_block:
            close(ins.next_pc)
    if current.instructions:
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
    jumpdests = frozenset(ins.pc for ins in instructions if ins.opcode == JUMPDEST)
    blocks = _blocks(instructions, jumpdests, end.pc, fuse)
    end_block = _BlockBuilder(jumpdests)
    end_block.add(end)
    blocks.append(end_block.build(len(blocks), end.next_pc))
    block_at: List[Optional[Block]] = [None] * (len(bytecode) + 1)
    dispatch_at: List[Optional[tuple]] = [None] * (len(bytecode) + 1)
    for block in blocks:
        block_at[block.start_pc] = block
        dispatch_at[block.start_pc] = (block.gas, block.stack_min, block.stack_max,
                                       block.segment_end, block.next_pc, block.body, block.index)
    return Code(bytecode, jumpdests, instruction_at, tuple(blocks), block_at, dispatch_at)
