"""What a Groth16 verifier needs of its curve, as data (one record per curve, resolved
once from its name): the curve's description, its groups in Python, the proof's encoding
in calldata (the precompile-based verifiers': EIP-196/197 for BN254, EIP-2537 for
BLS12-381), the hinted pairing check's prover, and the EVM code that reads and checks
those encodings (the curve's precompile contracts' own)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Sequence, Tuple

from ..asm import G1, Label, Slot
from ..bls12_381.calldata import pairs_from_eip2537
from ..bls12_381.eip2537_io import decode_fields
from ..bls12_381.hint import pairing_hint as bls12_381_pairing_hint
from ..bn254 import hinted as bn254_hinted
from ..bn254.contracts import check_g2_subgroup as bn254_check_g2_subgroup, load_pairs
from ..bn254.hint import pairing_hint as bn254_pairing_hint
from ..bn254.io import constant, g1_offsets, g2_offsets, load_values
from ..bn254.points import encode_g1 as bn254_encode_g1, encode_g2 as bn254_encode_g2
from ..curves import eip2537
from ..curves.bls12_381 import BLS12_381
from ..curves.bn254 import BN254
from ..curves.model import PairingCurve
from ..curves.points import Affine, Group, pairing_groups
from ..ec import bls12_hinted, eip2537_input
from ..ec.bls12_subgroups import require_g1_in_subgroup
from ..tower.fp import Emitter
from ..tower.pairing import MillerLoop

# emits: the point at a constant calldata offset into a G1 or G2 slot, in the target's
# form; a coordinate >= p (or a bad encoding) jumps to the label
LoadPoint = Callable[[Emitter, Slot, int, Label], None]


@dataclass(frozen=True)
class Groth16Curve:
    """A curve's Groth16 facts. ``encode_g1`` / ``encode_g2``: a point as its calldata
    bytes (infinity: all zero); ``pairing_hint``: the hinted check's hint for pairs
    encoded as its prover reads them (``encode_g1(P) + encode_g2(Q)`` each). The code:
    ``load_g1`` / ``load_g2`` read a point (range-checked, not its curve);
    ``read_hint(e, fail)`` the hint at the end of calldata; ``require_g1_subgroup(e, P,
    fail)`` a point of the curve in the order-r subgroup (None where G1 has no cofactor:
    every point of the curve is in it); ``check_g2_subgroup(e, loop, fail)`` each pair's Q, after the Miller loop;
    ``load_pairs(e, loop, fail)`` the pairs in calldata as the prover reads them."""
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
    targets: Tuple[str, ...]
    load_g1: LoadPoint
    load_g2: LoadPoint
    read_hint: Callable[[Emitter, Label], Slot]
    require_g1_subgroup: Optional[Callable[[Emitter, G1, Label], None]]
    check_g2_subgroup: Callable[[Emitter, MillerLoop, Label], None]
    load_pairs: Callable[[Emitter, MillerLoop, Label], None]

    @property
    def g1_bytes(self) -> int:
        return len(self.encode_g1(None))

    @property
    def g2_bytes(self) -> int:
        return len(self.encode_g2(None))

    @property
    def proof_bytes(self) -> int:
        """A, B, C in calldata."""
        return 2 * self.g1_bytes + self.g2_bytes

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


def _words_loader(offsets: Callable) -> LoadPoint:
    """EIP-196/197's 32-byte words (G2's in its order: ``g2_offsets``)."""
    def load(e: Emitter, slot: Slot, at: int, fail: Label) -> None:
        load_values(e, slot, offsets(e, constant(e, at)), fail)
    return load


def _load_eip2537(e: Emitter, slot: Slot, at: int, fail: Label) -> None:
    """EIP-2537's 64-byte field elements (padding checked). EVM384 decodes in place and
    writes 16 zero bytes past ``slot``: the caller loads a pair state's Q before its P,
    whose T is written after both."""
    e.asm.push(at)
    decode_fields(e, slot, fail)
    e.asm.op("POP")


def _bls12_381_hint(data: bytes) -> bytes:
    return bls12_381_pairing_hint(pairs_from_eip2537(data))


_BN254_G1, _BN254_G2 = pairing_groups(BN254)
BN254_GROTH16 = Groth16Curve(
    "bn254", "bn128", ("bn254", "bn128", "alt_bn128"), BN254, _BN254_G1, _BN254_G2,
    bn254_encode_g1, bn254_encode_g2, bn254_pairing_hint, bn254_hinted.HINT_BYTES, 32,
    ("evmmax", "evm384", "evm"), _words_loader(g1_offsets), _words_loader(g2_offsets),
    bn254_hinted.read_hint, None, bn254_check_g2_subgroup, load_pairs)
_BLS_G1, _BLS_G2 = pairing_groups(BLS12_381)
BLS12_381_GROTH16 = Groth16Curve(
    "bls12_381", "bls12381", ("bls12_381", "bls12381", "bls12-381"), BLS12_381, _BLS_G1,
    _BLS_G2, eip2537.encode_g1, eip2537.encode_g2, _bls12_381_hint,
    bls12_hinted.HINT_BYTES, 32, ("evmmax", "evm384"), _load_eip2537, _load_eip2537,
    bls12_hinted.read_hint, require_g1_in_subgroup, eip2537_input.check_g2_subgroup,
    eip2537_input.load)

CURVES: Dict[str, Groth16Curve] = {alias: spec
                                   for spec in (BN254_GROTH16, BLS12_381_GROTH16)
                                   for alias in spec.aliases}


def resolve_curve(name: str) -> Groth16Curve:
    """The curve record of ``name`` (snarkjs's "bn128" and "bls12381" included)."""
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
