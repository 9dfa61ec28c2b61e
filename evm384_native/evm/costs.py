"""EVMMAX cost models as data: what SETMODX, ADDMODX/SUBMODX and MULMODX (and LOADX/STOREX
per value, priced as a multiplication) cost at each limb count, for the same bytecode.

- ``eip-6690`` (default): EIP-6690's current tables (the EIP at commit f767a1e).
- ``eip-7747``: the cost table of EIP-7747 (EVMMAX for EOF; ``shared/docs/eip-7747.md``,
  "Cost table"), applied to EIP-6690's encoding: this prices the same bytecode, it does
  not build EIP-7747's 3-byte immediates. (The EIP's ``gas_*`` formulas give other
  numbers, e.g. 32 + ... for MULMODX; its table is what its text and benchmarks quote.)
- a user's table: a mapping (or a JSON file of one) of ``SETMODX``, ``ADDMODX``,
  ``MULMODX`` (and optionally ``SUBMODX``, equal to ``ADDMODX``: both EIPs and both engines
  price them alike) to 12 gas values each, for 1..12 limbs.

Both engines read the chosen model (``execute(..., costs=...)``, ``--costs`` on the
command line); power-of-two moduli keep their memory-copy transfer costs. A model prices
the opcode set named by ``EvmmaxCosts.opcodes`` alone: under EVM384 (whose ops an
:mod:`.gas` schedule prices) it changes nothing, and the command line says so.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Dict, Mapping, Optional, Sequence, Tuple, Union

LIMB_COUNTS = 12                   # 64 .. 768-bit moduli
MAX_COST = 2**32 - 1               # the C tables hold uint32
# What a user's table holds, in its own words (a table's keys are the mnemonics): errors
# say which key is wrong and what it must be.
ROW_SHAPE = (f"a list of {LIMB_COUNTS} integers in [0, {MAX_COST}] (the gas at "
             f"1..{LIMB_COUNTS} limbs)")
REQUIRED_ROWS = ("SETMODX", "ADDMODX", "MULMODX")
TABLE_SHAPE = (f"an object of {', '.join(REQUIRED_ROWS)} and optionally SUBMODX (equal to "
               f"ADDMODX), each {ROW_SHAPE}")


def _shown(value: object, limit: int = 60) -> str:
    """``value`` as a table's file spells it (JSON where it can be), cut to ``limit``."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _row_problem(values: object) -> Optional[str]:
    """What keeps ``values`` from being a row of ROW_SHAPE ("got ..."), or None."""
    if not isinstance(values, (list, tuple)):
        return f"got {_shown(values)}"
    if len(values) != LIMB_COUNTS:
        return f"got {len(values)} values"
    for limbs, value in enumerate(values, 1):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COST:
            return f"got {_shown(value)} for {limbs} limb{'s' if limbs > 1 else ''}"
    return None


@dataclass(frozen=True)
class EvmmaxCosts:
    """Gas by limb count - 1: ``setmodx`` (odd moduli: the Montgomery precomputation),
    ``add_sub`` (ADDMODX and SUBMODX, per element), ``mul`` (MULMODX per element, and
    LOADX/STOREX per value of an odd modulus)."""
    name: str
    setmodx: Tuple[int, ...]
    add_sub: Tuple[int, ...]
    mul: Tuple[int, ...]
    # the opcode set whose instructions every model prices (opcode_sets.OPCODE_SETS' name)
    opcodes: ClassVar[str] = "evmmax"

    def __post_init__(self) -> None:
        for field in ("setmodx", "add_sub", "mul"):
            problem = _row_problem(getattr(self, field))
            if problem is not None:
                raise ValueError(f"cost model {self.name!r}: {field} must be {ROW_SHAPE}; "
                                 f"{problem}")

    def table(self) -> Dict[str, Tuple[int, ...]]:
        """The model as the mnemonics' rows (what a user's table gives)."""
        return {"SETMODX": self.setmodx, "ADDMODX": self.add_sub, "SUBMODX": self.add_sub,
                "MULMODX": self.mul, "LOADX/STOREX per value": self.mul}


EIP_6690 = EvmmaxCosts(
    "eip-6690",
    setmodx=(23, 26, 29, 32, 36, 39, 42, 45, 48, 51, 54, 58),
    add_sub=(1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2),
    mul=(1, 1, 1, 2, 2, 3, 4, 5, 7, 8, 10, 12))
EIP_7747 = EvmmaxCosts(
    "eip-7747",
    setmodx=(32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76),
    add_sub=(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3),
    mul=(2, 2, 2, 3, 3, 4, 5, 7, 8, 9, 11, 13))
COST_MODELS: Dict[str, EvmmaxCosts] = {model.name: model for model in (EIP_6690, EIP_7747)}
DEFAULT_COSTS = EIP_6690.name

CostsLike = Union[str, EvmmaxCosts, Mapping[str, Sequence[int]]]


def costs_from_table(table: Mapping[str, Sequence[int]], name: str = "custom") -> EvmmaxCosts:
    """A model from rows ``SETMODX``, ``ADDMODX``, ``MULMODX`` (and ``SUBMODX`` = ADDMODX).
    Errors name the table's keys, not the model's fields: a user wrote the one, not the
    other."""
    if not isinstance(table, Mapping):
        raise TypeError(f"a cost table must be {TABLE_SHAPE}; got {_shown(table)}")
    unknown = sorted(map(str, set(table) - {*REQUIRED_ROWS, "SUBMODX"}))
    missing = [row for row in REQUIRED_ROWS if row not in table]
    if unknown or missing:
        found = []
        if unknown:
            found.append(f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
        if missing:
            found.append(f"missing {', '.join(missing)}")
        raise ValueError(f"{'; '.join(found)} (a cost table is {TABLE_SHAPE})")
    for key, values in table.items():
        problem = _row_problem(values)
        if problem is not None:
            raise ValueError(f"{key} must be {ROW_SHAPE}; {problem}")
    rows = {key: tuple(values) for key, values in table.items()}
    if "SUBMODX" in rows and rows["SUBMODX"] != rows["ADDMODX"]:
        raise ValueError("SUBMODX must cost what ADDMODX costs (one row prices both, as in "
                         "EIP-6690 and EIP-7747), or be left out")
    return EvmmaxCosts(name, rows["SETMODX"], rows["ADDMODX"], rows["MULMODX"])


def resolve_costs(costs: CostsLike) -> EvmmaxCosts:
    """A model by name ("eip-6690", "eip-7747"), a model itself, or a user's table."""
    if isinstance(costs, EvmmaxCosts):
        return costs
    if isinstance(costs, str):
        found = COST_MODELS.get(costs)
        if found is None:
            raise ValueError(f"unknown EVMMAX cost model {costs!r}; choose one of "
                             f"{', '.join(COST_MODELS)}, or give a table")
        return found
    return costs_from_table(costs)


def load_costs(path: Union[str, Path]) -> EvmmaxCosts:
    """A user's table from a JSON file (an object of the rows), named after the file. Every
    error names the file."""
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, ValueError) as error:      # ValueError: not UTF-8
        raise ValueError(f"cannot read the cost table {str(path)!r}: "
                         f"{getattr(error, 'strerror', None) or error}") from None
    try:
        return costs_from_table(json.loads(text), name=path.stem)
    except json.JSONDecodeError as error:
        raise ValueError(f"cost table {str(path)!r}: not JSON: {error}") from None
    except (TypeError, ValueError) as error:
        raise ValueError(f"cost table {str(path)!r}: {error}") from None
