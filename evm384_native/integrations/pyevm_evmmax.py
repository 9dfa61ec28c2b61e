"""EVMMAX (EIP-6690) opcodes for py-evm: the engine's own handlers (:mod:`..evm.evmmax`)
run on a py-evm computation seen through :class:`PyEvmFrame`.

What EVMMAX adds to a call frame lives beside each py-evm computation (one per call frame,
so child calls start with no field contexts, as the EIP says), made when the frame first
needs it, which keeps it working where only the opcode table can be changed (titanoboa):

* the field contexts and their register bytes (:class:`PyEvmFrame`);
* memory-expansion gas that counts the register bytes after memory (``Frame.expand``'s
  rule), installed as the computation's ``extend_memory`` when the frame is made;
* the jump destinations: the seven immediate bytes of ADDMODX/SUBMODX/MULMODX are data
  like PUSH data, so a ``0x5b`` among them is no JUMPDEST. py-evm only knows PUSH data,
  so JUMP and JUMPI first file every ``0x5b`` byte of the code as valid or not, from the
  engine's own code analysis.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Dict, Mapping, Set, Tuple

from ..evm.backends import get_backend
from ..evm.code import decode
from ..evm.costs import DEFAULT_COSTS, CostsLike, EvmmaxCosts, resolve_costs
from ..evm.evmmax import EVMMAX_HANDLERS, FieldContexts
from ..evm.gas import DEFAULT_SCHEDULE, memory_cost, resolve_schedule, words
from ..evm.halts import EvmmaxAssertion
from ..evm.opcode_sets import EVMMAX
from ..evm.opcodes import BY_NAME

try:
    from eth._utils.numeric import ceil32
    from eth.abc import ComputationAPI, OpcodeAPI
    from eth.exceptions import VMError
    from eth.vm.opcode import as_opcode
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("evm384_native.integrations.pyevm_evmmax needs py-evm: "
                      "pip install 'evm384_native[pyevm]'") from exc

__all__ = ["evmmax_opcodes", "EvmmaxAssertionError", "PyEvmFrame"]

_FRAME_ATTRIBUTE = "_evm384_native_evmmax"
_JUMPS = (BY_NAME["JUMP"].code, BY_NAME["JUMPI"].code)
_JUMPDEST = BY_NAME["JUMPDEST"].code


class EvmmaxAssertionError(VMError):
    """An EIP-6690 assert failed: an exceptional halt that consumes all the frame's gas.
    The message is the engine's reason (e.g. "MULMODX: no active field context")."""


class _Stack:
    """The one stack operation the handlers use, on py-evm's stack."""

    __slots__ = ("pop",)

    def __init__(self, computation: ComputationAPI) -> None:
        self.pop: Callable[[], int] = computation.stack_pop1_int


class PyEvmFrame:
    """What :mod:`..evm.evmmax`'s handlers read and change of a frame (``stack.pop``,
    ``memory``, ``charge``, ``evmmax``, ``register_bytes``), on a py-evm computation."""

    __slots__ = ("computation", "stack", "evmmax", "register_bytes", "_extend_memory")

    def __init__(self, computation: ComputationAPI, modx: Any, costs: EvmmaxCosts) -> None:
        self.computation = computation
        self.stack = _Stack(computation)
        self.evmmax = FieldContexts(modx, costs)
        self.register_bytes = 0
        self._extend_memory = computation.extend_memory
        computation.extend_memory = self.extend_memory  # type: ignore[method-assign]
        _file_jump_destinations(computation.code)

    @property
    def memory(self) -> bytearray:
        # read at each use: py-evm may replace its buffer when memory grows
        return self.computation._memory._bytes  # type: ignore[attr-defined]

    def charge(self, cost: int, reason: str = "EVMMAX") -> None:
        self.computation.consume_gas(cost, reason=reason)

    def extend_memory(self, start_position: int, size: int) -> None:
        """py-evm's memory growth, its gas counting this frame's register bytes as if
        they followed memory (as the engine's ``Frame.expand``)."""
        registers = self.register_bytes
        memory = self.computation._memory  # type: ignore[attr-defined]
        if not registers or not size or ceil32(start_position + size) <= len(memory):
            self._extend_memory(start_position, size)
            return
        end = ceil32(start_position + size)
        self.charge(memory_cost(words(end + registers)) - memory_cost(words(len(memory) + registers)),
                    reason="Expanding memory (EVMMAX registers counted)")
        memory.extend(start_position, size)


def frame_of(computation: ComputationAPI, modx: Any, costs: EvmmaxCosts) -> PyEvmFrame:
    """The computation's EVMMAX frame state, made on first use."""
    frame = computation.__dict__.get(_FRAME_ATTRIBUTE)
    if frame is None:
        frame = PyEvmFrame(computation, modx, costs)
        setattr(computation, _FRAME_ATTRIBUTE, frame)
    return frame


@lru_cache(maxsize=256)
def _jump_destinations(code: bytes) -> Tuple[Set[int], Set[int]]:
    """(valid, invalid): every ``0x5b`` byte of ``code``, split by whether it is an
    instruction under EVMMAX (the engine's analysis: PUSH data and EVMMAX immediates are
    not)."""
    valid = decode(code, resolve_schedule(DEFAULT_SCHEDULE), False, EVMMAX).jumpdests
    every = {pc for pc, byte in enumerate(code) if byte == _JUMPDEST}
    return set(valid), every - valid


def _file_jump_destinations(stream: Any) -> None:
    """Give py-evm's code stream validity caches that file every JUMPDEST byte, so that
    its PUSH-only look-back never runs for a jump. The two sets are shared by every frame
    running the same code (a frame costs no copy): whatever py-evm adds to them later is a
    fact about that code too. They replace the stream's sets while these are still empty:
    only JUMP and JUMPI consult them, and they make the frame first."""
    stream.valid_positions, stream.invalid_positions = \
        _jump_destinations(bytes(stream._raw_code_bytes))


def _pyevm_opcode(code: int, modx: Any, costs: EvmmaxCosts) -> OpcodeAPI:
    info = EVMMAX.table[code]
    handler = EVMMAX_HANDLERS[code]
    immediate = info.immediate

    def logic(computation: ComputationAPI) -> None:
        frame = frame_of(computation, modx, costs)
        # immediates cut off by the end of the code read as zeros, as PUSH data
        arg = tuple(computation.code.read(immediate).ljust(immediate, b"\0")) if immediate else None
        try:
            handler(frame, arg)
        except EvmmaxAssertion as halt:
            raise EvmmaxAssertionError(halt.reason) from None
    logic.__name__ = info.name.lower()
    return as_opcode(logic_fn=logic, mnemonic=info.name, gas_cost=info.gas)


def _filing_jump(jump: Any, modx: Any, costs: EvmmaxCosts) -> OpcodeAPI:
    """py-evm's JUMP or JUMPI after the frame's jump destinations are filed."""
    def logic(computation: ComputationAPI) -> None:
        frame_of(computation, modx, costs)
        jump.logic_fn(computation)
    logic.__name__ = jump.mnemonic.lower()
    return as_opcode(logic_fn=logic, mnemonic=jump.mnemonic, gas_cost=jump.gas_cost)


def evmmax_opcodes(base: Mapping[int, Any], backend: str = "native",
                   costs: CostsLike = DEFAULT_COSTS) -> Dict[int, OpcodeAPI]:
    """py-evm opcode objects for SETMODX, LOADX, STOREX, ADDMODX, SUBMODX, MULMODX and
    the JUMP/JUMPI of ``base`` (a py-evm opcode table) that know EVMMAX immediates,
    keyed by opcode byte. ``backend`` is "native" (the C kernels of
    :mod:`..evm.kernels.modx`) or "reference" (:mod:`..evm.kernels.modx_reference`); ``costs``
    the cost model (:mod:`..evm.costs`)."""
    if not isinstance(backend, str):
        raise ValueError("under the EVMMAX opcode set, backend is 'native' or 'reference'")
    modx, model = get_backend(backend).modx, resolve_costs(costs)
    opcodes: Dict[int, OpcodeAPI] = {code: _pyevm_opcode(code, modx, model)
                                     for code in EVMMAX_HANDLERS}
    for code in _JUMPS:
        opcodes[code] = _filing_jump(base[code], modx, model)
    return opcodes

