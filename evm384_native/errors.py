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


# --- EVMMAX (EIP-6690) kernels: evm384_native.evm.kernels.modx, modx_reference ------

class ModulusError(Evm384Error, ValueError):
    """SETMODX refuses the modulus: ``reason`` is "too long", "too small" or "even"."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class RegisterAllocationError(Evm384Error, ValueError):
    """A register file of 0 or more than 256 registers, or over 24,576 bytes."""


class VectorError(Evm384Error, ValueError):
    """Bad vector immediates: ``reason`` is "immediate" (not a byte), "count" (zero)
    or "out_stride" (zero)."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(message)


class RegisterRangeError(Evm384Error, ValueError):
    """An operand reaches past the register file: ``operand`` is "out", "x", "y"
    (vector operations) or "registers" (LOADX/STOREX)."""

    def __init__(self, operand: str, message: str) -> None:
        self.operand = operand
        super().__init__(message)


class UnreducedValueError(Evm384Error, ValueError):
    """A value is not below the modulus (STOREX's assert, or a batch input);
    ``operand`` names the input and ``index`` the first such value (for batches:
    the first row with x or y unreduced, x named when both are)."""

    def __init__(self, operand: str, index: int, message: str) -> None:
        self.operand = operand
        self.index = index
        super().__init__(message)
