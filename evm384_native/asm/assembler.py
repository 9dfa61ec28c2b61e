"""An EVM assembler for generated code: mnemonics from the shared opcode table, labels,
jumps with automatically sized PUSHes, subroutines, data, memory layout and a source map.

Code is emitted into a list of items; nothing is encoded until :meth:`Assembler.assemble`:
then pending subroutine bodies are generated, memory is linked (:mod:`.layout`), and label
pushes are sized by relaxation (start at one byte, widen until every target fits).

Macros are plain Python functions taking the assembler; ``with asm.scope("fp2_mul")``
names what they emit, and the source map gives, for every pc, the scope path such as
``("miller_loop", "line_dbl", "fp2_sqr")``.

Subroutines take their return address on the stack: a call is
``PUSH ret; PUSH entry; JUMP; ret: JUMPDEST`` and the body ends with ``JUMP``. Their
arguments live in fixed memory slots and their temporaries in a private memory region,
so a body must leave the stack as it found it.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import (Callable, Dict, Iterator, List, Optional, Protocol, Sequence, Tuple, Type,
                    TypeVar, Union)

from ..evm.evm384 import pack_offsets
from ..evm.opcodes import EVMMAX_BY_NAME, PACKED_OFFSET_OPCODES, lookup
from .disasm import disassemble
from .failure import REVERT, Failure
from .layout import FP_BYTES, Memory, Region, Slot

Operand = Union[int, Slot]
EVMMAX_VECTOR_MNEMONICS = ("ADDMODX", "SUBMODX", "MULMODX")
EVMMAX_TRANSFER_MNEMONICS = ("SETMODX", "LOADX", "STOREX")
Register = Union[int, Slot]       # a register index, or a slot in the register space
B = TypeVar("B", bound="LateCode")


class Label:
    """A position in code; ``pc`` is known after assembly."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pc: Optional[int] = None

    def __repr__(self) -> str:
        return f"Label({self.name}@{self.pc})"


# --- items ------------------------------------------------------------------------------

@dataclass
class _Item:
    path: Tuple[str, ...]


@dataclass
class _Op(_Item):
    code: int


@dataclass
class _Push(_Item):
    value: Union[int, Label, Slot, Callable[[], int]]
    width: Optional[int]          # None: smallest that fits (PUSH0 never: keeps jumps simple)


@dataclass
class _Vector(_Item):
    """An EVMMAX arithmetic op; its seven immediates resolve at link time."""
    code: int
    immediates: Callable[[], Tuple[int, ...]]


@dataclass
class _Late(_Item):
    """Code with no jump targets in it, generated once memory is linked (its addresses
    known): ``owner.segments()`` gives its bytes as (source path, bytes) pieces. The
    owner is the open block of :meth:`Assembler.late_block` while it is the last item."""
    key: object
    owner: "LateCode"


@dataclass
class _Raw(_Item):
    """Bytes of code laid out as they are (a piece of a :class:`_Late`)."""
    blob: bytes


@dataclass
class _Place(_Item):
    label: Label
    jumpdest: bool


@dataclass
class _Data(_Item):
    label: Label
    blob: bytes


@dataclass(frozen=True)
class Location:
    """What emitted the code at a pc."""
    path: Tuple[str, ...]
    label: Optional[str]

    @property
    def routine(self) -> str:
        return self.path[0] if self.path else ""

    def __str__(self) -> str:
        where = " in ".join(reversed(self.path)) or "?"
        return f"{where} (after {self.label})" if self.label else where


@dataclass
class SourceMap:
    """pc -> Location for every instruction start (data bytes map to their blob)."""
    starts: List[int] = field(default_factory=list)
    locations: List[Location] = field(default_factory=list)

    def add(self, pc: int, location: Location) -> None:
        self.starts.append(pc)
        self.locations.append(location)

    def __getitem__(self, pc: int) -> Location:
        from bisect import bisect_right
        index = bisect_right(self.starts, pc) - 1
        if index < 0:
            raise KeyError(pc)
        return self.locations[index]


@dataclass
class Program:
    """Assembled bytecode with everything needed to read it back."""
    code: bytes
    code_size: int                 # bytes before the data section
    labels: Dict[str, int]
    source_map: SourceMap
    memory: Memory
    opcodes: str = "evm384"        # the opcode set the code is for (EVMMAX codes differ)

    def listing(self) -> str:
        return listing(self)

    def scope_entries(self) -> Dict[str, List[int]]:
        """Where each scope named in the source map's paths (the routines and the scopes
        inside them, the names the profiler prints) begins: the first pc of every run of
        code it emitted, so a scope inlined in 9 places begins at 9 pcs. A scope inside one
        of the same name is part of it."""
        entries: Dict[str, List[int]] = {}
        previous: Tuple[str, ...] = ()
        for pc, location in zip(self.source_map.starts, self.source_map.locations):
            if pc >= self.code_size:
                break                                   # the data section follows the code
            path = location.path
            for name in dict.fromkeys(path):            # each name at its outermost place
                depth = path.index(name) + 1
                if previous[:depth] != path[:depth]:
                    entries.setdefault(name, []).append(pc)
            previous = path
        return entries


def listing(program: Program) -> str:
    """One line per instruction: pc, where it came from (the source map), the instruction."""
    lines = []
    previous = None
    for ins in disassemble(program.code, program.code_size, program.opcodes):
        location = program.source_map[ins.pc]
        if location != previous:
            lines.append(f"; {location}")
            previous = location
        lines.append(f"{ins.pc:6d}  {ins.text(program.memory)}")
    if program.code_size < len(program.code):
        lines.append(f"; data: {len(program.code) - program.code_size} bytes")
    return "\n".join(lines)


class LateCode(Protocol):
    """Code compiled after linking (see :meth:`Assembler.late_block`); ``release``: the
    slots' values are dead from here on (temporaries going out of scope)."""

    def segments(self) -> List[Tuple[Tuple[str, ...], bytes]]: ...
    def release(self, slots: Sequence[Slot]) -> None: ...


class Subroutine:
    """Code emitted once and called from many places.

    ``params`` maps argument names to slot types, whose slots are allocated in a region of
    their own when the subroutine is declared, or to existing slots the subroutine is bound
    to (e.g. an accumulator that several subroutines update in place).
    ``body(asm, **args)`` emits the code; its temporaries come from ``asm.frame``, a
    region private to this subroutine.
    """

    def __init__(self, asm: "Assembler", name: str, body: Callable[..., None],
                 params: Optional[Dict[str, Union[Type[Slot], Slot]]] = None) -> None:
        self.name, self.body = name, body
        region = asm.memory.region(f"{name}.args")
        self.args: Dict[str, Slot] = {
            key: kind if isinstance(kind, Slot) else region.alloc(kind, key)
            for key, kind in (params or {}).items()}
        self.entry = asm.new_label(name)
        self.emitted = False

    def __getattr__(self, attr: str) -> Slot:
        args = self.__dict__.get("args", {})
        if attr in args:
            return args[attr]
        raise AttributeError(attr)


class Assembler:
    """Collects code; see the module docstring."""

    def __init__(self, name: str = "main", memory: Optional[Memory] = None,
                 opcodes: str = "evm384", failure: Failure = REVERT) -> None:
        self.memory = memory if memory is not None else Memory()
        self.opcodes = opcodes
        self.failure = failure
        self.items: List[_Item] = []
        self._path: List[str] = [name]
        self._label_counts: Dict[str, int] = {}
        self._pending: List[Subroutine] = []
        self._subroutines: Dict[str, Subroutine] = {}
        self._placed: set = set()
        self.frame: Region = self.memory.region(f"{name}.frame", frame=True)

    # --- naming -------------------------------------------------------------------------

    @contextmanager
    def scope(self, name: str) -> Iterator[None]:
        """Names the code emitted inside (for the source map)."""
        self._path.append(name)
        try:
            yield
        finally:
            self._path.pop()

    def new_label(self, name: str = "L") -> Label:
        count = self._label_counts.get(name, 0)
        self._label_counts[name] = count + 1
        return Label(name if count == 0 else f"{name}_{count}")

    @property
    def path(self) -> Tuple[str, ...]:
        """The scope path of the code emitted now."""
        return tuple(self._path)

    # --- memory -------------------------------------------------------------------------

    @contextmanager
    def temps(self, *kinds: Type[Slot]) -> Iterator[List[Slot]]:
        """Temporary slots in the current frame, released at the end of the block."""
        with self.frame.scope():
            slots = [self.frame.alloc(kind, f"{'/'.join(self._path[1:]) or 'tmp'}#{i}")
                     for i, kind in enumerate(kinds)]
            yield slots
            last = self.items[-1] if self.items else None
            if isinstance(last, _Late):            # the open block: nothing reads them after
                last.owner.release(slots)

    # --- instructions -------------------------------------------------------------------

    def op(self, mnemonic: str) -> None:
        """Any opcode without immediate data, by its mnemonic (EVM768's too)."""
        code = PACKED_OFFSET_OPCODES.get(mnemonic.upper())
        if code is None:
            info = lookup(mnemonic)
            if info.immediate:
                raise ValueError(f"{info.name} takes immediate data: use push()")
            code = info.code
        self.items.append(_Op(tuple(self._path), code))

    def ops(self, *mnemonics: str) -> None:
        for mnemonic in mnemonics:
            self.op(mnemonic)

    def push(self, value: Union[int, Label, Slot, Callable[[], int]],
             width: Optional[int] = None) -> None:
        """PUSH a number, a label's pc, a slot's offset or a value known at link time.

        ``width`` None picks the smallest PUSHn that holds the value.
        """
        if isinstance(value, int) and not 0 <= value < 1 << 256:
            raise ValueError(f"push value out of range: {value}")
        if width is not None and not 1 <= width <= 32:
            raise ValueError(f"PUSH width must be 1..32, not {width}")
        self.items.append(_Push(tuple(self._path), value, width))

    def fail(self) -> None:
        """The contract's failure (:mod:`.failure`): REVERT, or an exceptional halt."""
        for mnemonic in self.failure.mnemonics:
            if mnemonic.startswith("PUSH "):
                self.push(int(mnemonic.split()[1]))
            else:
                self.op(mnemonic)

    def place(self, label: Label, jumpdest: bool = True) -> Label:
        """Put ``label`` here (with a JUMPDEST unless it only marks a position)."""
        if label in self._placed:
            raise ValueError(f"label {label.name} placed twice")
        self._placed.add(label)
        self.items.append(_Place(tuple(self._path), label, jumpdest))
        return label

    def label(self, name: str = "L") -> Label:
        """A new jump target here."""
        return self.place(self.new_label(name))

    def jump(self, target: Label) -> None:
        self.push(target)
        self.op("JUMP")

    def jumpi(self, target: Label) -> None:
        """Jump when the top of the stack is non-zero (it is consumed)."""
        self.push(target)
        self.op("JUMPI")

    def digit_loop(self, digits: Sequence[int], width: int, body: Callable[[], None]) -> None:
        """A run-time loop over constant ``digits`` (``width`` bits each, first to last):
        a few dozen bytes whatever the count, where unrolled calls cost ~8 bytes per digit.

        ``body`` finds the digit on top of the stack and must consume it (and otherwise
        leave the stack as it found it). The digits travel left-aligned in one stack word,
        followed by a sentinel digit 1: the loop ends when only the sentinel is left, i.e.
        when shifting out one more digit leaves zero (tested at the bottom: ~40 gas a turn).
        """
        if not digits or (len(digits) + 1) * width > 256 or any(
                not 0 <= d < 1 << width for d in digits):
            raise ValueError("digits must fit one 256-bit word with a sentinel digit")
        word = 0
        for digit in list(digits) + [1]:
            word = (word << width) | digit
        word <<= 256 - width * (len(digits) + 1)
        self.push(word)
        top = self.label("digit")
        self.op("DUP1")
        self.push(256 - width)
        self.op("SHR")                          # the current digit
        body()
        self.push(width)
        self.op("SHL")
        self.op("DUP1")
        self.push(width)
        self.op("SHL")                          # zero once only the sentinel is left
        self.jumpi(top)
        self.op("POP")

    def evm384(self, mnemonic: str, out: Operand, x: Operand, y: Operand,
               mod: Operand) -> None:
        """``PUSH16 <out|x|y|mod>`` and the EVM384 opcode (or EVM768's: ADDMOD768...)."""
        if mnemonic not in PACKED_OFFSET_OPCODES:
            raise ValueError(f"{mnemonic} is not an EVM384 or EVM768 opcode")
        operands = (out, x, y, mod)
        self.push(lambda: pack_offsets(*(int(v) for v in operands)), width=16)
        self.op(mnemonic)

    def evmmax(self, mnemonic: str, out: Register, x: Register, y: Register, count: int = 1,
               strides: Tuple[int, int, int] = (1, 1, 1)) -> None:
        """An EVMMAX vector op on registers (indices, or register-space slots whose offset
        is 48 bytes per register): ``count`` elements, operands advancing by ``strides``."""
        if mnemonic not in EVMMAX_VECTOR_MNEMONICS:
            raise ValueError(f"{mnemonic} is not an EVMMAX arithmetic opcode")

        def immediates() -> Tuple[int, ...]:
            values = (register_index(out), strides[0], register_index(x), strides[1],
                      register_index(y), strides[2], count)
            if not all(0 <= v < 256 for v in values):
                raise ValueError(f"{mnemonic} immediates do not fit a byte: {values}")
            return values
        self.items.append(_Vector(tuple(self._path), EVMMAX_BY_NAME[mnemonic].code, immediates))

    def evmmax_op(self, mnemonic: str) -> None:
        """SETMODX, LOADX or STOREX (stack operands only)."""
        if mnemonic not in EVMMAX_TRANSFER_MNEMONICS:
            raise ValueError(f"{mnemonic} is not an EVMMAX transfer opcode")
        self.items.append(_Op(tuple(self._path), EVMMAX_BY_NAME[mnemonic].code))

    def late_block(self, key: object, make: Callable[[], B]) -> B:
        """The block of late code (:class:`LateCode`) made for ``key`` if it is the last
        item of the code, else a new one (``make()``) appended: a target adds operations
        to it until anything else is emitted."""
        last = self.items[-1] if self.items else None
        if isinstance(last, _Late) and last.key is key:
            return last.owner  # type: ignore[return-value]
        block = make()
        self.items.append(_Late(tuple(self._path), key, block))
        return block

    def data(self, blob: bytes, name: str = "data", label: Optional[Label] = None) -> Label:
        """Bytes appended after the code; the label gives their code offset (CODECOPY).

        Pass a ``label`` made earlier with :meth:`new_label` when code that copies the
        data was emitted before the data was known.
        """
        label = label if label is not None else self.new_label(name)
        self.items.append(_Data(tuple(self._path), label, bytes(blob)))
        return label

    # --- subroutines --------------------------------------------------------------------

    def subroutine(self, name: str, body: Callable[..., None],
                   params: Optional[Dict[str, Union[Type[Slot], Slot]]] = None) -> Subroutine:
        """Declare (once per name) a subroutine; its body is emitted if it is called.

        Declaring a name again returns the first declaration; binding it to other slots
        than the first time is an error (the body is emitted once, for one binding).
        """
        if name in self._subroutines:
            sub = self._subroutines[name]
            for key, kind in (params or {}).items():
                bound = sub.args.get(key)
                if isinstance(kind, Slot) and (bound is None or bound.region is not kind.region
                                               or bound.rel != kind.rel):
                    raise ValueError(f"subroutine {name!r} is already bound to other slots")
            return sub
        sub = Subroutine(self, name, body, params)
        self._subroutines[name] = sub
        return sub

    def call(self, sub: Subroutine, at: Optional[Label] = None,
             arguments: Optional[Callable[[], None]] = None) -> None:
        """Call ``sub``: the return address goes on the stack, the body jumps back to it.

        ``at`` enters the body at one of its own labels instead of the start (a body can
        offer several entry points, e.g. into a run of repeated steps); ``arguments()``
        emits code between the return address's push and the jump (the arguments the body
        takes over its return address).
        """
        back = self.new_label(f"ret_{sub.name}")
        self.push(back)
        if arguments is not None:
            arguments()
        self.jump(at if at is not None else sub.entry)
        self.place(back)
        self.schedule(sub)

    def schedule(self, sub: Subroutine) -> None:
        """Emit ``sub``'s body with the called ones, as called from here (its frame apart
        from this one's), for code that jumps into it without :meth:`call` (e.g. with a
        return address it pushed itself, out of the hot path)."""
        if self.memory.registers is not None:      # frames on one call chain must not share
            self.memory.registers.calls.setdefault(self.frame.name, set()).add(
                f"{sub.name}.frame")
        if not sub.emitted:
            sub.emitted = True
            self._pending.append(sub)

    def _emit_subroutine(self, sub: Subroutine) -> None:
        saved_path, saved_frame = self._path, self.frame
        self._path = [sub.name]
        self.frame = self.memory.region(f"{sub.name}.frame", frame=True)
        try:
            self.place(sub.entry)
            sub.body(self, **sub.args)
            self.op("JUMP")                   # to the return address the caller pushed
        finally:
            self._path, self.frame = saved_path, saved_frame

    # --- assembly -----------------------------------------------------------------------

    def emit_pending(self) -> None:
        """Emit the bodies of the subroutines called so far (and of those they call).
        Their place in the code does not depend on when: data always follows the code."""
        while self._pending:
            self._emit_subroutine(self._pending.pop(0))

    def assemble(self) -> Program:
        """Emit pending subroutines, link memory, lay out and encode the code."""
        self.emit_pending()
        self.memory.link()
        items: List[_Item] = []
        for item in self.items:
            if isinstance(item, _Late):
                items += [_Raw(path, blob) for path, blob in item.owner.segments()]
            else:
                items.append(item)
        code_items = [item for item in items if not isinstance(item, _Data)]
        data_items = [item for item in items if isinstance(item, _Data)]
        ordered = code_items + data_items
        widths = {id(item): _static_width(item) for item in ordered if isinstance(item, _Push)}
        while True:
            self._layout(ordered, widths)
            grown = False
            for item in ordered:
                if isinstance(item, _Push) and item.width is None:
                    need = max(1, (_value(item.value).bit_length() + 7) // 8)
                    if need > widths[id(item)]:
                        widths[id(item)] = need
                        grown = True
            if not grown:
                break
        code = bytearray()
        source_map = SourceMap()
        labels: Dict[str, int] = {}
        last_label: Optional[str] = None
        code_size = 0
        for item in ordered:
            if isinstance(item, (_Place, _Data)):
                labels[item.label.name] = item.label.pc  # type: ignore[assignment]
                last_label = item.label.name
            if isinstance(item, _Data) and not code_size:
                code_size = len(code)
            if not (isinstance(item, _Place) and not item.jumpdest):
                source_map.add(len(code), Location(item.path, last_label))
            code += _encode(item, widths)
        return Program(bytes(code), code_size or len(code), labels, source_map, self.memory,
                       self.opcodes)

    @staticmethod
    def _layout(items: Sequence[_Item], widths: Dict[int, int]) -> int:
        pc = 0
        for item in items:
            if isinstance(item, (_Place, _Data)):
                item.label.pc = pc
            pc += _size(item, widths)
        return pc


def register_index(register: Register) -> int:
    """A register's index: an int as it is, a register-space slot by its offset."""
    if isinstance(register, int):
        return register
    offset = register.offset
    if offset % FP_BYTES:
        raise ValueError(f"{register!r} is not at a register boundary")
    return offset // FP_BYTES


def _value(value: Union[int, Label, Slot, Callable[[], int]]) -> int:
    if isinstance(value, int):
        return value
    if isinstance(value, Label):
        if value.pc is None:
            raise ValueError(f"label {value.name} is used but never placed")
        return value.pc
    if isinstance(value, Slot):
        return value.offset
    return int(value())


def _static_width(item: _Push) -> int:
    if item.width is not None:
        return item.width
    if isinstance(item.value, Label):
        return 1                      # grown by relaxation
    return max(1, (_value(item.value).bit_length() + 7) // 8)


def _size(item: _Item, widths: Dict[int, int]) -> int:
    if isinstance(item, _Op):
        return 1
    if isinstance(item, _Vector):
        return 8
    if isinstance(item, _Raw):
        return len(item.blob)
    if isinstance(item, _Push):
        return 1 + widths[id(item)]
    if isinstance(item, _Place):
        return 1 if item.jumpdest else 0
    assert isinstance(item, _Data)
    return len(item.blob)


def _encode(item: _Item, widths: Dict[int, int]) -> bytes:
    if isinstance(item, _Op):
        return bytes([item.code])
    if isinstance(item, _Vector):
        return bytes([item.code, *item.immediates()])
    if isinstance(item, _Raw):
        return item.blob
    if isinstance(item, _Push):
        width = widths[id(item)]
        value = _value(item.value)
        if value >= 1 << (8 * width):
            raise ValueError(f"value {value:#x} does not fit PUSH{width}")
        return bytes([lookup(f"PUSH{width}").code]) + value.to_bytes(width, "big")
    if isinstance(item, _Place):
        return bytes([lookup("JUMPDEST").code]) if item.jumpdest else b""
    assert isinstance(item, _Data)
    return item.blob
