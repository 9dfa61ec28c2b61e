"""A thin EVM interpreter for standalone contract code with the EVM384 opcodes.

``execute(code, calldata)`` runs code without accounts, storage or calls; opcodes
that need them halt with "unsupported opcode". See :mod:`.opcodes` for the opcode
table, :mod:`.forks` for the mainnet revisions (``fork=``), :mod:`.gas` for gas rules
and EVM384 schedules, :mod:`.costs` for EVMMAX cost models, :mod:`.transaction` for what
a transaction pays beyond execution, :mod:`.tracing` for tracers; :mod:`.kernels` holds the
arithmetic of the EVM384 and EVMMAX opcodes, native and pure Python.
"""
from .api import ENGINES, execute
from .costs import COST_MODELS, EvmmaxCosts
from .forks import DEFAULT_FORK, FORKS, Fork, exceeds_transaction_cap
from .gas import SCHEDULES, Evm384Schedule
from .result import ExecutionResult
from .tracing import Eip3155Tracer, Profiler, Step, StepHook, Tracer
from .transaction import CallCost, call_cost, calldata_gas

__all__ = ["execute", "ExecutionResult", "ENGINES", "SCHEDULES", "Evm384Schedule",
           "COST_MODELS", "EvmmaxCosts", "FORKS", "DEFAULT_FORK", "Fork",
           "exceeds_transaction_cap", "CallCost", "call_cost", "calldata_gas",
           "Tracer", "Eip3155Tracer", "Profiler", "Step", "StepHook"]
