"""Straight-line modular arithmetic on EVM words, compiled to stack code: how the plain-EVM
target (:class:`.target_words.Words`) writes a field routine.

The tower asks a target for one operation at a time (``out = x op y`` on field values in
memory). Written one at a time in plain EVM, each would load its operands from memory and
store its result (~31 gas a product). The target instead collects a run of operations with
no other code between them (a *block*) and compiles it once memory is linked, with every
address known:

1. **Dataflow.** Each operation's result is a value (SSA); a copy renames a value; a
   memory word read before the block writes it is an *entry* value (a constant if it lies
   in the constant region; a set word holds an immediate, pushed where it is read);
   adding 0, multiplying by 1 fold away. What each address holds
   at the end is the block's output: only those words are stored, and only if they changed.
   Each value is held as itself or negated (:mod:`.signs`: fewer subtractions, negations
   free); :func:`compile_block` tries a few choices of signs and, with the cheapest, a
   few settings of step 2's limits and order (:data:`SETTINGS`), and keeps the cheapest
   code.
2. **Trees.** A value used by one operation only (``t`` in ``(a b) c``) is computed where
   it is used, as an operand left on the stack: no DUP, no POP, no memory. Every other
   value computed here is a *root*: computed in program order (or, a setting, first the
   ready root that reads the most roots last) and kept on the stack until
   its last use (DUP to use it; at its last use, where it is the first value a root's
   tree pushes, a SWAP brings it up instead, leaving no dead slot, onto a copy of p
   pushed under the top value where that was made, if the operation needs p: a
   *spare*), or, when more values are live than DUP reaches, written to a scratch word
   and loaded again (Belady: the one used furthest ahead goes). Compiled blocks are
   cached.
3. **Memory.** Entry values are loaded at each use (PUSH MLOAD, 6 gas: cheaper than keeping
   one on the stack for two or three uses); constants too, or pushed where the modulus is
   known as the code is written (:class:`BlockMemory`). A result is stored to its address
   as soon as the block no longer needs the address's entry value, else at the end.

The modulus is on the stack under the block's values (DUP is 3 gas, as PUSH32 is, in one
byte, not 33). Every operation keeps values canonical (< p): ADDMOD and MULMOD reduce;
x - y is ADDMOD(x, p - y, p) and -y is (p - y) mod p, so -0 stays 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Collection, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from .signs import Node, choose_signs

Path = Tuple[str, ...]
Segment = Tuple[Path, bytes]

MAX_DEPTH = 16          # DUP16 / SWAP16 reach


@dataclass(frozen=True)
class Settings:
    """The compiler's limits on the stack and the order it makes the roots in
    (:func:`compile_block` compiles each block with each of :data:`SETTINGS`, those after
    the first with the cheapest signs only, and keeps the cheapest code: no one setting
    suits every block's shape)."""
    tree_depth: int = 14    # deepest a tree may grow before it is split (then again where
                            # the block's values leave it less room: :meth:`_Compiler._split`)
    frame: int = 11         # values the block keeps on the stack (the modulus included) at most
    compact_at: int = 12    # slots (dead ones included) above which dead slots are removed
    far: int = 24           # a value next read more than this many operations later: to scratch
    # "program": the roots in the block's order; "kills": of the roots whose operands are
    # made, first the one that reads the most roots for the last time (fewer live values,
    # so fewer dead slots deep in the stack: :meth:`_Compiler._kills_first`)
    order: str = "program"


SETTINGS = (Settings(), Settings(12, 11, 12, 16, "kills"), Settings(12, 10, 10, 16),
            Settings(12, 11, 10, 16, "kills"), Settings(12, 11, 13, 24))

_DUP1, _SWAP1, _PUSH0, _PUSH1 = 0x80, 0x90, 0x5F, 0x60
_POP, _MLOAD, _MSTORE = 0x50, 0x51, 0x52
_ADD, _SUB, _MOD, _ADDMOD, _MULMOD = 0x01, 0x03, 0x06, 0x08, 0x09
_MODULUS, _SPARE = -2, -3   # stack slots: the block's modulus; a copy of it under a value
_UNREDUCED = {"addw": "add", "subw": "sub", "negw": "neg"}   # lazy kinds, reduced ones
_MODULUS_USES = {"add": 1, "mul": 1, "sub": 2, "neg": 2, "addw": 0, "subw": 1, "negw": 1}
_SMALL = 1 << 32
_GAS = {_PUSH0: 2, _POP: 2, _MOD: 5, _ADDMOD: 8, _MULMOD: 8}   # the others: 3
# the choices of signs each block is compiled with (:func:`compile_block`): the kinds of
# values whose signs are searched (:func:`.signs.choose_signs`)
SIGNS = {"none": (), "operations": ("add", "sub"), "all": ("add", "sub", "const")}        # constants below this are pushed; larger ones are loaded from memory


@dataclass(frozen=True)
class FieldOp:
    """``out = x op y`` on words in memory (``op``: add, sub, mul; copy: out = x; kill:
    the word at ``out`` is dead, its last value need not be stored; set: ``out`` holds the
    constant ``x`` from here on, pushed where it is read, as code)."""
    op: str
    out: int
    x: int
    y: int
    path: Path


@dataclass(frozen=True)
class BlockMemory:
    """Where the block's code finds the modulus, the constants (address -> value) and its
    scratch words (for values that do not fit the stack); ``dead``: addresses the block
    writes that nothing reads after it (their last values are not stored)."""
    modulus_at: int
    constants: Dict[int, int]
    scratch_at: int
    scratch_words: int
    dead: FrozenSet[int] = frozenset()
    # the largest h with h p < 2^256 whose multiples k p (k <= h) are the words from
    # modulus_at on: sums and differences of up to h p need no reduction (lazy)
    headroom: int = 1
    # the modulus, where it is known when the code is written: then the constants and p's
    # multiples k p (k > 1) are pushed where read (PUSH32: 3 gas, 33 bytes) rather than
    # loaded (PUSH2 MLOAD: 6 gas, 4 bytes); small constants are pushed either way
    modulus: Optional[int] = None


@dataclass
class _Value:
    kind: str                       # "entry", "const", "imm" (set) or an operation
    args: Tuple[int, ...] = ()      # operand value ids (operations)
    address: int = -1               # entry: where it is read; const: where it is kept
    constant: int = 0
    path: Path = ()
    uses: List[int] = field(default_factory=list)     # consumer ids (-1: stored at the end)
    inline: bool = False
    depth: int = 1
    bound: int = 1                  # the value is below bound * p


class BlockTooLarge(ValueError):
    """A block needs more scratch words than the target reserved."""


def compile_block(ops: Sequence[FieldOp], memory: BlockMemory) -> List[Segment]:
    """The stack code of ``ops``, as (source path, bytes) segments in order: the cheapest
    of the block compiled with each choice of :data:`SIGNS` (the signs change which values
    are read where, and so the stack moves, which :mod:`.signs` does not count) and each
    of :data:`SETTINGS` (no one setting of the limits suits every block's shape), the
    settings after the first with the cheapest signs only.
    Cached: a build assembles its code again for each layout it tries, and a loop
    unrolled is one block many times."""
    constants = tuple(sorted(memory.constants.items()))
    return list(_compile_cached(tuple(ops), memory.modulus_at, constants, memory.scratch_at,
                                memory.scratch_words, memory.dead, memory.headroom,
                                memory.modulus, tuple(SIGNS.values()), SETTINGS))


@lru_cache(maxsize=1 << 12)
def _compile_cached(ops: Tuple[FieldOp, ...], modulus_at: int,
                    constants: Tuple[Tuple[int, int], ...], scratch_at: int,
                    scratch_words: int, dead: FrozenSet[int], headroom: int,
                    modulus: Optional[int], choices: Tuple[Tuple[str, ...], ...],
                    every_settings: Tuple[Settings, ...]) -> Tuple[Segment, ...]:
    memory = BlockMemory(modulus_at, dict(constants), scratch_at, scratch_words, dead,
                         headroom, modulus)
    first, *others = every_settings
    compiled: List[Tuple[List[Segment], _Compiler]] = []
    seen: Set[Tuple[int, ...]] = set()
    for kinds in choices:
        compiler = _Compiler(memory, kinds)
        signs = compiler.dataflow(ops)
        if signs not in seen:                       # the same signs: the same code
            seen.add(signs)
            compiled.append((compiler.with_settings(first).code(ops), compiler))
    # the other settings with the signs whose code is cheapest under the first (on the
    # plain-EVM contracts' blocks, as cheap as every pair; half the compilations)
    code, compiler = min(compiled, key=lambda pair: _cost(pair[0]))
    return tuple(min([code] + [compiler.with_settings(settings).code(ops)
                               for settings in others], key=_cost))


def _cost(segments: Sequence[Segment]) -> Tuple[int, int]:
    """Gas first, then bytes (a build must fit its contract's size limit)."""
    code = b"".join(blob for _, blob in segments)
    return code_gas(code), len(code)


def code_gas(code: bytes) -> int:
    """The gas of straight-line code made of the instructions the compiler writes."""
    gas, pc = 0, 0
    while pc < len(code):
        opcode = code[pc]
        gas += _GAS.get(opcode, 3)
        pc += 1 + (opcode - _PUSH0 if _PUSH0 < opcode <= _PUSH0 + 32 else 0)
    return gas


def push_bytes(value: int) -> bytes:
    """The shortest PUSH of ``value`` (PUSH0 for 0)."""
    if value == 0:
        return bytes([_PUSH0])
    width = (value.bit_length() + 7) // 8
    return bytes([_PUSH1 + width - 1]) + value.to_bytes(width, "big")


class _Compiler:
    def __init__(self, memory: BlockMemory, kinds: Collection[str],
                 settings: Settings = Settings()) -> None:
        """``kinds``: the values whose signs are searched (:data:`SIGNS`)."""
        self.memory = memory
        self.kinds = kinds
        self.settings = settings
        self.values: List[_Value] = []
        self.finals: Dict[int, int] = {}            # address -> value stored there at the end

    def with_settings(self, settings: Settings) -> "_Compiler":
        """A compiler with this one's dataflow (:meth:`dataflow` done, :meth:`code` not:
        it changes the values) and ``settings``."""
        other = _Compiler(self.memory, self.kinds, settings)
        other.values = [replace(v, uses=list(v.uses)) for v in self.values]
        other.finals = dict(self.finals)
        return other

    # --- 1. dataflow ------------------------------------------------------------------

    def _new(self, value: _Value) -> int:
        self.values.append(value)
        return len(self.values) - 1

    def dataflow(self, ops: Sequence[FieldOp]) -> Tuple[int, ...]:
        """The block's values: first as nodes (:class:`.signs.Node`: what each address
        holds, read from memory, a constant or computed), then made with the signs that
        :func:`.signs.choose_signs` picks (fewer subtractions)."""
        holds: Dict[int, int] = {}                  # address -> node it holds now
        entries: Dict[int, int] = {}
        killed: Set[int] = set()
        nodes: List[Node] = []
        paths: List[Path] = []
        leaves: Dict[int, int] = {}                 # a leaf node -> its value

        def node(made: Node, path: Path) -> int:
            nodes.append(made)
            paths.append(path)
            return len(nodes) - 1

        def leaf(value: _Value) -> int:
            pushed = (self.memory.modulus is not None and value.kind in ("const", "imm")
                      and value.constant > 1)   # (0 and 1 fold away)
            index = node(Node("const" if pushed else "leaf"), ())
            leaves[index] = self._new(value)
            return index

        def read(address: int) -> int:
            if address not in holds:
                if address in self.memory.constants:
                    value = _Value("const", address=address,
                                   constant=self.memory.constants[address])
                else:
                    value = _Value("entry", address=address)
                holds[address] = entries[address] = leaf(value)
            return holds[address]

        for op in ops:
            if op.op == "kill":
                killed.add(op.out)
                continue
            killed.discard(op.out)
            if op.op == "set":
                holds[op.out] = leaf(_Value("imm", constant=op.x))
                continue
            if op.op == "copy":
                holds[op.out] = read(op.x)
                continue
            x, y = read(op.x), read(op.y)
            if op.op == "sub" and x in leaves and self._constant_of(leaves[x]) == 0:
                holds[op.out] = node(Node("neg", (y,)), op.path)
            else:
                holds[op.out] = node(Node(op.op, (x, y)), op.path)
        stored = {address: index for address, index in holds.items()
                  if entries.get(address) != index and address not in self.memory.dead
                  and address not in killed}
        signs = choose_signs(nodes, set(stored.values()), self.kinds)
        made = self._made(nodes, paths, leaves, signs)
        self.finals = {}
        for address, index in stored.items():
            value = made[index] if signs[index] > 0 else self._negation(made[index],
                                                                        paths[index])
            if value != leaves.get(entries.get(address, -1)):   # not its own entry value
                self.finals[address] = value
        return tuple(signs)

    def _made(self, nodes: Sequence[Node], paths: Sequence[Path], leaves: Dict[int, int],
              signs: Sequence[int]) -> List[int]:
        """The value of each node, held as its sign times the node's value: a negation
        is the word of its operand; a sum or difference the addition or subtraction of
        the words held that gives the sign chosen."""
        made: List[int] = []
        for index, node in enumerate(nodes):
            if node.kind == "leaf" or (node.kind == "const" and signs[index] > 0):
                made.append(leaves[index])
            elif node.kind == "const":
                assert self.memory.modulus is not None
                constant = self.memory.modulus - self.values[leaves[index]].constant
                made.append(self._new(_Value("imm", constant=constant)))
            elif node.kind == "neg":
                made.append(made[node.args[0]])
            elif node.kind == "mul":
                x, y = node.args
                made.append(self._operation("mul", made[x], made[y], paths[index]))
            else:
                x, y = node.args
                # signs[index] * (x +- y) = a x' + b y' for the words x', y' held
                a = signs[index] * signs[x]
                b = signs[index] * signs[y] * (1 if node.kind == "add" else -1)
                assert a > 0 or b > 0, "a sum of two negated words"
                if a > 0 and b > 0:
                    op, first, second = "add", made[x], made[y]
                elif b < 0:
                    op, first, second = "sub", made[x], made[y]
                else:
                    op, first, second = "sub", made[y], made[x]
                made.append(self._operation(op, first, second, paths[index]))
        return made

    def _negation(self, value: int, path: Path) -> int:
        """-``value``, for a value held negated that the block stores."""
        zero = self._new(_Value("imm", constant=0))
        return self._operation("sub", zero, value, path)

    def _constant_of(self, value: int) -> Optional[int]:
        v = self.values[value]
        return v.constant if v.kind in ("const", "imm") else None

    def _operation(self, op: str, x: int, y: int, path: Path) -> int:
        """The value of ``x op y``, folded where an operand makes it trivial; a sum or a
        difference is left unreduced (ADD, SUB from a multiple of p) while it stays below
        ``headroom`` p."""
        cx, cy = self._constant_of(x), self._constant_of(y)
        bx, by = self.values[x].bound, self.values[y].bound
        headroom = self.memory.headroom
        if op in ("add", "sub") and cy == 0:
            return x
        if op == "add" and cx == 0:
            return y
        if op == "mul" and cy == 1:
            return x
        if op == "mul" and cx == 1:
            return y
        if op == "sub" and cx == 0:
            lazy = by + 1 <= headroom               # k p - y is in (0, k p]
            return self._new(_Value("negw" if lazy else "neg", (y,), path=path,
                                    bound=by + 1 if lazy else 1))
        if op in ("add", "sub") and bx + by <= headroom:
            return self._new(_Value(op + "w", (x, y), path=path, bound=bx + by))
        return self._new(_Value(op, (x, y), path=path))

    # --- 2. trees ---------------------------------------------------------------------

    def _plan(self) -> List[int]:
        """Mark the values computed where they are used; return the roots in order."""
        values = self.values
        live = [False] * len(values)
        for value in self.finals.values():
            live[value] = True
        for index in range(len(values) - 1, -1, -1):
            if live[index]:
                for arg in values[index].args:
                    live[arg] = True
        for index, value in enumerate(values):
            if live[index]:
                for arg in value.args:
                    values[arg].uses.append(index)
        for value in self.finals.values():
            values[value].uses.append(-1)
        for value in values:                        # stored only: reduce as it is made
            if value.kind in _UNREDUCED and value.uses and set(value.uses) == {-1}:
                value.kind, value.bound = _UNREDUCED[value.kind], 1
        roots = []
        for index, value in enumerate(values):
            if not live[index] or value.kind in ("entry", "const", "imm"):
                continue
            for arg in value.args:                      # split a tree that grew too deep
                child = values[arg]
                if child.inline and self._depth_of(index) > self.settings.tree_depth:
                    child.inline = False
                    roots.append(arg)
            consumers = set(value.uses)
            value.inline = len(consumers) == 1 and -1 not in consumers
            if not value.inline:
                roots.append(index)
            value.depth = self._depth_of(index)
        roots.sort()
        return self._kills_first(roots) if self.settings.order == "kills" else roots

    def _kills_first(self, roots: List[int]) -> List[int]:
        """``roots`` in an order their operands allow: of the roots ready (every root its
        tree reads made), the one that reads the most roots for the last time, the first
        in the block's order among equals."""
        made = set(roots)
        reads = {root: set(self._leaves(root)) & made for root in roots}
        readers = {root: 0 for root in roots}
        waiting = {root: len(reads[root]) for root in roots}
        consumers: Dict[int, List[int]] = {root: [] for root in roots}
        for root in roots:
            for value in reads[root]:
                readers[value] += 1
                consumers[value].append(root)
        ready = [root for root in roots if not waiting[root]]
        order = []
        while ready:
            best = max(ready, key=lambda r: (sum(readers[v] == 1 for v in reads[r]), -r))
            ready.remove(best)
            order.append(best)
            for value in reads[best]:
                readers[value] -= 1
            for consumer in consumers[best]:
                waiting[consumer] -= 1
                if not waiting[consumer]:
                    ready.append(consumer)
        return order

    def _leaf_depth(self, value: int) -> int:
        v = self.values[value]
        return v.depth if v.inline else 1

    def _depth_of(self, index: int) -> int:
        """Stack slots a tree needs above the block's values while it is computed."""
        v = self.values[index]
        if v.kind == "neg":
            return max(1 + self._leaf_depth(v.args[0]), 3)
        if v.kind == "negw":
            return max(self._leaf_depth(v.args[0]), 2)
        x, y = v.args
        if v.kind == "sub":
            return max(1 + self._leaf_depth(y), 3, 2 + self._leaf_depth(x))
        if v.kind == "subw":
            return max(self._leaf_depth(y), 2, 1 + self._leaf_depth(x))
        base = 0 if v.kind == "addw" else 1         # the modulus under the operands
        if x == y:
            return base + max(self._leaf_depth(x), 2)
        first, second = sorted((self._leaf_depth(x), self._leaf_depth(y)), reverse=True)
        return base + max(first, 1 + second)

    # --- 3. code ----------------------------------------------------------------------

    def code(self, ops: Sequence[FieldOp]) -> List[Segment]:
        """The code of ``ops``, after :meth:`dataflow`."""
        roots = self._plan()
        self.roots = roots
        self.segments: List[Segment] = []
        self.code = bytearray()
        self.stack: List[Optional[int]] = []        # bottom to top; None: a dead slot
        self.scratch: Dict[int, int] = {}           # value -> scratch word index
        self.stored: Set[int] = set()               # addresses whose entry value is gone
        self.taken: Optional[int] = None            # a value taken to the top, not pushed yet
        self.free_moduli = 0                        # copies of p under it, pushed already
        self.now = -1                               # the position of the root being made
        # uses[v]: the positions (root index; len(roots): the end) where v is read
        self.position = {root: i for i, root in enumerate(roots)}
        self.pending: Dict[int, List[int]] = {}
        for value, v in enumerate(self.values):
            if not v.inline:
                self.pending[value] = sorted(self._positions(value, len(roots)))
        self.entry_at = {v.address: value for value, v in enumerate(self.values)
                         if v.kind == "entry"}
        self.modulus_uses = sum(_MODULUS_USES[v.kind] + (v.bound > 1 and -1 in v.uses)
                                for v in self.values if v.uses and v.kind in _MODULUS_USES)
        path = ops[0].path if ops else ()
        if self.modulus_uses > 1:
            self._load_modulus()
            self.stack.append(_MODULUS)             # never dead in the block
        self._flush(path)
        for i, root in enumerate(roots):
            self._root(i, root)
            self._flush(self.values[root].path)
        self._finish()
        self._flush(ops[-1].path if ops else ())
        return self.segments

    def _positions(self, value: int, end: int) -> List[int]:
        """Where ``value`` is read: the root whose tree reads it, per use."""
        found = []
        for consumer in self.values[value].uses:
            if consumer == -1:
                found.append(end)
                continue
            while self.values[consumer].inline:
                consumer = self.values[consumer].uses[0]
                if consumer == -1:
                    break
            found.append(end if consumer == -1 else self.position[consumer])
        return found

    def _flush(self, path: Path) -> None:
        if self.code:
            self.segments.append((path, bytes(self.code)))
            self.code = bytearray()

    def _emit(self, *codes: int) -> None:
        self.code.extend(codes)

    def _push(self, value: int) -> None:
        self.code += push_bytes(value)

    def _load_modulus(self) -> None:
        self._push(self.memory.modulus_at)
        self._emit(_MLOAD)

    # leaves and trees

    def _dup(self, value: int, above: int) -> None:
        index = max(i for i, v in enumerate(self.stack) if v == value)
        depth = len(self.stack) - index + above
        if depth > MAX_DEPTH:
            raise AssertionError(f"value {value} is {depth} deep")
        self._emit(_DUP1 + depth - 1)

    def _leaf(self, value: int, above: int) -> None:
        """Push ``value`` (``above``: slots the tree holds above the block's values)."""
        v = self.values[value]
        if v.inline:
            self._tree(value, above)
        elif value == self.taken:                   # on top already (:meth:`_take_first`)
            self.taken = None
        elif value in self.stack:
            self._dup(value, above)
        elif value in self.scratch:
            self._push(self.memory.scratch_at + 32 * self.scratch[value])
            self._emit(_MLOAD)
        elif v.kind == "imm" or (v.kind == "const" and (v.constant < _SMALL
                                                       or self.memory.modulus is not None)):
            self._push(v.constant)
        elif v.kind in ("entry", "const"):
            assert v.address not in self.stored, "an entry value read after its store"
            self._push(v.address)
            self._emit(_MLOAD)
        else:
            raise AssertionError(f"value {value} is nowhere")

    def _lead(self, index: int) -> Tuple[int, int]:
        """The first value the tree of ``index`` pushes and the copies of p it pushes
        before it (:meth:`_tree`'s order); -1 where that tree is computed twice (x - x)."""
        v = self.values[index]
        if v.kind in ("negw", "subw"):
            first, moduli = v.args[0] if v.kind == "negw" else v.args[1], 0
        elif v.kind in ("neg", "sub"):
            first, moduli = v.args[0] if v.kind == "neg" else v.args[1], 1
        else:
            first, moduli = self._order(*v.args)[0], 0 if v.kind == "addw" else 1
        if self.values[first].inline:
            if v.kind in ("sub", "subw") and v.args[0] == v.args[1]:
                return -1, 0                        # the operand's tree is computed twice
            first, more = self._lead(first)
            moduli += more
        return first, moduli

    def _read_last_first(self, i: int, root: int) -> Optional[Tuple[int, int]]:
        """(value, copies of p) if ``root``'s tree first pushes a value on the stack that
        it reads for the last time there (once, or as a square's two operands)."""
        first, moduli = self._lead(root)
        if first not in self.stack:
            return None
        v = self.values[root]
        reads = self._leaves(root).count(first)
        square = v.kind in ("add", "mul", "addw") and v.args == (first, first)
        if self.pending[first] != [i] * reads or (reads > 1 and not square):
            return None
        return first, moduli

    def _take_first(self, i: int, root: int) -> None:
        """If the first value ``root``'s tree pushes is read here for the last time,
        bring it to the top by a SWAP with the top instead of a DUP (the top value takes
        its slot: no dead slot is left to remove later), and the m copies of p the tree
        pushes before it under it (DUP p, DUP1 m - 1 times, SWAPm: the 3 m + 3 gas of the
        copies and the DUP it replaces; :meth:`_modulus` then pushes them no more)."""
        lead = self._read_last_first(i, root)
        if lead is None:
            return
        first, moduli = lead
        index = self.stack.index(first)
        distance = len(self.stack) - 1 - index
        if distance:
            self._emit(_SWAP1 + distance - 1)
            self.stack[index] = self.stack[-1]
        self.stack.pop()
        missing = moduli
        if moduli and self.stack and self.stack[-1] == _SPARE:
            self.stack.pop()                        # [spare, v]: one copy under v already
            missing -= 1
        spares = self._take_spares(i, root, missing)
        if missing:                                 # [v] -> [p .. p, v]
            self._modulus(1 + moduli - missing)     # (above the spare too, if any)
            copies = missing + spares
            self._emit(*[_DUP1] * (copies - 1), _SWAP1 + copies - 1)
            self.stack += [_SPARE] * spares         # (p is p: the lowest copies stay)
        self.taken, self.free_moduli = first, moduli

    def _take_spares(self, i: int, root: int, missing: int) -> int:
        """How many spares for the roots after ``root`` (:meth:`_spares`) a take pushes
        with the ``missing`` copies of p under the value it takes: a DUP1 each (3 gas)
        where the next root would spend a DUP of p and a SWAP (6). None where no copy is
        pushed (the first would cost a DUP and a SWAP), nor over a spare left under the
        value before (it would be buried and die unused)."""
        if not missing or root != self.roots[i] or _SPARE in self.stack[-3:]:
            return 0
        return min(self._spares(i), MAX_DEPTH - missing)

    def _modulus(self, above: int) -> None:
        if self.free_moduli:                        # pushed under the value taken
            self.free_moduli -= 1
            return
        if self.modulus_uses > 1:
            self._dup(_MODULUS, above)
        else:
            self._load_modulus()

    def _multiple(self, k: int, above: int) -> None:
        """Push k p (k p's word, or the modulus for k = 1)."""
        if k == 1:
            self._modulus(above)
        elif self.memory.modulus is not None:
            self._push(k * self.memory.modulus)
        else:
            self._push(self.memory.modulus_at + 32 * (k - 1))
            self._emit(_MLOAD)

    def _minus(self, y: int, above: int) -> None:
        """Push k p - y, k = y's bound (so k p - y > 0)."""
        self._leaf(y, above)
        self._multiple(self.values[y].bound, above + 1)
        self._emit(_SUB)

    def _tree(self, index: int, above: int) -> None:
        """The code leaving value ``index`` on top (``above`` slots under it are the tree's)."""
        v = self.values[index]
        if v.kind == "negw":                        # k p - y
            self._minus(v.args[0], above)
            return
        if v.kind == "subw":                        # x + (k p - y)
            self._minus(v.args[1], above)
            self._leaf(v.args[0], above + 1)
            self._emit(_ADD)
            return
        base = 0 if v.kind == "addw" else 1
        if base:
            self._modulus(above)
        if v.kind == "neg":                         # (k p - y) mod p
            self._minus(v.args[0], above + 1)
            self._emit(_MOD)
            return
        x, y = v.args
        if v.kind == "sub":                         # x + (k p - y) mod p
            self._minus(y, above + 1)
            self._leaf(x, above + 2)
            self._emit(_ADDMOD)
            return
        opcode = {"add": _ADDMOD, "mul": _MULMOD, "addw": _ADD}[v.kind]
        if x == y:
            self._leaf(x, above + base)
            self._emit(_DUP1, opcode)
            return
        first, second = self._order(x, y)
        self._leaf(first, above + base)
        self._leaf(second, above + base + 1)
        self._emit(opcode)

    def _order(self, x: int, y: int) -> Tuple[int, int]:
        """The operands of a sum or product in the order pushed: the deeper tree first;
        of two leaves, one the root being made reads for the last time first (so that
        :meth:`_take_first` can take it from the stack instead of copying it)."""
        dx, dy = self._leaf_depth(x), self._leaf_depth(y)
        if dy < dx or (dx == dy and self._dies_here(x)
                       and not self._dies_here(y)):
            return x, y
        return y, x

    def _dies_here(self, value: int) -> bool:
        """Whether the root being made reads ``value`` for the last time."""
        uses = self.pending.get(value)
        return bool(uses) and uses[-1] == self.now

    def _consumable(self, i: int, root: int) -> Optional[int]:
        """The value on top of the block's values, if ``root`` reads it for the last time,
        as an operand of its own (not inside an operand's tree): ``root`` can take it
        from there instead of a DUP of it now and a POP later."""
        if not self.stack or self.stack[-1] in (None, _MODULUS, _SPARE):
            return None
        top = self.stack[-1]
        v = self.values[root]
        reads = self._leaves(root).count(top)
        if top not in v.args or reads != v.args.count(top) or self.pending[top] != [i] * reads:
            return None
        if v.kind in ("sub", "subw") and v.args[0] == v.args[1]:
            return None
        return top

    def _tree_on(self, index: int, top: int) -> None:
        """:meth:`_tree` of the root ``index`` taking its operand ``top`` from the top of
        the stack (one slot above the block's values): under the modulus by a SWAP where
        the operation needs the modulus below its operands."""
        v = self.values[index]
        other = [a for a in v.args if a != top]
        if v.kind in ("add", "mul", "sub", "neg"):
            if self.stack and self.stack[-1] == _SPARE:
                self.stack.pop()                    # spare, top: p under it already
            else:
                self._modulus(1)
                self._emit(_SWAP1)                  # modulus, top
            if v.kind == "neg":
                self._multiple(self.values[top].bound, 2)
                self._emit(_SUB, _MOD)
            elif v.kind == "sub" and top == v.args[1]:
                self._multiple(self.values[top].bound, 2)
                self._emit(_SUB)
                self._leaf(v.args[0], 2)
                self._emit(_ADDMOD)
            elif v.kind == "sub":                   # top is x: x + (k p - y)
                self._minus(v.args[1], 2)
                self._emit(_ADDMOD)
            else:
                opcode = _ADDMOD if v.kind == "add" else _MULMOD
                if other:
                    self._leaf(other[0], 2)
                else:
                    self._emit(_DUP1)
                self._emit(opcode)
            return
        if v.kind == "negw":
            self._multiple(self.values[top].bound, 1)
            self._emit(_SUB)
        elif v.kind == "subw" and top == v.args[1]:
            self._multiple(self.values[top].bound, 1)
            self._emit(_SUB)
            self._leaf(v.args[0], 1)
            self._emit(_ADD)
        elif v.kind == "subw":
            self._minus(v.args[1], 1)
            self._emit(_ADD)
        else:                                       # addw
            if other:
                self._leaf(other[0], 1)
            else:
                self._emit(_DUP1)
            self._emit(_ADD)

    def _reduce(self, value: int, above: int) -> None:
        """The copy of ``value`` on top (``above`` slots over the block's values) made
        canonical, if it may not be: MOD p."""
        if self.values[value].bound > 1:
            self._modulus(above)
            self._emit(_SWAP1, _MOD)

    # roots and the block's values on the stack

    def _root(self, i: int, root: int) -> None:
        self.now = i
        while len(self.stack) + self.values[root].depth > MAX_DEPTH:
            if None in self.stack or _SPARE in self.stack:
                self._compact(force=True)
                continue
            if not self._split(i, root):
                self._evict(i)
        top = self._consumable(i, root)
        if top is None:
            self._take_first(i, root)
            if self.taken is None and root == self.roots[i]:
                for _ in range(self._spares(i)):    # under this root, for the next ones
                    self._dup(_MODULUS, 0)
                    self.stack.append(_SPARE)
            self._tree(root, 0)
        else:
            self.stack.pop()
            self._tree_on(root, top)
        self._spares_dead(keep=self._spares_on_top())
        self.stack.append(root)
        self._consume(i, root)
        self._store_early(root)
        uses = self.pending[root]
        if (self.stack and self.stack[-1] == root and uses
                and self._distance(root, uses[0]) > self.settings.far):
            self._evict_value(root)                 # read again only much later: to scratch
        self._compact()
        while len([v for v in self.stack if v is not None and v != _SPARE]) > self.settings.frame:
            self._evict(i + 1)

    def _spares(self, i: int) -> int:
        """How many of the roots after position ``i``, one after another, will each begin
        with a copy of p under a value taken to the top (:meth:`_take_first`) or under
        the root before it, read there in place (:meth:`_tree_on`): so many copies of p
        pushed now under root ``i`` (spares) are those copies, each root leaving its
        value on the next. A take's SWAP leaves the top value in the slot of the value
        taken and the spare under it, where p must be: the SWAP1 that puts p under the
        value (3 gas) is saved. Predicted from the block as it stands now; a spare that
        is not used is a dead slot."""
        if _MODULUS not in self.stack:
            return 0
        count = 0
        for following in range(i + 1, len(self.roots)):
            made = self.roots[following - 1]
            uses = self.pending[made]
            if (len(self.stack) + count + 1 + max(self.values[self.roots[i]].depth,
                                                  1 + self.values[self.roots[following]].depth)
                    > MAX_DEPTH or uses[0] == len(self.roots)
                    or self._distance(made, uses[0]) > self.settings.far
                    or not self._begins_with_p_under(i, following)):
                break                               # no room, the value leaves the top, ...
            count += 1
        return count

    def _begins_with_p_under(self, i: int, following: int) -> bool:
        """Whether the root at position ``following`` reads the root before it in place
        (:meth:`_consumable`) or takes a value (:meth:`_take_first`), with p under it,
        as the block stands before root ``i`` is made (the roots from ``i`` on made)."""
        made = self.roots[i:following]
        root, v = self.roots[following - 1], self.values[self.roots[following]]

        def reads_left(value: int) -> List[int]:
            return [at for at in self.pending[value] if not i <= at < following]

        reads = self._leaves(self.roots[following]).count(root)
        if (reads and v.kind in ("add", "mul", "sub", "neg") and root in v.args
                and reads == v.args.count(root) and reads_left(root) == [following] * reads
                and not (v.kind == "sub" and v.args[0] == v.args[1])):
            return True                             # read in place (:meth:`_consumable`)
        now, self.now = self.now, following         # (:meth:`_order` asks what dies there)
        try:
            first, moduli = self._lead(self.roots[following])
        finally:
            self.now = now
        if moduli < 1 or (first not in self.stack and first not in made):
            return False                            # (:meth:`_read_last_first`, later)
        reads = self._leaves(self.roots[following]).count(first)
        square = v.kind in ("add", "mul") and v.args == (first, first)
        return reads_left(first) == [following] * reads and (reads == 1 or square)

    def _spares_on_top(self) -> int:
        """How many spares are on top of the stack, one on another."""
        count = 0
        while count < len(self.stack) and self.stack[-1 - count] == _SPARE:
            count += 1
        return count

    def _spares_dead(self, keep: int = 0) -> None:
        """Spares are dead slots, but the ``keep`` on top (those under the root being
        made, for the next ones)."""
        last = len(self.stack) - keep
        self.stack = [None if v == _SPARE and k < last else v
                      for k, v in enumerate(self.stack)]

    def _distance(self, value: int, position: int) -> int:
        """Operations from ``value`` to the root at ``position`` (the end: the last one)."""
        later = self.roots[position] if position < len(self.roots) else len(self.values)
        return later - value

    def _split(self, i: int, root: int) -> bool:
        """Compute the deepest operand tree of ``root`` on its own first (a root read once,
        at ``i``), so that ``root``'s tree fits DUP's reach; False if it has none."""
        v = self.values[root]
        inline = [arg for arg in v.args if self.values[arg].inline]
        if not inline:
            return False
        child = max(inline, key=lambda arg: self.values[arg].depth)
        self.values[child].inline = False
        self.pending[child] = [i] * v.args.count(child)
        self._root(i, child)
        v.depth = self._depth_of(root)
        return True

    def _consume(self, i: int, root: int) -> None:
        """The reads at position ``i`` are done: values read for the last time die."""
        for value in self._leaves(root):
            uses = self.pending[value]
            if uses and uses[0] == i:
                uses.pop(0)
            if not uses:
                self._retire(value)

    def _leaves(self, index: int) -> List[int]:
        """The values a tree reads, once per read of the uses counted (an operand tree
        is computed once, even where both operands are it: a square)."""
        args = self.values[index].args
        found: List[int] = []
        for k, arg in enumerate(args):
            if not self.values[arg].inline:
                found.append(arg)
            elif arg not in args[:k]:
                found += self._leaves(arg)
        return found

    def _retire(self, value: int) -> None:
        """``value`` has no reads left: its stack slot and scratch word are free, and an
        address whose entry value it was may now be written."""
        self.stack = [None if v == value else v for v in self.stack]
        self.scratch.pop(value, None)
        v = self.values[value]
        if v.kind == "entry":
            self._entry_gone(v.address)

    def _entry_gone(self, address: int) -> None:
        """The entry value at ``address`` is read no more: store its final value now if it
        is computed already (on the stack or in scratch)."""
        final = self.finals.get(address)
        if final is None or address in self.stored:
            return
        if self.stack and self.stack[-1] == final and len(self.pending[final]) == 1:
            self.stack.pop()                        # its last read: stored from the top
            self._store_to(address, final)
        elif final in self.stack or final in self.scratch:
            self._leaf(final, 0)
            self._store_to(address, final)

    def _store_to(self, address: int, value: int) -> None:
        """The value on top (not in the stack's model) to ``address``, canonical; one read
        of ``value`` done."""
        self._reduce(value, 1)
        self._push(address)
        self._emit(_MSTORE)
        self.stored.add(address)
        del self.finals[address]
        uses = self.pending[value]
        uses.remove(uses[-1])                       # a store is read at the end
        if not uses:
            self._retire(value)

    def _store_early(self, root: int) -> None:
        """Store ``root`` (on top) to each address it ends in whose entry value is dead."""
        for address in [a for a, v in self.finals.items() if v == root]:
            entry = self.entry_at.get(address)
            if entry is not None and self.pending[entry]:
                continue
            last = len(self.pending[root]) == 1
            if not last:
                self._emit(_DUP1)
            else:
                self.stack.pop()                    # consumed by the store
            self._store_to(address, root)
            if last:
                return

    def _compact(self, force: bool = False) -> None:
        """Remove dead slots: POP from the top; SWAP the top value into a dead slot (SWAP,
        POP: 5 gas) only while the stack holds more than ``compact_at`` slots, or ``force``d
        where a tree needs the room (a dead slot costs nothing until then, and is POPped
        for 2 once it is on top). The deepest dead slot in reach is filled first: the dead
        ones above it come up as the values above them move down, and go for a POP each
        (six dead slots under one value: SWAP6 and six POPs, 15 gas, where filling the
        nearest first took six SWAP1 POP, 30)."""
        if force or self._spares_on_top():
            self._spares_dead()                     # (on top: the value over them left)
        while None in self.stack:
            if self.stack[-1] is None:
                self._emit(_POP)
                self.stack.pop()
                continue
            if not force and (len(self.stack) <= self.settings.compact_at
                              or self.stack[-2:-1] == [_SPARE]):
                return
            reach = len(self.stack) - 1 - MAX_DEPTH
            dead = [i for i, v in enumerate(self.stack) if v is None and i >= reach]
            if not dead:
                return
            index = min(dead)
            distance = len(self.stack) - 1 - index
            self._emit(_SWAP1 + distance - 1, _POP)
            self.stack[index] = self.stack.pop()

    def _evict(self, i: int) -> None:
        """Move the stack value read furthest ahead (after position ``i``) to scratch."""
        candidates = [v for v in self.stack if v is not None and v not in (_MODULUS, _SPARE)]
        if not candidates:
            raise AssertionError("nothing to evict")
        self._evict_value(max(candidates, key=lambda v: self.pending[v][0]
                              if self.pending[v] else 1 << 30))

    def _evict_value(self, value: int) -> None:
        """Move ``value`` from the stack to a scratch word."""
        free = sorted(set(range(self.memory.scratch_words)) - set(self.scratch.values()))
        if not free:
            raise BlockTooLarge(f"a block of field code needs more than "
                                f"{self.memory.scratch_words} scratch words")
        self.scratch[value] = free[0]
        if self.stack[-1] == value:
            self.stack.pop()
        else:
            self._dup(value, 0)
            self.stack = [None if v == value else v for v in self.stack]
        self._push(self.memory.scratch_at + 32 * free[0])
        self._emit(_MSTORE)
        self._compact()

    # the end of the block

    def _finish(self) -> None:
        """Store what is left: first the entry values that move (they read memory that
        other stores may write), then the values in scratch, then the stack's."""
        moves = {a: self.values[v].address for a, v in self.finals.items()
                 if self.values[v].kind == "entry"}
        while moves:
            ready = [a for a in moves if a not in moves.values()]
            if not ready:                           # a cycle: hold one value on the stack
                address = next(iter(moves))
                value = self.finals[address]
                self._leaf(value, 0)
                self.stack.append(value)
                del moves[address]
                continue
            for address in ready:
                value = self.finals[address]
                del moves[address]
                self._leaf(value, 0)
                self._store_to(address, value)
        for address, value in list(self.finals.items()):
            if value not in self.stack and address in self.finals:
                self._leaf(value, 0)
                self._store_to(address, value)
        while self.stack:
            top = self.stack[-1]
            if top is not None and top not in (_MODULUS, _SPARE):
                addresses = [a for a, v in self.finals.items() if v == top]
                for address in addresses[:-1]:
                    self._emit(_DUP1)
                    self._store_to(address, top)
                if addresses:
                    self.stack.pop()
                    self._store_to(addresses[-1], top)
                    continue
            self._emit(_POP)
            self.stack.pop()
        assert not self.finals, "a block's result was not stored"
