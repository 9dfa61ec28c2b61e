"""A thin EVM interpreter for standalone contract code with the EVM384 opcodes.

``execute(code, calldata)`` runs code without accounts, storage or calls; opcodes
that need them halt with "unsupported opcode". See :mod:`.opcodes` for the opcode
table, :mod:`.gas` for gas rules and EVM384 schedules, :mod:`.tracing` for tracers.
"""
from .api import ENGINES, execute
from .gas import SCHEDULES, Evm384Schedule
from .result import ExecutionResult
from .tracing import Eip3155Tracer, Profiler, Step, StepHook, Tracer

__all__ = ["execute", "ExecutionResult", "ENGINES", "SCHEDULES", "Evm384Schedule",
           "Tracer", "Eip3155Tracer", "Profiler", "Step", "StepHook"]
