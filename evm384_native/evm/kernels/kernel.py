"""The native (C, via cffi) EVM384 kernels, and EVM768's (csrc/evm768.c: EVMMAX's 12-limb
kernels on 96-byte values).

Memory functions mirror :mod:`.reference`; the ``*_batch``
functions run one native call over n rows of numpy ``uint64`` limbs.

Montgomery multiplication has two implementations: ``"mulx"`` (x86-64
MULX/ADCX/ADOX, picked automatically when the CPU has BMI2 and ADX) and
``"portable"`` (plain C). Force one with :func:`use_implementation` or the
environment variable ``EVM384_NATIVE_IMPL=portable|mulx|auto`` at import.
"""
from __future__ import annotations

import os
import sys
from typing import Union

import numpy as np

from ..._native import ffi, lib
from ...errors import ImplementationUnavailableError
from .limbs import BYTES384, BYTES768, LIMB_MASK, LIMBS384, check_limb_rows, int_to_limbs
from .operands import OPERAND_NAMES, as_offsets, first_range_outside, writable_bytes

__all__ = ["addmod384", "submod384", "mulmodmont384", "addmod768", "submod768", "mulmodmont768",
           "addmod384_batch", "submod384_batch", "mulmont384_batch",
           "use_implementation", "current_implementation", "mulx_available",
           "IMPLEMENTATIONS"]

IMPLEMENTATIONS = {"auto": lib.EVM384_IMPL_AUTO, "portable": lib.EVM384_IMPL_PORTABLE,
                   "mulx": lib.EVM384_IMPL_MULX}
_NAMES = {code: name for name, code in IMPLEMENTATIONS.items()}
IMPLEMENTATION_ENV = "EVM384_NATIVE_IMPL"


def mulx_available() -> bool:
    """True when this CPU and build can run the MULX/ADX path."""
    return bool(lib.evm384_mulx_available())


def use_implementation(name: str) -> str:
    """Select the Montgomery multiplication ("auto", "portable", "mulx"); returns the one in use."""
    if name not in IMPLEMENTATIONS:
        raise ValueError(f"unknown implementation {name!r}; choose one of {sorted(IMPLEMENTATIONS)}")
    chosen = lib.evm384_select_implementation(IMPLEMENTATIONS[name])
    if chosen < 0:
        raise ImplementationUnavailableError(
            f"implementation {name!r} is not available on this CPU/build")
    return _NAMES[chosen]


def current_implementation() -> str:
    """The Montgomery multiplication now in use: "portable" or "mulx"."""
    return _NAMES[lib.evm384_current_implementation()]


def _use_environment() -> None:
    """The implementation named by EVM384_NATIVE_IMPL (unset or empty: auto)."""
    name = os.environ.get(IMPLEMENTATION_ENV, "") or "auto"
    try:
        use_implementation(name)
    except (ValueError, ImplementationUnavailableError) as error:
        raise ImplementationUnavailableError(
            f"environment variable {IMPLEMENTATION_ENV}={name!r}: {error}") from None


_use_environment()


# --- opcode semantics on memory -------------------------------------------------------

_BYTE_ARRAY = ffi.typeof("uint8_t[]")


def _run_on_memory(c_function, mem: bytearray, out: int, x: int, y: int, mod: int,
                   with_inv: bool, value_bytes: int = BYTES384) -> None:
    # The fast path takes exact ints and anything cffi can view; every other argument goes
    # through the checks the reference uses (operands.py), so both accept the same.
    if not (type(out) is int and type(x) is int and type(y) is int and type(mod) is int):
        out, x, y, mod = as_offsets((out, x, y, mod))
    try:
        # Positional require_writable: the keyword form costs twice as much per call.
        buf = ffi.from_buffer(_BYTE_ARRAY, mem, True)
    except (TypeError, BufferError, ValueError):
        writable_bytes(mem)                 # raises the reference's error
        raise
    try:
        status = c_function(buf, len(buf), out, x, y, mod)
    except OverflowError:                   # cffi rejects negative or too large offsets
        status = 1
    if status != lib.EVM384_OK:
        error = first_range_outside(len(buf), (out, x, y, mod), with_inv, value_bytes)
        assert error is not None, "C and Python disagree on the operand ranges"
        raise error


def addmod384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """ADDMOD384 on memory: mem[out] = x + y reduced once by mod (48-byte LE values)."""
    _run_on_memory(lib.evm384_addmod384_mem, mem, out, x, y, mod, False)


def submod384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """SUBMOD384 on memory: mem[out] = x - y, plus mod on borrow."""
    _run_on_memory(lib.evm384_submod384_mem, mem, out, x, y, mod, False)


def mulmodmont384(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """MULMODMONT384 on memory: CIOS x*y/2**384; the 8 bytes after mod are inv."""
    _run_on_memory(lib.evm384_mulmodmont384_mem, mem, out, x, y, mod, True)


def addmod768(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """ADDMOD768 on memory: mem[out] = x + y reduced once by mod (96-byte LE values)."""
    _run_on_memory(lib.evm768_addmod768_mem, mem, out, x, y, mod, False, BYTES768)


def submod768(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """SUBMOD768 on memory: mem[out] = x - y, plus mod on borrow."""
    _run_on_memory(lib.evm768_submod768_mem, mem, out, x, y, mod, False, BYTES768)


def mulmodmont768(mem: bytearray, out: int, x: int, y: int, mod: int) -> None:
    """MULMODMONT768 on memory: CIOS x*y/2**768; the 8 bytes after mod are inv."""
    _run_on_memory(lib.evm768_mulmodmont768_mem, mem, out, x, y, mod, True, BYTES768)


# --- batches ---------------------------------------------------------------------------

ModulusLike = Union[int, np.ndarray]
_LIMB_ARRAY = ffi.typeof("uint64_t[]")


def _modulus_limbs(mod: ModulusLike) -> np.ndarray:
    if isinstance(mod, np.ndarray):
        if mod.dtype != np.uint64 or mod.shape != (LIMBS384,):
            raise ValueError(f"mod array must be uint64 with shape ({LIMBS384},), "
                             f"not {mod.dtype} {mod.shape}")
        return np.ascontiguousarray(mod)
    return int_to_limbs(mod, "mod")


def _inv_word(inv: int) -> int:
    if not isinstance(inv, int) or isinstance(inv, bool):
        raise TypeError(f"inv must be an int, not {type(inv).__name__}")
    if not 0 <= inv <= LIMB_MASK:
        raise ValueError(f"inv must be in [0, 2**64), got {inv:#x}")
    return inv


def _batch(c_function, x: np.ndarray, y: np.ndarray, mod: ModulusLike, *extra) -> np.ndarray:
    if sys.byteorder != "little":  # the C reads uint64 rows as little-endian bytes
        raise NotImplementedError("the batch API needs a little-endian host")
    x, y = check_limb_rows(x, "x", LIMBS384), check_limb_rows(y, "y", LIMBS384)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape, not {x.shape} and {y.shape}")
    mod_limbs = _modulus_limbs(mod)
    out = np.empty_like(x)
    c_function(ffi.from_buffer(_LIMB_ARRAY, out), ffi.from_buffer(_LIMB_ARRAY, x),
               ffi.from_buffer(_LIMB_ARRAY, y), len(x), ffi.from_buffer(_LIMB_ARRAY, mod_limbs),
               *extra)
    return out


def addmod384_batch(x: np.ndarray, y: np.ndarray, mod: ModulusLike) -> np.ndarray:
    """Row-wise ADDMOD384 of two (n, 6) uint64 arrays; returns a new (n, 6) array."""
    return _batch(lib.evm384_addmod384_batch, x, y, mod)


def submod384_batch(x: np.ndarray, y: np.ndarray, mod: ModulusLike) -> np.ndarray:
    """Row-wise SUBMOD384 of two (n, 6) uint64 arrays; returns a new (n, 6) array."""
    return _batch(lib.evm384_submod384_batch, x, y, mod)


def mulmont384_batch(x: np.ndarray, y: np.ndarray, mod: ModulusLike, inv: int) -> np.ndarray:
    """Row-wise MULMODMONT384 of two (n, 6) uint64 arrays; returns a new (n, 6) array."""
    return _batch(lib.evm384_mulmont384_batch, x, y, mod, _inv_word(inv))


assert OPERAND_NAMES == ("out", "x", "y", "mod")  # status codes 1..4 follow this order
