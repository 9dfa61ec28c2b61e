"""evm384_native: EVM384 opcodes as native kernels, an EVM to run them, and tools."""
from .errors import Evm384Error, ImplementationUnavailableError, MemoryRangeError
from .evm import ExecutionResult, execute

__version__ = "0.1.0"
__all__ = ["Evm384Error", "ImplementationUnavailableError", "MemoryRangeError", "__version__",
           "execute", "ExecutionResult"]
