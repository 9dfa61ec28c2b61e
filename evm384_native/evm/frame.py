"""The machine state of one execution: stack, memory, gas and program counter."""
from __future__ import annotations

from typing import Any, List

from .._native import ffi
from .gas import WORD_BYTES, memory_cost, words
from .halts import OutOfGas

# As in evmone: memory past 4 GiB would cost over 3.6e13 gas, so it is out of gas
# whatever gas was given, and never allocated.
MAX_MEMORY_BYTES = 2**32


class Frame:
    """Mutable state shared by the dispatch loop and the instruction semantics."""

    __slots__ = ("code", "calldata", "stack", "memory", "gas", "pc", "backend", "pinned",
                 "evmmax", "register_bytes")

    def __init__(self, code: Any, calldata: bytes, gas: int, backend: Any) -> None:
        self.code = code              # the decoded program (evm384_native.evm.code.Code)
        self.calldata = calldata
        self.stack: List[int] = []    # top of stack is the end of the list
        self.memory = bytearray()     # its length is always a multiple of 32
        self.gas = gas
        self.pc = 0
        self.backend = backend        # implementation of the EVM384 operations
        # A cffi view of `memory` kept between native calls (creating one costs
        # about as much as the call). A bytearray cannot grow while viewed, so
        # `expand` releases it first.
        self.pinned: Any = None
        # EVMMAX (EIP-6690): the field contexts (an evmmax.FieldContexts, None under
        # EVM384) and the bytes of their registers, which memory-expansion gas counts
        # as if they followed memory.
        self.evmmax: Any = None
        self.register_bytes = 0

    def charge(self, cost: int) -> None:
        if cost > self.gas:
            raise OutOfGas()
        self.gas -= cost

    def expand(self, end: int) -> None:
        """Charge for and grow memory to cover bytes [0, end), rounded up to words."""
        size = len(self.memory)
        if end <= size:
            return
        if end > MAX_MEMORY_BYTES:
            raise OutOfGas()
        new_words = (end + WORD_BYTES - 1) // WORD_BYTES
        registers = self.register_bytes
        self.charge(memory_cost(words(new_words * WORD_BYTES + registers))
                    - memory_cost(words(size + registers)))
        self.unpin()
        self.memory.extend(bytes(new_words * WORD_BYTES - size))

    def expand_range(self, offset: int, size: int) -> None:
        """Memory access of ``size`` bytes at ``offset``; an empty range touches nothing."""
        if size:
            self.expand(offset + size)

    def native_memory(self) -> Any:
        """A cffi ``uint8_t[]`` over memory, valid until memory next grows."""
        if self.pinned is None:
            self.pinned = ffi.from_buffer("uint8_t[]", self.memory, require_writable=True)
        return self.pinned

    def unpin(self) -> None:
        if self.pinned is not None:
            ffi.release(self.pinned)
            self.pinned = None
