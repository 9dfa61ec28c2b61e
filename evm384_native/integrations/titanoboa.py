"""EVM384 or EVMMAX for titanoboa (``boa``), which runs contracts on py-evm.

    import boa
    from evm384_native.integrations.titanoboa import enable_evm384
    enable_evm384(schedule="update5-A")          # or enable_evm384(opcodes="evmmax")
    boa.env.set_code(address, evm384_runtime_code)
    boa.env.raw_call(address, data=calldata).output

titanoboa's opcode patches are global (every env, every computation made afterwards) and
cannot be undone, so this is one call at start-up, and one opcode set per process; the
opcodes are those of :func:`.pyevm.set_opcodes` (under EVMMAX, each computation keeps its
own field contexts: :mod:`.pyevm_evmmax`).
"""
from __future__ import annotations

from typing import Optional

# boa first: titanoboa brings py-evm, so on a bare install the missing module to name is
# titanoboa, not the py-evm that .pyevm would complain of.
try:
    from boa.vm.py_evm import patch_opcode
except ImportError as exc:  # pragma: no cover - exercised only without titanoboa
    raise ImportError("evm384_native.integrations.titanoboa needs titanoboa: "
                      "pip install 'evm384_native[titanoboa]'") from exc

from ..evm.gas import DEFAULT_SCHEDULE, ScheduleLike
from ..evm.costs import DEFAULT_COSTS, CostsLike
from ..evm.opcode_sets import DEFAULT_OPCODES, resolve_opcodes
from .pyevm import BackendLike, latest_vm_class, set_opcodes

__all__ = ["enable_evm384"]

_enabled: Optional[str] = None     # the opcode set patched in, once


def enable_evm384(schedule: ScheduleLike = DEFAULT_SCHEDULE, backend: BackendLike = "native",
                  opcodes: str = DEFAULT_OPCODES, costs: CostsLike = DEFAULT_COSTS) -> None:
    """Give titanoboa's py-evm ADDMOD384, SUBMOD384 and MULMODMONT384, or with
    ``opcodes="evmmax"`` SETMODX, LOADX, STOREX, ADDMODX, SUBMODX and MULMODX (priced by
    ``costs``: :mod:`..evm.costs`). ``opcodes="evm"`` patches nothing (titanoboa's py-evm
    is plain EVM already), so it holds no set in place: one of the others may follow."""
    global _enabled
    name = resolve_opcodes(opcodes).name
    if _enabled is not None and _enabled != name:
        raise ValueError(f"titanoboa already runs the {_enabled!r} opcode set; its opcode "
                         f"patches cannot be undone, so {name!r} needs a new process")
    base = latest_vm_class()._state_class.computation_class.opcodes
    patches = set_opcodes(base, name, schedule, backend, costs)
    for code, opcode in patches.items():
        patch_opcode(code, opcode)
    if patches:
        _enabled = name
