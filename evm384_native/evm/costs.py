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
from typing import ClassVar, Dict, Mapping, Sequence, Tuple, Union

LIMB_COUNTS = 12                   # 64 .. 768-bit moduli
MAX_COST = 2**32 - 1               # the C tables hold uint32


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
            values = getattr(self, field)
            if (len(values) != LIMB_COUNTS or any(
                    not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_COST
                    for v in values)):
                raise ValueError(f"cost model {self.name!r}: {field} must be {LIMB_COUNTS} "
                                 f"ints in [0, {MAX_COST}] (1..12 limbs), got {values!r}")

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
    """A model from rows ``SETMODX``, ``ADDMODX``, ``MULMODX`` (and ``SUBMODX`` = ADDMODX)."""
    if not isinstance(table, Mapping):
        raise TypeError(f"a cost table is a mapping of mnemonics to 12 gas values, "
                        f"not {type(table).__name__}")
    unknown = set(table) - {"SETMODX", "ADDMODX", "SUBMODX", "MULMODX"}
    missing = {"SETMODX", "ADDMODX", "MULMODX"} - set(table)
    if unknown or missing:
        raise ValueError("a cost table has rows SETMODX, ADDMODX, MULMODX (and SUBMODX); "
                         + (f"unknown: {', '.join(sorted(unknown))}" if unknown else
                            f"missing: {', '.join(sorted(missing))}"))
    rows = {key: tuple(values) if isinstance(values, (list, tuple)) else values
            for key, values in table.items()}
    if "SUBMODX" in rows and rows["SUBMODX"] != rows["ADDMODX"]:
        raise ValueError("SUBMODX must cost what ADDMODX costs (one table for both, as in "
                         "EIP-6690 and EIP-7747)")
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
    """A user's table from a JSON file (an object of the rows), named after the file."""
    path = Path(path)
    try:
        table = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read the cost table {str(path)!r}: {error}") from None
    return costs_from_table(table, name=path.stem)
