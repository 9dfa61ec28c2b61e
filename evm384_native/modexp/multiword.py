"""B^E mod M for a modulus of at least two words (M >= 2**256), in plain EVM words.

Numbers live in memory as little-endian word arrays (word i at ``at + 32 i``), at fixed
addresses past the parser's data (:mod:`.layout`: FREE_AT is at most BUFFERS_AT), each
buffer STRIDE bytes (a modulus of at most 32 words, a carry word and a scratch word).
Routines are entered with their return address on the stack and take their operands as
pointers in variables (VAR_AT: the parser's free table area), so one copy of each serves
every size: loops run over the run-time word count n.

Odd M (word-level Montgomery arithmetic, R = 2**(256 n)):
- ``mont_mul``: CIOS (a b + m M) / R, two passes per word of b, each an unrolled loop of
  UNROLL product steps entered Duff's way. The 512-bit product of two words: lo = MUL,
  hi = ADDMOD(MULMOD(x, y, 2**256 - 1), NOT lo, 2**256 - 1) (x y = hi 2**256 + lo and
  2**256 = 1 mod 2**256 - 1, so hi = mm - lo mod 2**256 - 1, exact as hi <= 2**256 - 2).
  The result is below 2 M: ``reduce`` subtracts M unless the top words show t < M.
- ``mont_sqr`` (from ``Sizes.sqr_words``, below that it costs more than it saves): the
  square from n (n - 1) / 2 cross products, doubled, plus the diagonal, then n rows.
- n' = -M0^-1 mod 2**256 by Newton's iteration from x = M0 (right to 3 bits), 7 steps.
- ``divide``: x 2**(128 k) mod M from x < M by k steps of long division in 128-bit digits
  (Knuth's D3: the quotient digit from the top digits, refined once by the next ones, at
  most 2 too large, then M added back); for ``Sizes.fixed_sqr_words`` in 256-bit digits
  (``_divide_wide``: Moller and Granlund's division by a reciprocal made once a call).
- the base into Montgomery form: B R mod M straight from B by 2 n division steps when B
  has at most n words and B < M (the common case); else R**2 mod M from
  2**(384 n) mod M (3 n steps) squared, then Horner over chunks of n words (A' = A R + c,
  i.e. mont(A, R**2) + mont(c, R**2)), so no division of the base. E = 0 answers 1 first.
- ``mont_mul_n`` for n in ``Sizes.fixed_words``: the same CIOS, each row straight-line
  (constant addresses). For ``Sizes.fixed_sqr_words`` (RSA-2048's 8): runs of squarings
  by :mod:`.deferred`'s columns (nine 248-bit limbs, carries deferred to once a column,
  each square's digits the next one's limbs), ``redc`` out of Montgomery form by
  reduction rows alone, and the division in 256-bit digits. Which of these a build has is
  its opcode set's ``SIZES`` entry.
- left-to-right fixed windows of K bits (K by the exponent's length), skipping the leading
  zeros and multiplying only by non-zero windows; the squarings wait for the next product
  and run as one call (SQRS: the deferred run, or SQR that many times), and a run of zero
  windows is skipped at once (CLZ of the bits that follow); out of Montgomery form by
  mont(x, 1) (``redc`` where there is one). With B < M, E = 1 answers B, and an odd E of at most 32
  bits (E = 3, 17, 65537) ends on one product by B instead of the last product by B R
  and the way out of Montgomery form.

Even M = 2**k q, q odd (CRT): X = B^E mod q by the odd path (none if q = 1), Y = B^E mod
2**k by the same windows over truncated products (``mul_low``, mod 2**(256 kw), masked at
the end), then the result X + q ((Y - X) q^-1 mod 2**k), q^-1 mod 2**(256 kw) by Newton's
iteration on truncated products (from q0^-1 mod 2**256, doubling the words each step), the
product q h < M taken mod 2**(256 MOD_WORDS). Cost: the odd path on q's words plus about
half of it again on kw words (truncated products are half products).
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Tuple, Union

from ..asm import Assembler, Label
from . import deferred
from .layout import (BASE_AT_SLOT, BASE_WORDS_SLOT, DATA_AT, EXP_AT_SLOT, EXP_WORDS_SLOT,
                     MOD_AT_SLOT, MOD_LENGTH_SLOT, MOD_WORDS_SLOT, SLOTS_AT, TABLE_AT, WORD)
from .reference import MAX_LENGTH

MAX_WORDS = MAX_LENGTH // WORD                     # 32
UNROLL = 8                                         # product steps per turn of their loop
UNROLLED_ROWS = 4                                  # straight-line products: all rows written out


class Sizes(NamedTuple):
    """The code an opcode set's build spends on speed: straight-line Montgomery products
    for some word counts (~80 bytes a word, rows up to UNROLLED_ROWS words written out),
    ``mont_sqr`` for squarings from ``sqr_words`` words (~1.2 KB; None: none), and for
    ``fixed_sqr_words`` (8 or none) the deferred-carry squarings (~3.4 KB), ``redc`` and
    the division in 256-bit digits (~0.5 KB each). EVMMAX's build leaves them out: its own
    path takes the small odd moduli, and its contract must stay below EIP-170's bound
    with that path's code."""
    fixed_words: Tuple[int, ...]
    sqr_words: Optional[int]
    fixed_sqr_words: Tuple[int, ...]


SIZES = {"evm": Sizes(fixed_words=(1, 2, 3, 4, 5, 6, 8, 12, 16), sqr_words=10,
                      fixed_sqr_words=(8,)),
         "evmmax": Sizes(fixed_words=(), sqr_words=None, fixed_sqr_words=())}
assert all(size.sqr_words is None or size.sqr_words >= 2   # mont_sqr's rows need two words
           for size in SIZES.values())
assert all(set(size.fixed_sqr_words) <= {deferred.WORDS} for size in SIZES.values())
STRIDE = WORD * (MAX_WORDS + 2)                    # a buffer: 32 words, a carry, a spare
BUFFERS_AT = DATA_AT + 3 * MAX_LENGTH              # past the parser's data, whatever its size


def _buffers(*names: str) -> dict:
    return {name: BUFFERS_AT + WORD + STRIDE * i for i, name in enumerate(names)}


# T has a writable word below it (CIOS's second pass stores t[j - 1] from j = 0).
# ZERO is never written (so the word below XS stays zero: XS's word -1).
# SQ, DIAG and BASE are 64 words (their _HI halves); the word below SQ (XS's spare) is zero.
_B = _buffers("MOD", "T", "S", "R2", "ACC", "X", "NM", "Q", "H", "U", "MLE", "RES",
              "INT1", "INT2", "ZERO", "XS", "SQ", "SQ_HI", "DIAG", "DIAG_HI", "AF", "BASE",
              "BASE_HI")
SQ_BUF, DIAG_BUF, AF_BUF = _B["SQ"], _B["DIAG"], _B["AF"]
(MOD_BUF, T_BUF, S_BUF, R2_BUF, ACC_BUF, X_BUF, NM_BUF, Q_BUF, H_BUF, U_BUF, MLE_BUF,
 RES_BUF, INT1_BUF, INT2_BUF, ZERO_BUF, XS_BUF, BASE_BUF) = (_B[n] for n in (
    "MOD", "T", "S", "R2", "ACC", "X", "NM", "Q", "H", "U", "MLE", "RES", "INT1", "INT2",
    "ZERO", "XS", "BASE"))
DIGIT = 1 << 128                                   # the division steps' digit
TABLE_BUF = _B["BASE_HI"] + STRIDE                   # 2**K entries, TSTRIDE bytes apart

_VAR_NAMES = ("N32", "NP", "END", "DST", "A", "B", "W32", "MUL", "K", "P", "PEND",
              "STARTED", "COUNT", "TSTRIDE", "CHUNK", "WIDTH", "KBITS", "T1", "OUT",
              "COUNT2", "MW32", "E0", "S", "V1", "V2", "SQR", "SQW", "ELAST", "SQRS",
              "PENDING", "D1", "VINV")
V = {name: TABLE_AT + WORD * i for i, name in enumerate(_VAR_NAMES)}
# the deferred-carry squaring's limbs (8-word moduli) in DIAG, free at that size
LIMBS_LAYOUT = deferred.Layout(a_at=DIAG_BUF, b_at=DIAG_BUF + 40 * WORD,
                               m_at=DIAG_BUF + 30 * WORD,
                               np_at=V["NP"], q_at=DIAG_BUF + 10 * WORD,
                               d_at=DIAG_BUF + 20 * WORD)
assert TABLE_AT + WORD * len(_VAR_NAMES) <= SLOTS_AT


class _Code:
    """Emission helpers over one assembler."""

    def __init__(self, asm: Assembler) -> None:
        self.asm = asm

    def load(self, var: str) -> None:
        self.asm.push(V[var])
        self.asm.op("MLOAD")

    def store(self, var: str) -> None:
        """[value] -> []: the variable set."""
        self.asm.push(V[var])
        self.asm.op("MSTORE")

    def word(self, var: str, base: int) -> None:
        """[] -> [the word at base + the variable's value]."""
        self.load(var)
        self.asm.push(base % (1 << 256))
        self.asm.ops("ADD", "MLOAD")

    def set(self, var: str, value: int) -> None:
        self.asm.push(value)
        self.store(var)

    def slot(self, at: int) -> None:
        self.asm.push(at)
        self.asm.op("MLOAD")

    def zero(self, at: int, words_var: str, extra_words: int) -> None:
        """Zero ``32 * var + 32 * extra`` bytes at ``at`` (CALLDATACOPY past the end)."""
        asm = self.asm
        self.load(words_var)
        if extra_words:
            asm.push(WORD * extra_words)
            asm.op("ADD")
        asm.op("CALLDATASIZE")
        asm.push(at)
        asm.op("CALLDATACOPY")

    def copy(self, dst: int, src: int, bytes_var: str) -> None:
        self.load(bytes_var)
        self.asm.push(src)
        self.asm.push(dst)
        self.asm.op("MCOPY")

    def loop(self, body: Callable[[], None], end_var: str, step: int = WORD) -> None:
        """[p, ...] -> [END, ...]: ``body`` ([p, ...] -> [p, ...]) for p, p + step, ...
        below END's value (at least once)."""
        asm = self.asm
        top = asm.label("mw_loop")
        body()
        asm.push(step)
        asm.op("ADD")
        asm.op("DUP1")
        self.load(end_var)
        asm.op("GT")
        asm.jumpi(top)


def _select(asm: Assembler) -> None:
    """[flag, a, b] -> [a if flag else b] (flag 0 or 1)."""
    asm.ops("SWAP1", "DUP3", "SWAP1", "SUB", "MUL", "ADD")


def _shift_word(asm: Assembler, src: int, dst: int, bits: int) -> None:
    """[j] -> [j]: word j of (the words at src) << bits, to dst + j (src's word -1 read)."""
    asm.op("DUP1")
    asm.push(src)
    asm.ops("ADD", "MLOAD")
    asm.push(bits)
    asm.op("SHL")
    asm.op("DUP2")
    asm.push(src - WORD)
    asm.ops("ADD", "MLOAD")
    asm.push(256 - bits)
    asm.ops("SHR", "OR", "DUP2")
    asm.push(dst)
    asm.ops("ADD", "MSTORE")


def _shifted_word(asm: Assembler, src: int, j: int, bits: int) -> None:
    """[] -> [word j of (the words at src) << bits] (src's word -1 read)."""
    asm.push(src + WORD * j)
    asm.op("MLOAD")
    asm.push(bits)
    asm.op("SHL")
    asm.push(src + WORD * (j - 1))
    asm.op("MLOAD")
    asm.push(256 - bits)
    asm.ops("SHR", "OR")


def _product_step(c: _Code, store_offset: int) -> None:
    """[p, C, y, d, N] -> [p + 32, C', y, d, N]: (C', t) = t[p] + x y + C with x at p + d,
    t stored at p + store_offset."""
    asm = c.asm
    asm.ops("DUP4", "DUP2", "ADD", "MLOAD")             # [x, p, C, y, d, N]
    asm.op("DUP4")                                      # [y, x, p, C, y, d, N]
    asm.ops("DUP2", "DUP2", "MUL")                      # [lo, y, x, ...]
    asm.ops("SWAP2", "DUP8", "SWAP2", "MULMOD")         # [mm, lo, p, C, y, d, N]
    asm.ops("DUP7", "SWAP1", "DUP3", "NOT", "ADDMOD")   # [hi, lo, p, C, y, d, N]
    asm.ops("DUP3", "MLOAD", "DUP3", "ADD")             # [s1 = lo + t, hi, lo, p, C, ...]
    asm.ops("SWAP2", "DUP3", "LT", "ADD")               # [hi1, s1, p, C, ...]
    asm.ops("SWAP3", "DUP2", "ADD")                     # [s2 = s1 + C, s1, p, hi1, ...]
    asm.ops("SWAP1", "DUP2", "LT")                      # [c2, s2, p, hi1, ...]
    asm.ops("SWAP1", "DUP3")                            # [p, s2, c2, p, hi1, ...]
    if store_offset:
        asm.push((store_offset) % (1 << 256))
        asm.op("ADD")
    asm.op("MSTORE")                                    # [c2, p, hi1, y, d, N]
    asm.ops("DUP3", "ADD", "SWAP2", "POP")              # [p, C', y, d, N]
    asm.push(WORD)
    asm.op("ADD")


def _product_loop(c: _Code, store_offset: int) -> None:
    """[p, C, y, d, N, end] -> [end, C', y, d, N, end]: product steps until p = end (at
    least one). UNROLL steps a turn; the first turn enters its block at the step that
    leaves a whole number of turns (Duff's device: the steps are one size)."""
    asm = c.asm
    steps = [asm.new_label("mw_step") for _ in range(UNROLL)]
    test = asm.new_label("mw_steps_test")
    asm.ops("DUP1", "DUP7", "SUB")
    asm.push(5)
    asm.op("SHR")
    asm.push(UNROLL - 1)
    asm.op("AND")                                       # [steps before the test, ...]
    asm.push(lambda: steps[1].pc - steps[0].pc, width=1)
    asm.op("MUL")
    asm.push(test)
    asm.ops("SUB", "JUMP")
    for label in steps:
        asm.place(label)
        _product_step(c, store_offset)
    asm.place(test)
    asm.ops("DUP1", "DUP7", "GT")
    asm.jumpi(steps[0])


class _Routines:
    def __init__(self, asm: Assembler, sizes: Sizes) -> None:
        self.c, self.sizes = _Code(asm), sizes
        self.mont_mul = asm.new_label("mw_mont_mul")
        self.mont_sqr = asm.new_label("mw_mont_sqr")
        self.fixed = {n: asm.new_label(f"mw_mont_mul_{n}") for n in sizes.fixed_words}
        self.fixed_sqr = {n: asm.new_label(f"mw_sqr_run_{n}") for n in sizes.fixed_sqr_words}
        self.fixed_redc = {n: asm.new_label(f"mw_redc_{n}") for n in sizes.fixed_sqr_words}
        self.mul_low = asm.new_label("mw_mul_low")
        self.mod_add = asm.new_label("mw_mod_add")
        self.reduce = asm.new_label("mw_reduce")
        self.add = asm.new_label("mw_add")
        self.sub = asm.new_label("mw_sub")

    def emit(self) -> None:
        with self.c.asm.scope("mont_mul"):
            self._mont_mul()
        if self.sizes.sqr_words is not None:
            with self.c.asm.scope("mont_sqr"):
                self._mont_sqr()
        for n in self.fixed:
            with self.c.asm.scope(f"mont_mul_{n}"):
                self._mont_mul_fixed(n)
        for n in self.fixed_sqr:
            with self.c.asm.scope(f"redc_{n}"):
                self._redc_fixed(n)
            with self.c.asm.scope(f"deferred_sqr_{n}"):
                self._deferred_sqr_run()
        with self.c.asm.scope("reduce"):
            self._reduce()
        with self.c.asm.scope("mod_add"):
            self._mod_add()
        with self.c.asm.scope("mul_low"):
            self._mul_low()
        with self.c.asm.scope("add_sub"):
            self._add_sub(self.add, "ADD")
            self._add_sub(self.sub, "SUB")

    def _rows_start(self, bytes_var: str, spare_words: int) -> None:
        """[ret] -> [N = 2**256 - 1, end = T + the variable, i32 = 0, ret], T zeroed up to
        ``spare_words`` words past the end."""
        c, asm = self.c, self.c.asm
        c.zero(T_BUF, bytes_var, spare_words)
        asm.op("PUSH0")
        c.load(bytes_var)
        asm.push(T_BUF)
        asm.ops("ADD", "PUSH0", "NOT")

    def _rows_next(self, outer: Label, bytes_var: str) -> None:
        """[p, C, y, d, N, end, i32, ret] after a row -> the next row at ``outer`` with
        [N, end, i32 + 32, ret] while i32 + 32 is below the variable, else [ret]."""
        c, asm = self.c, self.c.asm
        asm.ops("POP", "POP", "POP", "POP")             # [N, end, i32, ret]
        asm.op("DUP3")
        asm.push(WORD)
        asm.ops("ADD", "SWAP3", "POP", "DUP3")          # [i32 + 32, N, end, i32 + 32, ret]
        c.load(bytes_var)
        asm.op("GT")
        asm.jumpi(outer)
        asm.ops("POP", "POP", "POP")

    def _mont_mul(self) -> None:
        """[ret] -> []: DST = A B / R mod M (A, B < M; or one of them < R, the other < M)."""
        c, asm = self.c, self.c.asm
        asm.place(self.mont_mul)
        self._rows_start("N32", 2)                      # [N, end, i32, ret]
        outer = asm.label("mw_mont_word")
        # first pass: t += a b_i
        asm.push(T_BUF)
        c.load("A")
        asm.op("SUB")                                   # [d, N, end, i32, ret]
        asm.op("DUP4")
        c.load("B")
        asm.ops("ADD", "MLOAD")                         # [y, d, N, end, i32, ret]
        asm.op("PUSH0")
        asm.push(T_BUF)                                 # [p, C, y, d, N, end, i32, ret]
        _product_loop(c, 0)
        asm.ops("DUP1", "MLOAD", "DUP3", "ADD")         # [s, p, C, ...]: t_n + C
        asm.ops("DUP3", "DUP2", "LT")                   # [carry, s, p, C, ...]
        asm.op("DUP3")
        asm.push(WORD)
        asm.ops("ADD", "MSTORE")                        # t_(n+1) = carry
        asm.ops("DUP2", "MSTORE")                       # t_n = s
        asm.ops("POP", "POP", "POP", "POP")             # [N, end, i32, ret]
        # second pass: t = (t + m M) / 2**256, m = t_0 n'
        asm.push((MOD_BUF - T_BUF) % (1 << 256))
        c.load("NP")
        c.slot(T_BUF)
        asm.op("MUL")                                   # [m, d, N, end, i32, ret]
        asm.op("PUSH0")
        asm.push(T_BUF)
        _product_loop(c, -WORD)
        asm.ops("DUP1", "MLOAD", "DUP3", "ADD")         # [s, p, C, ...]: t_n + C
        asm.ops("DUP3", "DUP2", "LT")                   # [carry, s, p, C, ...]
        asm.op("DUP3")
        asm.push(WORD)
        asm.ops("ADD", "MLOAD", "ADD")                  # [t_(n+1) + carry, s, p, C, ...]
        asm.ops("DUP3", "MSTORE")                       # t_n
        asm.push(WORD)
        asm.ops("DUP3", "SUB", "MSTORE")                # t_(n-1) = s
        self._rows_next(outer, "N32")
        asm.jump(self.reduce)

    def fixed_step(self, x_at: int, t_at: Union[int, Callable[[], None]], store_at: int,
                   complement: bool = False) -> None:
        """[C, y, N] -> [C', y, N]: (C', t) = t + x y + C, t to store_at; x the word at
        ``x_at`` (NOT it for ``complement``), t the word at ``t_at`` or what ``t_at()``
        pushes."""
        asm = self.c.asm
        asm.push(x_at)
        asm.op("MLOAD")
        if complement:
            asm.op("NOT")
        asm.op("DUP3")                                  # [y, x, C, y, N]
        asm.ops("DUP2", "DUP2", "MUL")                  # [lo, y, x, C, y, N]
        asm.ops("SWAP2", "DUP6", "SWAP2", "MULMOD")     # [mm, lo, C, y, N]
        asm.ops("DUP5", "SWAP1", "DUP3", "NOT", "ADDMOD")  # [hi, lo, C, y, N]
        if callable(t_at):
            t_at()
        else:
            asm.push(t_at)
            asm.op("MLOAD")
        asm.ops("DUP3", "ADD")                          # [s1, hi, lo, C, y, N]
        asm.ops("SWAP2", "DUP3", "LT", "ADD")           # [hi1, s1, C, y, N]
        asm.ops("SWAP2", "DUP2", "ADD")                 # [s2, s1, hi1, y, N]
        asm.ops("SWAP1", "DUP2", "LT")                  # [c2, s2, hi1, y, N]
        asm.op("SWAP1")
        asm.push(store_at)
        asm.ops("MSTORE", "ADD")                        # [C', y, N]

    def _mont_mul_fixed(self, n: int) -> None:
        """[ret] -> []: mont_mul for n words, each row's steps straight-line (constant
        addresses; A copied to AF first, it may be any buffer): the rows written out up to
        UNROLLED_ROWS words, else a loop over them."""
        c, asm = self.c, self.c.asm
        asm.place(self.fixed[n])
        asm.push(WORD * (n + 2))
        asm.op("CALLDATASIZE")
        asm.push(T_BUF)
        asm.op("CALLDATACOPY")
        asm.push(WORD * n)
        c.load("A")
        asm.push(AF_BUF)
        asm.op("MCOPY")
        asm.ops("PUSH0", "PUSH0", "NOT")                # [N, i32, ret]
        if n <= UNROLLED_ROWS:
            for i in range(n):
                self._fixed_row(n, i)                   # (i32 stays 0: i is a constant)
        else:
            row = asm.label(f"mw_fixed_row_{n}")
            self._fixed_row(n)
            self._next_row(row, n)
        asm.ops("POP", "POP")
        asm.jump(self.reduce)

    def _next_row(self, row: Label, n: int) -> None:
        """[N, i32, ret] -> [N, i32 + 32, ret] at ``row`` while i32 + 32 < 32 n."""
        asm = self.c.asm
        asm.op("SWAP1")
        asm.push(WORD)
        asm.ops("ADD", "SWAP1", "DUP2")                 # [i32 + 32, N, i32 + 32, ret]
        asm.push(WORD * n)
        asm.op("GT")
        asm.jumpi(row)

    def _fixed_row(self, n: int, i: Optional[int] = None) -> None:
        """[N, i32, ret] -> [N, i32, ret]: CIOS's two passes for word i of B (word i32 / 32
        when ``i`` is None)."""
        c, asm = self.c, self.c.asm
        top, carry = T_BUF + WORD * n, T_BUF + WORD * (n + 1)
        if i is None:
            asm.op("DUP2")
        else:
            asm.push(WORD * i)
        c.load("B")
        asm.ops("ADD", "MLOAD", "PUSH0")                # [0, b_i, N, i32, ret]
        for j in range(n):
            self.fixed_step(AF_BUF + WORD * j, T_BUF + WORD * j, T_BUF + WORD * j)
        asm.push(top)
        asm.ops("MLOAD", "DUP2", "ADD")                 # [s, C, y, N, i32, ret]
        asm.ops("SWAP1", "DUP2", "LT")                  # [carry, s, y, N, i32, ret]
        asm.push(carry)
        asm.op("MSTORE")
        asm.push(top)
        asm.ops("MSTORE", "POP")                        # [N, i32, ret]
        self._fixed_reduction_row(n)

    def _fixed_reduction_row(self, n: int) -> None:
        """[N, ...] -> [N, ...]: t = (t + m M) / 2**256 over T's n + 2 words, m = t_0 n'."""
        c, asm = self.c, self.c.asm
        top, carry = T_BUF + WORD * n, T_BUF + WORD * (n + 1)
        c.load("NP")
        c.slot(T_BUF)
        asm.ops("MUL", "PUSH0")                         # [0, m, N, i32, ret]
        for j in range(n):
            self.fixed_step(MOD_BUF + WORD * j, T_BUF + WORD * j, T_BUF + WORD * (j - 1))
        asm.push(top)
        asm.ops("MLOAD", "DUP2", "ADD")                 # [s, C, m, N, i32, ret]
        asm.ops("SWAP1", "DUP2", "LT")                  # [carry, s, m, N, i32, ret]
        asm.push(carry)
        asm.ops("MLOAD", "ADD")
        asm.push(top)
        asm.op("MSTORE")                                # t_n = t_(n+1) + carry
        asm.push(top - WORD)
        asm.ops("MSTORE", "POP")                        # t_(n-1) = s; [N, i32, ret]

    def _add_word(self, at: int) -> None:
        """[v, c] -> [c']: the word at ``at`` += v + c (c <= 1), c' its carry."""
        asm = self.c.asm
        asm.push(at)
        asm.ops("MLOAD", "DUP2", "ADD")                 # [s1, v, c]
        asm.ops("SWAP1", "DUP2", "LT")                  # [c1, s1, c]
        asm.ops("SWAP1", "DUP3", "ADD")                 # [s, c1, c]
        asm.ops("SWAP2", "DUP3", "LT", "OR")            # [c', s]
        asm.op("SWAP1")
        asm.push(at)
        asm.op("MSTORE")

    def _redc_fixed(self, n: int) -> None:
        """[ret] -> []: DST = A / R mod M for n words (out of Montgomery form): the
        reduction rows on a window of n + 2 words at T that takes SQ's next word (SQ = A,
        zeros above) after each row."""
        c, asm = self.c, self.c.asm
        asm.place(self.fixed_redc[n])
        asm.push(WORD * (2 * n + 2))
        asm.op("CALLDATASIZE")
        asm.push(SQ_BUF)
        asm.op("CALLDATACOPY")
        asm.push(WORD * n)
        c.load("A")
        asm.push(SQ_BUF)
        asm.op("MCOPY")
        asm.ops("PUSH0", "NOT")                         # [N, ret]
        asm.push(WORD * (n + 1))
        asm.push(SQ_BUF)
        asm.push(T_BUF)
        asm.op("MCOPY")                                 # T = SQ's words 0 .. n
        asm.op("PUSH0")
        asm.push(T_BUF + WORD * (n + 1))
        asm.op("MSTORE")
        asm.op("PUSH0")
        asm.op("SWAP1")                                 # [N, i32, ret]
        row = asm.label(f"mw_fixed_sqr_row_{n}")
        self._fixed_reduction_row(n)
        asm.op("DUP2")                                  # then SQ's word n + 1 + i in
        asm.push(SQ_BUF + WORD * (n + 1))
        asm.ops("ADD", "MLOAD")                         # [u, N, i32, ret]
        asm.push(T_BUF + WORD * n)
        asm.ops("MLOAD", "DUP2", "ADD")                 # [s, u, N, i32, ret]
        asm.ops("SWAP1", "DUP2", "LT")                  # [carry, s, N, i32, ret]
        asm.push(T_BUF + WORD * (n + 1))
        asm.op("MSTORE")
        asm.push(T_BUF + WORD * n)
        asm.op("MSTORE")                                # [N, i32, ret]
        self._next_row(row, n)
        asm.ops("POP", "POP")
        asm.jump(self.reduce)

    def _deferred_sqr_run(self) -> None:
        """[ret] -> []: ACC = ACC**(2**COUNT) / R**(2**COUNT - 1) mod M for 8 words (COUNT
        >= 1 Montgomery squarings) by :mod:`.deferred`'s columns, ACC's limbs made once
        (M's by ``emit_modulus_limbs``): each square's digits are the next one's limbs, below
        M; the last one's words at T, reduced into ACC."""
        c, asm = self.c, self.c.asm
        asm.place(self.fixed_sqr[deferred.WORDS])
        deferred.push_constants(asm, LIMBS_LAYOUT)      # [constants, ret]
        deferred.emit_limbs(asm, ACC_BUF, LIMBS_LAYOUT.a_at, mask_depth=deferred.MASK_DEPTH)
        deferred.emit_doubled(asm, LIMBS_LAYOUT)
        square, last = asm.new_label("mw_sqr_run_square"), asm.new_label("mw_sqr_run_last")
        asm.place(square)
        deferred.emit_product(asm, LIMBS_LAYOUT, square=True)
        c.load("COUNT")
        asm.push(1)
        asm.ops("SWAP1", "SUB", "DUP1")
        c.store("COUNT")
        asm.op("ISZERO")
        asm.jumpi(last)
        deferred.emit_next_limbs(asm, LIMBS_LAYOUT, mask_depth=deferred.MASK_DEPTH)
        deferred.emit_below_modulus(asm, LIMBS_LAYOUT, mask_depth=deferred.MASK_DEPTH)
        deferred.emit_doubled(asm, LIMBS_LAYOUT)
        asm.jump(square)
        asm.place(last)
        deferred.pop_constants(asm)
        deferred.emit_words(asm, LIMBS_LAYOUT.d_at, T_BUF)
        c.set("DST", ACC_BUF)
        asm.jump(self.reduce)

    def _mont_sqr(self) -> None:
        """[ret] -> []: DST = A**2 / R mod M (A < M), by separated operand scanning: the
        square in 2 n words at SQ from n (n - 1) / 2 cross products (doubled) and the n
        diagonal ones, then n rows adding m_i M 2**(256 i), each m_i zeroing word i; the
        top n + 1 words (below 2 M) reduced as mont_mul's."""
        c, asm = self.c, self.c.asm
        asm.place(self.mont_sqr)
        c.load("N32")
        asm.ops("DUP1", "ADD")
        asm.push(2 * WORD)
        asm.ops("ADD", "CALLDATASIZE")
        asm.push(SQ_BUF)
        asm.op("CALLDATACOPY")                          # SQ = 0 (2 n + 2 words)
        # the cross products a_i a_j, i < j: row i from word 2 i + 1 up to word i + n - 1
        asm.op("PUSH0")                                 # [i32, ret] (n >= 2: rows 0 .. n - 2)
        row = asm.label("mw_sqr_row")
        asm.ops("DUP1")
        c.load("N32")
        asm.op("ADD")
        asm.push(SQ_BUF)
        asm.op("ADD")                                   # [end = SQ + i32 + N32, i32, ret]
        asm.ops("PUSH0", "NOT")
        asm.push(SQ_BUF)
        c.load("A")
        asm.op("SUB")
        asm.ops("DUP4", "SWAP1", "SUB")                 # [d = A - SQ - i32, N, end, i32, ret]
        asm.op("DUP4")
        c.load("A")
        asm.ops("ADD", "MLOAD", "PUSH0")                # [0, a_i, d, N, end, i32, ret]
        asm.ops("DUP6", "DUP1", "ADD")
        asm.push(SQ_BUF + WORD)
        asm.op("ADD")                                   # [p = SQ + 64 i + 32, 0, a_i, ...]
        _product_loop(c, 0)
        asm.ops("DUP2", "DUP2", "MSTORE")               # word i + n = C
        asm.ops("POP", "POP", "POP", "POP", "POP", "POP")
        asm.push(WORD)
        asm.ops("ADD", "DUP1")
        c.load("N32")
        asm.push(WORD)
        asm.ops("SWAP1", "SUB", "GT")
        asm.jumpi(row)
        asm.op("POP")
        # doubled, top word first (the word below SQ is zero)
        c.load("N32")
        asm.ops("DUP1", "ADD")
        asm.push(WORD)
        asm.ops("SWAP1", "SUB")                         # [j = 2 N32 - 32, ret]
        double, doubled = asm.label("mw_sqr_double"), asm.new_label("mw_sqr_doubled")
        _shift_word(asm, SQ_BUF, SQ_BUF, 1)
        asm.ops("DUP1", "ISZERO")
        asm.jumpi(doubled)
        asm.push(WORD)
        asm.ops("SWAP1", "SUB")
        asm.jump(double)
        asm.place(doubled)
        asm.op("POP")
        # the diagonal a_i**2 at words 2 i, 2 i + 1 of DIAG, added to SQ
        c.load("N32")
        c.store("END")
        asm.op("PUSH0")

        def diagonal() -> None:
            asm.op("DUP1")
            c.load("A")
            asm.ops("ADD", "MLOAD", "DUP1", "DUP1", "MUL")  # [lo, a, i]
            asm.ops("PUSH0", "NOT", "DUP1", "DUP4", "DUP1", "MULMOD")  # [mm, N, lo, a, i]
            asm.ops("DUP3", "NOT", "ADDMOD")            # [hi, lo, a, i]
            asm.ops("DUP4", "DUP1", "ADD")
            asm.push(DIAG_BUF + WORD)
            asm.ops("ADD", "MSTORE")
            asm.ops("DUP3", "DUP1", "ADD")
            asm.push(DIAG_BUF)
            asm.ops("ADD", "MSTORE", "POP")
        c.loop(diagonal, "END")
        asm.op("POP")
        c.load("A")                                     # A kept for the caller's next use
        c.set("A", SQ_BUF)
        c.set("B", DIAG_BUF)
        c.load("N32")
        asm.ops("DUP1", "ADD")
        c.store("SQW")
        self._add_loop("ADD", "SQW", SQ_BUF)
        c.store("A")
        # the reduction rows: word i zeroed by m_i = SQ_i n', carries rippled up
        asm.op("PUSH0")                                 # [i32, ret]
        reduce_row = asm.label("mw_sqr_reduce")
        asm.op("DUP1")
        c.load("N32")
        asm.op("ADD")
        asm.push(SQ_BUF)
        asm.op("ADD")                                   # [end, i32, ret]
        asm.ops("PUSH0", "NOT")
        asm.push((MOD_BUF - SQ_BUF) % (1 << 256))
        asm.ops("DUP4", "SWAP1", "SUB")                 # [d, N, end, i32, ret]
        c.load("NP")
        asm.op("DUP5")
        asm.push(SQ_BUF)
        asm.ops("ADD", "MLOAD", "MUL", "PUSH0")         # [0, m, d, N, end, i32, ret]
        asm.op("DUP6")
        asm.push(SQ_BUF)
        asm.op("ADD")                                   # [p, 0, m, d, N, end, i32, ret]
        _product_loop(c, 0)
        ripple, rippled = asm.label("mw_sqr_ripple"), asm.new_label("mw_sqr_rippled")
        asm.ops("DUP1", "MLOAD", "DUP3", "ADD")         # [s, p, C, ...]
        asm.ops("DUP3", "DUP2", "LT")                   # [c, s, p, C, ...]
        asm.ops("SWAP1", "DUP3", "MSTORE")              # [c, p, C, ...]
        asm.ops("SWAP2", "POP")                         # [p, c, ...]
        asm.push(WORD)
        asm.ops("ADD", "SWAP1", "DUP1", "ISZERO")
        asm.jumpi(rippled)
        asm.op("SWAP1")
        asm.jump(ripple)
        asm.place(rippled)                              # [0, p, y, d, N, end, i32, ret]
        asm.ops("POP", "POP", "POP", "POP", "POP", "POP")
        asm.push(WORD)
        asm.ops("ADD", "DUP1")
        c.load("N32")
        asm.op("GT")
        asm.jumpi(reduce_row)
        asm.op("POP")
        c.load("N32")
        asm.push(WORD)
        asm.op("ADD")
        c.load("N32")
        asm.push(SQ_BUF)
        asm.op("ADD")
        asm.push(T_BUF)
        asm.op("MCOPY")                                 # T = SQ's words n .. 2 n
        asm.jump(self.reduce)

    def _reduce(self) -> None:
        """[ret] -> []: DST = t mod M for t (n + 1 words at T) below 2 M: t itself when
        its top words show it below M (t_n = 0 and t_(n-1) < M_(n-1): the common case),
        else t - M if that does not borrow."""
        c, asm = self.c, self.c.asm
        asm.place(self.reduce)
        subtract = asm.new_label("mw_reduce_subtract")
        c.word("N32", T_BUF)
        asm.jumpi(subtract)                             # t_n != 0
        c.word("N32", MOD_BUF - WORD)
        c.word("N32", T_BUF - WORD)
        asm.ops("LT", "ISZERO")
        asm.jumpi(subtract)                             # t_(n-1) >= M_(n-1)
        c.load("N32")
        asm.push(T_BUF)
        c.load("DST")
        asm.ops("MCOPY", "JUMP")
        asm.place(subtract)
        c.load("N32")
        asm.push(WORD)
        asm.op("ADD")
        c.store("END")
        asm.ops("PUSH0", "PUSH0")                       # [j32, borrow, ret]

        def step() -> None:
            asm.op("DUP1")
            asm.push(MOD_BUF)
            asm.ops("ADD", "MLOAD")                     # [m, j, b]
            asm.op("DUP2")
            asm.push(T_BUF)
            asm.ops("ADD", "MLOAD")                     # [t, m, j, b]
            asm.ops("DUP2", "DUP2", "LT")               # [t < m, t, m, j, b]
            asm.ops("SWAP2", "SWAP1", "SUB")            # [t - m, c1, j, b]
            asm.ops("DUP4", "DUP2", "LT")               # [t - m < b, t - m, c1, j, b]
            asm.ops("SWAP1", "DUP5", "SWAP1", "SUB")    # [d, c2, c1, j, b]
            asm.op("DUP4")
            asm.push(S_BUF)
            asm.ops("ADD", "MSTORE")                    # [c2, c1, j, b]
            asm.ops("OR", "SWAP2", "POP")               # [j, b']
        c.loop(step, "END")
        asm.op("POP")                                   # [borrow, ret]: 1 when t < M
        asm.push((T_BUF - S_BUF) % (1 << 256))
        asm.op("MUL")
        asm.push(S_BUF)
        asm.op("ADD")                                   # [src, ret]
        c.load("N32")
        asm.op("SWAP1")
        c.load("DST")
        asm.ops("MCOPY", "JUMP")

    def _add_loop(self, op: str, bytes_var: str, into: int = T_BUF) -> None:
        """``into`` = A op B over ``bytes_var`` bytes, the carry (borrow) in the word
        after (A may be ``into``)."""
        c, asm = self.c, self.c.asm
        c.load(bytes_var)
        c.store("END")
        asm.ops("PUSH0", "PUSH0")                       # [j, C]

        def step() -> None:
            asm.op("DUP1")
            c.load("A")
            asm.ops("ADD", "MLOAD")                     # [x, j, C]
            asm.op("DUP2")
            c.load("B")
            asm.ops("ADD", "MLOAD")                     # [y, x, j, C]
            if op == "ADD":
                asm.ops("DUP2", "ADD")                  # [s1, x, j, C]
                asm.ops("SWAP1", "DUP2", "LT")          # [c1, s1, j, C]
                asm.ops("SWAP3", "DUP2", "ADD")         # [s, s1, j, c1]
                asm.ops("SWAP1", "DUP2", "LT")          # [c2, s, j, c1]
            else:
                asm.ops("DUP1", "DUP3", "LT")           # [x < y, y, x, j, C]
                asm.ops("SWAP2", "SUB")                 # [s1 = x - y, c1, j, C]
                asm.ops("SWAP3", "DUP1", "DUP5", "LT")  # [s1 < C, C, c1, j, s1]
                asm.ops("SWAP4", "SUB")                 # [s, c1, j, c2]
                asm.ops("SWAP3", "SWAP1", "SWAP3", "SWAP1")  # [c2, s, j, c1]
            asm.ops("SWAP1", "DUP3")
            asm.push(into)
            asm.ops("ADD", "MSTORE")                    # [c2, j, c1]
            asm.ops("DUP3", "OR", "SWAP2", "POP")       # [j, C']
        c.loop(step, "END")
        asm.push(into)
        asm.ops("ADD", "MSTORE")

    def _mod_add(self) -> None:
        """[ret] -> []: DST = A + B mod M (A, B < M)."""
        asm = self.c.asm
        asm.place(self.mod_add)
        self._add_loop("ADD", "N32")
        asm.jump(self.reduce)

    def _add_sub(self, label: Label, op: str) -> None:
        """[ret] -> []: DST = A op B mod 2**(8 W32)."""
        c, asm = self.c, self.c.asm
        asm.place(label)
        self._add_loop(op, "W32")
        c.load("W32")
        c.asm.push(T_BUF)
        c.load("DST")
        asm.ops("MCOPY", "JUMP")

    def _mul_low(self) -> None:
        """[ret] -> []: DST = A B mod 2**(8 W32) (schoolbook, the lower half only)."""
        c, asm = self.c, self.c.asm
        asm.place(self.mul_low)
        self._rows_start("W32", 1)                      # [N, end, i32, ret]
        outer = asm.label("mw_low_word")
        asm.op("DUP3")
        asm.push(T_BUF)
        asm.op("ADD")                                   # [p0 = T + i32, N, end, i32, ret]
        c.load("A")
        asm.op("SUB")                                   # [d = A - p0, N, end, i32, ret]
        asm.op("DUP4")
        c.load("B")
        asm.ops("ADD", "MLOAD")                         # [y = b_i, d, N, end, i32, ret]
        asm.op("PUSH0")
        asm.op("DUP6")
        asm.push(T_BUF)
        asm.op("ADD")                                   # [p0, 0, y, d, N, end, i32, ret]
        _product_loop(c, 0)
        self._rows_next(outer, "W32")
        c.load("W32")
        asm.push(T_BUF)
        c.load("DST")
        asm.ops("MCOPY", "JUMP")


def _wide_product(asm: Assembler) -> None:
    """[x, y] -> [hi, lo, y]: x y = hi 2**256 + lo (hi = mm - lo mod 2**256 - 1, mm = x y
    mod 2**256 - 1: exact, as hi <= 2**256 - 2)."""
    asm.ops("DUP2", "DUP2", "MUL")                      # [lo, x, y]
    asm.ops("SWAP1", "PUSH0", "NOT", "SWAP1", "DUP4")   # [y, x, N, lo, y]
    asm.ops("MULMOD", "DUP2", "NOT")                    # [~lo, mm, lo, y]
    asm.ops("PUSH0", "NOT", "SWAP2", "ADDMOD")          # [hi, lo, y]


def _wide_digit(asm: Assembler, d1: Callable[[], None], v: Callable[[], None]) -> None:
    """[u1, u0] -> [floor((u1 2**256 + u0) / d1)] for d1 >= 2**255 (what ``d1()`` pushes)
    and u1 < d1, with v = ``_reciprocal``'s (``v()``): Moller and Granlund's Algorithm 4."""
    v()
    _wide_product(asm)                                  # [hi, lo, u1, u0]: v u1
    asm.ops("SWAP1", "DUP4", "ADD")                     # [q0 = lo + u0, hi, u1, u0]
    asm.ops("DUP1", "DUP5", "GT")                       # [carry, q0, hi, u1, u0]
    asm.ops("SWAP1", "SWAP2", "ADD", "DUP3", "ADD")
    asm.push(1)
    asm.op("ADD")                                       # [q1 = hi + carry + u1 + 1, q0, u1, u0]
    d1()
    asm.ops("DUP2", "MUL", "DUP5", "SUB")               # [r = u0 - q1 d1, q1, q0, u1, u0]
    asm.ops("DUP3", "DUP2", "GT")                       # [r > q0, r, q1, q0, ...]
    asm.ops("DUP1", "DUP4", "SUB", "SWAP3", "POP")      # [c, r, q1 - c, q0, ...]
    d1()
    asm.ops("MUL", "ADD")                               # [r + c d1, q1', q0, u1, u0]
    d1()
    asm.ops("SWAP1", "LT", "ISZERO", "ADD")             # [q1' + (r >= d1), q0, u1, u0]
    asm.ops("SWAP3", "POP", "POP", "POP")


def _reciprocal(asm: Assembler) -> None:
    """[d] -> [v, d]: v = floor((2**512 - 1) / d) - 2**256 for d >= 2**255 (Moller and
    Granlund's reciprocal). From below: (2**256 - 1) / (d_hi + 1) 2**128 (d_hi = d's top
    128 bits; less than 2**256 taken as 0), then twice v += e_hi + hi(e_hi v) with
    e = 2**512 - 1 - d (2**256 + v) = (NOT d - hi(d v)) 2**256 + NOT lo(d v), which stays
    below (e / d <= e_hi 2**256 / d); then v + 1 while e >= d."""
    again = asm.new_label("mw_reciprocal_more")
    asm.op("DUP1")
    asm.push(128)
    asm.op("SHR")
    asm.push(1)
    asm.ops("ADD", "PUSH0", "NOT", "DIV")               # [w = (2**256 - 1) / (d_hi + 1), d]
    asm.ops("DUP1")
    asm.push(128)
    asm.ops("SHR", "SWAP1")
    asm.push(128)
    asm.ops("SHL", "MUL")                               # [v (w >= 2**128, else 0), d]

    def residue_high() -> None:                         # [v, d] -> [e_hi, lo(d v), v, d]
        asm.ops("DUP2", "DUP2")
        _wide_product(asm)                              # [hi, lo, d, v, d]
        asm.ops("SWAP1", "SWAP2", "NOT", "SUB")         # [e_hi, lo, v, d]
    for _ in range(2):
        residue_high()
        asm.ops("SWAP1", "POP")                         # [e_hi, v, d]
        asm.ops("DUP2", "DUP2")
        _wide_product(asm)                              # [hi, lo, v, e_hi, v, d]
        asm.ops("SWAP1", "POP", "SWAP1", "POP", "ADD", "ADD")   # [v', d]
    asm.place(again)                                    # [v, d]
    residue_high()
    asm.ops("SWAP1", "NOT", "DUP4", "GT", "ISZERO")     # [e_lo >= d, e_hi, v, d]
    asm.ops("SWAP1", "ISZERO", "ISZERO", "OR")          # [e >= d, v, d]
    asm.ops("DUP1", "SWAP2", "ADD", "SWAP1")            # [e >= d, v', d]
    asm.jumpi(again)


def _inverse_word(asm: Assembler) -> None:
    """[x] -> [x^-1 mod 2**256] for odd x: Newton's iteration y = y (2 - x y) from y = x
    (right to 3 bits: odd squares are 1 mod 8), doubling the right bits: 7 steps."""
    asm.op("DUP1")
    for _ in range(7):
        asm.ops("DUP2", "DUP2", "MUL")
        asm.push(2)
        asm.ops("SUB", "MUL")
    asm.ops("SWAP1", "POP")


class _Driver:
    """The multi-word path: the layout's values into buffers, the odd or the even method,
    the output."""

    def __init__(self, asm: Assembler, routines: _Routines) -> None:
        self.asm, self.r, self.c = asm, routines, routines.c
        self.odd_flow = asm.new_label("mw_odd")
        self.exp_flow = asm.new_label("mw_exp")
        self.squarings = asm.new_label("mw_squarings")
        self.divide = asm.new_label("mw_divide")
        self.divide_wide = {n: asm.new_label(f"mw_divide_wide_{n}")
                            for n in routines.sizes.fixed_sqr_words}
        self.output = asm.new_label("mw_output")

    # --- helpers --------------------------------------------------------------------

    def call(self, routine: Label, **args) -> None:
        """Call ``routine`` with pointer arguments: ints, or names of variables."""
        c = self.c
        for name, value in args.items():
            if isinstance(value, str):
                c.load(value)
                c.store(name)
            else:
                c.set(name, value)
        back = self.asm.new_label("mw_back")
        self.asm.push(back)
        if routine is None or isinstance(routine, str):
            c.load(routine or "MUL")
            self.asm.op("JUMP")
        else:
            self.asm.jump(routine)
        self.asm.place(back)

    def repeat(self, var: str, body: Callable[[], None]) -> None:
        """body() var's value times (var counts down to 0)."""
        asm, c = self.asm, self.c
        top, done = asm.new_label("mw_repeat"), asm.new_label("mw_repeated")
        asm.place(top)
        c.load(var)
        asm.op("ISZERO")
        asm.jumpi(done)
        body()
        c.load(var)
        asm.push(1)
        asm.ops("SWAP1", "SUB")
        c.store(var)
        asm.jump(top)
        asm.place(done)

    def reverse_words(self, at_slot: int, words_slot: int, dst: int) -> None:
        """Copy the big-endian words at the layout's ``at_slot`` into ``dst`` little-endian
        (nothing for zero words)."""
        asm, c = self.asm, self.c
        done = asm.new_label("mw_copied")
        c.slot(words_slot)
        asm.op("ISZERO")
        asm.jumpi(done)
        c.slot(words_slot)
        asm.push(5)
        asm.op("SHL")
        asm.op("DUP1")
        c.store("END")
        c.slot(at_slot)
        asm.op("ADD")
        asm.push(WORD)
        asm.ops("SWAP1", "SUB")
        c.store("COUNT")                                # the last word's address
        asm.op("PUSH0")

        def body() -> None:
            asm.op("DUP1")
            c.load("COUNT")
            asm.ops("SUB", "MLOAD", "DUP2")
            asm.push(dst)
            asm.ops("ADD", "MSTORE")
        c.loop(body, "END")
        asm.op("POP")
        asm.place(done)

    # --- the flows ------------------------------------------------------------------

    def emit(self, entry: Label) -> None:
        with self.asm.scope("prepare"):
            self._prepare(entry)
        with self.asm.scope("odd_flow"):
            self._odd_flow()
        with self.asm.scope("divide"):
            self._divide()
        with self.asm.scope("exp_flow"):
            self._exp_flow()
            self._squarings()
        with self.asm.scope("even"):
            self._even()
        with self.asm.scope("output"):
            self._output()

    def _prepare(self, entry: Label) -> None:
        """The modulus, the base little-endian; the exponent's first set bit; 1 and 2."""
        asm, c = self.asm, self.c
        asm.place(entry)
        c.slot(MOD_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        c.store("MW32")
        self.reverse_words(MOD_AT_SLOT, MOD_WORDS_SLOT, MLE_BUF)
        self.reverse_words(BASE_AT_SLOT, BASE_WORDS_SLOT, BASE_BUF)
        asm.push(1)
        asm.push(INT1_BUF)
        asm.op("MSTORE")
        asm.push(2)
        asm.push(INT2_BUF)
        asm.op("MSTORE")
        # the exponent: E0 = its first set bit (bits from EXP_AT), PEND = its bits
        c.slot(EXP_WORDS_SLOT)
        asm.push(8)
        asm.op("SHL")
        asm.op("DUP1")
        c.store("PEND")
        c.store("E0")                                   # E = 0 unless a word is found
        scan, found, done = (asm.new_label(n) for n in ("mw_scan", "mw_found", "mw_scanned"))
        asm.op("PUSH0")                                 # [j]
        asm.place(scan)
        asm.op("DUP1")
        c.slot(EXP_WORDS_SLOT)
        asm.push(5)
        asm.ops("SHL", "EQ")
        asm.jumpi(done)
        asm.op("DUP1")
        c.slot(EXP_AT_SLOT)
        asm.ops("ADD", "MLOAD", "DUP1")
        asm.jumpi(found)
        asm.op("POP")
        asm.push(WORD)
        asm.op("ADD")
        asm.jump(scan)
        asm.place(found)                                # [w, j]
        asm.op("CLZ")
        asm.op("SWAP1")
        asm.push(3)
        asm.ops("SHL", "ADD")
        c.store("E0")
        asm.push(0)                                     # balance the stack with done's [j]
        asm.place(done)
        asm.op("POP")
        odd = asm.new_label("mw_odd_modulus")
        c.slot(MLE_BUF)
        asm.push(1)
        asm.op("AND")
        asm.jumpi(odd)
        asm.jump(self.even)
        asm.place(odd)
        c.copy(MOD_BUF, MLE_BUF, "MW32")
        c.load("MW32")
        c.store("N32")
        self.call(self.odd_flow)
        asm.push(X_BUF)
        asm.jump(self.output)

    @property
    def even(self) -> Label:
        if not hasattr(self, "_even_label"):
            self._even_label = self.asm.new_label("mw_even")
        return self._even_label

    def _odd_flow(self) -> None:
        """[ret] -> []: X = B^E mod M for the odd modulus at MOD (N32 bytes)."""
        asm, c, r = self.asm, self.c, self.r
        asm.place(self.odd_flow)
        nonzero = asm.new_label("mw_odd_e_nonzero")     # E = 0: 1 (M > 1), nothing else
        c.load("E0")
        c.load("PEND")
        asm.op("SUB")
        asm.jumpi(nonzero)
        c.copy(X_BUF, INT1_BUF, "N32")
        asm.op("JUMP")
        asm.place(nonzero)
        c.slot(MOD_BUF)
        _inverse_word(asm)
        asm.op("PUSH0")
        asm.op("SUB")
        c.store("NP")
        # the products for this size: MUL, and SQR for squarings (mont_sqr from sqr_words)
        asm.push(r.mont_mul)
        if r.sizes.sqr_words is not None:
            asm.push(r.mont_sqr)
            c.load("N32")
            asm.push(WORD * r.sizes.sqr_words - 1)
            asm.op("LT")                                # [n >= sqr_words, sqr, mul]
            _select(asm)
        asm.push(r.mont_mul)                            # [mul, sqr]
        for n, label in r.fixed.items():                # the straight-line ones if n fits
            for _ in range(2):
                asm.push(label)
                c.load("N32")
                asm.push(WORD * n)
                asm.op("EQ")
                _select(asm)
                asm.op("SWAP1")
        asm.op("SWAP1")                                 # [sqr, mul]
        c.store("SQR")
        asm.push(self.squarings)                        # runs of squarings: SQR's, or
        for n, label in r.fixed_sqr.items():            # the deferred-carry ones
            asm.push(label)
            c.load("N32")
            asm.push(WORD * n)
            asm.op("EQ")
            _select(asm)
        c.store("SQRS")
        asm.op("DUP1")
        c.store("MUL")                                  # OUT: A / R mod M, as A 1 / R or
        for n, label in r.fixed_redc.items():          # by the reduction rows alone
            asm.push(label)
            c.load("N32")
            asm.push(WORD * n)
            asm.op("EQ")
            _select(asm)
        c.store("OUT")
        for n in r.fixed_sqr:                           # M's limbs for deferred_sqr
            other = asm.new_label("mw_no_limbs")
            c.load("N32")
            asm.push(WORD * n)
            asm.ops("EQ", "ISZERO")
            asm.jumpi(other)
            deferred.emit_limbs(asm, MOD_BUF, LIMBS_LAYOUT.m_at)
            asm.place(other)
        self._division_setup()
        c.load("N32")
        c.store("TSTRIDE")
        c.load("N32")
        asm.push(TABLE_BUF)
        asm.op("ADD")
        c.store("T1")                                   # T[1]'s address
        # B < M (the common case): B R mod M straight from B by 2 n division steps
        horner_path, power = asm.new_label("mw_horner_path"), asm.new_label("mw_power")
        self._below_modulus(BASE_BUF, horner_path)
        not_one = asm.new_label("mw_e_not_one")
        c.load("E0")
        c.load("PEND")
        asm.op("SUB")
        asm.push(1)
        asm.op("EQ")
        asm.op("ISZERO")
        asm.jumpi(not_one)
        c.copy(X_BUF, BASE_BUF, "N32")                  # E = 1: B
        asm.op("JUMP")
        asm.place(not_one)
        c.zero(XS_BUF, "N32", 1)
        c.copy(XS_BUF, BASE_BUF, "N32")
        self._divide_steps(2)
        c.load("N32")
        asm.push(XS_BUF)
        c.load("T1")
        asm.op("MCOPY")
        self._short_odd_exponent(power)
        # else R**2 mod M = (2**(1.5 L) mod M)**2 / R, L = 256 n, then the base in
        # Montgomery form by Horner over chunks of n words from the top
        asm.place(horner_path)
        c.zero(XS_BUF, "N32", 1)
        asm.push(1)
        asm.push(XS_BUF)
        asm.op("MSTORE")
        self._divide_steps(3)
        self.call("MUL", DST=R2_BUF, A=XS_BUF, B=XS_BUF)
        c.slot(BASE_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        asm.ops("DUP1", "ISZERO", "ADD")                # base bytes, at least 32
        asm.push(1)
        asm.op("SWAP1")
        asm.op("SUB")
        c.load("N32")
        asm.op("SWAP1")
        asm.op("DIV")                                   # chunks - 1
        c.load("N32")
        asm.op("MUL")
        asm.push(BASE_BUF)
        asm.op("ADD")
        asm.op("DUP1")
        c.store("CHUNK")
        c.store("A")
        c.load("T1")
        c.store("DST")
        self.call("MUL", B=R2_BUF)
        horner = asm.new_label("mw_horner")
        asm.place(horner)
        c.load("CHUNK")
        asm.push(BASE_BUF)
        asm.op("EQ")
        asm.jumpi(power)
        c.load("N32")
        c.load("CHUNK")
        asm.op("SUB")
        c.store("CHUNK")
        self.call("MUL", DST="T1", A="T1", B=R2_BUF)
        self.call("MUL", DST=U_BUF, A="CHUNK", B=R2_BUF)
        self.call(r.mod_add, DST="T1", A="T1", B=U_BUF)
        asm.jump(horner)
        asm.place(power)                                # the power, out of Montgomery form
        self.call(self.exp_flow)
        self.call("OUT", DST=X_BUF, A=ACC_BUF, B=INT1_BUF)
        asm.op("JUMP")

    def _short_odd_exponent(self, otherwise: Label) -> None:
        """[ret] -> [] for an odd E of at most 32 bits (1-bit windows), else to ``otherwise``:
        the last bit's product by T[1] = B R and the way out of Montgomery form are one
        product by B (below M): X = (T[1]^(E - 1) R) B / R, E's last bit cleared while
        ``exp_flow`` runs (the even path reads E again)."""
        asm, c = self.asm, self.c
        c.load("E0")
        c.load("PEND")
        asm.op("SUB")
        asm.push(33)
        asm.op("GT")                                    # [bits <= 32]
        c.slot(EXP_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        c.slot(EXP_AT_SLOT)
        asm.op("ADD")
        asm.push(WORD)
        asm.ops("SWAP1", "SUB", "DUP1")
        c.store("ELAST")                                # E's last word's address
        asm.op("MLOAD")
        asm.push(1)
        asm.ops("AND", "AND", "ISZERO")
        asm.jumpi(otherwise)
        self._flip_last_bit()
        self.call(self.exp_flow)
        self._flip_last_bit()
        self.call("MUL", DST=X_BUF, A=ACC_BUF, B=BASE_BUF)
        asm.op("JUMP")

    def _flip_last_bit(self) -> None:
        """E's last bit flipped (its word's address in ELAST)."""
        asm, c = self.asm, self.c
        c.load("ELAST")
        asm.ops("DUP1", "MLOAD")
        asm.push(1)
        asm.ops("XOR", "SWAP1", "MSTORE")

    def _division_setup(self) -> None:
        """What ``divide``'s steps read: S = CLZ(M's top word), V1 and V2 = M's top two
        128-bit digits normalized, W32 = 32 (n + 1), and NM = 2**(256 (n + 1)) - M but for
        the sizes with 256-bit digits."""
        asm, c, r = self.asm, self.c, self.r
        c.word("N32", MOD_BUF - WORD)
        asm.ops("DUP1", "CLZ", "DUP1")
        c.store("S")                                    # [s, m_top]
        asm.op("SHL")
        c.word("N32", MOD_BUF - 2 * WORD)
        c.load("S")
        asm.push(256)
        asm.ops("SUB", "SHR", "OR")                     # M's top 256 bits, normalized
        asm.op("DUP1")
        asm.push(128)
        asm.op("SHR")
        c.store("V1")
        asm.push(DIGIT - 1)
        asm.op("AND")
        c.store("V2")
        c.load("N32")
        asm.push(WORD)
        asm.op("ADD")
        c.store("W32")
        wide = asm.new_label("mw_no_nm")                # (the wide steps take NOT M + 1)
        for n in self.divide_wide:
            c.load("N32")
            asm.push(WORD * n)
            asm.op("EQ")
            asm.jumpi(wide)
        self.call(r.sub, DST=NM_BUF, A=ZERO_BUF, B=MOD_BUF)
        asm.place(wide)

    def _below_modulus(self, at: int, otherwise: Label) -> None:
        """Go on if the number at ``at`` (BASE_WORDS words, zeros above) is below M, else
        jump to ``otherwise``."""
        asm, c = self.asm, self.c
        differ, top = asm.new_label("mw_below_differ"), asm.new_label("mw_below_word")
        below = asm.new_label("mw_below")
        c.slot(BASE_WORDS_SLOT)
        asm.push(5)
        asm.op("SHL")
        c.load("N32")
        asm.op("LT")
        asm.jumpi(otherwise)                            # more words than M
        c.load("N32")                                   # [j + 32], from the top word
        asm.place(top)
        asm.push(WORD)
        asm.ops("SWAP1", "SUB")                         # [j]
        asm.op("DUP1")
        asm.push(MOD_BUF)
        asm.ops("ADD", "MLOAD", "DUP2")
        asm.push(at)
        asm.ops("ADD", "MLOAD")                         # [x_j, m_j, j]
        asm.ops("DUP2", "DUP2", "EQ", "ISZERO")
        asm.jumpi(differ)
        asm.ops("POP", "POP", "DUP1")
        asm.jumpi(top)
        asm.op("POP")                                   # equal: not below
        asm.jump(otherwise)
        asm.place(differ)
        asm.ops("LT", "SWAP1", "POP")                   # [x_j < m_j]
        asm.jumpi(below)
        asm.jump(otherwise)
        asm.place(below)

    def _normalized_word(self, i: int) -> None:
        """[] -> [word n - i of XS 2**S] (XS's word -1 is zero)."""
        asm, c = self.asm, self.c
        c.word("N32", XS_BUF - (i + 1) * WORD)
        c.load("S")
        asm.push(256)
        asm.ops("SUB", "SHR")
        c.word("N32", XS_BUF - i * WORD)
        c.load("S")
        asm.ops("SHL", "OR")

    def _divide_steps(self, per_word: int) -> None:
        """XS = XS 2**(128 per_word n) mod M (XS < M, n + 1 words)."""
        asm, c = self.asm, self.c
        c.load("N32")
        asm.push(5)
        asm.op("SHR")
        asm.push(per_word)
        asm.op("MUL")
        c.store("COUNT2")
        self.call(self.divide)

    def _divide(self) -> None:
        """[ret] -> []: XS = XS 2**(128 COUNT2) mod M (XS < M, n + 1 words; COUNT2 >= 1),
        COUNT2 steps of long division in 128-bit digits: the quotient digit of XS 2**128
        over M estimated from the top two digits of XS 2**128 and the top digit of M, both
        shifted left by s = CLZ(M's top word) (Knuth's normalization, D3), at most 2 too
        large (Theorem 4.3.1B), so XS 2**128 - q M is x' - j M, j <= 2: M added while
        negative. The subtraction adds q NM over n + 1 words (``_division_setup``)."""
        asm, c, r = self.asm, self.c, self.r
        asm.place(self.divide)
        for n, label in self.divide_wide.items():       # 256-bit digits for these sizes
            c.load("N32")
            asm.push(WORD * n)
            asm.op("EQ")
            asm.jumpi(label)
        step, negative, positive = (asm.new_label(n) for n in (
            "mw_two_step", "mw_two_negative", "mw_two_positive"))
        asm.place(step)
        c.load("V1")                                    # the quotient digit estimate
        self._normalized_word(1)
        asm.ops("DUP2", "DUP2", "DIV")                  # [u / v1, u, v1]: u, XS's top
        asm.push(DIGIT - 1)                             # 256 bits normalized
        asm.ops("DUP2", "DUP2", "LT")                   # [b - 1 < q, b - 1, q, u, v1]
        asm.ops("DUP3", "DUP3", "SWAP1", "SUB", "MUL")  # [(q - b + 1) (b - 1 < q), b - 1, q]
        asm.ops("SWAP1", "POP", "SWAP1", "SUB")         # [q = min(u / v1, b - 1), u, v1]
        asm.ops("DUP3", "DUP2", "MUL", "DUP3", "SUB")   # [r = u - q v1, q, u, v1]
        asm.ops("SWAP2", "POP", "SWAP1")                # [r, q, v1]
        self._normalized_word(2)
        asm.push(128)
        asm.op("SHR")                                   # [u3, r, q, v1]: XS's next digit
        for _ in range(1):                              # D3: q - 1 while q v2 > r b + u3
            asm.ops("DUP2")                             # (r < b), r += v1
            asm.push(128)
            asm.ops("SHL", "DUP2", "ADD")               # [r b + u3, u3, r, q, v1]
            c.load("V2")
            asm.ops("DUP5", "MUL", "GT")                # [q v2 > r b + u3, u3, r, q, v1]
            asm.push(DIGIT)
            asm.ops("DUP4", "LT", "AND")                # [c, u3, r, q, v1]
            asm.ops("DUP1", "DUP6", "MUL", "DUP4", "ADD", "SWAP3", "POP")  # [c, u3, r', q, v1]
            asm.ops("DUP4", "SUB", "SWAP3", "POP")      # [u3, r', q - c, v1]
        asm.ops("POP", "POP", "SWAP1", "POP")           # [q]
        c.load("N32")                                   # T = XS 2**128 - q M
        asm.push(WORD)
        asm.op("ADD")
        c.store("END")
        asm.op("PUSH0")
        c.loop(lambda: _shift_word(asm, XS_BUF, T_BUF, 128), "END")
        asm.op("POP")
        c.load("N32")
        asm.push(T_BUF + WORD)
        asm.op("ADD")                                   # [end, q]
        asm.ops("PUSH0", "NOT")
        asm.push((NM_BUF - T_BUF) % (1 << 256))
        asm.ops("DUP4", "PUSH0")
        asm.push(T_BUF)                                 # [p, 0, q, d, N, end, q]
        _product_loop(c, 0)
        asm.ops("POP", "POP", "POP", "POP", "POP", "POP", "POP")
        asm.place(negative)                             # add M while T < 0
        c.word("N32", T_BUF)
        asm.push(255)
        asm.op("SHR")
        asm.op("ISZERO")
        asm.jumpi(positive)
        self.call(r.add, DST=T_BUF, A=T_BUF, B=MOD_BUF)
        asm.jump(negative)
        asm.place(positive)
        c.copy(XS_BUF, T_BUF, "N32")
        c.load("COUNT2")
        asm.push(1)
        asm.ops("SWAP1", "SUB", "DUP1")
        c.store("COUNT2")                               # [count]
        asm.jumpi(step)
        asm.op("JUMP")
        for n, label in self.divide_wide.items():
            with asm.scope(f"divide_wide_{n}"):
                self._divide_wide(n, label)

    def _divide_wide(self, n: int, entry: Label) -> None:
        """[ret] -> []: ``divide`` for n words in steps of 256-bit digits (COUNT2 even: two
        128-bit steps each). The digit: Knuth's estimate floor((u1 2**256 + u0) / d1) from
        XS 2**S's top two words and M 2**S's top word d1 (2**256 - 1 when u1 = d1), at most
        2 too large (Theorem 4.3.1B), by Moller and Granlund's division by a precomputed
        reciprocal (Algorithm 4 of "Improved division by invariant integers", 2011); then
        T = XS 2**256 - q M over n + 1 words as XS 2**256 + q (NOT M) + q (NOT M = 2**(256
        (n + 1)) - 1 - M, so no NM), XS 2**256's words XS's moved up one (constant
        addresses, no shifts); M added while T is negative."""
        asm, c, r = self.asm, self.c, self.r
        step, negative, positive, digit, top = (asm.new_label(f"mw_wide_{x}") for x in (
            "step", "negative", "positive", "digit", "top"))
        asm.place(entry)
        c.load("V1")
        asm.push(128)
        asm.op("SHL")
        c.load("V2")
        asm.ops("OR", "DUP1")
        c.store("D1")                                   # [d1]
        _reciprocal(asm)
        c.store("VINV")
        asm.op("POP")
        asm.place(step)
        self._normalized_word(2)
        self._normalized_word(1)                        # [u1, u0]
        asm.op("DUP1")
        c.load("D1")
        asm.op("EQ")
        asm.jumpi(top)
        _wide_digit(asm, lambda: c.load("D1"), lambda: c.load("VINV"))
        asm.jump(digit)
        asm.place(top)                                  # u1 = d1: the digit 2**256 - 1
        asm.ops("POP", "POP", "PUSH0", "NOT")
        asm.place(digit)                                # [q]
        asm.ops("PUSH0", "NOT", "SWAP1", "DUP1")        # [C = q, q, N]: q NM = q (NOT M + 1)
        for j in range(n + 1):                          # word j of XS 2**256: XS's j - 1
            r.fixed_step(MOD_BUF + WORD * j, XS_BUF + WORD * (j - 1), T_BUF + WORD * j,
                         complement=True)
        asm.ops("POP", "POP", "POP")
        asm.place(negative)                             # add M while T < 0
        asm.push(T_BUF + WORD * n)
        asm.op("MLOAD")
        asm.push(255)
        asm.ops("SHR", "ISZERO")
        asm.jumpi(positive)
        self.call(r.add, DST=T_BUF, A=T_BUF, B=MOD_BUF)
        asm.jump(negative)
        asm.place(positive)
        asm.push(WORD * n)
        asm.push(T_BUF)
        asm.push(XS_BUF)
        asm.op("MCOPY")
        c.load("COUNT2")
        asm.push(2)
        asm.ops("SWAP1", "SUB", "DUP1")
        c.store("COUNT2")
        asm.jumpi(step)
        asm.op("JUMP")

    def _exp_flow(self) -> None:
        """[ret] -> []: ACC = T[1]^E with MUL (table entries TSTRIDE bytes apart, T[1]
        given; 1 for E = 0: the power of two in the even path)."""
        asm, c = self.asm, self.c
        asm.place(self.exp_flow)
        nonzero = asm.new_label("mw_e_nonzero")
        c.load("E0")
        c.load("PEND")
        asm.op("SUB")
        asm.jumpi(nonzero)
        c.load("TSTRIDE")
        asm.push(INT1_BUF)
        asm.push(ACC_BUF)
        asm.ops("MCOPY", "JUMP")
        asm.place(nonzero)
        # K = 1 + 2 (bits > 32) + (bits > 128) + (bits > 768)
        c.load("E0")
        c.load("PEND")
        asm.op("SUB")                                   # [bits]
        asm.push(1)
        for bound, weight in ((32, 2), (128, 1), (768, 1)):
            asm.push(bound)
            asm.op("DUP3")
            asm.op("GT")
            if weight > 1:
                asm.push(weight)
                asm.op("MUL")
            asm.op("ADD")
        asm.op("SWAP1")
        asm.op("POP")
        c.store("K")
        # the table: T[i] = T[i - 1] T[1] for 2 <= i < 2**K
        c.load("TSTRIDE")
        asm.push(1)
        asm.op("SHL")
        asm.push(TABLE_BUF)
        asm.op("ADD")
        c.store("CHUNK")
        table, table_done = asm.new_label("mw_table"), asm.new_label("mw_table_done")
        asm.place(table)
        c.load("TSTRIDE")
        asm.push(1)
        c.load("K")
        asm.op("SHL")
        asm.op("MUL")
        asm.push(TABLE_BUF)
        asm.op("ADD")
        c.load("CHUNK")
        asm.op("LT")
        asm.op("ISZERO")
        asm.jumpi(table_done)
        c.load("TSTRIDE")
        c.load("CHUNK")
        asm.op("SUB")
        c.store("A")
        c.load("TSTRIDE")
        asm.push(TABLE_BUF)
        asm.op("ADD")
        c.store("B")
        c.load("CHUNK")
        c.store("DST")
        self.call(None)
        c.load("TSTRIDE")
        c.load("CHUNK")
        asm.op("ADD")
        c.store("CHUNK")
        asm.jump(table)
        asm.place(table_done)
        # the windows
        c.load("E0")
        c.store("P")
        c.set("STARTED", 0)
        c.set("PENDING", 0)
        window, zero_window, first, advance, next_window, finish = (
            asm.new_label(n) for n in ("mw_window", "mw_zero_window", "mw_first",
                                       "mw_advance", "mw_next_window", "mw_windows_done"))
        asm.place(window)
        self._exponent_bits()                           # [bits from P on]
        c.load("P")
        c.load("PEND")
        asm.op("SUB")                                   # [r, bits]
        c.load("K")                                     # [K, r, bits]
        asm.ops("DUP2", "DUP2", "GT")                   # [r < K, K, r]
        asm.ops("DUP3", "DUP3", "SUB", "MUL")           # [(K - r) (r < K), K, r]
        asm.ops("SWAP1", "SUB", "SWAP1", "POP")         # [min(K, r), bits]
        asm.op("DUP1")
        c.store("WIDTH")
        c.load("STARTED")                               # the squarings wait for the
        asm.op("MUL")                                   # next product (or the end)
        c.load("PENDING")
        asm.op("ADD")
        c.store("PENDING")
        c.load("WIDTH")
        asm.push(256)
        asm.op("SUB")
        asm.op("SHR")                                   # [window]
        asm.ops("DUP1", "ISZERO")
        asm.jumpi(zero_window)
        c.load("TSTRIDE")
        asm.op("MUL")
        asm.push(TABLE_BUF)
        asm.op("ADD")                                   # [entry]
        c.load("STARTED")
        asm.op("ISZERO")
        asm.jumpi(first)
        self._flush_squarings()
        c.store("B")
        self.call(None, DST=ACC_BUF, A=ACC_BUF)
        asm.jump(advance)
        asm.place(first)                                # [entry]
        c.load("TSTRIDE")
        asm.op("SWAP1")
        asm.push(ACC_BUF)
        asm.op("MCOPY")
        c.set("STARTED", 1)
        asm.jump(advance)
        asm.place(zero_window)                          # and the zero windows after it at
        asm.op("POP")                                   # once: z = the zero bits from P on
        self._advance()                                 # (at most PEND - P), whole windows
        c.load("P")
        c.load("PEND")
        asm.op("EQ")
        asm.jumpi(finish)
        self._exponent_bits()                           # of them (the squarings wait for
        asm.op("CLZ")                                   # the next product)
        c.load("P")
        c.load("PEND")
        asm.op("SUB")                                   # [r, clz]
        asm.ops("DUP2", "DUP2", "LT")                   # [r < clz, r, clz]
        asm.ops("DUP3", "DUP3", "SUB", "MUL", "SWAP1", "POP", "ADD")  # [z]
        c.load("K")
        asm.ops("DUP1", "SWAP2", "DIV", "MUL", "DUP1")  # [skip = K floor(z / K), skip]
        c.load("STARTED")
        asm.op("MUL")
        c.load("PENDING")
        asm.op("ADD")
        c.store("PENDING")
        c.load("P")
        asm.op("ADD")
        c.store("P")
        asm.jump(next_window)
        asm.place(advance)
        self._advance()
        asm.place(next_window)
        c.load("P")
        c.load("PEND")
        asm.op("GT")
        asm.jumpi(window)
        asm.place(finish)
        self._flush_squarings()
        asm.op("JUMP")

    def _exponent_bits(self) -> None:
        """[] -> [E's bits from P on, left-aligned (bits past PEND follow)]."""
        asm, c = self.asm, self.c
        c.load("P")
        asm.push(7)
        asm.op("AND")
        c.load("P")
        asm.push(3)
        asm.op("SHR")
        c.slot(EXP_AT_SLOT)
        asm.ops("ADD", "MLOAD", "SWAP1", "SHL")

    def _advance(self) -> None:
        """P += WIDTH."""
        c = self.c
        c.load("WIDTH")
        c.load("P")
        c.asm.op("ADD")
        c.store("P")

    def _flush_squarings(self) -> None:
        """The PENDING squarings of ACC, as one run (SQRS), PENDING then 0."""
        asm, c = self.asm, self.c
        none = asm.new_label("mw_no_squarings")
        c.load("PENDING")
        asm.op("DUP1")
        asm.op("ISZERO")
        asm.jumpi(none)
        c.store("COUNT")
        c.set("PENDING", 0)
        self.call("SQRS")
        asm.op("PUSH0")
        asm.place(none)
        asm.op("POP")

    def _squarings(self) -> None:
        """[ret] -> []: ACC squared COUNT times by SQR."""
        asm = self.asm
        asm.place(self.squarings)
        self.repeat("COUNT", lambda: self.call("SQR", DST=ACC_BUF, A=ACC_BUF, B=ACC_BUF))
        asm.op("JUMP")

    def _output(self) -> None:
        """[src]: RETURN the MW32 bytes at src (little-endian words) right-aligned in
        MOD_LENGTH bytes of fresh memory."""
        asm, c = self.asm, self.c
        asm.place(self.output)
        asm.push(MAX_LENGTH)
        asm.op("MSIZE")
        asm.op("ADD")                                   # [out, src]
        c.slot(MOD_LENGTH_SLOT)
        asm.op("DUP2")
        asm.op("ADD")                                   # [out + ML, out, src]
        c.load("MW32")
        c.store("END")
        asm.op("PUSH0")                                 # [j, end, out, src]

        def body() -> None:
            asm.ops("DUP4", "DUP2", "ADD", "MLOAD")     # [w_j, j, end, ...]
            asm.ops("DUP2", "DUP4", "SUB")
            asm.push(WORD)
            asm.ops("SWAP1", "SUB", "MSTORE")           # at end - j - 32
        c.loop(body, "END")
        asm.ops("POP", "POP")
        c.slot(MOD_LENGTH_SLOT)
        asm.op("SWAP1")
        asm.op("RETURN")

    def _mask_top(self, at: int) -> None:
        """The word at ``at + W32 - 32`` masked to its low KBITS - 8 (W32 - 32) bits."""
        asm, c = self.asm, self.c
        c.load("W32")
        asm.push(3)
        asm.op("SHL")
        c.load("KBITS")
        asm.push(256)
        asm.ops("ADD", "SUB")                           # [bits kept in the top word]
        asm.push(1)
        asm.ops("SWAP1", "SHL")
        asm.push(1)
        asm.ops("SWAP1", "SUB")                         # [mask]
        c.load("W32")
        asm.push(at - WORD)
        asm.ops("ADD", "DUP1", "MLOAD", "DUP3", "AND", "SWAP1", "MSTORE", "POP")

    def _even(self) -> None:
        """M = 2**k q, q odd: X = B^E mod q, Y = B^E mod 2**k, then the CRT."""
        asm, c, r = self.asm, self.c, self.r
        asm.place(self.even)
        # k: the trailing zero words (j bytes) and bits (z) of M
        scan, found = asm.new_label("mw_zero_words"), asm.new_label("mw_low_word")
        asm.op("PUSH0")                                 # [j]
        asm.place(scan)
        asm.op("DUP1")
        asm.push(MLE_BUF)
        asm.ops("ADD", "MLOAD")
        asm.jumpi(found)
        asm.push(WORD)
        asm.op("ADD")
        asm.jump(scan)
        asm.place(found)
        asm.op("DUP1")
        asm.push(MLE_BUF)
        asm.ops("ADD", "MLOAD", "DUP1", "PUSH0", "SUB", "AND", "CLZ")
        asm.push(255)
        asm.op("SUB")                                   # [z, j]
        asm.op("DUP2")
        asm.push(3)
        asm.ops("SHL", "DUP2", "ADD")
        c.store("KBITS")                                # k = 8 j + z
        # q = M >> k, word i from words j/32 + i and the next
        asm.op("DUP2")
        c.load("MW32")
        asm.op("SUB")
        asm.op("DUP1")
        c.store("N32")
        c.store("END")
        asm.op("PUSH0")                                 # [i, z, j]

        def shift_word() -> None:
            asm.ops("DUP3", "DUP2", "ADD")
            asm.push(MLE_BUF)
            asm.op("ADD")                               # [at, i, z, j]
            asm.op("DUP1")
            asm.push(WORD)
            asm.ops("ADD", "MLOAD")
            asm.op("DUP4")
            asm.push(256)
            asm.ops("SUB", "SHL")                       # [hi part, at, i, z, j]
            asm.ops("SWAP1", "MLOAD", "DUP4", "SHR", "OR")
            asm.op("DUP2")
            asm.push(MOD_BUF)
            asm.ops("ADD", "MSTORE")
        c.loop(shift_word, "END")
        asm.ops("POP", "POP", "POP")
        strip, stripped = asm.new_label("mw_strip_q"), asm.new_label("mw_stripped_q")
        asm.place(strip)                                # q's top zero words off (q >= 1)
        c.load("N32")
        asm.push(WORD)
        asm.ops("DUP2", "EQ")
        asm.jumpi(stripped)                             # [n32]
        asm.ops("DUP1")
        asm.push(MOD_BUF - WORD)
        asm.ops("ADD", "MLOAD")
        asm.jumpi(stripped)
        asm.push(WORD)
        asm.ops("SWAP1", "SUB")
        c.store("N32")
        asm.jump(strip)
        asm.place(stripped)
        asm.op("POP")
        # X = B^E mod q (0 when q = 1)
        q_is_one = asm.new_label("mw_q_one")
        c.load("N32")
        asm.push(WORD)
        asm.op("EQ")
        c.slot(MOD_BUF)
        asm.push(1)
        asm.ops("EQ", "AND")
        asm.jumpi(q_is_one)
        self.call(self.odd_flow)
        asm.place(q_is_one)
        # kw = ceil(k / 256) words for the power of two
        c.load("KBITS")
        asm.push(255)
        asm.op("ADD")
        asm.push(8)
        asm.op("SHR")
        asm.push(5)
        asm.op("SHL")
        c.store("W32")
        # Y = B^E mod 2**(256 kw) by truncated products, then mod 2**k
        asm.push(r.mul_low)
        asm.op("DUP1")
        c.store("MUL")
        c.store("SQR")
        c.set("SQRS", self.squarings)
        c.load("W32")
        c.store("TSTRIDE")
        c.load("W32")
        asm.push(BASE_BUF)
        c.load("W32")
        asm.push(TABLE_BUF)
        asm.ops("ADD", "MCOPY")                         # T[1] = B mod 2**(256 kw)
        self.call(self.exp_flow)
        self._mask_top(ACC_BUF)
        # q^-1 mod 2**(256 kw): from q0^-1, Newton's steps Q = Q (2 - q Q)
        c.slot(MOD_BUF)
        _inverse_word(asm)
        asm.push(Q_BUF)
        asm.op("MSTORE")
        c.set("COUNT", WORD)                            # bytes of Q right so far
        newton, newton_done = asm.new_label("mw_newton"), asm.new_label("mw_newton_done")
        asm.place(newton)
        c.load("W32")
        c.load("COUNT")
        asm.op("LT")
        asm.op("ISZERO")
        asm.jumpi(newton_done)
        self.call(r.mul_low, DST=U_BUF, A=MOD_BUF, B=Q_BUF)
        self.call(r.sub, DST=U_BUF, A=INT2_BUF, B=U_BUF)
        self.call(r.mul_low, DST=Q_BUF, A=Q_BUF, B=U_BUF)
        c.load("COUNT")
        asm.push(1)
        asm.op("SHL")
        c.store("COUNT")
        asm.jump(newton)
        asm.place(newton_done)
        # h = (Y - X) q^-1 mod 2**k; the result X + q h (< M: a product mod 2**(256 mw))
        self.call(r.sub, DST=H_BUF, A=ACC_BUF, B=X_BUF)
        self.call(r.mul_low, DST=H_BUF, A=H_BUF, B=Q_BUF)
        self._mask_top(H_BUF)
        c.load("MW32")
        c.store("W32")
        self.call(r.mul_low, DST=RES_BUF, A=MOD_BUF, B=H_BUF)
        self.call(r.add, DST=RES_BUF, A=RES_BUF, B=X_BUF)
        asm.push(RES_BUF)
        asm.jump(self.output)


def emit_multiword(asm: Assembler, entry: Label) -> None:
    """The multi-word path at ``entry`` (see the module's docstring)."""
    routines = _Routines(asm, SIZES[asm.opcodes])
    driver = _Driver(asm, routines)
    with asm.scope("multiword"):
        driver.emit(entry)
        routines.emit()
