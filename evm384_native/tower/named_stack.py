"""Straight-line EVM code over named stack values: the DUP and SWAP depths come from the
names, so routines are written as dataflow (``apply("ADD", ["a", "b"], "s")``) and the
bookkeeping of positions cannot drift. EVM reaches 16 values down (DUP16, SWAP16): an
operation that needs a deeper one is an error when the code is written."""
from __future__ import annotations

from typing import Collection, Iterable, List, Sequence, Union

from ..asm import Assembler, Label

REACH = 16
Operand = Union[str, int]         # a value's name, or a constant to push
COMMUTATIVE = frozenset({"ADD", "MUL", "AND", "OR", "XOR", "EQ"})


class NamedStack:
    """The stack as names, bottom first; every value has a distinct name."""

    def __init__(self, asm: Assembler, names: Iterable[str] = ()) -> None:
        self.asm = asm
        self.names: List[str] = list(names)

    def _depth(self, name: str) -> int:
        depth = len(self.names) - self.names.index(name)
        if depth > REACH:
            raise ValueError(f"{name!r} is {depth} values down: EVM reaches {REACH}")
        return depth

    def _add(self, name: str) -> None:
        if name in self.names:
            raise ValueError(f"{name!r} is already on the stack")
        self.names.append(name)

    def push(self, value: Union[int, Label], name: str) -> None:
        self.asm.push(value)
        self._add(name)

    def dup(self, name: str, copy: str) -> None:
        """Push a copy of ``name``, named ``copy``."""
        self.asm.op(f"DUP{self._depth(name)}")
        self._add(copy)

    def apply(self, opcode: str, operands: Sequence[Operand], result: str,
              consume: Collection[str] = ()) -> None:
        """``result`` = ``opcode`` of ``operands``, listed as the opcode pops them (the
        first is its top: ``apply("SUB", ["a", "b"], "d")`` is d = a - b); an int operand
        is pushed. Operands named in ``consume`` (their last use) are gone after: used in
        place when they are on top already, the deepest one moved up by a SWAP, the
        others copied and their originals removed."""
        orders = [list(operands)]
        if opcode in COMMUTATIVE and len(operands) == 2:
            orders.append(list(reversed(operands)))
        layout = max((list(reversed(order)) for order in orders),
                     key=lambda wanted: self._in_place(wanted, consume))
        in_place = self._in_place(layout, consume)
        for i, operand in enumerate(layout[in_place:]):
            if isinstance(operand, int):
                self.push(operand, f"{result}#{i}")
            elif i == 0 and in_place == 0 and operand in consume:
                if self._depth(operand) > 1:           # the deepest: moved, not copied
                    self._swap(self._depth(operand) - 1)
            else:
                self.dup(operand, f"{result}#{i}")
        self.asm.op(opcode)
        del self.names[len(self.names) - len(operands):]
        self._add(result)
        self.drop(*[name for name in consume if name in self.names])

    def _in_place(self, layout: Sequence[Operand], consume: Collection[str]) -> int:
        """How many of the operands ``layout`` wants deepest first are on top already, in
        that order, and consumed."""
        count = 0
        for j in range(1, len(layout) + 1):
            if (self.names[-j:] == list(layout[:j])
                    and all(name in consume for name in layout[:j])):
                count = j
        return count

    def rename(self, old: str, new: str) -> None:
        self.names[self.names.index(old)] = new
        if self.names.count(new) > 1:
            raise ValueError(f"{new!r} is already on the stack")

    def drop(self, *names: str) -> None:
        """Remove values no longer needed: each swapped to the top and popped."""
        for name in names:
            depth = self._depth(name)
            if depth > 1:
                self._swap(depth - 1)
            self.asm.op("POP")
            self.names.pop()

    def keep(self, *names: str) -> None:
        """Drop every value but ``names`` (which stay in their order, bottom first)."""
        self.drop(*[n for n in reversed(self.names) if n not in names])
        self.order(*names)

    def order(self, *names: str) -> None:
        """Arrange exactly ``names`` as the stack, bottom first, by swaps with the top: the
        top goes to its place, bringing up the value there, until the top is in place; then
        a misplaced value is brought up (a cycle at a time)."""
        if sorted(names) != sorted(self.names):
            raise ValueError(f"order {names} is not a permutation of {self.names}")
        place = {name: i for i, name in enumerate(names)}
        top = len(self.names) - 1
        while True:
            wanted = place[self.names[top]]
            if wanted == top:
                misplaced = [i for i, name in enumerate(self.names) if place[name] != i]
                if not misplaced:
                    return
                wanted = misplaced[0]
            self._swap(top - wanted)

    def _swap(self, k: int) -> None:
        if not 1 <= k <= REACH:
            raise ValueError(f"SWAP{k}: EVM reaches {REACH} values down")
        self.asm.op(f"SWAP{k}")
        top = len(self.names) - 1
        self.names[top - k], self.names[top] = self.names[top], self.names[top - k]

