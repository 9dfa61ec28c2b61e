"""What an execution returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional


@dataclass(frozen=True)
class ExecutionResult:
    success: bool                 # STOP or RETURN (or running off the end of the code)
    output: bytes                 # RETURN or REVERT data; empty otherwise
    gas_used: int
    gas_left: int                 # kept on success and REVERT; 0 after an exceptional halt
    error: Optional[str]          # None on success, "revert", or the exceptional halt's reason
    steps: int                    # instructions executed (the halting one included)
    opcode_counts: Dict[str, int] = field(repr=False)  # mnemonic -> instructions executed
