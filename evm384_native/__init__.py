"""evm384_native: EVM384 opcodes as native kernels, an EVM to run them, and tools."""
from typing import Any

from .errors import Evm384Error, ImplementationUnavailableError, MemoryRangeError

__version__ = "0.1.0"
# The kernel modules (evm/kernels/) as the package's public names: ``from evm384_native
# import kernel, modx`` as before they moved there.
KERNEL_MODULES = ("kernel", "reference", "modx", "modx_reference", "montgomery", "limbs")
__all__ = ["Evm384Error", "ImplementationUnavailableError", "MemoryRangeError", "__version__",
           "execute", "ExecutionResult", *KERNEL_MODULES]


def __getattr__(name: str) -> Any:
    # The engine loads the native kernels, which read EVM384_NATIVE_IMPL: on first use,
    # so that importing the package (e.g. the command line's entry point) cannot fail.
    if name in ("execute", "ExecutionResult"):
        from . import evm
        return getattr(evm, name)
    if name in KERNEL_MODULES:
        from importlib import import_module
        return import_module(f".evm.kernels.{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
