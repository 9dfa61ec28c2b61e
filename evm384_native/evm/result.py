"""What an execution returns."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Tuple

_new = object.__new__


@dataclass(frozen=True)
class ExecutionResult:
    success: bool                 # STOP or RETURN (or running off the end of the code)
    output: bytes                 # RETURN or REVERT data; empty otherwise
    gas_used: int
    gas_left: int                 # kept on success and REVERT; 0 after an exceptional halt
    error: Optional[str]          # None on success, "revert", or the exceptional halt's reason
    steps: int                    # instructions executed (the halting one included)
    opcode_counts: Dict[str, int] = field(repr=False)  # mnemonic -> instructions executed

    @classmethod
    def lazy(cls, output: bytes, gas_used: int, gas_left: int, error: Optional[str],
             counts: Tuple[Callable[..., Dict[str, int]], tuple]) -> "ExecutionResult":
        """A result whose ``opcode_counts`` (and ``steps``, their sum) ``counts``, a pair
        (``make``, ``args``), makes as ``make(*args)`` when first read: most callers never
        read them, and the dataclass's ``__init__`` (seven frozen-attribute sets) costs more
        than a small run. Equal to the eager result in every field, comparison, repr and
        ``dataclasses.replace``."""
        result = _new(cls)
        state = result.__dict__     # item by item: cheaper than update() with keywords
        state["success"] = error is None
        state["output"] = output
        state["gas_used"] = gas_used
        state["gas_left"] = gas_left
        state["error"] = error
        state["_counts"] = counts
        return result

    def __getattr__(self, name: str) -> Any:
        # only called for attributes not set: a lazy result's counts, on first read (two
        # threads reading at once may both make them: the same values)
        state = self.__dict__
        if name in ("steps", "opcode_counts"):
            source = state.get("_counts")
            if source is not None:
                make, args = source
                counts = make(*args)
                state["opcode_counts"], state["steps"] = counts, sum(counts.values())
                state.pop("_counts", None)      # what it held is no longer needed
            if name in state:
                return state[name]
        raise AttributeError(name)

    def __reduce__(self) -> Tuple[type, tuple]:
        # pickled as the eager result: its counts source holds engine objects (opcode sets)
        return (type(self), (self.success, self.output, self.gas_used, self.gas_left,
                             self.error, self.steps, self.opcode_counts))
