"""Montgomery-form helpers for a modulus m and R = 2**384."""
from __future__ import annotations

from .limbs import MAX384, LIMB_BITS

R_BITS = 384


def _check_odd_modulus(mod: int) -> None:
    if not isinstance(mod, int) or isinstance(mod, bool):
        raise TypeError(f"modulus must be an int, not {type(mod).__name__}")
    if not 1 < mod <= MAX384 or mod % 2 == 0:
        raise ValueError(f"modulus must be odd and in (1, 2**384), got {mod:#x}")


def montgomery_inv(mod: int) -> int:
    """The 64-bit constant inv = -mod**-1 mod 2**64 that MULMODMONT384 reads after mod."""
    _check_odd_modulus(mod)
    return (-pow(mod, -1, 1 << LIMB_BITS)) % (1 << LIMB_BITS)


def to_montgomery(value: int, mod: int) -> int:
    """value * 2**384 mod m."""
    _check_odd_modulus(mod)
    return (value << R_BITS) % mod


def from_montgomery(value: int, mod: int) -> int:
    """value / 2**384 mod m."""
    _check_odd_modulus(mod)
    return value * pow(1 << R_BITS, -1, mod) % mod
