"""Montgomery-form helpers for a modulus m and R = 2**384 (EVM384), or R = 2**(64 * limbs)
for another limb count (EVM768: twelve)."""
from __future__ import annotations

from .limbs import LIMB_BITS, LIMBS384

R_BITS = 384


def _check_odd_modulus(mod: int, limbs: int = LIMBS384) -> None:
    if not isinstance(mod, int) or isinstance(mod, bool):
        raise TypeError(f"modulus must be an int, not {type(mod).__name__}")
    bits = LIMB_BITS * limbs
    if not 1 < mod < 1 << bits or mod % 2 == 0:
        raise ValueError(f"modulus must be odd and in (1, 2**{bits}), got {mod:#x}")


def montgomery_inv(mod: int, limbs: int = LIMBS384) -> int:
    """The 64-bit constant inv = -mod**-1 mod 2**64 that MULMODMONT384 (MULMODMONT768 at
    ``limbs`` 12) reads after mod."""
    _check_odd_modulus(mod, limbs)
    return (-pow(mod, -1, 1 << LIMB_BITS)) % (1 << LIMB_BITS)


def to_montgomery(value: int, mod: int, limbs: int = LIMBS384) -> int:
    """value * R mod m, R = 2**(64 * limbs) (2**384 by default)."""
    _check_odd_modulus(mod, limbs)
    return (value << (LIMB_BITS * limbs)) % mod


def from_montgomery(value: int, mod: int, limbs: int = LIMBS384) -> int:
    """value / R mod m, R = 2**(64 * limbs) (2**384 by default)."""
    _check_odd_modulus(mod, limbs)
    return value * pow(1 << (LIMB_BITS * limbs), -1, mod) % mod
