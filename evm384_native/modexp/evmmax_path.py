"""Placeholder: the multi-word path is being written (issue 50)."""
from ..asm import Assembler, Label


def emit_native(asm: Assembler, entry: Label) -> None:
    asm.place(entry)
    asm.op("INVALID")
