"""Montgomery products of 2048-bit numbers (R = 2**2048) with deferred carries, for plain
EVM, which has no 512-bit product: each word product's high half costs MULMOD, NOT and
ADDMOD, and adding it into running words costs a carry test a word; here a column of
products pays for its high part once.

The numbers are nine limbs of 248 bits (a 2048-bit number's top limb holds 64 bits). The
product A B + Q M is summed by columns (product scanning, Montgomery's reduction
interleaved: column k < 8 picks the digit q_k that zeroes its low 248 bits, column 8 a
64-bit digit that zeroes its low 64, so Q M + A B = 0 mod 2**(8 * 248 + 64) = R). A
column's sum S (at most 18 limb products and the carry in: below 2**502) is kept as
S mod 2**256 (MUL, ADD) and S mod M2 = 2**251 - 1 (MULMOD, ADD: 23 values below M2 still
fit a word); its part above 2**256 is h = (S mod M2 - S mod 2**256) 2**-256 mod M2
(2**-256 = 2**246 mod M2; h < 2**246 < M2), once a column, and the carry out is
S >> 248 = h 2**8 + (S mod 2**256) >> 248. A square's cross products are taken once, as
(2 a_i) a_j (2 a_i below 2**249: a column stays below 2**502). M's limbs stay on the stack
(``push_constants``), so the reduction's products DUP them. Columns 8 .. 16 leave their low
248 bits as digits d_8 .. d_16 of (A B + Q M) / R, which ``emit_words`` turns into words,
or ``emit_next_limbs`` into the next square's limbs (with ``emit_below_modulus``).

Inputs below M give a result below 2 M; the caller subtracts M when needed.
"""
from __future__ import annotations

from typing import List, NamedTuple, Tuple, Union

from ..asm import Assembler

WORDS = 8                                          # 2048 bits
LIMBS, BITS = 9, 248
LAST_BITS = 256 * WORDS - BITS * (LIMBS - 1)       # 64: the last reduction digit
MASK = (1 << BITS) - 1
M2 = (1 << 251) - 1                                # 2**256 = 2**5 mod M2
INV = 1 << 246                                     # 2**-256 mod M2
START = M2 - 31                                    # (1 - 2**256) mod M2: NOT's -1 and 2**256
assert (1 << 256) * INV % M2 == 1 and (START + (1 << 256) - 1) % M2 == 0


class Layout(NamedTuple):
    """Fixed addresses: the limbs of A, B and M, the word n' = -M**-1 mod 2**256, the
    reduction digits Q (nine words) and the digits D (d_8 .. d_16)."""
    a_at: int
    b_at: int
    m_at: int
    np_at: int
    q_at: int
    d_at: int


def _load(asm: Assembler, at: int) -> None:
    asm.push(at)
    asm.op("MLOAD")


def emit_limbs(asm: Assembler, src: int, dst: int, mask_depth: int = 0) -> None:
    """[...] -> [...]: the 8 little-endian words at ``src`` as nine limbs at ``dst``
    (MASK DUPed from ``mask_depth`` below the top, or pushed when 0)."""
    for i in range(LIMBS):
        word, offset = divmod(BITS * i, 256)
        _load(asm, src + 32 * word)
        if offset:
            asm.push(offset)
            asm.op("SHR")
            if word + 1 < WORDS:
                _load(asm, src + 32 * (word + 1))
                asm.push(256 - offset)
                asm.ops("SHL", "OR")
        if mask_depth:
            asm.op(f"DUP{mask_depth + 1}")
        else:
            asm.push(MASK)
        asm.op("AND")
        asm.push(dst + 32 * i)
        asm.op("MSTORE")


def emit_words(asm: Assembler, d_at: int, dst: int) -> None:
    """[] -> []: the words 0 .. 8 of sum d_k 2**(248 k - 2048), k = 8 .. 16 (D's digits),
    at ``dst``."""
    for w in range(WORDS + 1):
        first = True
        for k in range(LIMBS - 1, 2 * LIMBS - 1):
            at = BITS * k - 256 * WORDS            # d_k's lowest bit in the result
            if at >= 256 * (w + 1) or at + BITS <= 256 * w:
                continue
            _load(asm, d_at + 32 * (k - LIMBS + 1))
            if at > 256 * w:
                asm.push(at - 256 * w)
                asm.op("SHL")
            elif at < 256 * w:
                asm.push(256 * w - at)
                asm.op("SHR")
            if not first:
                asm.op("OR")
            first = False
        asm.push(dst + 32 * w)
        asm.op("MSTORE")


def emit_next_limbs(asm: Assembler, at: Layout, mask_depth: int) -> None:
    """[...] -> [...]: the limbs of V = sum d_k 2**(248 k - 2048), k = 8 .. 16 (D's digits;
    d_8's low 64 bits are zero), at ``a_at``: limb i is d_(8+i) >> 64 with d_(9+i)'s low 64
    bits above, so the next square starts from the last one's digits without words; V
    below M (``emit_below_modulus``) keeps the square's bound. MASK ``mask_depth`` deep."""
    for i in range(LIMBS):
        _load(asm, at.d_at + 32 * i)
        asm.push(LAST_BITS)
        asm.op("SHR")
        if i + 1 < LIMBS:
            _load(asm, at.d_at + 32 * (i + 1))
            asm.push(BITS - LAST_BITS)
            asm.ops("SHL", "OR", f"DUP{mask_depth + 1}", "AND")
        asm.push(at.a_at + 32 * i)
        asm.op("MSTORE")


def emit_below_modulus(asm: Assembler, at: Layout, mask_depth: int) -> None:
    """[...] -> [...]: the limbs V at ``a_at`` (V < 2 M) replaced by V - M when V >= M.
    Mostly the top limbs decide (V's limb 8 below M's, or equal and limb 7 below); else
    V - M by limbs with the borrow (each difference's sign bit) into Q's words, kept when
    the last borrow is 0. MASK ``mask_depth`` deep."""
    below, keep = asm.new_label("deferred_below"), asm.new_label("deferred_keep")
    top, next_ = at.a_at + 32 * (LIMBS - 1), at.m_at + 32 * (LIMBS - 1)
    _load(asm, next_)
    _load(asm, top)
    asm.op("LT")                                    # [V_8 < M_8]
    _load(asm, next_)
    _load(asm, top)
    asm.op("EQ")
    _load(asm, next_ - 32)
    _load(asm, top - 32)
    asm.ops("LT", "AND", "OR")                      # [V_8 < M_8 or (= and V_7 < M_7)]
    asm.jumpi(below)
    asm.op("PUSH0")                                 # [borrow]
    for i in range(LIMBS):
        _load(asm, at.a_at + 32 * i)
        asm.op("SUB")
        _load(asm, at.m_at + 32 * i)
        asm.ops("SWAP1", "SUB")                     # [t = v_i - borrow - m_i]
        asm.op("DUP1")
        asm.push(255)
        asm.ops("SHR", "SWAP1", f"DUP{mask_depth + 2}", "AND")  # [t mod 2**248, borrow']
        asm.push(at.q_at + 32 * i)
        asm.op("MSTORE")
    asm.op("ISZERO")
    asm.jumpi(keep)
    asm.jump(below)
    asm.place(keep)                                 # V >= M: V - M
    asm.push(32 * LIMBS)
    asm.push(at.q_at)
    asm.push(at.a_at)
    asm.op("MCOPY")
    asm.place(below)


class _Limb(NamedTuple):
    """M's limb j, on the stack (``push_constants``): DUP(4 + j) with the sum on top and
    the other sum and M2 below it."""
    j: int


Operand = Union[int, _Limb]                        # a word's address, or M's limb
Pair = Tuple[Operand, Operand]


def emit_doubled(asm: Assembler, at: Layout) -> None:
    """[...] -> [...]: 2 a_i at ``b_at`` for a square's cross products (A's limbs at
    ``a_at``)."""
    for i in range(LIMBS):
        _load(asm, at.a_at + 32 * i)
        asm.ops("DUP1", "ADD")
        asm.push(at.b_at + 32 * i)
        asm.op("MSTORE")


def _pairs(at: Layout, k: int, square: bool) -> List[Pair]:
    """Column k's products: a_i b_j, or for a square (2 a_i) a_j for i < j and a_i a_i
    (``emit_doubled``'s 2 a_i at ``b_at``), then q_i m_j."""
    pairs: List[Pair] = []
    for i in range(max(0, k - LIMBS + 1), min(k, LIMBS - 1) + 1):
        j = k - i
        if not square:
            pairs.append((at.a_at + 32 * i, at.b_at + 32 * j))
        elif i < j:
            pairs.append((at.b_at + 32 * i, at.a_at + 32 * j))
        elif i == j:
            pairs.append((at.a_at + 32 * i, at.a_at + 32 * i))
    return pairs + [(at.q_at + 32 * i, _Limb(k - i))
                    for i in range(max(0, k - LIMBS + 1), min(k, LIMBS))]


def _fetch(asm: Assembler, operand: Operand, pushed: int) -> None:
    """[...] -> [operand, ...], ``pushed`` items above the sum."""
    if isinstance(operand, _Limb):
        asm.op(f"DUP{4 + operand.j + pushed}")
    else:
        _load(asm, operand)


def _accumulate(asm: Assembler, x: Operand, y: Operand, m2_depth: int = 0) -> None:
    """[s, ...] -> [s + x y mod 2**256, ...], or with M2 ``m2_depth`` deep
    [s + (x y mod M2), ...]."""
    if m2_depth:
        asm.op(f"DUP{m2_depth}")
    _fetch(asm, x, int(m2_depth > 0))
    if x == y:
        asm.op("DUP1")
    else:
        _fetch(asm, y, 1 + int(m2_depth > 0))
    asm.ops("MULMOD" if m2_depth else "MUL", "ADD")


def _column(asm: Assembler, at: Layout, k: int, square: bool) -> None:
    """[carry, M2, M's limbs, INV, START, MASK] -> the same with carry': column k."""
    single = _pairs(at, k, square)
    asm.ops("DUP1", f"DUP{5 + LIMBS}", "ADD", "SWAP1")  # [s0 = carry, s1 = carry + START]
    for x, y in single:
        _accumulate(asm, x, y)
    if k < LIMBS:                                   # q_k = s0 n' mod 2**bits, then q_k m_0
        asm.op("DUP1")
        _load(asm, at.np_at)
        asm.op("MUL")
        if k < LIMBS - 1:
            asm.op(f"DUP{7 + LIMBS}")               # MASK
        else:
            asm.push((1 << LAST_BITS) - 1)
        asm.ops("AND", "DUP1")
        asm.push(at.q_at + 32 * k)
        asm.op("MSTORE")                            # [q_k, s0, s1, M2, limbs, ...]
        asm.ops("DUP5", "MUL", "ADD")              # + q_k m_0
    asm.op("SWAP1")                                 # [s1, s0, M2, limbs, INV, START, MASK]
    for x, y in single:
        _accumulate(asm, x, y, 3)
    if k < LIMBS:
        _accumulate(asm, at.q_at + 32 * k, _Limb(0), 3)
    asm.ops("DUP3", f"DUP{5 + LIMBS}", "DUP5", "DUP5", "NOT", "DUP5", "ADDMOD",
            "MULMOD")                               # [h, s1, s0, ...]
    asm.push(8)
    asm.ops("SHL", "DUP3")
    asm.push(256 - 8)
    asm.ops("SHR", "OR")                            # [carry', s1, s0, M2, limbs, INV, ...]
    if k >= LIMBS - 1:                              # d_k: the low 248 bits
        asm.ops("SWAP2", f"DUP{7 + LIMBS}", "AND")
        asm.push(at.d_at + 32 * (k - LIMBS + 1))
        asm.ops("MSTORE", "POP")
    else:
        asm.ops("SWAP2", "POP", "POP")


CONSTANTS = 4 + LIMBS                               # what push_constants leaves
MASK_DEPTH = CONSTANTS                              # MASK's place among them (the last)


def push_constants(asm: Assembler, at: Layout) -> None:
    """[...] -> [M2, M's limbs 0 .. 8, INV, START, MASK, ...]: what the columns DUP (M's
    limbs from ``m_at``)."""
    for value in (MASK, START, INV):
        asm.push(value)
    for j in reversed(range(LIMBS)):
        _load(asm, at.m_at + 32 * j)
    asm.push(M2)


def pop_constants(asm: Assembler) -> None:
    """[constants, ...] -> [...]."""
    asm.ops(*["POP"] * CONSTANTS)


def _last_column(asm: Assembler, at: Layout, square: bool) -> None:
    """[carry, constants] -> [constants]: column 16, a_8 b_8 + q_8 m_8 + carry, all three
    below 2**254 with A and B below M (their limb 8 and q_8 below 2**64): its sum fits a
    word, so only the products mod 2**256 and d_16 = the sum (below 2**248: the result is
    below 2 M)."""
    asm.ops("PUSH0", "SWAP1")                       # [s0 = carry, 0, M2, limbs, ...]
    for x, y in _pairs(at, 2 * LIMBS - 2, square):
        _accumulate(asm, x, y)
    asm.push(at.d_at + 32 * (LIMBS - 1))
    asm.ops("MSTORE", "POP")


def emit_product(asm: Assembler, at: Layout, square: bool) -> None:
    """[constants] -> the same: D = the digits of (A B + Q M) / R (A A for ``square``); A,
    B below M (their limbs at ``a_at``, ``b_at``)."""
    asm.op("PUSH0")                                 # [carry = 0, constants]
    for k in range(2 * LIMBS - 2):
        _column(asm, at, k, square)
    _last_column(asm, at, square)
