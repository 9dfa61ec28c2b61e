"""The sign each value of a block of field code is held with, so that fewer of the block's
additions and subtractions are subtractions (:mod:`.stack_code`, plain EVM).

On plain EVM a subtraction mod p costs more than an addition: x - y is ADDMOD(x, p - y, p),
a copy of p and a SUB more (BN254's lazy one, x + (k p - y), a pushed k p and a SUB more).
A value may as well be held negated: -x is as good an operand of a product (the product's
sign flips with it), and x - y of values held as -x and y is the addition -(x + y) of the
words held. So each value v of a block is held as s(v) v, s(v) = +1 or -1:

- a value read from memory is held as itself: s = +1; a constant pushed as code may be
  held as either (p - c is pushed for -c);
- a product's sign is its operands' product (a square's is +1);
- a negation -y is held as the word of y itself: s(-y) = -s(y), no code at all;
- x + e y (e = +1 for a sum, -1 for a difference) is an addition of the words held when
  s(x) = e s(y), and then s = s(x); otherwise it is a subtraction of one word from the
  other, and either sign is to be had for it: the choice that :func:`choose_signs` makes;
- a value the block stores is stored as itself: one held negated costs a negation first.

The signs are chosen by a local search from all +1 (the block as written): a subtraction's
or a pushed constant's sign is flipped where that lowers the count of subtractions and
stored negations, until no flip does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, List, Sequence, Tuple

SUBTRACTION = 6         # gas a subtraction costs more than an addition (DUP p or k p, SUB)
NEGATION = 14           # gas of (p - v) mod p before a store (DUP p twice, SUB, MOD)
PASSES = 4              # rounds of flips (each tries every subtraction once)


@dataclass(frozen=True)
class Node:
    """A value of a block: ``kind`` "leaf" (read from memory), "const" (a constant that
    is pushed), "neg" (-y), "add" or "sub" (x + y, x - y), "mul"; ``args`` the operands'
    node indices."""
    kind: str
    args: Tuple[int, ...] = ()


def choose_signs(nodes: Sequence[Node], stored: Collection[int],
                 kinds: Collection[str] = ("add", "sub", "const")) -> List[int]:
    """The sign (+1 or -1) to hold each of ``nodes`` with (module doc); ``stored``: the
    nodes the block stores; ``kinds``: the nodes whose signs are searched (the others
    take +1 where they have a choice: none, the block as written)."""
    search = _Search(nodes, stored)
    choices = [i for i, node in enumerate(nodes) if node.kind in kinds]
    wanted = [1] * len(nodes)
    signs, spent = [1] * len(nodes), [0] * len(nodes)
    best = search.evaluate(wanted, signs, spent, 0)
    for _ in range(PASSES if best else 0):      # (no subtraction to save)
        improved = False
        for i in choices:
            if not search.free(i, signs):
                continue                        # an addition: its sign is not a choice
            wanted[i] = -wanted[i]
            trial, trial_spent = signs.copy(), spent.copy()
            cost = search.evaluate(wanted, trial, trial_spent, i)
            if cost < best:
                signs, spent, best, improved = trial, trial_spent, cost, True
            else:
                wanted[i] = -wanted[i]
        if not improved:
            break
    return signs


_LEAF, _CONST, _NEG, _MUL, _ADD, _SUB = range(6)
_KINDS = {"leaf": _LEAF, "const": _CONST, "neg": _NEG, "mul": _MUL, "add": _ADD, "sub": _SUB}


class _Search:
    """The nodes as flat lists, for the search's many evaluations."""

    def __init__(self, nodes: Sequence[Node], stored: Collection[int]) -> None:
        self.kinds = [_KINDS[node.kind] for node in nodes]
        self.xs = [node.args[0] if node.args else -1 for node in nodes]
        self.ys = [node.args[-1] if node.args else -1 for node in nodes]
        self.stored = sorted(stored)

    def free(self, i: int, signs: Sequence[int]) -> bool:
        """Whether node ``i`` has a sign to choose: a pushed constant, or a sum or
        difference that is a subtraction of the words held, given its operands' signs."""
        kind = self.kinds[i]
        if kind == _CONST:
            return True
        same = signs[self.xs[i]] == signs[self.ys[i]]
        return same != (kind == _ADD)

    def evaluate(self, wanted: Sequence[int], signs: List[int], spent: List[int],
                 start: int) -> int:
        """Fill in ``signs`` (each node's) and ``spent`` (the subtractions' gas up to each
        node) from node ``start`` on, given the sign ``wanted`` where there is a choice;
        the gas of the subtractions and of the stored negations."""
        kinds, xs, ys = self.kinds, self.xs, self.ys
        total = spent[start - 1] if start else 0
        for i in range(start, len(kinds)):
            kind = kinds[i]
            if kind == _MUL:                    # a square's sign is +1 too
                sign = signs[xs[i]] * signs[ys[i]]
            elif kind == _NEG:
                sign = -signs[xs[i]]
            elif kind == _CONST:
                sign = wanted[i]
            elif kind == _LEAF:
                sign = 1
            elif (signs[xs[i]] == signs[ys[i]]) == (kind == _ADD):
                sign = signs[xs[i]]             # an addition of the words held
            else:
                sign = wanted[i]
                total += SUBTRACTION
            signs[i] = sign
            spent[i] = total
        return total + NEGATION * sum(1 for i in self.stored if signs[i] < 0)
