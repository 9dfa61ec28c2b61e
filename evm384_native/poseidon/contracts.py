"""Poseidon (circomlib's, :mod:`.params`) as EVMMAX contracts ``poseidon_t<t>``, t = 2..5
(t = 6's constants alone exceed EIP-170's 24,576 bytes): calldata the t - 1 inputs as
32-byte big-endian words (each < r), output the 32-byte hash; a wrong length or a value
>= r REVERTs with empty output.

The permutation runs in the optimised form of the Poseidon paper's appendix B
(circomlibjs' ``poseidon_opt.js``): four full rounds, the matrix P, the partial rounds each
with one round constant and a sparse matrix (its first row and first column), then four
full rounds, the last computing state[0] only; state[0] is kept scaled through the partial
rounds so that the sparse matrices' corner costs no product (:func:`schedule`).

Under EIP-6690 an operation on one value costs 1 or 2 gas and getting a constant into a
register costs more (CODECOPY 3 gas a word, STOREX 2 a value), so the constants dominate:
the code copies each from the code into memory and STOREXes it once, shortly before it
is needed, in loads of at most one block of partial rounds' constants through one memory
buffer into one window of registers (M and the last round's corner stay resident).
Memory and registers both count in memory expansion, so the window is kept small: a load
of the first half's constants, one per block of partial rounds, one of the last half's.
Unrolled if it fits EIP-170's limit, else (``e.loops``) the blocks of partial rounds but
the last run as a loop over the code's constants.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, List, Optional, Tuple

from ..asm import Fp, Label, Program, Slot, array, raw
from ..asm.layout import FP_BYTES, WORD
from ..tower import fp
from ..tower.contract import CONTRACT_SIZE_LIMIT, least_gas_that_fits, return_slot, fail_here
from ..tower.fp import Emitter
from ..tower.target import Target
from .params import FIELD, R, ROUNDS_F, ROUNDS_P, optimised

HALF = ROUNDS_F // 2
# Partial rounds a load, by width (the contracts' widths): the least gas of the builds
# that fit, measured over 2..15 (a bigger block means fewer loads but more memory and
# registers). t = 6 has none: its constants alone are 24,992 bytes, over EIP-170's limit.
BLOCKS = {2: 8, 3: 7, 4: 5, 5: 6}
WIDTH_OF = {f"poseidon_t{t}": t for t in BLOCKS}
CONTRACTS = tuple(WIDTH_OF)
TARGETS_OF = {name: ("evmmax", "evm") for name in CONTRACTS}


@dataclass(frozen=True)
class Schedule:
    """The constants of width ``t`` in the order the contract loads them, as data.

    ``first``: M (columns of the applied matrix, t each), the last partial round's
    corner, then into the window P (the same way) and the (HALF + 1) t round constants of
    the first half; ``rounds``: per partial round (2t - 1 values) its round constant, its
    sparse row's entries but the corner, its sparse column's (all scaled, see
    :func:`schedule`); ``last``: the (HALF - 1) t round constants of the second half;
    ``block``: partial rounds a load (the buffer holds one block's constants)."""
    t: int
    first: Tuple[int, ...]
    rounds: Tuple[Tuple[int, ...], ...]
    last: Tuple[int, ...]
    block: int

    @property
    def load(self) -> int:
        """Values one load moves at most: the memory buffer's size."""
        return self.block * (2 * self.t - 1)

    @property
    def window(self) -> int:
        """Registers the loads after M and the corner need."""
        t = self.t
        return max(len(self.first) - t * t - 1, self.load, len(self.last))


def schedule(t: int, block: int) -> Schedule:
    """The constants of width ``t`` from circomlibjs' optimised ones, ``block`` partial
    rounds a load.

    Both matrices are applied transposed (new state[i] = sum_j m[j][i] state[j]): row j
    of the stored matrix is column j of the applied one, which one vector product by
    state[j] uses.

    A partial round computes u = x0^5 + c, then x0 = m00 u + sum_j w_j x_j and
    x_k += v_k u. The contract keeps x0 scaled, z = x0 / a, to spare the product by m00
    (the corner, the same every round): with z^5 + c / a^5 = u / a^5 =: u', choosing the
    next round's scale a' = m00 a^5 makes it z' = u' + sum_j (w_j / a') x_j, and
    x_k += (v_k a^5) u'. The first round's a is 1 (P gives x0 itself); the last round
    ends with a' = 1 instead, z' = (m00 a^5) u' + ..., so only it multiplies by a corner.
    """
    opt = optimised(t)
    rounds_p = ROUNDS_P[t]
    columns = tuple(v for row in opt.m for v in row)
    p_columns = tuple(v for row in opt.p for v in row)
    c_partial = (HALF + 1) * t                          # where the partial rounds' C start
    row = 2 * t - 1
    m00 = opt.s[0]
    assert all(opt.s[row * r] == m00 for r in range(rounds_p))   # M[0][0] every round
    rounds, a = [], 1
    for r in range(rounds_p):
        a5 = pow(a, 5, R)
        a_next = m00 * a5 % R if r < rounds_p - 1 else 1
        w = opt.s[row * r + 1: row * r + t]
        v = opt.s[row * r + t: row * (r + 1)]
        inverse = pow(a_next, -1, R)
        rounds.append((opt.c[c_partial + r] * pow(a5, -1, R) % R,
                       *(x * inverse % R for x in w), *(x * a5 % R for x in v)))
        a = a_next
    corner = m00 * a5 % R                               # the last round's a^5
    first = columns + (corner,) + p_columns + opt.c[:c_partial]
    return Schedule(t, first, tuple(rounds), opt.c[c_partial + rounds_p:], block)


def _span(slot: Slot, start: int, count: int, name: str) -> Slot:
    """``count`` consecutive values of ``slot`` from its value ``start``."""
    return slot.part(array(Fp, count), FP_BYTES * start, name)


class _Poseidon:
    """The code of one contract: the registers, the buffer and the constant data."""

    def __init__(self, e: Emitter, plan: Schedule) -> None:
        self.e, self.plan, self.t = e, plan, plan.t
        t = self.t
        region = e.asm.memory.region("poseidon")
        self.state = region.alloc(array(Fp, t), "state")
        # M, M[0][0], then the window: one run of registers, which the first load fills
        self.constants = region.alloc(array(Fp, t * t + 1 + plan.window), "constants")
        self.m = _span(self.constants, 0, t * t, "m")
        self.corner = self.constants.fps()[t * t]
        self.window = _span(self.constants, t * t + 1, plan.window, "window")
        self.buffer = e.asm.memory.region("buffer").alloc(raw(max(plan.load, t - 1) * WORD),
                                                          "buffer")
        self.data = e.asm.new_label("poseidon_constants")
        self.blob = bytearray()

    # --- constants --------------------------------------------------------------------

    def _append(self, values: Tuple[int, ...]) -> int:
        """Add ``values`` to the constant data; returns their offset in it."""
        offset = len(self.blob)
        self.blob += b"".join(v.to_bytes(WORD, "big") for v in values)
        return offset

    def _load(self, dest: Slot, count: int, push_source: Callable[[], None]) -> None:
        """The ``count`` values at the code offset ``push_source()`` pushes into the
        registers from ``dest`` on: CODECOPY into the buffer, one STOREX."""
        asm = self.e.asm
        with asm.scope("constants"):
            asm.push(count * WORD)
            push_source()
            asm.push(self.buffer)
            asm.op("CODECOPY")
            self.e.target.copy_in(self.e, _span(dest, 0, count, "load"),
                                  lambda: asm.push(self.buffer))

    def _load_constant(self, dest: Slot, values: Tuple[int, ...]) -> None:
        """``values`` into the registers from ``dest`` on as the target takes constants
        (:meth:`~..tower.target.Target.load_values`): from the code's data, a buffer's
        worth a load, or as immediates of the code that reads them."""
        def load() -> None:
            offset, size = self._append(values), self.plan.load
            for start in range(0, len(values), size):
                count = min(size, len(values) - start)
                self._load(_span(dest, start, count, "part"), count,
                           lambda start=start: self._push_data(offset + start * WORD))
        self.e.target.load_values(self.e, _span(dest, 0, len(values), "values"), values,
                                  load)

    def _push_data(self, offset: int) -> None:
        """PUSH the code offset of the constant data's byte ``offset`` (known once laid
        out, so of a fixed width: code is below 64 KiB)."""
        self.e.asm.push(lambda: _pc(self.data) + offset, width=2)

    # --- rounds -------------------------------------------------------------------------

    def _sbox_all(self, scratch: Slot) -> None:
        """state = state^5, value by value (three vector products)."""
        e, x = self.e, self.state
        fp.mul(e, scratch, x, x)
        fp.mul(e, scratch, scratch, scratch)
        fp.mul(e, x, scratch, x)

    def _mix(self, columns: Slot, acc: Slot, tmp: Slot) -> None:
        """state = A state, A's columns stored one after the other in ``columns``: a
        vector product of column j by state[j] for each j, summed; the last sum writes
        the state (read until then)."""
        e, t = self.e, self.t
        x = self.state.fps()
        fp.mul(e, acc, _span(columns, 0, t, "col0"), x[0])
        for j in range(1, t):
            fp.mul(e, tmp, _span(columns, j * t, t, f"col{j}"), x[j])
            fp.add(e, self.state if j == t - 1 else acc, acc, tmp)

    def _full_round(self, constants: Slot, columns: Slot) -> None:
        """S-boxes, the next round's constants, the matrix."""
        with self.e.asm.temps(array(Fp, self.t), array(Fp, self.t)) as (acc, tmp):
            self._sbox_all(acc)
            fp.add(self.e, self.state, self.state, constants)
            self._mix(columns, acc, tmp)

    def _partial_round(self, base: int, last: bool) -> None:
        """u = state[0]^5 + c, then the sparse matrix (scaled, see :func:`schedule`):
        state[0] = u (in the last round: the corner times u) + the row's products with the
        others (read before), state[k] += the column's entry times u."""
        e, t, w = self.e, self.t, self.window
        x = self.state.fps()
        rest = _span(self.state, 1, t - 1, "rest")
        with e.asm.temps(Fp, array(Fp, t - 1), array(Fp, t - 1)) as (x4, products, column):
            fp.mul(e, x4, x[0], x[0])
            fp.mul(e, x4, x4, x4)
            fp.mul(e, x[0], x4, x[0])
            fp.add(e, x[0], x[0], w.fps()[base])
            fp.mul(e, products, _span(w, base + 1, t - 1, "row"), rest)
            fp.mul(e, column, _span(w, base + t, t - 1, "column"), x[0])
            fp.add(e, rest, rest, column)
            head = x[0]
            if last:
                fp.mul(e, x4, self.corner, x[0])
                head = x4
            terms = products.fps()
            for j, term in enumerate(terms):
                fp.add(e, x[0] if j == len(terms) - 1 else head, head, term)

    def _partial_block(self, rounds: int, load: Callable[[], None],
                       last: bool = False) -> None:
        """One load of ``rounds`` partial rounds' constants (``load()``), then those
        rounds; ``last``: they end the partial rounds."""
        load()
        for i in range(rounds):
            self._partial_round(i * (2 * self.t - 1), last and i == rounds - 1)

    def _partial_rounds(self) -> None:
        """Blocks of ``plan.block`` rounds (the last may be shorter), unrolled, or
        (``e.loops``) all but the last as a loop whose counter is the code offset of the
        next block's constants."""
        asm, plan = self.e.asm, self.plan
        size = 2 * self.t - 1
        count = -(-len(plan.rounds) // plan.block)
        block_bytes = plan.block * size * WORD
        looped = count - 1 if self.e.loops else 0    # the last ends with the corner
        looped = looped if looped > 1 else 0
        if looped:                                  # one code for every looped block: the
            offset = self._append(tuple(v for r in plan.rounds[:looped * plan.block]
                                        for v in r))   # constants are data it copies
            with asm.scope("loop"):
                self._push_data(offset)                              # stack: source
                top = asm.label("partial_block")
            self._partial_block(plan.block, lambda: self._load(     # under the size
                self.window, plan.block * size, lambda: asm.op("DUP2")))
            with asm.scope("loop"):
                asm.push(block_bytes)
                asm.op("ADD")
                asm.op("DUP1")
                self._push_data(offset + looped * block_bytes)
                asm.op("GT")
                asm.jumpi(top)
                asm.op("POP")
        for b in range(looped, count):
            rounds = plan.rounds[b * plan.block:(b + 1) * plan.block]
            values = tuple(v for r in rounds for v in r)
            self._partial_block(len(rounds), lambda values=values: self._load_constant(
                self.window, values), b == count - 1)

    # --- the contract -------------------------------------------------------------------

    def _read_inputs(self, fail: Label) -> None:
        """Jump to ``fail`` unless the calldata is t - 1 words each below r; STOREX them
        into state[1..] (state[0] is 0: registers start zeroed)."""
        asm, inputs = self.e.asm, self.t - 1
        asm.op("CALLDATASIZE")
        asm.push(inputs * WORD)
        asm.op("EQ")
        for i in range(inputs):
            asm.push(R)
            asm.push(i * WORD)
            asm.op("CALLDATALOAD")
            asm.op("LT")
            asm.op("AND")
        asm.op("ISZERO")
        asm.jumpi(fail)
        asm.push(inputs * WORD)
        asm.push(0)
        asm.push(self.buffer)
        asm.op("CALLDATACOPY")
        self.e.target.copy_in(self.e, _span(self.state, 1, inputs, "inputs"),
                              lambda: asm.push(self.buffer))

    def emit(self) -> None:
        """The contract, its parts in scopes of their own (input, constants, rounds,
        output) for a gas profile by scope."""
        fail = self.e.asm.new_label("invalid_input")
        with self.e.asm.scope("input"):
            self._read_inputs(fail)
        with self.e.asm.scope("rounds"):
            self._permutation()
        with self.e.asm.scope("output"):
            self.e.target.copy_out(self.e, self.state.fps()[0],
                                   lambda: self.e.asm.push(self.buffer))
            return_slot(self.e.asm, self.buffer.part(raw(WORD), 0, "hash"))
            fail_here(self.e, fail)
        self.e.asm.data(bytes(self.blob), label=self.data)

    def _permutation(self) -> None:
        """The permutation of [0, inputs], up to its state[0]."""
        e, t, plan = self.e, self.t, self.plan
        self._load_constant(self.constants, plan.first)
        p_columns = _span(self.window, 0, t * t, "p")
        arc = lambda r: _span(self.window, t * t + r * t, t, f"c{r}")   # noqa: E731
        fp.add(e, self.state, self.state, arc(0))
        for r in range(1, HALF + 1):
            self._full_round(arc(r), self.m if r < HALF else p_columns)
        self._partial_rounds()
        self._load_constant(self.window, plan.last)
        for r in range(HALF - 1):
            self._full_round(_span(self.window, r * t, t, f"c{r}"), self.m)
        x0 = self.state.fps()[0]
        with e.asm.temps(array(Fp, t)) as (acc,):
            self._sbox_all(acc)
            # state[0] only: row 0 of the applied matrix, every t-th stored value
            e.target.strided(e, "mul", acc, self.m, self.state, t, (1, t, 1))
            terms = acc.fps()
            fp.add(e, x0, terms[0], terms[1])
            for term in terms[2:]:
                fp.add(e, x0, x0, term)


def _pc(label: Label) -> int:
    """A label's code offset (0 while the layout's widths are worked out)."""
    return label.pc or 0


def _builder(t: int, block: int) -> Callable[[Emitter], None]:
    return lambda e: _Poseidon(e, schedule(t, block)).emit()


def build(name: str, compact: Optional[bool], isa: Target) -> Program:
    """The assembled contract ``name`` (one of CONTRACTS; ``compact`` changes nothing,
    nothing is shared: one build serves every value of it). Where the width's block of
    partial rounds (:data:`BLOCKS`) makes the code too large (plain EVM's t = 5: an
    operation there is ~5 bytes, 8 under EVMMAX for a whole vector), smaller blocks,
    looped, until it fits."""
    return _build(name, isa)


@lru_cache(maxsize=None)
def _build(name: str, isa: Target) -> Program:
    t = WIDTH_OF[name]
    program = None
    for block in sorted({BLOCKS[t], *range(1, BLOCKS[t])}, reverse=True):
        program = least_gas_that_fits(name, FIELD, isa, _builder(t, block), compact=False)
        if len(program.code) <= CONTRACT_SIZE_LIMIT:
            break
    assert program is not None
    return program


def hash_words(inputs: List[int]) -> bytes:
    """The calldata of ``poseidon_t<len(inputs) + 1>``: the inputs as 32-byte words."""
    return b"".join(v.to_bytes(WORD, "big") for v in inputs)
