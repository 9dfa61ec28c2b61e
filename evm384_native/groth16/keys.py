"""A Groth16 verifying key and proof as Python values: from snarkjs's JSON files
(``verification_key.json``, ``proof.json``, ``public.json``) or from coordinates, checked
once (every key point on its curve, in its order-r subgroup, not at infinity).

A G1 point is ``(x, y)``; a G2 point ``((x0, x1), (y0, y1))``, each Fp2 value as
``(c0, c1)`` = c0 + c1 u (snarkjs's order inside its JSON arrays).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Sequence, Tuple, Union

from .curves import Groth16Curve, curve_of_base_field, resolve_curve

G1Point = Tuple[int, int]
G2Point = Tuple[Tuple[int, int], Tuple[int, int]]
JsonSource = Union[str, Path, dict, list]
_SOLIDITY_CONSTANT = re.compile(r"uint256\s+constant\s+(\w+)\s*=\s*(\d+)\s*;")


def _load_json(source: JsonSource) -> Any:
    """A parsed JSON document: a dict or list as it is, else a file's path."""
    if isinstance(source, (dict, list)):
        return source
    try:
        return json.loads(Path(source).read_text())
    except OSError as error:
        raise ValueError(f"cannot read {source}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{source} is not JSON: {error}") from None


def _int(value: Any, what: str) -> int:
    try:
        return int(value, 0) if isinstance(value, str) and value.startswith("0x") \
            else int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{what}: {value!r} is not an integer") from None


def _g1_json(value: Any, what: str) -> G1Point:
    """snarkjs's G1 [x, y, z] (projective, z = 1) or [x, y]."""
    if not isinstance(value, list) or len(value) not in (2, 3):
        raise ValueError(f"{what}: expected [x, y, z], got {value!r}")
    x, y = (_int(v, what) for v in value[:2])
    if len(value) == 3 and _int(value[2], what) != 1:
        raise ValueError(f"{what}: only affine points (z = 1) are read")
    return x, y


def _g2_json(value: Any, what: str) -> G2Point:
    """snarkjs's G2 [[x0, x1], [y0, y1], [1, 0]]."""
    if not isinstance(value, list) or len(value) not in (2, 3) or \
            not all(isinstance(v, list) and len(v) == 2 for v in value):
        raise ValueError(f"{what}: expected [[x0, x1], [y0, y1], [1, 0]], got {value!r}")
    (x0, x1), (y0, y1) = ((_int(a, what), _int(b, what)) for a, b in value[:2])
    if len(value) == 3 and [_int(v, what) for v in value[2]] != [1, 0]:
        raise ValueError(f"{what}: only affine points (z = [1, 0]) are read")
    return (x0, x1), (y0, y1)


@dataclass(frozen=True)
class VerifyingKey:
    """alpha in G1, beta, gamma, delta in G2, ic[0..n] in G1 (n public inputs)."""
    curve: str
    alpha: G1Point
    beta: G2Point
    gamma: G2Point
    delta: G2Point
    ic: Tuple[G1Point, ...]

    def __init__(self, curve: str, alpha: G1Point, beta: G2Point, gamma: G2Point,
                 delta: G2Point, ic: Sequence[G1Point]) -> None:
        spec = resolve_curve(curve)
        object.__setattr__(self, "curve", spec.name)
        object.__setattr__(self, "alpha", _g1_tuple(alpha, "alpha"))
        for name, point in (("beta", beta), ("gamma", gamma), ("delta", delta)):
            object.__setattr__(self, name, _g2_tuple(point, name))
        object.__setattr__(self, "ic", tuple(_g1_tuple(p, f"ic[{i}]") for i, p in enumerate(ic)))
        if not self.ic:
            raise ValueError("a verifying key needs ic[0] (ic has one point per public "
                             "input and one more)")
        spec.check_key_points(self.alpha, self.beta, self.gamma, self.delta, self.ic)

    @property
    def spec(self) -> Groth16Curve:
        return resolve_curve(self.curve)

    @property
    def inputs(self) -> int:
        """The number of public inputs."""
        return len(self.ic) - 1

    @classmethod
    def from_snarkjs(cls, source: JsonSource) -> "VerifyingKey":
        """From snarkjs's ``verification_key.json`` (a path or the parsed dict)."""
        data = _load_json(source)
        if not isinstance(data, dict):
            raise ValueError("a snarkjs verification key is a JSON object")
        if data.get("protocol", "groth16") != "groth16":
            raise ValueError(f"not a Groth16 key: protocol {data.get('protocol')!r}")
        missing = [k for k in ("curve", "vk_alpha_1", "vk_beta_2", "vk_gamma_2",
                               "vk_delta_2", "IC") if k not in data]
        if missing:
            raise ValueError(f"the verification key lacks {', '.join(missing)}")
        key = cls(curve=data["curve"], alpha=_g1_json(data["vk_alpha_1"], "vk_alpha_1"),
                  beta=_g2_json(data["vk_beta_2"], "vk_beta_2"),
                  gamma=_g2_json(data["vk_gamma_2"], "vk_gamma_2"),
                  delta=_g2_json(data["vk_delta_2"], "vk_delta_2"),
                  ic=[_g1_json(p, f"IC[{i}]") for i, p in enumerate(data["IC"])])
        if "nPublic" in data and _int(data["nPublic"], "nPublic") != key.inputs:
            raise ValueError(f"nPublic is {data['nPublic']} but IC has {len(key.ic)} points")
        return key

    @classmethod
    def from_snarkjs_solidity(cls, source: Union[str, Path]) -> "VerifyingKey":
        """From the Solidity verifier snarkjs exports (``snarkjs zkey export
        solidityverifier``; RISC Zero's ``Groth16Verifier.sol`` is one), a file's path:
        its ``uint256 constant`` lines alphax, alphay, betax1 .. deltay2, IC0x, IC0y, ...;
        the curve is the one whose base field is its ``q``. Its G2 constants are in
        EIP-197's order: betax1 is x.c1, betax2 x.c0 (snarkjs's template)."""
        try:
            text = Path(source).read_text()
        except OSError as error:
            raise ValueError(f"cannot read {source}: {error.strerror}") from None
        values = {name: int(value) for name, value in _SOLIDITY_CONSTANT.findall(text)}
        missing = [name for name in ("q", "alphax", "alphay", *(
            f"{point}{axis}{i}" for point in ("beta", "gamma", "delta") for axis in "xy"
            for i in (1, 2)), "IC0x", "IC0y") if name not in values]
        if missing:
            raise ValueError(f"{source} is not a snarkjs Groth16 verifier: no constant "
                             f"{', '.join(missing)}")
        spec = curve_of_base_field(values["q"])

        def g2(name: str) -> G2Point:
            return ((values[f"{name}x2"], values[f"{name}x1"]),
                    (values[f"{name}y2"], values[f"{name}y1"]))
        ic = []
        while f"IC{len(ic)}x" in values:
            ic.append((values[f"IC{len(ic)}x"], values[f"IC{len(ic)}y"]))
        return cls(curve=spec.name, alpha=(values["alphax"], values["alphay"]),
                   beta=g2("beta"), gamma=g2("gamma"), delta=g2("delta"), ic=ic)

    def to_snarkjs(self) -> dict:
        """The key as snarkjs's ``verification_key.json`` (decimal strings, projective
        with z = 1; a point at infinity has z = 0)."""
        def g1(p: G1Point) -> List[str]:
            return [str(p[0]), str(p[1]), "0" if p == (0, 0) else "1"]

        def g2(p: G2Point) -> List[List[str]]:
            return [[str(v) for v in p[0]], [str(v) for v in p[1]], ["1", "0"]]
        return {"protocol": "groth16", "curve": self.spec.snarkjs_name,
                "nPublic": self.inputs, "vk_alpha_1": g1(self.alpha),
                "vk_beta_2": g2(self.beta), "vk_gamma_2": g2(self.gamma),
                "vk_delta_2": g2(self.delta), "IC": [g1(p) for p in self.ic]}


@dataclass(frozen=True)
class Proof:
    """A in G1, B in G2, C in G1 (not checked here: a verifier answers 0 for bad points)."""
    a: G1Point
    b: G2Point
    c: G1Point

    def __init__(self, a: G1Point, b: G2Point, c: G1Point) -> None:
        object.__setattr__(self, "a", _g1_tuple(a, "a"))
        object.__setattr__(self, "b", _g2_tuple(b, "b"))
        object.__setattr__(self, "c", _g1_tuple(c, "c"))

    @classmethod
    def from_snarkjs(cls, source: JsonSource) -> "Proof":
        """From snarkjs's ``proof.json`` (pi_a, pi_b, pi_c)."""
        data = _load_json(source)
        if not isinstance(data, dict) or not all(k in data for k in ("pi_a", "pi_b", "pi_c")):
            raise ValueError("a snarkjs proof is a JSON object with pi_a, pi_b and pi_c")
        return cls(_g1_json(data["pi_a"], "pi_a"), _g2_json(data["pi_b"], "pi_b"),
                   _g1_json(data["pi_c"], "pi_c"))


def public_inputs_from_snarkjs(source: JsonSource) -> List[int]:
    """snarkjs's ``public.json``: a list of decimal strings."""
    data = _load_json(source)
    if not isinstance(data, list):
        raise ValueError("snarkjs's public inputs are a JSON list")
    return [_int(v, f"public input {i}") for i, v in enumerate(data)]


def _g1_tuple(point: Any, what: str) -> G1Point:
    try:
        x, y = point
        return _plain(x, what), _plain(y, what)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what}: expected (x, y) of integers ({error})") from None


def _g2_tuple(point: Any, what: str) -> G2Point:
    try:
        (x0, x1), (y0, y1) = point
        return (_plain(x0, what), _plain(x1, what)), (_plain(y0, what), _plain(y1, what))
    except (TypeError, ValueError) as error:
        raise ValueError(f"{what}: expected ((x0, x1), (y0, y1)) of integers "
                         f"({error})") from None


def _plain(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what}: {value!r} is not an int")
    if not 0 <= value < 1 << 384:
        raise ValueError(f"{what}: {value} is out of range")
    return value
