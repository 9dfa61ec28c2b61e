"""Implementations of the three EVM384 operations the interpreter can run on."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict

from .. import kernel, reference
from .._native import lib
from .evm384 import ADDMOD384, MULMODMONT384, SUBMOD384, Segment
from .frame import Frame

MemoryOperation = Callable[[bytearray, int, int, int, int], None]


@dataclass(frozen=True)
class Backend:
    name: str
    operations: Dict[int, MemoryOperation]       # opcode -> op(mem, out, x, y, mod)
    run_segment: Callable[[Frame, Segment], None]  # all of a segment; memory already expanded


def _native_segment(f: Frame, segment: Segment) -> None:
    count = len(segment.operations)
    memory = f.pinned if f.pinned is not None else f.native_memory()
    done = lib.evm384_run_records(memory, len(f.memory), segment.records, count)
    if done != count:  # memory was expanded to segment.end first, so this is a bug
        raise RuntimeError(f"internal error: native EVM384 block rejected record {done} "
                           f"of {segment.operations!r} with {len(f.memory)} bytes of memory")


def _one_by_one(operations: Dict[int, MemoryOperation]) -> Callable[[Frame, Segment], None]:
    def run_segment(f: Frame, segment: Segment) -> None:
        memory = f.memory
        for opcode, out, x, y, mod in segment.operations:
            operations[opcode](memory, out, x, y, mod)
    return run_segment


def _operations(module) -> Dict[int, MemoryOperation]:
    return {ADDMOD384: module.addmod384, SUBMOD384: module.submod384,
            MULMODMONT384: module.mulmodmont384}


BACKENDS: Dict[str, Backend] = {
    "native": Backend("native", _operations(kernel), _native_segment),
    "reference": Backend("reference", _operations(reference), _one_by_one(_operations(reference))),
}


def get_backend(name: str) -> Backend:
    try:
        return BACKENDS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown backend {name!r}; available backends: "
                         f"{', '.join(sorted(BACKENDS))}") from None
