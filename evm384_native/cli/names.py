"""What a researcher types for a place: a pc or a label, a memory offset or a slot name
(``const.one``, ``result.f.c0.c1.c0``) for the built-in contracts."""
from __future__ import annotations

from typing import Optional

from ..asm import Program, Slot
from .errors import CliError


def parse_int(text: str) -> Optional[int]:
    """Decimal or 0x-prefixed hex, else None."""
    try:
        return int(text, 0)
    except ValueError:
        return None


def resolve_pc(text: str, program: Optional[Program]) -> int:
    """A pc from a number or, for a contract, one of its labels."""
    number = parse_int(text)
    if number is not None:
        return number
    if program is not None and text in program.labels:
        return program.labels[text]
    raise CliError(f"not a pc{' or label' if program else ''}: {text!r}")


def _slot_within(slot: Slot, name: str) -> Optional[Slot]:
    if slot.name == name:
        return slot
    if name.startswith(slot.name + "."):
        for child in slot.children():
            found = _slot_within(child, name)
            if found is not None:
                return found
    return None


def find_slot(program: Optional[Program], name: str) -> Slot:
    """The slot of a contract's memory layout called ``name``."""
    if program is not None:
        for region in program.memory.regions:
            for slot in region.allocations:
                found = _slot_within(slot, name)
                if found is not None:
                    return found
    raise CliError(f"not a memory offset{' or slot name' if program else ''}: {name!r}")
