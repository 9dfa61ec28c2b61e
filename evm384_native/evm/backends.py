"""Implementations of the EVM384, EVM768 and EVMMAX operations the interpreter can run on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict

from .._native import lib
from .evm384 import ADDMOD384, MCOPY, MULMODMONT384, SUBMOD384, Segment
from .evm768 import ADDMOD768, MULMODMONT768, SUBMOD768
from .frame import Frame
from .instructions import copy_within
from .kernels import kernel, modx, modx_reference, reference

MemoryOperation = Callable[[bytearray, int, int, int, int], None]


@dataclass(frozen=True)
class Backend:
    name: str
    operations: Dict[int, MemoryOperation]       # opcode -> op(mem, out, x, y, mod)
    # one operation on the frame's memory, already expanded: (frame, opcode, out, x, y, mod)
    run_one: Callable[[Frame, int, int, int, int, int], None]
    run_segment: Callable[[Frame, Segment], None]  # all of a segment; memory already expanded
    modx: Any                                      # EVMMAX: modx or modx_reference
    evm768: Dict[int, MemoryOperation]             # EVM768: opcode -> op(mem, out, x, y, mod)


_NATIVE_ON_MEMORY = {ADDMOD384: lib.evm384_addmod384_mem, SUBMOD384: lib.evm384_submod384_mem,
                     MULMODMONT384: lib.evm384_mulmodmont384_mem}


def _native_one(f: Frame, opcode: int, out: int, x: int, y: int, mod: int) -> None:
    """The C operation straight on the frame's pinned memory: no per-call buffer view
    and argument checks (they cost more than the arithmetic)."""
    memory = f.pinned if f.pinned is not None else f.native_memory()
    if _NATIVE_ON_MEMORY[opcode](memory, len(f.memory), out, x, y, mod) != lib.EVM384_OK:
        raise RuntimeError(f"internal error: native EVM384 op 0x{opcode:02x} rejected offsets "
                           f"{(out, x, y, mod)} with {len(f.memory)} bytes of memory")


def _on_bytearray(operations: Dict[int, MemoryOperation]) -> Callable[..., None]:
    def run_one(f: Frame, opcode: int, out: int, x: int, y: int, mod: int) -> None:
        operations[opcode](f.memory, out, x, y, mod)
    return run_one


_run_records = lib.evm384_run_records  # looked up once: a cffi lib attribute costs a call


def _native_segment(f: Frame, segment: Segment) -> None:
    count = segment.count
    memory = f.pinned if f.pinned is not None else f.native_memory()
    done = _run_records(memory, len(f.memory), segment.records, count)
    if done != count:  # memory was expanded to segment.end first, so this is a bug
        raise RuntimeError(f"internal error: native EVM384 block rejected record {done} "
                           f"of {segment.operations!r} with {len(f.memory)} bytes of memory")


def _copy(memory: bytearray, dest: int, source: int, size: int, _: int) -> None:
    """A segment's MCOPY record (see :mod:`.evm384`)."""
    copy_within(memory, dest, source, size)


def _one_by_one(operations: Dict[int, MemoryOperation]) -> Callable[[Frame, Segment], None]:
    by_opcode = {**operations, MCOPY: _copy}

    def run_segment(f: Frame, segment: Segment) -> None:
        memory = f.memory
        for opcode, out, x, y, mod in segment.operations:
            by_opcode[opcode](memory, out, x, y, mod)
    return run_segment


def _operations(module) -> Dict[int, MemoryOperation]:
    return {ADDMOD384: module.addmod384, SUBMOD384: module.submod384,
            MULMODMONT384: module.mulmodmont384}


def _operations768(module) -> Dict[int, MemoryOperation]:
    return {ADDMOD768: module.addmod768, SUBMOD768: module.submod768,
            MULMODMONT768: module.mulmodmont768}


BACKENDS: Dict[str, Backend] = {
    "native": Backend("native", _operations(kernel), _native_one, _native_segment,
                      modx, _operations768(kernel)),
    "reference": Backend("reference", _operations(reference), _on_bytearray(_operations(reference)),
                         _one_by_one(_operations(reference)), modx_reference,
                         _operations768(reference)),
}


def get_backend(name: str) -> Backend:
    try:
        return BACKENDS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown backend {name!r}; available backends: "
                         f"{', '.join(sorted(BACKENDS))}") from None
