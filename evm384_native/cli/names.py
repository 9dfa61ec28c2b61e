"""What a researcher types for a place: a pc, or for the built-in contracts a label or a
scope name (``point_madd``, as the profiler prints it), a memory offset or a slot name
(``const.one``, ``result.f.c0.c1.c0``)."""
from __future__ import annotations

from typing import Dict, List, Optional

from ..asm import Program, Slot
from .errors import CliError


def parse_int(text: str) -> Optional[int]:
    """Decimal or 0x-prefixed hex, else None."""
    try:
        return int(text, 0)
    except ValueError:
        return None


def named_pcs(program: Program) -> Dict[str, List[int]]:
    """Every name a contract's code goes by, with the pcs it names in order: its labels
    (one pc each; a data section's are left out: no instruction starts there) and its
    scopes (where each run of their code begins: :meth:`Program.scope_entries`), the names
    the profiler, ``disasm`` and ``where`` print. A label that is also a scope's name (a
    subroutine's entry) names the pcs of both."""
    names = {name: [pc] for name, pc in program.labels.items() if pc < program.code_size}
    for name, pcs in program.scope_entries().items():
        names[name] = sorted(set(names.get(name, [])) | set(pcs))
    return names


def resolve_pcs(text: str, program: Optional[Program]) -> List[int]:
    """The pcs of a number or, for a contract, of a label or scope name (a scope inlined in
    several places has several)."""
    number = parse_int(text)
    if number is not None:
        return [number]
    if program is None:
        raise CliError(f"not a pc: {text!r}")
    pcs = named_pcs(program).get(text)
    if pcs is None:
        raise CliError(f"not a pc, label or scope: {text!r} (labels lists them)")
    return pcs


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
