"""How a contract fails on invalid input, chosen once per contract and handed to its
assembler: the code at every failure site is the assembler's ``fail()``.

- ``REVERT``: REVERT with empty output; the caller keeps the gas left. For contracts no
  precompile defines (hinted checks, Poseidon, Groth16 verifiers).
- ``HALT``: INVALID, an exceptional halt that consumes the call's gas: how a precompile
  fails (EIP-196/197, EIP-198, EIP-2537, EIP-2539), so what a contract meant to stand at a
  precompile's address does (EIP-8200: the same output or failure on every input).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Tuple


@dataclass(frozen=True)
class Failure:
    name: str
    mnemonics: Tuple[str, ...]      # the code at a failure site (PUSH 0 as a PUSH of 0)
    error: str                      # an execution's ``error`` when it ends so
    consumes_gas: bool

    def ended(self, result: Any) -> bool:
        """Whether ``result`` (an ExecutionResult) is this failure, with empty output."""
        return (not result.success and result.error == self.error and result.output == b""
                and (result.gas_left == 0 or not self.consumes_gas))


REVERT = Failure("revert", ("PUSH 0", "DUP1", "REVERT"), "revert", consumes_gas=False)
HALT = Failure("halt", ("INVALID",), "invalid opcode: INVALID", consumes_gas=True)
