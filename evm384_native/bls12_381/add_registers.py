"""EVMMAX registers for a straight-line program of :mod:`.add_program`: inputs where the
contract's STOREXes put them, every result in the lowest register free when it is made
(a register is free again after the last operation that reads it, so an operation may
write over an input it reads: the EVMMAX kernels read before they write), and the fewest
registers with which that works.

EIP-6690's bound (``idx + stride * count`` below the register count) lets a one-value
operation read any register with stride 0 but write only below the top register: results
go to registers 0 .. n - 2, the top one only holds an input.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Set, Tuple

from .add_program import Op, Program

MAX_REGISTERS = 256


class AllocationError(ValueError):
    """The program's values do not fit the registers."""


def allocate(program: Program, fixed: Dict[str, int], registers: int,
             adjacent: Optional[Tuple[str, str]] = None) -> Dict[str, int]:
    """Register of every value: inputs at ``fixed`` (by component name), results in the
    lowest free register below the top one; ``adjacent`` (a, b): b goes in the register
    after a's (a LOADX of both), b computed after a."""
    ops = program.ops
    end = len(ops)
    outputs = {name for value in program.outputs.values() for name in value}
    last_use: Dict[str, int] = {name: -1 for name in fixed}
    for i, op in enumerate(ops):
        last_use[op.x] = last_use[op.y] = i
        last_use.setdefault(op.out, -1)
    for name in outputs:
        last_use[name] = end
    place = dict(fixed)
    busy = {register: name for name, register in fixed.items() if last_use[name] >= 0}
    reserved: Optional[int] = None
    for i, op in enumerate(ops):
        for name in (op.x, op.y):
            if last_use[name] == i and busy.get(place[name]) == name:
                del busy[place[name]]
        if adjacent is not None and op.out == adjacent[1]:
            if reserved is None:
                raise AllocationError(f"{adjacent[1]} is computed before {adjacent[0]}")
            register = reserved
            reserved = None
        else:
            pair = adjacent is not None and op.out == adjacent[0]
            register = _lowest_free(busy, reserved, registers, pair)
            if pair:
                reserved = register + 1
        place[op.out] = register
        if last_use[op.out] > i:
            busy[register] = op.out
    return place


def _lowest_free(busy: Dict[int, str], reserved: Optional[int], registers: int,
                 pair: bool) -> int:
    def free(register: int) -> bool:
        return register not in busy and register != reserved
    for register in range(registers - 1 - pair):          # results stay below the top
        if free(register) and (not pair or free(register + 1)):
            return register
    raise AllocationError(f"no free register among {registers}")


def reorder(program: Program, adjacent: Optional[Tuple[str, str]] = None) -> Program:
    """The same operations in another order: each time the ready one (its operands made)
    that frees the most registers (last uses) for the one it takes, the earliest written
    among equals; ``adjacent`` (a, b): b after a."""
    ops = program.ops
    made = {op.out: i for i, op in enumerate(ops)}
    keep = {name for value in program.outputs.values() for name in value}
    reads: Dict[str, int] = {}
    for op in ops:
        for name in {op.x, op.y}:
            reads[name] = reads.get(name, 0) + 1
    needs: List[Set[int]] = [{made[n] for n in (op.x, op.y) if n in made} for op in ops]
    if adjacent is not None:
        needs[made[adjacent[1]]].add(made[adjacent[0]])
    done: Set[int] = set()
    order: List[Op] = []
    while len(order) < len(ops):
        ready = [i for i in range(len(ops)) if i not in done and needs[i] <= done]

        def freed(i: int) -> int:
            return sum(1 for n in {ops[i].x, ops[i].y} if reads[n] == 1 and n not in keep)
        best = max(ready, key=lambda i: (freed(i), -i))
        done.add(best)
        order.append(ops[best])
        for name in {ops[best].x, ops[best].y}:
            reads[name] -= 1
    return Program(tuple(order), program.inputs, program.outputs)


def fewest_registers(program: Program, fixed_for: Callable[[int], Dict[str, int]],
                     adjacent: Optional[Tuple[str, str]] = None,
                     least: int = 1) -> Tuple[int, Dict[str, int], Program]:
    """The fewest registers n >= ``least`` with which ``program``, as written or as
    :func:`reorder` orders it, fits with its inputs at ``fixed_for(n)``: n, the
    assignment, and the order that needs them (as written where both need n)."""
    orders = (program, reorder(program, adjacent))
    for registers in range(least, MAX_REGISTERS + 1):
        for order in orders:
            try:
                return registers, allocate(order, fixed_for(registers), registers,
                                           adjacent), order
            except AllocationError:
                continue
    raise AllocationError("the program needs more than 256 registers")
