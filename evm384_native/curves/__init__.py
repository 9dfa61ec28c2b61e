"""Curve descriptions: data handed to the generic code (:mod:`evm384_native.tower`,
:mod:`evm384_native.ec`), and pure-Python arithmetic over them (fields, points, weierstrass)."""
from typing import Dict, Union

from .bls12_377 import BLS12_377
from .bls12_381 import BLS12_381
from .bn254 import BN254
from .model import PairingCurve

CURVES: Dict[str, PairingCurve] = {curve.name: curve
                                   for curve in (BLS12_381, BN254, BLS12_377)}


def resolve_curve(curve: Union[str, PairingCurve]) -> PairingCurve:
    """The curve named ``curve`` (a key of CURVES); a curve description as it is."""
    if isinstance(curve, PairingCurve):
        return curve
    found = CURVES.get(curve) if isinstance(curve, str) else None
    if found is None:
        raise ValueError(f"unknown curve {curve!r}; choose one of {', '.join(sorted(CURVES))}")
    return found


__all__ = ["BLS12_377", "BLS12_381", "BN254", "CURVES", "PairingCurve", "resolve_curve"]
