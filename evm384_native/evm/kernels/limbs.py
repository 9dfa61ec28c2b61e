"""Encodings of 384-bit values: Python int, 48 little-endian bytes, six uint64 limbs (and
the sizes of EVM768's 768-bit values: 96 bytes, twelve limbs)."""
from __future__ import annotations

from typing import Iterable, List

import numpy as np

BYTES384 = 48
LIMBS384 = 6
LIMB_BITS = 64
MAX384 = (1 << 384) - 1
BYTES768 = 96
LIMBS768 = 12
LIMB_MASK = (1 << LIMB_BITS) - 1


def _check_value384(value: int, name: str = "value") -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value <= MAX384:
        raise ValueError(f"{name} must be in [0, 2**384), got {value:#x}")


def check_limb_rows(array: object, name: str, limbs: int) -> np.ndarray:
    """The batch APIs' input: a C-contiguous (n, limbs) uint64 array, else TypeError/ValueError."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, not {type(array).__name__}")
    if array.dtype != np.uint64:
        raise TypeError(f"{name} must have dtype uint64, not {array.dtype}")
    if array.ndim != 2 or array.shape[1] != limbs:
        raise ValueError(f"{name} must have shape (n, {limbs}), not {array.shape}")
    if not array.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous (use np.ascontiguousarray)")
    return array


def int_to_bytes48(value: int) -> bytes:
    """The 48-byte little-endian encoding EVM384 uses in memory."""
    _check_value384(value)
    return value.to_bytes(BYTES384, "little")


def bytes48_to_int(data: bytes) -> int:
    """Inverse of :func:`int_to_bytes48`."""
    if len(data) != BYTES384:
        raise ValueError(f"expected {BYTES384} bytes, got {len(data)}")
    return int.from_bytes(data, "little")


def int_to_limbs(value: int, name: str = "value") -> np.ndarray:
    """A (6,) uint64 array, least significant limb first."""
    _check_value384(value, name)
    return np.array([(value >> (LIMB_BITS * i)) & LIMB_MASK for i in range(LIMBS384)],
                    dtype=np.uint64)


def limbs_to_int(limbs: Iterable[int]) -> int:
    """Inverse of :func:`int_to_limbs` for any sequence of six limbs."""
    limbs = [int(limb) for limb in limbs]
    if len(limbs) != LIMBS384:
        raise ValueError(f"expected {LIMBS384} limbs, got {len(limbs)}")
    return sum(limb << (LIMB_BITS * i) for i, limb in enumerate(limbs))


def ints_to_array(values: Iterable[int]) -> np.ndarray:
    """An (n, 6) uint64 array of limbs, one row per value (the batch API's input)."""
    values = list(values)
    for value in values:
        _check_value384(value)
    raw = b"".join(value.to_bytes(BYTES384, "little") for value in values)
    return np.frombuffer(raw, dtype="<u8").astype(np.uint64).reshape(len(values), LIMBS384)


def array_to_ints(array: np.ndarray) -> List[int]:
    """Inverse of :func:`ints_to_array`."""
    if array.ndim != 2 or array.shape[1] != LIMBS384:
        raise ValueError(f"expected an (n, {LIMBS384}) array, got shape {array.shape}")
    raw = np.ascontiguousarray(array, dtype="<u8").tobytes()
    return [int.from_bytes(raw[i:i + BYTES384], "little") for i in range(0, len(raw), BYTES384)]
