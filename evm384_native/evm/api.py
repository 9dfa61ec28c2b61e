"""The public entry point: ``execute(code, calldata, ...)``."""
from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

from .backends import Backend, get_backend
from .costs import DEFAULT_COSTS, CostsLike, EvmmaxCosts, resolve_costs
from .gas import (DEFAULT_GAS, DEFAULT_SCHEDULE, MAX_GAS, Evm384Schedule, ScheduleLike,
                  resolve_schedule)
from .fast import run_fast
from .forks import DEFAULT_FORK, ForkLike
from .interpreter import run_python
from .opcode_sets import DEFAULT_OPCODES, OpcodeSet, resolve_opcodes
from .result import ExecutionResult
from .tracing import Tracer, TracerLike, as_tracer

# engine name -> runner(bytecode, calldata, gas, backend, schedule, tracer, fuse_evm384,
#                       opcodes, costs); ``opcodes`` carries the fork's instructions
Engine = Callable[[bytes, bytes, int, Backend, Evm384Schedule, Optional[Tracer], bool,
                   OpcodeSet, EvmmaxCosts], ExecutionResult]
ENGINES: Dict[str, Engine] = {"python": run_python, "fast": run_fast}



def _as_bytes(value: object, name: str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{name} must be bytes, bytearray or memoryview, not {type(value).__name__}"
                    + (" (use bytes.fromhex for hex text)" if isinstance(value, str) else ""))


# What the named options resolve to, by (engine, backend, schedule, opcodes, costs, fork)
# when all are names: resolving them costs more than a short run. Only valid names get
# here (a bad one raises first), so it holds at most the product of the registries.
_Resolved = Tuple[Engine, Backend, Evm384Schedule, OpcodeSet, EvmmaxCosts]
_RESOLVED: Dict[Tuple[str, ...], _Resolved] = {}


def _resolve(engine: object, backend: object, schedule: ScheduleLike, opcodes: object,
             costs: CostsLike, fork: ForkLike) -> _Resolved:
    """The options' objects; the first bad one raises (engine, opcodes, fork, costs,
    backend, schedule: the order they were always checked in)."""
    runner = ENGINES.get(engine) if isinstance(engine, str) else None
    if runner is None:
        raise ValueError(f"unknown engine {engine!r}; available engines: "
                         f"{', '.join(sorted(ENGINES))}")
    opcode_set = resolve_opcodes(opcodes, fork)
    cost_model = resolve_costs(costs)
    return runner, get_backend(backend), resolve_schedule(schedule), opcode_set, cost_model


def _run(code: object, calldata: object, gas: object, engine: object, backend: object,
         schedule: ScheduleLike, tracer: Optional[TracerLike], fuse_evm384: bool,
         opcodes: object, costs: CostsLike, fork: ForkLike) -> ExecutionResult:
    """:func:`run`, with positional arguments (keywords cost per call)."""
    if type(code) is not bytes:
        code = _as_bytes(code, "code")
    if type(calldata) is not bytes:
        calldata = _as_bytes(calldata, "calldata")
    if type(gas) is not int and (not isinstance(gas, int) or isinstance(gas, bool)):
        raise TypeError(f"gas must be an int, not {type(gas).__name__}")
    if not 0 <= gas <= MAX_GAS:
        raise ValueError(f"gas must be in [0, 2**63), got {gas}")
    key = (engine, backend, schedule, opcodes, costs, fork)
    try:
        resolved = _RESOLVED.get(key)
    except TypeError:                   # an unhashable option (a mapping): never kept
        resolved = None
    if resolved is None:
        resolved = _resolve(engine, backend, schedule, opcodes, costs, fork)
        # kept for names only (engine, backend and opcodes are, once resolved): others
        # could be made anew on each call, and the memo would grow without bound
        if type(schedule) is str and type(costs) is str and type(fork) is str:
            _RESOLVED[key] = resolved
    runner, chosen_backend, chosen_schedule, opcode_set, cost_model = resolved
    if tracer is None:
        return runner(code, calldata, gas, chosen_backend, chosen_schedule, None, fuse_evm384,
                      opcode_set, cost_model)
    chosen = as_tracer(tracer)
    chosen.on_start(code, calldata, gas)
    result = runner(code, calldata, gas, chosen_backend, chosen_schedule, chosen, fuse_evm384,
                    opcode_set, cost_model)
    chosen.on_end(result)
    return result


def run(code: bytes, calldata: bytes = b"", *, gas: int = DEFAULT_GAS, engine: str = "python",
        backend: str = "native", schedule: ScheduleLike = DEFAULT_SCHEDULE,
        tracer: Optional[TracerLike] = None, fuse_evm384: bool = True,
        opcodes: str = DEFAULT_OPCODES, costs: CostsLike = DEFAULT_COSTS,
        fork: ForkLike = DEFAULT_FORK) -> ExecutionResult:
    """:func:`execute` with internal options, for tests and benchmarks."""
    return _run(code, calldata, gas, engine, backend, schedule, tracer, fuse_evm384, opcodes,
                costs, fork)


def execute(code: bytes, calldata: bytes = b"", *, gas: int = DEFAULT_GAS, engine: str = "python",
            backend: str = "native", schedule: ScheduleLike = DEFAULT_SCHEDULE,
            tracer: Optional[TracerLike] = None,
            opcodes: str = DEFAULT_OPCODES, costs: CostsLike = DEFAULT_COSTS,
            fork: ForkLike = DEFAULT_FORK) -> ExecutionResult:
    """Run standalone contract ``code`` with ``calldata`` and return the outcome.

    ``engine`` names the dispatch loop ("python"); ``backend`` the implementation of
    ADDMOD384, SUBMOD384 and MULMODMONT384 ("native" C kernels or the pure-Python
    "reference"); ``schedule`` their gas ("evmone-v7", "update5-A", "update5-B" or a
    mapping of the three mnemonics to gas). ``tracer`` is a
    :class:`~evm384_native.evm.tracing.Tracer` (e.g. ``Eip3155Tracer(sys.stdout)`` or
    ``Profiler()``), a step hook ``fn(step)``, or a list of these; tracing runs
    instruction by instruction. ``opcodes`` is the opcode set: "evm384" (0xc0..0xc2 are
    the EVM384 ops) or "evmmax" (EIP-6690's SETMODX, LOADX, STOREX, ADDMODX, SUBMODX,
    MULMODX at 0xc0..0xc5; ``schedule`` does not apply; on both engines, with the
    backend's :mod:`~.kernels.modx` kernels or, on the python engine,
    :mod:`~.kernels.modx_reference`) or "evm" (today's mainnet EVM at ``fork``: 0xc0..0xc5
    are undefined opcodes; neither ``schedule`` nor ``costs`` applies). ``costs`` prices
    EVMMAX's instructions: a cost model of :mod:`~evm384_native.evm.costs` ("eip-6690",
    the default, or "eip-7747"), an
    ``EvmmaxCosts``, or a table (a mapping of SETMODX, ADDMODX, MULMODX to 12 gas values,
    1..12 limbs); it does not apply to EVM384. ``fork`` is the mainnet revision whose
    instructions run: "osaka" (the default, today's mainnet: CLZ at 0x1e), "prague" or
    "cancun" (0x1e is then an undefined opcode), or a :class:`~.forks.Fork`. A gas limit
    above Osaka's per-transaction cap (2**24, EIP-7825) runs all the same; see
    :func:`~.forks.exceeds_transaction_cap`.
    """
    return _run(code, calldata, gas, engine, backend, schedule, tracer, True, opcodes, costs,
                fork)
