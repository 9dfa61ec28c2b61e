"""Dynamic gas costs (mainnet Cancun/Prague rules) and the EVM384 gas schedules.

Static costs are in :mod:`evm384_native.evm.opcodes`; this module holds the parts that
depend on operands: memory expansion, copies, EXP and KECCAK256, and the static
costs of the three EVM384 opcodes, which depend on the chosen schedule.

A schedule also prices EVM768's three opcodes (EVM384's at 768-bit values), by the per-limb
model of EVM384's update 5 extended from six limbs to n (n = 12 for EVM768):

    gas(ADDMOD, n)     = ceil(addmod384     * n / 6)         (linear in the limbs)
    gas(SUBMOD, n)     = ceil(submod384     * n / 6)
    gas(MULMODMONT, n) = ceil(mulmodmont384 * n**2 / 36)     (quadratic: CIOS is n**2 products)

so ``update5-A`` (2/2/6) gives 4/4/24 at twelve limbs, ``update5-B`` 2/2/12, ``evmone-v7``
16/16/96. ``evm384 price`` fits EVM768's ops on measured time beside this model.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping, Union

from .opcodes import BY_NAME

WORD_BYTES = 32
MEMORY_WORD_GAS = 3
MEMORY_QUADRATIC_DIVISOR = 512
COPY_WORD_GAS = 3        # CALLDATACOPY, CODECOPY, RETURNDATACOPY, MCOPY
KECCAK256_WORD_GAS = 6
EXP_BYTE_GAS = 50        # per byte of the exponent (EIP-160)
MAX_GAS = 2**63 - 1      # EVMC's int64 gas counter: the most gas a run can have
DEFAULT_GAS = 30_000_000  # a run's gas limit when none is given (execute, the command line)


def words(size: int) -> int:
    """Number of 32-byte words needed to hold ``size`` bytes."""
    return (size + WORD_BYTES - 1) // WORD_BYTES


def memory_cost(size_words: int) -> int:
    """Total cost of a memory of ``size_words`` words (yellow paper C_mem)."""
    return MEMORY_WORD_GAS * size_words + size_words * size_words // MEMORY_QUADRATIC_DIVISOR


def memory_expansion_cost(memory_size: int, end: int) -> int:
    """Gas to grow a memory of ``memory_size`` bytes (a multiple of 32) to cover [0, end)."""
    if end <= memory_size:
        return 0
    return memory_cost(words(end)) - memory_cost(memory_size // WORD_BYTES)


def copy_cost(size: int) -> int:
    """Per-word part of a copy of ``size`` bytes."""
    return COPY_WORD_GAS * words(size)


def keccak256_cost(size: int) -> int:
    """Per-word part of KECCAK256 over ``size`` bytes."""
    return KECCAK256_WORD_GAS * words(size)


def exp_cost(exponent: int) -> int:
    """Per-byte part of EXP: 50 for each byte of the exponent's big-endian encoding."""
    return EXP_BYTE_GAS * ((exponent.bit_length() + 7) // 8)


# --- EVM384 schedules ------------------------------------------------------------------

EVM384_NAMES = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")
EVM384_LIMBS = 6          # the limbs a schedule's costs are stated at (384 bits)


def scaled_cost(cost: int, limbs: int, power: int) -> int:
    """The per-limb model: ``cost`` at six limbs times (limbs / 6) ** power, rounded up
    (power 1: additions, 2: products); above what any frame holds, MAX_GAS + 1 (out of
    gas whatever the gas: the C tables' uint64 fields hold it)."""
    scaled = -(-cost * limbs ** power // EVM384_LIMBS ** power)
    return min(scaled, MAX_GAS + 1)


@dataclass(frozen=True)
class Evm384Schedule:
    """Static gas of ADDMOD384, SUBMOD384 and MULMODMONT384, each an int in
    [0, MAX_GAS]: every engine runs any such schedule (a larger cost could never be
    paid), so a schedule is checked once, here."""
    addmod384: int
    submod384: int
    mulmodmont384: int

    def __post_init__(self) -> None:
        costs = (self.addmod384, self.submod384, self.mulmodmont384)
        for name, cost in zip(EVM384_NAMES, costs):
            if not isinstance(cost, int) or isinstance(cost, bool) or not 0 <= cost <= MAX_GAS:
                raise ValueError(f"gas of {name} must be an int in [0, 2**63 - 1], got {cost!r}")
        # hashed once: the caches of analysed code hash the schedule on every execution
        # (ints hash alike in every process, so a pickled copy's stays right)
        object.__setattr__(self, "_hash", hash(costs))

    def __hash__(self) -> int:
        return self._hash

    def by_opcode(self, limbs: int = EVM384_LIMBS) -> Dict[int, int]:
        """Opcode byte -> static gas of 0xc0..0xc2 (ADDMOD, SUBMOD, MULMODMONT) at
        ``limbs`` limbs by the per-limb model (see the module docstring): EVM384's own
        costs at 6, EVM768's at 12."""
        costs = (scaled_cost(self.addmod384, limbs, 1), scaled_cost(self.submod384, limbs, 1),
                 scaled_cost(self.mulmodmont384, limbs, 2))
        return {BY_NAME[name].code: cost for name, cost in zip(EVM384_NAMES, costs)}


SCHEDULES: Dict[str, Evm384Schedule] = {
    "evmone-v7": Evm384Schedule(8, 8, 24),   # the reference engine's values (default)
    "update5-A": Evm384Schedule(2, 2, 6),
    "update5-B": Evm384Schedule(1, 1, 3),
}
DEFAULT_SCHEDULE = "evmone-v7"

ScheduleLike = Union[str, Evm384Schedule, Mapping[str, int]]


def resolve_schedule(schedule: ScheduleLike) -> Evm384Schedule:
    """A schedule from its name, an :class:`Evm384Schedule`, or a mapping of the three
    mnemonics to gas in [0, 2**63 - 1], e.g. ``{"ADDMOD384": 2, "SUBMOD384": 2,
    "MULMODMONT384": 6}``."""
    if isinstance(schedule, Evm384Schedule):
        return schedule
    if isinstance(schedule, str):
        try:
            return SCHEDULES[schedule]
        except KeyError:
            raise ValueError(f"unknown EVM384 gas schedule {schedule!r}; "
                             f"choose one of {sorted(SCHEDULES)} or pass a mapping") from None
    if not isinstance(schedule, Mapping):
        raise TypeError("schedule must be a name, an Evm384Schedule or a mapping, "
                        f"not {type(schedule).__name__}")
    keys = {str(key).upper(): key for key in schedule}
    if sorted(keys) != sorted(EVM384_NAMES):
        raise ValueError(f"a schedule mapping needs exactly the keys {list(EVM384_NAMES)}, "
                         f"got {sorted(map(str, schedule))}")
    return Evm384Schedule(*(schedule[keys[name]] for name in EVM384_NAMES))
