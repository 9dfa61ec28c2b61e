"""How an execution ends before running off its code: normally or exceptionally.

Instruction semantics raise these; the dispatch loop turns them into a result.
"""
from __future__ import annotations


class Halt(Exception):
    """Execution is over."""


class Stopped(Halt):
    """STOP, RETURN or REVERT: the remaining gas is kept, ``output`` returned."""

    def __init__(self, output: bytes = b"", reverted: bool = False) -> None:
        super().__init__("revert" if reverted else "stop")
        self.output = output
        self.reverted = reverted


class ExceptionalHalt(Halt):
    """Any other end: all gas is consumed and nothing is returned."""

    reason = "exceptional halt"

    def __init__(self, reason: str | None = None) -> None:
        if reason is not None:
            self.reason = reason
        super().__init__(self.reason)


class OutOfGas(ExceptionalHalt):
    reason = "out of gas"


class StackUnderflow(ExceptionalHalt):
    reason = "stack underflow"


class StackOverflow(ExceptionalHalt):
    reason = "stack overflow"


class InvalidJump(ExceptionalHalt):
    reason = "invalid jump destination"


class ReturnDataOutOfBounds(ExceptionalHalt):
    reason = "return data out of bounds"


class InvalidOpcode(ExceptionalHalt):
    """An undefined byte, or the designated INVALID (0xfe)."""


class UnsupportedOpcode(ExceptionalHalt):
    """An opcode that needs world state, which this interpreter does not have."""


class EvmmaxAssertion(ExceptionalHalt):
    """An EIP-6690 assert failed (SETMODX, LOADX, STOREX, ADDMODX, SUBMODX, MULMODX);
    the reason names the instruction and the assert."""


class ResumeInSteps(Exception):
    """Not a halt: a body entry of several instructions found, before changing anything,
    that it cannot run them as one step (an assert would fail, or the gas run out,
    partway). The step loop runs them from ``pc`` and halts at the exact instruction;
    ``skipped`` is how many they are."""

    def __init__(self, pc: int, skipped: int) -> None:
        super().__init__(pc, skipped)
        self.pc, self.skipped = pc, skipped
