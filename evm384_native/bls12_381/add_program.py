"""The field work of the hinted EIP-2537 additions (:mod:`.hinted_add`) as straight-line
programs over Fp values: what the contracts compute, written once for G1 (coordinates in
Fp) and G2 (in Fp2 = Fp[i]/(i^2 + 1)), recorded as a list of operations that
:mod:`.add_registers` maps onto EVMMAX registers and :func:`evaluate` runs on Python
integers (the tests check the algebra there, apart from the contract).

An Fp2 value is a pair of Fp value names (c0, c1); a G1 value a 1-tuple. Inputs: ``b``
(the constant 4; G2's b = 4 + 4i uses it for both halves), ``x1 y1 x2 y2`` and the hint
``l`` (the slope lambda), each with its components ``_0`` (``_1``).

The check (module doc of :mod:`.hinted_add` has the proof): with
e1 = y1^2 - x1^3 - b, e3 = l (x2 - x1) - (y2 - y1) and
f = l (y1 + y2) - (x1^2 + x1 x2 + x2^2), the hint is right and both points are on the
curve iff e1 = e3 = f = 0 (all of their Fp components), and then the sum is
x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1. The components are folded into one Fp value
``w`` by N(a, b) = a^2 + b^2, which is zero only at a = b = 0 because -1 is not a square
mod p (p = 3 mod 4): ``w`` = 0 iff every component is zero.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from ..curves.bls12_381 import BLS12_381

P = BLS12_381.p
B = 4                                            # G1: y^2 = x^3 + 4; G2: b = 4 (1 + i)
Value = Tuple[str, ...]                          # the Fp names of a G1 (1) or G2 (2) value
COORDINATES = ("x1", "y1", "x2", "y2")


@dataclass(frozen=True)
class Op:
    """out = x op y in Fp, op one of "add", "sub", "mul"."""
    op: str
    out: str
    x: str
    y: str


@dataclass
class Recorder:
    """Records operations on Fp values by name; every result gets a fresh name."""
    ops: List[Op] = field(default_factory=list)

    def _emit(self, op: str, x: str, y: str, name: str) -> str:
        out = f"{name}#{len(self.ops)}"
        self.ops.append(Op(op, out, x, y))
        return out

    def add(self, x: str, y: str, name: str = "t") -> str:
        return self._emit("add", x, y, name)

    def sub(self, x: str, y: str, name: str = "t") -> str:
        return self._emit("sub", x, y, name)

    def mul(self, x: str, y: str, name: str = "t") -> str:
        return self._emit("mul", x, y, name)


def inputs(degree: int) -> Dict[str, Value]:
    """The input values by coordinate name (``l`` the hint), then ``b``."""
    names = {name: tuple(f"{name}_{i}" for i in range(degree))
             for name in COORDINATES + ("l",)}
    names["b"] = ("b",)
    return names


# --- Fp and Fp2 arithmetic on recorded values -------------------------------------------------

def add(r: Recorder, x: Value, y: Value, name: str = "t") -> Value:
    return tuple(r.add(a, b, name) for a, b in zip(x, y))


def sub(r: Recorder, x: Value, y: Value, name: str = "t") -> Value:
    return tuple(r.sub(a, b, name) for a, b in zip(x, y))


def mul(r: Recorder, x: Value, y: Value, name: str = "t") -> Value:
    """x y; in Fp2 (x0 y0 - x1 y1) + (x0 y1 + x1 y0) i: four products and two additions
    (Karatsuba's three products cost as much under EIP-6690: three more additions)."""
    if len(x) == 1:
        return (r.mul(x[0], y[0], name),)
    return (r.sub(r.mul(x[0], y[0]), r.mul(x[1], y[1]), name),
            r.add(r.mul(x[0], y[1]), r.mul(x[1], y[0]), name))


def sqr(r: Recorder, x: Value, name: str = "t") -> Value:
    """x^2; in Fp2 (x0 + x1)(x0 - x1) + 2 x0 x1 i: two products, three additions."""
    if len(x) == 1:
        return (r.mul(x[0], x[0], name),)
    t = r.mul(x[0], x[1])
    return (r.mul(r.add(x[0], x[1]), r.sub(x[0], x[1]), name), r.add(t, t, name))


def curve_error(r: Recorder, x: Value, y: Value, b: Value, name: str) -> Value:
    """y^2 - (x^3 + b): zero iff (x, y) is on the curve (b added first, so that its
    register is free before y^2 needs one)."""
    cube_plus_b = tuple(r.add(c, b[0]) for c in mul(r, x, sqr(r, x)))
    return sub(r, sqr(r, y), cube_plus_b, name)


def fold_zero_test(r: Recorder, values: Sequence[str]) -> str:
    """One Fp value that is zero iff every one of ``values`` is: N(a, b) = a^2 + b^2 on
    pairs, then on the results, until one is left (N(a, b) = 0 forces a = b = 0 as -1 is
    not a square mod p; an odd one out waits for the next round)."""
    level = list(values)
    while len(level) > 1:
        folded = [r.add(r.mul(a, a), r.mul(b, b), "n") for a, b in zip(level[::2], level[1::2])]
        level = folded + level[len(folded) * 2:]
    return level[0]


# --- the two programs ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Program:
    """Operations, their inputs and the values the contract reads afterwards."""
    ops: Tuple[Op, ...]
    inputs: Dict[str, Value]
    outputs: Dict[str, Value]


def addition(degree: int) -> Program:
    """The fast path: outputs ``w`` (zero iff the hint is right and both points are on the
    curve), ``x3`` and ``y3``. The order keeps few values alive at once (every register
    costs memory-expansion gas): x1^3 + b before y1^2, the inputs used up as soon as
    possible, f as l (y1 + y2) + x1 x2 - (x1 + x2)^2 (one product more than
    x1^2 + x2 (x1 + x2), but x1^2 need not wait for it), e1 and e3 folded before f."""
    r, v = Recorder(), inputs(degree)
    x1, y1, x2, y2, lam, b = (v[k] for k in ("x1", "y1", "x2", "y2", "l", "b"))
    e1 = curve_error(r, x1, y1, b, "e1")
    e3 = add(r, sub(r, mul(r, lam, sub(r, x2, x1)), y2), y1, "e3")
    folded = fold_zero_test(r, e1 + e3)
    u = add(r, mul(r, lam, add(r, y1, y2)), mul(r, x1, x2))
    s = add(r, x1, x2, "s")
    f = sub(r, u, sqr(r, s), "f")
    w = fold_zero_test(r, (folded,) + f)
    x3 = sub(r, sqr(r, lam), s, "x3")
    y3 = sub(r, mul(r, lam, sub(r, x1, x3)), y1, "y3")
    return Program(tuple(r.ops), v, {"w": (w,), "x3": x3, "y3": y3})


def special_cases(degree: int) -> Program:
    """The slow path's field work: outputs ``on1``, ``on2`` (each zero iff its point is on
    the curve), ``dx`` = x2 - x1 and ``sy`` = y1 + y2 (both zero iff P2 = -P1)."""
    r, v = Recorder(), inputs(degree)
    x1, y1, x2, y2, b = (v[k] for k in ("x1", "y1", "x2", "y2", "b"))
    on1 = curve_error(r, x1, y1, b, "on1")
    on2 = curve_error(r, x2, y2, b, "on2")
    dx, sy = sub(r, x2, x1, "dx"), add(r, y1, y2, "sy")
    return Program(tuple(r.ops), v, {"on1": on1, "on2": on2, "dx": dx, "sy": sy})


def evaluate(program: Program, values: Dict[str, Tuple[int, ...]]) -> Dict[str, Tuple[int, ...]]:
    """Run ``program`` on integers mod p: ``values`` by input name (``b`` defaults to 4);
    returns every output's components."""
    known: Dict[str, int] = {"b": B}
    for name, comps in values.items():
        known.update(zip(program.inputs[name], comps))
    for op in program.ops:
        x, y = known[op.x], known[op.y]
        known[op.out] = (x + y if op.op == "add" else x - y if op.op == "sub" else x * y) % P
    return {name: tuple(known[c] for c in comps) for name, comps in program.outputs.items()}
