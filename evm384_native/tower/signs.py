"""The sign each value of a block of field code is held with, so that fewer of the block's
additions and subtractions are subtractions (:mod:`.stack_code`, plain EVM).

On plain EVM a subtraction mod p costs more than an addition: x - y is ADDMOD(x, p - y, p),
a copy of p and a SUB more (BN254's lazy one, x + (k p - y), a pushed k p and a SUB more).
A value may as well be held negated: -x is as good an operand of a product (the product's
sign flips with it), and x - y of values held as -x and y is the addition -(x + y) of the
words held. So each value v of a block is held as s(v) v, s(v) = +1 or -1:

- a value read from memory (or a constant) is held as itself: s = +1;
- a product's sign is its operands' product (a square's is +1);
- a negation -y is held as the word of y itself: s(-y) = -s(y), no code at all;
- x + e y (e = +1 for a sum, -1 for a difference) is an addition of the words held when
  s(x) = e s(y), and then s = s(x); otherwise it is a subtraction of one word from the
  other, and either sign is to be had for it: the choice that :func:`choose_signs` makes;
- a value the block stores is stored as itself: one held negated costs a negation first.

The signs are chosen by a local search from all +1 (the block as written): a subtraction's
sign is flipped where that lowers the count of subtractions and stored negations, until no
flip does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, List, Sequence, Tuple

SUBTRACTION = 6         # gas a subtraction costs more than an addition (DUP p or k p, SUB)
NEGATION = 14           # gas of (p - v) mod p before a store (DUP p twice, SUB, MOD)
PASSES = 4              # rounds of flips (each tries every subtraction once)


@dataclass(frozen=True)
class Node:
    """A value of a block: ``kind`` "leaf" (read from memory, a constant), "neg" (-y),
    "add" or "sub" (x + y, x - y), "mul"; ``args`` the operands' node indices."""
    kind: str
    args: Tuple[int, ...] = ()


def choose_signs(nodes: Sequence[Node], stored: Collection[int]) -> List[int]:
    """The sign (+1 or -1) to hold each of ``nodes`` with (module doc); ``stored``: the
    nodes the block stores."""
    subtractions = [i for i, node in enumerate(nodes) if node.kind in ("add", "sub")]
    wanted = [1] * len(nodes)
    signs, best = _signs(nodes, wanted, stored)
    for _ in range(PASSES):
        improved = False
        for i in subtractions:
            if not _free(nodes[i], signs):
                continue                        # an addition: its sign is not a choice
            wanted[i] = -wanted[i]
            trial, cost = _signs(nodes, wanted, stored)
            if cost < best:
                signs, best, improved = trial, cost, True
            else:
                wanted[i] = -wanted[i]
        if not improved:
            break
    return signs


def _free(node: Node, signs: Sequence[int]) -> bool:
    """Whether ``node`` (a sum or difference) is a subtraction of the words held (so that
    its sign is free), given its operands' signs."""
    x, y = node.args
    e = 1 if node.kind == "add" else -1
    return signs[x] != e * signs[y]


def _signs(nodes: Sequence[Node], wanted: Sequence[int], stored: Collection[int]
           ) -> Tuple[List[int], int]:
    """Each node's sign given the sign ``wanted`` for each subtraction, and the gas the
    subtractions and the stored negations cost."""
    signs = [1] * len(nodes)
    cost = 0
    for i, node in enumerate(nodes):
        if node.kind == "mul":
            x, y = node.args
            signs[i] = 1 if x == y else signs[x] * signs[y]
        elif node.kind == "neg":
            signs[i] = -signs[node.args[0]]
        elif node.kind in ("add", "sub"):
            if _free(node, signs):
                signs[i] = wanted[i]
                cost += SUBTRACTION
            else:
                signs[i] = signs[node.args[0]]
    cost += NEGATION * sum(1 for i in stored if signs[i] < 0)
    return signs, cost
