"""EVM768 in the fast engine: the Python side of ``csrc/evm_fast_evm768.c``.

The C module runs ADDMOD768, SUBMOD768 and MULMODMONT768 inside the fast engine's loop,
through the opcode table's extension. It keeps no state and never leaves an instruction
to the host (their only halt, out of gas, is the loop's status), so :data:`EVM768_FAST`
has no analysis, an empty state and no host frame.
"""
from __future__ import annotations

from typing import Any, FrozenSet, NoReturn, Optional

from .._native import ffi, lib
from .evm768 import EVM768_HANDLERS


class Evm768Fast:
    """The fast engine's EVM768 extension (see the module docstring)."""

    opcodes: FrozenSet[int] = frozenset(EVM768_HANDLERS)
    step = ffi.addressof(lib, "evm_fast_evm768_step")

    def __init__(self) -> None:
        assert all(lib.evm_fast_evm768_implements(code) for code in self.opcodes)

    @staticmethod
    def analyse(bytecode: bytes, data_flags: bytes) -> None:
        """Nothing to find in the code: each instruction runs alone."""
        return None

    @staticmethod
    def new_state(runs: Optional[Any], costs: Any) -> Any:
        """No per-run state: the frame's extension pointer stays NULL."""
        return ffi.NULL

    @staticmethod
    def host_frame(c_frame: Any, state: Any, code: Any, inputs: int, modx: Any,
                   costs: Any) -> NoReturn:
        raise RuntimeError("internal error: the C loop left an EVM768 instruction to the host")


EVM768_FAST = Evm768Fast()
