"""Exceptions raised by evm384_native."""


class Evm384Error(Exception):
    """Base class of every error this package raises on bad input."""


class MemoryRangeError(Evm384Error, ValueError):
    """An operand's byte range lies (partly) outside the memory buffer."""

    def __init__(self, operand: str, offset: int, size: int, memory_size: int) -> None:
        self.operand = operand
        self.offset = offset
        self.size = size
        self.memory_size = memory_size
        super().__init__(
            f"{operand} range [{offset}, {offset + size}) lies outside the "
            f"{memory_size}-byte memory buffer"
        )


class ImplementationUnavailableError(Evm384Error, RuntimeError):
    """The requested native implementation cannot run on this CPU or build."""
