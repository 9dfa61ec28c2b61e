"""Arithmetic modulo a fixed p of 257 to 384 bits in mainnet's instructions: the routines
behind :mod:`.target_wide` (BLS12-381's field on plain EVM).

A value lives in a 48-byte memory slot, big-endian: its high part h < 2**128 in the first
16 bytes, its low word l in the last 32 (value = h 2**256 + l), so that ``MLOAD(at + 16)``
is l and ``MLOAD(at) >> 128`` is h, and a store is ``MSTORE(at, h << 128)`` then
``MSTORE(at + 16, l)``. Each routine is entered as ``[ret, out, y, x]`` (x on top: the
operands' and the result's addresses, under the return address), writes its result (the
operands may be the result's slot) and ends with the return address alone on the stack
(the subroutine's JUMP follows). p's words are
immediates (PUSH32), so one set of routines serves one field.

- ``add``/``sub``: x +- y mod p for x, y < p: the two-word sum or difference, then p
  subtracted (added) once when it is at least p (negative).
- ``mul``: Montgomery's product x y / R mod p with R = 2**512 (Montgomery, Math. Comp. 44,
  1985; the separated form, Koc, Acar and Kaliski, IEEE Micro 16(3), 1996): the 4-word
  product, then two reduction rows, each adding m p with m = t0 (-p^-1) mod 2**256, which
  clears the low word. Plain EVM has no 512-bit product: a word product's low half is MUL
  and its high half ``MULMOD(a, b, 2**256 - 1) - lo - (MULMOD(...) < lo)`` (a b = hi 2**256
  + lo = hi + lo mod 2**256 - 1, and hi <= 2**256 - 2). A row's low half needs no MUL: it
  is -t0 mod 2**256 by the choice of m, and its carry is t0 != 0. For x, y < 2**384 (a
  plain input not yet reduced included) the result (x y + m p) / R < 2**256 + p < 2 p:
  one conditional subtraction makes it canonical.
"""
from __future__ import annotations

from typing import Collection, Tuple

from ..asm import Assembler
from .named_stack import NamedStack, Operand

WORD_MASK = (1 << 256) - 1
ENTRY = ("ret", "out", "y", "x")


def split(p: int) -> Tuple[int, int]:
    """p's (high, low) words."""
    if not 1 << 256 < p < 1 << 384 or p % 2 == 0:
        raise ValueError(f"two-word arithmetic takes an odd p of 257 to 384 bits, not {p:#x}")
    return p >> 256, p & WORD_MASK


def _load(s: NamedStack, at: str, value: str) -> None:
    """Push the value at address ``at`` as ``value``.l and ``value``.h."""
    asm = s.asm
    s.dup(at, f"{value}.l")
    asm.push(16)
    asm.ops("ADD", "MLOAD")
    s.dup(at, f"{value}.h")
    asm.op("MLOAD")
    asm.push(128)
    asm.op("SHR")


def _store(s: NamedStack, h: str, low: str) -> None:
    """Store (h, low) at ``out``: the routine's end, the return address left on top (the
    stack is only these)."""
    s.keep("ret", "out", low, h)
    asm = s.asm
    asm.push(128)
    asm.op("SHL")                                # ret out l h<<128
    asm.op("DUP3")
    asm.op("MSTORE")                             # ret out l
    asm.op("SWAP1")
    asm.push(16)
    asm.ops("ADD", "MSTORE")


def _push_sign(s: NamedStack, value: str) -> None:
    """Push the top bit of ``value`` (named "sign"): set for a negative two-word result."""
    s.dup(value, "sign")
    s.asm.push(255)
    s.asm.op("SHR")


def _add_with_carry(s: NamedStack, a: str, b: Operand, total: str, carry: str,
                    consume: Collection[str] = ()) -> None:
    """total = a + b mod 2**256, carry = its wrap (a > total)."""
    s.apply("ADD", [a, b], total, consume=[n for n in consume if n != a])
    s.apply("GT", [a, total], carry, consume=[a] if a in consume else [])


def _subtract_p_unless_below(s: NamedStack, h: str, low: str, p: int) -> None:
    """(h, low) minus p if that is not negative, else as it is; then stored at ``out``.
    A negative difference has its top bit set: h < 2**129 and p's high word < 2**128."""
    p_high, p_low = split(p)
    asm = s.asm
    s.apply("SUB", [low, p_low], "dl")
    s.apply("LT", [low, p_low], "borrow")
    s.apply("ADD", [p_high, "borrow"], "sub_h", consume=["borrow"])
    s.apply("SUB", [h, "sub_h"], "dh", consume=["sub_h"])
    s.keep("ret", "out", low, h, "dl", "dh")
    keep, store = asm.new_label("keep"), asm.new_label("store")
    _push_sign(s, "dh")
    asm.jumpi(keep)
    s.names.pop()
    asm.ops("SWAP2", "POP", "SWAP2", "POP")      # ret out dl dh
    asm.jump(store)
    asm.place(keep)
    asm.ops("POP", "POP")                         # ret out l h
    asm.place(store)
    _store(NamedStack(asm, ["ret", "out", low, h]), h, low)


def emit_add(asm: Assembler, p: int) -> None:
    """The routine out = x + y mod p (x, y < p)."""
    s = NamedStack(asm, ENTRY)
    _load(s, "x", "x")
    _load(s, "y", "y")
    _add_with_carry(s, "x.l", "y.l", "l", "c")
    s.apply("ADD", ["x.h", "y.h"], "hh")
    s.apply("ADD", ["hh", "c"], "h")
    s.drop("x.l", "y.l", "c", "x.h", "y.h", "hh", "x", "y")
    _subtract_p_unless_below(s, "h", "l", p)


def emit_sub(asm: Assembler, p: int) -> None:
    """The routine out = x - y mod p (x, y < p): p added back when x < y."""
    p_high, p_low = split(p)
    s = NamedStack(asm, ENTRY)
    _load(s, "x", "x")
    _load(s, "y", "y")
    s.apply("SUB", ["x.l", "y.l"], "l")
    s.apply("LT", ["x.l", "y.l"], "borrow")
    s.apply("SUB", ["x.h", "y.h"], "hd")
    s.apply("SUB", ["hd", "borrow"], "h")
    s.keep("ret", "out", "l", "h")
    done = asm.new_label("difference")
    _push_sign(s, "h")
    asm.op("ISZERO")
    asm.jumpi(done)
    s.names.pop()
    _add_with_carry(s, "l", p_low, "rl", "c")
    s.apply("ADD", ["h", p_high], "rh0")
    s.apply("ADD", ["rh0", "c"], "rh")            # wraps back below 2**128
    s.keep("ret", "out", "rl", "rh")
    s.rename("rl", "l")
    s.rename("rh", "h")
    asm.place(done)
    _store(s, "h", "l")


def _product(s: NamedStack, a: str, b: Operand, lo: str, hi: str,
             consume: Collection[str] = ()) -> None:
    """The 512-bit product of words a and b as (lo, hi); ``consume`` a and/or b."""
    s.apply("MULMOD", [a, b, WORD_MASK], f"{hi}.mm")
    s.apply("MUL", [a, b], lo, consume=consume)
    s.apply("SUB", [f"{hi}.mm", lo], f"{hi}.d")
    s.apply("GT", [lo, f"{hi}.mm"], f"{hi}.below", consume=[f"{hi}.mm"])
    s.apply("SUB", [f"{hi}.d", f"{hi}.below"], hi, consume=[f"{hi}.d", f"{hi}.below"])


def _high_of_row(s: NamedStack, t0: str, m: str, p_low: int, hi: str) -> None:
    """The high word of m p_low where m p_low = -t0 mod 2**256 (its low word known: no
    MUL); ``m`` consumed."""
    s.apply("MULMOD", [m, p_low, WORD_MASK], f"{hi}.mm", consume=[m])
    s.apply("SUB", [0, t0], f"{hi}.lo")
    s.apply("SUB", [f"{hi}.mm", f"{hi}.lo"], f"{hi}.d")
    s.apply("GT", [f"{hi}.lo", f"{hi}.mm"], f"{hi}.below", consume=[f"{hi}.lo", f"{hi}.mm"])
    s.apply("SUB", [f"{hi}.d", f"{hi}.below"], hi, consume=[f"{hi}.d", f"{hi}.below"])


def _sum3(s: NamedStack, a: str, b: str, c: str, total: str, carries: str) -> None:
    """total = a + b + c mod 2**256 and its number of wraps (0..2); all three consumed."""
    _add_with_carry(s, a, b, f"{total}.ab", f"{total}.c1", consume=[a, b])
    _add_with_carry(s, f"{total}.ab", c, total, f"{total}.c2", consume=[f"{total}.ab", c])
    s.apply("ADD", [f"{total}.c1", f"{total}.c2"], carries,
            consume=[f"{total}.c1", f"{total}.c2"])


def emit_mul(asm: Assembler, p: int) -> None:
    """The routine out = x y / 2**512 mod p (x, y < 2**384; canonical result)."""
    p_high, p_low = split(p)
    n_prime = -pow(p_low, -1, 1 << 256) % (1 << 256)
    s = NamedStack(asm, ENTRY)
    _load(s, "x", "x")
    _load(s, "y", "y")
    s.drop("y", "x")
    # T = x y: T0 = lo(x.l y.l); T1 = hi(x.l y.l) + lo(x.l y.h) + lo(x.h y.l);
    # T2 = hi(x.l y.h) + hi(x.h y.l) + x.h y.h + carries (x.h, y.h < 2**128); T3 = carry
    _product(s, "x.l", "y.l", "t0", "a1")
    _product(s, "x.h", "y.l", "c0", "c1", consume=["y.l"])
    _product(s, "x.l", "y.h", "b0", "b1", consume=["x.l"])
    s.apply("MUL", ["x.h", "y.h"], "d0", consume=["x.h", "y.h"])
    _sum3(s, "a1", "b0", "c0", "t1", "k1")
    _sum3(s, "b1", "c1", "d0", "t2a", "k2a")
    _add_with_carry(s, "t2a", "k1", "t2", "k2b", consume=["t2a", "k1"])
    s.apply("ADD", ["k2a", "k2b"], "t3", consume=["k2a", "k2b"])
    # row 1: m = t0 n'; (T + m p) / 2**256 = (u1, u2, u3)
    constants = (n_prime, p_low, p_high)
    _row(s, constants, "t0", "t1", "t2", "u1", "u2", "k")
    s.apply("ADD", ["t3", "k"], "u3", consume=["t3", "k"])
    # row 2: m = u1 n'; (U + m p) / 2**256 = (r.l, r.h), below 2 p
    _row(s, constants, "u1", "u2", "u3", "r.l", "r.h", "k2")
    s.keep("ret", "out", "r.l", "r.h")
    _subtract_p_unless_below(s, "r.h", "r.l", p)


def _row(s: NamedStack, constants: Tuple[int, int, int], w0: str, w1: str, w2: str,
         out1: str, out2: str, carry: str) -> None:
    """One reduction row: m = w0 n' mod 2**256, (w0, w1, w2) + m p over 2**256 as (out1,
    out2) and the carry out of out2 (w0, w1, w2 consumed): m p's low word is -w0, so the
    lowest position carries w0 != 0."""
    n_prime, p_low, p_high = constants
    s.apply("MUL", [w0, n_prime], "m")
    s.dup("m", "m.copy")
    _high_of_row(s, w0, "m.copy", p_low, "e1")
    s.apply("ISZERO", [w0], "w0z", consume=[w0])
    s.apply("ISZERO", ["w0z"], "g", consume=["w0z"])
    _product(s, "m", p_high, "f0", "f1", consume=["m"])
    _sum3(s, w1, "e1", "f0", "s1", "ka")
    _add_with_carry(s, "s1", "g", out1, "kb", consume=["s1", "g"])
    s.apply("ADD", ["ka", "kb"], "k", consume=["ka", "kb"])
    _sum3(s, w2, "f1", "k", out2, carry)
