"""EVM384 for titanoboa (``boa``), which runs contracts on py-evm.

    import boa
    from evm384_native.integrations.titanoboa import enable_evm384
    enable_evm384(schedule="update5-A")
    boa.env.set_code(address, evm384_runtime_code)
    boa.env.raw_call(address, data=calldata).output

titanoboa's opcode patches are global (every env, every computation made afterwards),
so this is one call at start-up; the opcodes are those of :func:`.pyevm.evm384_opcodes`.
"""
from __future__ import annotations

from ..evm.gas import DEFAULT_SCHEDULE, ScheduleLike
from .pyevm import BackendLike, evm384_opcodes

try:
    from boa.vm.py_evm import patch_opcode
except ImportError as exc:  # pragma: no cover - exercised only without titanoboa
    raise ImportError("evm384_native.integrations.titanoboa needs titanoboa: "
                      "pip install 'evm384_native[titanoboa]'") from exc

__all__ = ["enable_evm384"]


def enable_evm384(schedule: ScheduleLike = DEFAULT_SCHEDULE, backend: BackendLike = "native") -> None:
    """Give titanoboa's py-evm ADDMOD384, SUBMOD384 and MULMODMONT384."""
    for code, opcode in evm384_opcodes(schedule, backend).items():
        patch_opcode(code, opcode)
