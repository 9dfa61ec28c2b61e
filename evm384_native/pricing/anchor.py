"""From fitted nanoseconds to gas: EIP-7904's conversion, gas = runtime / (ns per gas),
at a throughput anchor (100 Mgas/s there: 10 ns a gas), rounded up, and the cost model,
EVM384 schedule and EVM768 costs that the fits give."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Mapping

from ..evm.costs import LIMB_COUNTS, MAX_COST, EvmmaxCosts
from ..evm.gas import Evm384Schedule
from .measure import Fit

DEFAULT_MGAS_PER_S = 100.0         # EIP-7904's target
FITTED = "fitted"


@dataclass(frozen=True)
class Anchor:
    """The time one gas buys."""
    ns_per_gas: float

    def __post_init__(self) -> None:
        if not (self.ns_per_gas > 0 and math.isfinite(self.ns_per_gas)):
            raise ValueError(f"ns per gas must be a positive number, got {self.ns_per_gas!r}")

    @classmethod
    def from_mgas_per_s(cls, mgas_per_s: float) -> "Anchor":
        if not (mgas_per_s > 0 and math.isfinite(mgas_per_s)):
            raise ValueError(f"Mgas/s must be a positive number, got {mgas_per_s!r}")
        return cls(1000.0 / mgas_per_s)   # 1e9 ns/s over 1e6 gas/Mgas

    @property
    def mgas_per_s(self) -> float:
        return 1000.0 / self.ns_per_gas

    def gas(self, ns: float) -> int:
        """The gas of an operation taking ``ns``: rounded up, and at least 1 (every
        priced operation does work; a free one could be run without limit)."""
        # rounded to 1e-9 gas first, so that 20 ns at 10 ns/gas is 2 gas, not 3 by a
        # floating-point hair
        return min(MAX_COST, max(1, math.ceil(round(ns / self.ns_per_gas, 9))))

    def implied_ns(self, gas: int) -> float:
        """The time ``gas`` pays for."""
        return gas * self.ns_per_gas


def throughput(gas: int, ns: float) -> float:
    """Mgas/s of a run: ``gas`` used in ``ns``."""
    return gas * 1000.0 / ns


def fitted_costs(fits: Mapping[int, Fit], anchor: Anchor, name: str = FITTED) -> EvmmaxCosts:
    """The EVMMAX cost model of the fits by limb count (1..12): SETMODX per new context,
    ADDMODX/SUBMODX (one row: the slower of the two) and MULMODX per element. LOADX and
    STOREX are priced as MULMODX by the model (EIP-6690); their fitted ns are reported
    beside it, not priced."""
    limbs = range(1, LIMB_COUNTS + 1)
    missing = [n for n in limbs if n not in fits]
    if missing:
        raise ValueError(f"a cost model needs fits at 1..12 limbs; missing {missing}")
    return EvmmaxCosts(
        name,
        setmodx=tuple(anchor.gas(fits[n].ns["SETMODX"]) for n in limbs),
        add_sub=tuple(anchor.gas(max(fits[n].ns["ADDMODX"], fits[n].ns["SUBMODX"]))
                      for n in limbs),
        mul=tuple(anchor.gas(fits[n].ns["MULMODX"]) for n in limbs))


def fitted_schedule(fit: Fit, anchor: Anchor) -> Evm384Schedule:
    """The EVM384 schedule of a fit (each op with its PUSH16, which the engines fuse)."""
    return Evm384Schedule(anchor.gas(fit.ns["ADDMOD384"]), anchor.gas(fit.ns["SUBMOD384"]),
                          anchor.gas(fit.ns["MULMODMONT384"]))


def fitted_op_costs(fit: Fit, anchor: Anchor) -> Dict[str, int]:
    """Each priced op's gas from a fit of EVM384's interface (EVM768's: the mnemonics its
    fit has, each with its PUSH16), to set beside the per-limb model's (:mod:`..evm.gas`)."""
    return {name: anchor.gas(ns) for name, ns in fit.ns.items()
            if name.startswith(("ADDMOD", "SUBMOD", "MULMODMONT"))}
