"""What a Groth16 verifier needs of its curve, as data (one record per curve, resolved
once from its name): the curve's description, its groups in Python, the proof's encoding
in calldata (the precompile-based verifiers'), and the hinted pairing check's prover."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Sequence, Tuple

from ..bn254.hint import pairing_hint as bn254_pairing_hint
from ..bn254.hinted import HINT_BYTES as BN254_HINT_BYTES
from ..bn254.points import encode_g1 as bn254_encode_g1, encode_g2 as bn254_encode_g2
from ..curves.bn254 import BN254
from ..curves.model import PairingCurve
from ..curves.points import Affine, Group, pairing_groups


@dataclass(frozen=True)
class Groth16Curve:
    """A curve's Groth16 facts. ``encode_g1`` / ``encode_g2``: a point as its calldata
    bytes (infinity: all zero); ``pairing_hint``: the hinted check's hint for pairs
    encoded as its prover reads them (``encode_g1(P) + encode_g2(Q)`` each)."""
    name: str
    snarkjs_name: str                              # its "curve" in snarkjs's JSON
    aliases: Tuple[str, ...]
    curve: PairingCurve
    g1: Group
    g2: Group
    encode_g1: Callable[[Affine], bytes]
    encode_g2: Callable[[Affine], bytes]
    pairing_hint: Callable[[bytes], bytes]
    hint_bytes: int
    scalar_bytes: int

    @property
    def proof_bytes(self) -> int:
        """A, B, C in calldata."""
        return 2 * len(self.encode_g1(None)) + len(self.encode_g2(None))

    def check_key_points(self, alpha: Affine, beta: Affine, gamma: Affine, delta: Affine,
                         ic: Sequence[Tuple[int, int]]) -> None:
        """ValueError unless every point of a verifying key is on its curve and in the
        order-r subgroup, alpha .. delta not at infinity (a verifier for such a key would
        prove nothing); ic[i] may be infinity, (0, 0)."""
        points = [("alpha", self.g1, alpha), ("beta", self.g2, beta),
                  ("gamma", self.g2, gamma), ("delta", self.g2, delta)]
        for name, group, point in points:
            if not group.is_on_curve(point) or any(v >= self.curve.p for v in _values(point)):
                raise ValueError(f"{name} is not a point of {self.name}'s "
                                 f"{'G1' if group is self.g1 else 'G2'}")
            if group.multiply(point, self.curve.r) is not None:
                raise ValueError(f"{name} is not in the order-r subgroup")
        for i, point in enumerate(ic):
            if any(v >= self.curve.p for v in point) or \
                    (point != (0, 0) and not self.g1.is_on_curve(point)):
                raise ValueError(f"ic[{i}] is not a point of {self.name}'s G1")
            if point != (0, 0) and self.g1.multiply(point, self.curve.r) is not None:
                raise ValueError(f"ic[{i}] is not in the order-r subgroup")

    def g1_point(self, point: Tuple[int, int]) -> Affine:
        """A key's or proof's G1 value as a group point ((0, 0): infinity)."""
        return None if point == (0, 0) else point


def _values(point: Tuple) -> Sequence[int]:
    x, y = point
    return [*x, *y] if isinstance(x, tuple) else [x, y]


_BN254_G1, _BN254_G2 = pairing_groups(BN254)
BN254_GROTH16 = Groth16Curve("bn254", "bn128", ("bn254", "bn128", "alt_bn128"), BN254, _BN254_G1,
                             _BN254_G2, bn254_encode_g1, bn254_encode_g2, bn254_pairing_hint,
                             BN254_HINT_BYTES, 32)

CURVES: Dict[str, Groth16Curve] = {alias: spec for spec in (BN254_GROTH16,)
                                   for alias in spec.aliases}


def resolve_curve(name: str) -> Groth16Curve:
    """The curve record of ``name`` (snarkjs's "bn128" included)."""
    if isinstance(name, Groth16Curve):
        return name
    spec = CURVES.get(str(name).lower())
    if spec is None:
        raise ValueError(f"unknown curve {name!r}; choose one of {', '.join(sorted(CURVES))}")
    return spec


def curve_of_base_field(p: int) -> Groth16Curve:
    """The curve whose base field has modulus ``p``."""
    for spec in CURVES.values():
        if spec.curve.p == p:
            return spec
    raise ValueError(f"no Groth16 curve has base field modulus {p}")
