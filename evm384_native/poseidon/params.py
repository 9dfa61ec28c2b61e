"""Poseidon's parameters as circomlib defines them, over BN254's scalar field r: the x^5
S-box, width t = inputs + 1 (2..6 here), 8 full rounds and circomlib's partial rounds, and
its constants (``constants/``, copied from iden3/circomlibjs; each file's ``source`` says
from where): the original round constants and MDS matrices (:func:`original`), and the
optimised form of the Poseidon paper's appendix B (:func:`optimised`: C, S, M, P)."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Tuple

from ..curves.bn254 import BN254
from ..curves.model import PrimeField

R = BN254.r                                   # the order of BN254's G1: the hash's field
FIELD = PrimeField("bn254_fr", R)
ROUNDS_F = 8
# circomlib's N_ROUNDS_P (circuits/poseidon.circom, circomlibjs src/poseidon_reference.js)
ROUNDS_P: Dict[int, int] = {2: 56, 3: 57, 4: 56, 5: 60, 6: 60}
WIDTHS = tuple(ROUNDS_P)

_DIR = Path(__file__).parent / "constants"
Matrix = Tuple[Tuple[int, ...], ...]


@dataclass(frozen=True)
class Original:
    """The definition's constants: ``c`` the round constants (t a round, first to last),
    ``m`` the MDS matrix: a round's new state[i] is sum_j m[i][j] state[j]."""
    c: Tuple[int, ...]
    m: Matrix


@dataclass(frozen=True)
class Optimised:
    """circomlibjs' optimised constants (``src/poseidon_opt.js`` reads them so): ``c`` the
    folded round constants, ``s`` the sparse matrices of the partial rounds (2t - 1 a
    round: first row, then first column below the diagonal), ``m`` and ``p`` the full
    rounds' matrices, both applied transposed (new state[i] = sum_j m[j][i] state[j])."""
    c: Tuple[int, ...]
    s: Tuple[int, ...]
    m: Matrix
    p: Matrix


def _check_width(t: int) -> None:
    if t not in ROUNDS_P:
        raise ValueError(f"Poseidon width t must be one of {', '.join(map(str, WIDTHS))} "
                         f"(1 to {len(WIDTHS)} inputs), not {t}")


@lru_cache(maxsize=None)
def _load(name: str) -> Dict[str, List]:
    return json.loads((_DIR / name).read_text())


def _ints(values: List[str]) -> Tuple[int, ...]:
    return tuple(int(v, 16) for v in values)


def _matrix(rows: List[List[str]]) -> Matrix:
    return tuple(_ints(row) for row in rows)


def original(t: int) -> Original:
    """The round constants and MDS matrix of width ``t``."""
    _check_width(t)
    data, i = _load("poseidon_constants.json"), t - 2
    return Original(_ints(data["C"][i]), _matrix(data["M"][i]))


def optimised(t: int) -> Optimised:
    """The optimised constants of width ``t``."""
    _check_width(t)
    data, i = _load("poseidon_constants_opt.json"), t - 2
    return Optimised(_ints(data["C"][i]), _ints(data["S"][i]), _matrix(data["M"][i]),
                     _matrix(data["P"][i]))
