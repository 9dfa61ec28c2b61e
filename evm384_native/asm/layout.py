"""Memory layout: named, typed slots so that generated code never hand-writes offsets.

Memory is a list of :class:`Region`\\ s (constants, inputs, one frame per subroutine,
...). A region hands out slots with a bump pointer; :meth:`Region.scope` releases
temporaries on exit, so nested macros reuse the same bytes. A region's size is the
high-water mark of its pointer, so offsets are only known once every piece of code has
been generated: :meth:`Memory.link` then places the regions one after another. Slots
resolve lazily (``int(slot)``), which is why code can be generated before linking.

With a register space (:class:`RegisterSpace`, the EVMMAX target), slots of field types
(made of Fp) are allocated there instead: their "offset" is a byte offset into the
register file, a register index times 48. Frames of subroutines that are never live at
the same time share registers (:meth:`RegisterSpace.link` stacks them along the call
graph), since an EVMMAX register file holds at most 256 values.

Slot types follow blst's memory order (``../shared/docs/evm384-spec.md`` §2):
Fp is 48 bytes LE; Fp2 = c0‖c1; Fp6 = c0‖c1‖c2; Fp12 = c0‖c1; G1 = x‖y;
G2 = x‖y; G2 projective/Jacobian = x‖y‖z.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import (ClassVar, Dict, Iterator, List, Optional, Set, Tuple, Type, TypeVar,
                    get_type_hints)

FP_BYTES = 48
WORD = 32

S = TypeVar("S", bound="Slot")


class Slot:
    """``size`` bytes at a fixed place inside a region; ``int(slot)`` is its offset.

    A slot type with parts declares them as annotations, in memory order (``c0: Fp``);
    ``fields`` and ``size`` follow from them, and type checkers see the parts' types."""
    size: ClassVar[int] = 0
    fields: ClassVar[Tuple[Tuple[str, type], ...]] = ()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("__annotations__", {})
        if declared:
            hints = get_type_hints(cls)
            cls.fields = tuple((name, hints[name]) for name in declared)
            cls.size = sum(kind.size for _, kind in cls.fields)

    def __init__(self, region: "Region", rel: int, name: str) -> None:
        self.region, self.rel, self.name = region, rel, name

    @property
    def offset(self) -> int:
        return self.region.base_offset() + self.rel

    def __int__(self) -> int:
        return self.offset

    def __index__(self) -> int:
        return self.offset

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name})"

    def part(self, kind: Type[S], rel: int, name: str) -> S:
        """A sub-slot ``rel`` bytes into this one."""
        if rel < 0 or rel + kind.size > self.size:
            raise ValueError(f"{name}: {kind.__name__} at +{rel} is outside {self!r}")
        return kind(self.region, self.rel + rel, f"{self.name}.{name}")

    def __getattr__(self, attr: str) -> "Slot":
        rel = 0
        for name, kind in type(self).fields:
            if name == attr:
                return self.part(kind, rel, name)
            rel += kind.size
        raise AttributeError(f"{type(self).__name__} has no field {attr!r}")

    def children(self) -> List["Slot"]:
        return [getattr(self, name) for name, _ in type(self).fields]

    def fps(self) -> List["Fp"]:
        """Every Fp inside, in memory order."""
        if isinstance(self, Fp):
            return [self]
        return [fp for child in self.children() for fp in child.fps()]


def is_field(kind: Type[Slot]) -> bool:
    """Whether a slot type is made of Fp values only (a register type under EVMMAX)."""
    if issubclass(kind, Fp):
        return True
    return bool(kind.fields) and all(is_field(part) for _, part in kind.fields)


def raw(size: int) -> Type[Slot]:
    """A slot type for an untyped buffer of ``size`` bytes."""
    return type(f"Raw{size}", (Slot,), {"size": size})


def struct(name: str, *fields: Tuple[str, Type[Slot]]) -> Type[Slot]:
    """A slot type made of named fields in order, e.g. ``struct("Pair", ("p", G1), ("q", G2))``."""
    return type(name, (Slot,), {"fields": tuple(fields),
                                "size": sum(kind.size for _, kind in fields)})


def array(kind: Type[Slot], count: int) -> Type[Slot]:
    """A slot type holding ``count`` consecutive ``kind`` slots (fields e0, e1, ...)."""
    fields = tuple((f"e{i}", kind) for i in range(count))
    return type(f"{kind.__name__}x{count}", (Slot,),
                {"size": kind.size * count, "fields": fields})


class Fp(Slot):
    size = FP_BYTES


class Fp2(Slot):
    c0: Fp
    c1: Fp


class Fp6(Slot):
    c0: Fp2
    c1: Fp2
    c2: Fp2


class Fp12(Slot):
    c0: Fp6
    c1: Fp6


class G1(Slot):
    """Affine G1 point x‖y."""
    x: Fp
    y: Fp


class G2(Slot):
    """Affine G2 point x‖y."""
    x: Fp2
    y: Fp2


class G1Jacobian(Slot):
    """G1 point in Jacobian coordinates x‖y‖z."""
    x: Fp
    y: Fp
    z: Fp


class G2Jacobian(Slot):
    """G2 point in Jacobian coordinates x‖y‖z."""
    x: Fp2
    y: Fp2
    z: Fp2


class Modulus(Slot):
    """A modulus followed by its 8-byte Montgomery constant, as MULMODMONT384 reads it."""
    size = FP_BYTES + 8


class Region:
    """A named part of memory whose slots are allocated with a bump pointer."""

    def __init__(self, memory: "Memory", name: str, frame: bool = False) -> None:
        self.memory, self.name, self.frame = memory, name, frame
        self.top = 0
        self.size = 0
        self.base: Optional[int] = None
        self.allocations: List[Slot] = []
        self.released = False          # its bytes are dead: regions after it may reuse them
        self.last = False              # linked after the other regions

    def base_offset(self) -> int:
        if self.base is None:
            raise RuntimeError(f"memory region {self.name!r} is not linked yet")
        return self.base

    def _registers(self) -> Optional["Region"]:
        """This region's part in the register space (created on first use), if any."""
        space = self.memory.registers
        if space is None:
            return None
        twin = space.by_name.get(self.name)
        return twin if twin is not None else space.region(self.name, self.frame)

    def alloc(self, kind: Type[S], name: str) -> S:
        twin = self._registers() if is_field(kind) else None
        if twin is not None:
            return twin.alloc(kind, name)
        slot = kind(self, self.top, f"{self.name}.{name}")
        self.top += kind.size
        self.size = max(self.size, self.top)
        self.allocations.append(slot)
        return slot

    @contextmanager
    def scope(self) -> Iterator["Region"]:
        """Slots allocated inside the ``with`` block are released at its end."""
        twin = self._registers()
        mark, twin_mark = self.top, twin.top if twin is not None else 0
        try:
            yield self
        finally:
            self.top = mark
            if twin is not None:
                twin.top = twin_mark


class Memory:
    """All regions of one program, linked in creation order."""

    def __init__(self, base: int = 0, registers: Optional["RegisterSpace"] = None,
                 register_bytes: int = 0) -> None:
        self.start = base
        self.registers = registers
        self.regions: List[Region] = []
        self.by_name: Dict[str, Region] = {}
        # ``register_bytes`` (targets whose values live in memory: plain EVM's 32, EVM768's
        # 96): the register space is a region of memory, that many bytes a register, placed
        # first and sized when linked; 0: the registers are not memory (EVMMAX's)
        self.register_bytes = register_bytes
        self.register_file: Optional[Region] = (self.region("registers")
                                                if register_bytes else None)
        self.end: Optional[int] = None
        self._names_key: Optional[Tuple[int, int]] = None
        self._names_table: List[Optional[Tuple[int, str]]] = []

    def region(self, name: str, frame: bool = False, first: bool = False,
               last: bool = False) -> Region:
        """A new region; ``frame``: a subroutine's temporaries (live only while it runs);
        ``first``: linked before every other region, at the memory's start (a table whose
        offsets come from a mask needs no base added); ``last``: after every other (words
        a program may leave untouched cost no memory expansion there)."""
        if name in self.by_name:
            raise ValueError(f"memory region {name!r} already exists")
        region = Region(self, name, frame)
        region.last = last
        if first:
            self.regions.insert(0, region)
        else:
            self.regions.append(region)
        self.by_name[name] = region
        return region

    def release(self, name: str) -> None:
        """Let the regions linked after region ``name`` reuse its bytes: the program no
        longer reads them (e.g. data copied elsewhere at its start). Memory is then no
        longer zero where those regions begin."""
        self.by_name[name].released = True

    def link(self) -> int:
        """Place every region (word-aligned), and the register space if any; returns the
        end of memory. A released region does not move the regions after it."""
        if self.registers is not None:
            self.registers.link()
            if self.register_file is not None:
                self.register_file.size = self.registers.count * self.register_bytes
        offset = top = self.start
        for region in sorted(self.regions, key=lambda region: region.last):
            region.base = offset
            size = -(-region.size // WORD) * WORD
            if region.released:
                top = max(top, offset + size)
            else:
                offset += size
        self.end = max(offset, top)
        return self.end

    def name_of(self, offset: int) -> str:
        """The most specific slot name covering ``offset`` (after linking), else hex."""
        names = self._names()
        if not 0 <= offset < len(names) or names[offset] is None:
            return hex(offset)
        start, name = names[offset]
        delta = offset - start
        return name + (f"+{delta}" if delta else "")

    def _names(self) -> List[Optional[Tuple[int, str]]]:
        """(start, name) of the smallest slot (the first of equal ones) at each offset,
        made once per layout: disassembly asks for every operand of every instruction."""
        key = (self.end, sum(len(region.allocations) for region in self.regions))
        if self._names_key != key:
            names: List[Optional[Tuple[int, str]]] = [None] * (self.end or 0)
            sizes = [0] * len(names)
            for region in self.regions:
                for slot in region.allocations:
                    for fp in [slot] if not slot.fields else slot.fps():
                        start = fp.offset
                        for offset in range(start, min(start + fp.size, len(names))):
                            if names[offset] is None or fp.size < sizes[offset]:
                                names[offset], sizes[offset] = (start, fp.name), fp.size
            self._names_key, self._names_table = key, names
        return self._names_table


MAX_REGISTERS = 255     # register indices are one byte; SETMODX allocates one more


class RegisterOverflow(ValueError):
    """A program needs more EVMMAX registers than a field context holds."""


class RegisterSpace(Memory):
    """The EVMMAX register file as a memory of 48-byte values (see the module doc).

    ``calls`` maps a frame region's name to the frame regions of the subroutines it
    calls; :meth:`link` places the regions that are not frames one after another, then
    each frame above the frames of everything that calls it, so frames never live at
    the same time share registers."""

    def __init__(self, limit: Optional[int] = MAX_REGISTERS) -> None:
        super().__init__()
        self.limit = limit            # None: as many as the program needs
        self.calls: Dict[str, Set[str]] = {}

    def link(self) -> int:
        offset = 0
        frames = []
        for region in self.regions:
            if region.frame:
                frames.append(region)
            else:
                region.base = offset
                offset += region.size
        bottom = offset
        callers: Dict[str, List[str]] = {}
        for caller, callees in self.calls.items():
            for callee in callees:
                callers.setdefault(callee, []).append(caller)
        placed: Dict[str, int] = {}

        def top_of(name: str, chain: Tuple[str, ...] = ()) -> int:
            """Where the frame ``name`` ends: above every frame that calls it."""
            if name in chain:
                raise ValueError(f"recursive calls through {name!r}: frames cannot be stacked")
            if name not in placed:
                region = self.by_name.get(name)
                below = [top_of(caller, chain + (name,)) for caller in callers.get(name, ())]
                base = max(below, default=bottom)
                if region is not None:
                    region.base = base
                placed[name] = base + (region.size if region is not None else 0)
            return placed[name]

        self.end = max([bottom] + [top_of(region.name) for region in frames])
        if self.limit is not None and self.count > self.limit:
            raise RegisterOverflow(f"the program needs {self.count} EVMMAX registers; at most "
                                   f"{self.limit} fit (255 indices, one left unused by "
                                   "EIP-6690's bound on the allocation)")
        return self.end

    @property
    def count(self) -> int:
        """Registers in use (after linking)."""
        assert self.end is not None
        return self.end // FP_BYTES
