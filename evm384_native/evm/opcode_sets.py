"""Opcode sets: what differs between EVM384, EVM768, EVMMAX and plain EVM executions, as
data.

As evmone passes a revision, the engines are handed one :class:`OpcodeSet` and read
from it the opcode table, the handlers, which instructions have operand-dependent gas,
whether ``PUSHn; EVM384-op`` pairs fuse into segments, whether the EVM384 gas schedule
applies, and the per-frame state the set's instructions keep. Nothing else tests which
set runs. Each set is mainnet's instructions (:data:`.opcodes.MAINNET_OPCODES`) plus its
own: EVM384's at 0xc0..0xc2, EVM768's (EVM384's at 768-bit values) there too, EVMMAX's
at 0xc0..0xc5, none for "evm" (today's EVM: those bytes are undefined there, an
exceptional halt). The three extensions share 0xc0..0xc2, so they are exclusive.

An execution's set is one of these with its fork's instructions added
(:func:`resolve_opcodes`; Osaka: CLZ at 0x1e), built once per (set, fork): the one path
that makes an execution's opcode table.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple

from .evm384 import EVM384_HANDLERS
from .evm768 import EVM768_HANDLERS
from .fast_evm768 import EVM768_FAST
from .evmmax import EVMMAX_HANDLERS, FieldContexts, joins_vector_run, vector_run_entry
from .fast_evmmax import EVMMAX_FAST
from .forks import DEFAULT_FORK, Fork, ForkLike, resolve_fork
from .instructions import GAS_DEPENDENT_BASE, Handler, build_handlers
from .gas import EVM384_LIMBS, Evm384Schedule
from .opcodes import (EVM768_OPCODES, EVMMAX_OPCODES, FORK_OPCODES, MAINNET_OPCODES, OPCODES,
                      OpcodeInfo)


@dataclass(frozen=True, eq=False)
class OpcodeSet:
    name: str
    table: Dict[int, OpcodeInfo]        # opcode byte -> its entry (undefined bytes absent)
    handlers: Dict[int, Handler]
    gas_dependent: FrozenSet[int]       # gas depends on operands: ends a Python-engine block
    fuses_evm384: bool                  # PUSHn; EVM384-op pairs run as segments
    # the 64-bit limbs of the values its packed-offset ops (0xc0..0xc2) work on: 6 for
    # EVM384, 12 for EVM768 (their values' size; the EVM384 schedule prices them at that
    # many limbs: gas.Evm384Schedule.by_opcode); None: it has none, no schedule applies
    value_limbs: Optional[int]
    # the state a frame keeps for the set's instructions, from the backend's modules
    new_frame_state: Optional[Callable[[Any], Any]] = None
    # the fast engine's C module for the set's own instructions (fast_evmmax.EvmmaxFast:
    # .opcodes, .step, .new_state(), .host_frame(...)); None: its loop runs them all
    fast_extension: Optional[Any] = None
    # runs of consecutive instructions the Python engine's block loop may run as one step
    # (EVMMAX's vector operations): whether one (opcode, immediate data) may join a run,
    # and the body entry (handler, arg) for a run of decoded instructions; the run ends
    # its block, and its handler raises halts.ResumeInSteps where it cannot run whole
    joins_run: Optional[Callable[[int, Any], bool]] = None
    run_entry: Optional[Callable[[List[Any]], Tuple[Handler, Any]]] = None
    # the fork whose instructions ``table`` includes; None: the set alone (the bytes
    # later forks define stay undefined, as under Cancun and Prague)
    fork: Optional[Fork] = None

    @property
    def scheduled(self) -> bool:
        """True when the EVM384 schedule (``--schedule``) prices the set's own ops."""
        return self.value_limbs is not None

    def schedule_costs(self, schedule: Evm384Schedule) -> Dict[int, int]:
        """Opcode byte -> static gas under ``schedule`` of the ops it
        prices in this set (none unless ``scheduled``)."""
        return schedule.by_opcode(self.value_limbs) if self.scheduled else {}

    @property
    def own_mnemonics(self) -> Tuple[str, ...]:
        """The instructions the set adds to mainnet's (any fork's), in opcode order: what
        the tools count as its own ops; none for "evm"."""
        return tuple(info.name for code, info in self.table.items()
                     if code not in MAINNET_OPCODES and code not in FORK_OPCODES)


EVM384 = OpcodeSet("evm384", OPCODES, build_handlers(OPCODES, EVM384_HANDLERS),
                   GAS_DEPENDENT_BASE | frozenset(EVM384_HANDLERS), fuses_evm384=True,
                   value_limbs=EVM384_LIMBS)
EVMMAX = OpcodeSet("evmmax", EVMMAX_OPCODES, build_handlers(EVMMAX_OPCODES, EVMMAX_HANDLERS),
                   GAS_DEPENDENT_BASE | frozenset(EVMMAX_HANDLERS), fuses_evm384=False,
                   value_limbs=None, new_frame_state=FieldContexts,
                   fast_extension=EVMMAX_FAST, joins_run=joins_vector_run,
                   run_entry=vector_run_entry)
# Today's EVM: mainnet's instructions alone, nothing fused, no frame state, no C extension
# (the fast engine's loop runs them all; the bytes it lacks it leaves to the host to halt)
EVM = OpcodeSet("evm", MAINNET_OPCODES, build_handlers(MAINNET_OPCODES, {}),
                GAS_DEPENDENT_BASE, fuses_evm384=False, value_limbs=None)
# EVM384's ops at 768-bit values: priced by the EVM384 schedule at twelve limbs, each
# instruction alone (no segments), run in the fast engine by its C extension
EVM768 = OpcodeSet("evm768", EVM768_OPCODES, build_handlers(EVM768_OPCODES, EVM768_HANDLERS),
                   GAS_DEPENDENT_BASE | frozenset(EVM768_HANDLERS), fuses_evm384=False,
                   value_limbs=2 * EVM384_LIMBS, fast_extension=EVM768_FAST)
OPCODE_SETS: Dict[str, OpcodeSet] = {opcode_set.name: opcode_set
                                     for opcode_set in (EVM384, EVMMAX, EVM, EVM768)}
DEFAULT_OPCODES = "evm384"


def with_fork(base: OpcodeSet, fork: Fork) -> OpcodeSet:
    """``base`` with ``fork``'s instructions added to its table and handlers."""
    added = {info.code: info for info in fork.instructions}
    clash = sorted(added.keys() & base.table.keys())
    if clash:
        raise ValueError(f"fork {fork.name!r} defines opcodes the {base.name} set has: "
                         + ", ".join(f"0x{code:02x}" for code in clash))
    return replace(base, table=dict(sorted({**base.table, **added}.items())),
                   handlers={**base.handlers, **build_handlers(added, {})}, fork=fork)


_WITH_FORK: Dict[Tuple[str, Fork], OpcodeSet] = {}
_WITH_FORK_LOCK = threading.Lock()


def resolve_opcodes(opcodes: object, fork: ForkLike = DEFAULT_FORK) -> OpcodeSet:
    """The opcode set named ``opcodes`` ("evm384", "evmmax", "evm768" or "evm") under ``fork`` (a
    name or a :class:`~.forks.Fork`; default Osaka), one object per (set, fork): the caches of
    analysed code and the fast engine's C tables, keyed by the object (hashed by identity:
    one byte may mean different things in two tables, 0x1e is CLZ only under Osaka), are
    shared by all executions of that pair."""
    base = OPCODE_SETS.get(opcodes) if isinstance(opcodes, str) else None
    if base is None:
        raise ValueError(f"unknown opcode set {opcodes!r}; choose one of "
                         f"{', '.join(sorted(OPCODE_SETS))}")
    chosen = resolve_fork(fork)
    key = (base.name, chosen)
    found = _WITH_FORK.get(key)
    if found is None:
        with _WITH_FORK_LOCK:          # threads running one pair get one object
            found = _WITH_FORK.get(key)
            if found is None:
                found = _WITH_FORK[key] = with_fork(base, chosen)
    return found


# What ``execute`` runs by default (EVM384 under Osaka): the engines' and decoding's default.
DEFAULT_OPCODE_SET = resolve_opcodes(DEFAULT_OPCODES, DEFAULT_FORK)
