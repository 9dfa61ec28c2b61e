"""EVM384 or EVMMAX opcodes for py-evm, and so for the tools built on it (eth-tester,
titanoboa).

    from evm384_native.integrations.pyevm import with_evm384
    EVM384PragueVM = with_evm384()                      # py-evm's latest fork
    EVM384CancunVM = with_evm384(CancunVM, schedule="update5-A")
    EVMMAXPragueVM = with_evm384(opcodes="evmmax")      # EIP-6690 instead of EVM384
    EVM768PragueVM = with_evm384(opcodes="evm768")      # EVM384's ops at 96-byte values
    PragueVM = with_evm384(opcodes="evm")               # plain EVM: py-evm's own VM

The returned VM class has a computation class of its own whose opcode table is py-evm's plus
ADDMOD384 / SUBMOD384 / MULMODMONT384 (or, with ``opcodes="evm768"``, ADDMOD768 /
SUBMOD768 / MULMODMONT768; with ``opcodes="evmmax"``, SETMODX, LOADX, STOREX, ADDMODX,
SUBMODX, MULMODX: :mod:`.pyevm_evmmax`); py-evm's shared tables are not
touched. Memory expansion and gas are those of :mod:`evm384_native.evm`; the EVM384 (EVM768)
arithmetic runs in the native kernel directly on py-evm's memory buffer, EVMMAX runs the
engine's own handlers. The plain set (``opcodes="evm"``) adds nothing: plain EVM inside
py-evm is py-evm itself, so :func:`with_evm384` returns ``vm_class`` as it is (0xc0..0xc5
are undefined there as in ``execute(..., opcodes="evm")``), and eth-tester and titanoboa run
unchanged.

The fork is py-evm's: its own opcodes (0x1e among them) run as that fork defines them.
py-evm 0.12's newest fork is Prague, which has no CLZ (EIP-7939, Osaka); once py-evm ships
an Osaka VM, :func:`latest_vm_class` (and so ``with_evm384()``, eth-tester and titanoboa)
picks it up, CLZ and all. To compare with ``execute``, run it with ``fork="prague"``.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Type, Union

from ..evm.costs import DEFAULT_COSTS, CostsLike
from ..evm.evm384 import memory_end, unpack_offsets
from ..evm.evm768 import memory_end768
from ..evm.gas import DEFAULT_SCHEDULE, EVM384_NAMES, ScheduleLike, resolve_schedule
from ..evm.opcode_sets import DEFAULT_OPCODES, resolve_opcodes
from ..evm.opcodes import EVM768_MNEMONICS

try:
    from eth.abc import ComputationAPI, StateAPI, VirtualMachineAPI
    from eth.chains.base import MiningChain
    from eth.chains.mainnet import MainnetChain
    from eth.db.atomic import AtomicDB
    from eth.vm.message import Message
    from eth.vm.opcode import as_opcode
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("evm384_native.integrations.pyevm needs py-evm: "
                      "pip install 'evm384_native[pyevm]'") from exc

__all__ = ["with_evm384", "latest_vm_class", "evm384_opcodes", "evm768_opcodes", "set_opcodes",
           "execute_in_pyevm", "PyEvmResult"]

MemoryOperation = Callable[[bytearray, int, int, int, int], None]


def latest_vm_class() -> Type[VirtualMachineAPI]:
    """The newest fork py-evm's mainnet chain knows (Prague for py-evm 0.12)."""
    return MainnetChain.vm_configuration[-1][1]


MemoryEnd = Callable[[int, int, int, int, int], int]


def _packed_opcode(opcode: int, mnemonic: str, gas: int, operation: MemoryOperation,
                   end_of: MemoryEnd):
    """A py-evm opcode of EVM384's interface v7 (EVM384's or EVM768's): memory is expanded
    to ``end_of(opcode, out, x, y, mod)``, then ``operation`` runs on it."""
    def logic(computation: ComputationAPI) -> None:
        out, x, y, mod = unpack_offsets(computation.stack_pop1_int())
        computation.extend_memory(0, end_of(opcode, out, x, y, mod))
        # py-evm may replace its buffer when memory grows: read it after extending.
        operation(computation._memory._bytes, out, x, y, mod)
    logic.__name__ = mnemonic.lower()
    return as_opcode(logic_fn=logic, mnemonic=mnemonic, gas_cost=gas)


BackendLike = Union[str, Mapping[str, MemoryOperation]]


def _backend_operations(backend: BackendLike, names: Sequence[str] = EVM384_NAMES
                        ) -> Mapping[str, MemoryOperation]:
    """Mnemonic -> fn(mem, out, x, y, mod) for "native", "reference" or a given mapping,
    for the mnemonics ``names`` (EVM384's or EVM768's)."""
    if isinstance(backend, Mapping):
        if sorted(backend) != sorted(names):
            raise ValueError(f"a backend mapping needs exactly the keys {list(names)}")
        return backend
    if backend == "native":
        from ..evm.kernels import kernel as module
    elif backend == "reference":
        from ..evm.kernels import reference as module  # type: ignore[no-redef]
    else:
        raise ValueError(f"unknown backend {backend!r}; choose 'native', 'reference' "
                         "or a mapping of the three mnemonics to functions")
    return {name: getattr(module, name.lower()) for name in names}


def _packed_opcodes(opcodes: str, names: Sequence[str], end_of: MemoryEnd,
                    schedule: ScheduleLike, backend: BackendLike) -> Dict[int, Any]:
    """py-evm opcode objects for the three instructions ``names`` of the opcode set
    ``opcodes`` ("evm384" or "evm768"), priced by ``schedule`` at its limbs, by byte."""
    opcode_set = resolve_opcodes(opcodes)
    costs = opcode_set.schedule_costs(resolve_schedule(schedule))
    operations = _backend_operations(backend, names)
    byte_of = {info.name: code for code, info in opcode_set.table.items()}
    return {byte_of[name]: _packed_opcode(byte_of[name], name, costs[byte_of[name]],
                                          operations[name], end_of)
            for name in names}


def evm384_opcodes(schedule: ScheduleLike = DEFAULT_SCHEDULE,
                   backend: BackendLike = "native") -> dict:
    """py-evm opcode objects for the three EVM384 instructions, keyed by opcode byte."""
    return _packed_opcodes("evm384", EVM384_NAMES, memory_end, schedule, backend)


def evm768_opcodes(schedule: ScheduleLike = DEFAULT_SCHEDULE,
                   backend: BackendLike = "native") -> dict:
    """py-evm opcode objects for the three EVM768 instructions, keyed by opcode byte
    (``schedule`` prices them by its per-limb model at twelve limbs: :mod:`..evm.gas`)."""
    return _packed_opcodes("evm768", EVM768_MNEMONICS, memory_end768, schedule, backend)


def _evm384_set(base: Mapping[int, Any], schedule: ScheduleLike, backend: BackendLike,
                costs: CostsLike) -> Dict[int, Any]:
    return evm384_opcodes(schedule, backend)


def _evm768_set(base: Mapping[int, Any], schedule: ScheduleLike, backend: BackendLike,
                costs: CostsLike) -> Dict[int, Any]:
    return evm768_opcodes(schedule, backend)


def _evmmax_set(base: Mapping[int, Any], schedule: ScheduleLike, backend: BackendLike,
                costs: CostsLike) -> Dict[int, Any]:
    from .pyevm_evmmax import evmmax_opcodes
    return evmmax_opcodes(base, backend, costs)  # type: ignore[arg-type]


def _nothing_added(base: Mapping[int, Any], schedule: ScheduleLike, backend: BackendLike,
                   costs: CostsLike) -> Dict[int, Any]:
    return {}


# What each opcode set adds to a py-evm opcode table (``evm``: nothing, py-evm is plain
# EVM): fn(base, schedule, backend, costs) -> opcode objects by byte
_ADDED_BY_SET: Dict[str, Callable[..., Dict[int, Any]]] = {
    "evm384": _evm384_set, "evm768": _evm768_set, "evmmax": _evmmax_set, "evm": _nothing_added}


def set_opcodes(base: Mapping[int, Any], opcodes: str = DEFAULT_OPCODES,
                schedule: ScheduleLike = DEFAULT_SCHEDULE,
                backend: BackendLike = "native",
                costs: CostsLike = DEFAULT_COSTS) -> Dict[int, Any]:
    """The py-evm opcode objects the opcode set ``opcodes`` ("evm384", "evm768", "evmmax" or
    "evm")
    puts into the py-evm opcode table ``base``, keyed by opcode byte (``schedule`` prices
    EVM384, ``costs`` EVMMAX: :mod:`..evm.costs`; "evm" puts none)."""
    return _ADDED_BY_SET[resolve_opcodes(opcodes).name](base, schedule, backend, costs)


def with_evm384(vm_class: Optional[Type[VirtualMachineAPI]] = None, *,
                schedule: ScheduleLike = DEFAULT_SCHEDULE,
                backend: BackendLike = "native",
                opcodes: str = DEFAULT_OPCODES,
                costs: CostsLike = DEFAULT_COSTS) -> Type[VirtualMachineAPI]:
    """A subclass of ``vm_class`` (default: :func:`latest_vm_class`) with EVM384, or with
    EVMMAX (EIP-6690) for ``opcodes="evmmax"``, priced by the cost model ``costs``; for
    ``opcodes="evm"`` (plain EVM) ``vm_class`` itself.

    ``schedule`` names the EVM384 gas schedule ("evmone-v7", "update5-A", "update5-B") or maps
    the three mnemonics to gas; ``backend`` is "native" (C kernel), "reference" (pure Python)
    or, for EVM384, a mapping of the three mnemonics to ``fn(mem, out, x, y, mod)`` (your
    own, e.g. an instrumented one; memory is already expanded when it is called).
    """
    vm_class = vm_class or latest_vm_class()
    prefix = resolve_opcodes(opcodes).name.upper()
    state_class = vm_class._state_class
    computation_class = state_class.computation_class
    base = computation_class.opcodes
    added = set_opcodes(base, opcodes, schedule, backend, costs)
    if not added:                 # plain EVM: py-evm's VM is it
        return vm_class
    computation = type(
        f"{prefix}{computation_class.__name__}", (computation_class,),
        {"__module__": __name__, "opcodes": {**base, **added}})
    state = type(f"{prefix}{state_class.__name__}", (state_class,),
                 {"__module__": __name__, "computation_class": computation})
    return type(f"{prefix}{vm_class.__name__}", (vm_class,),
                {"__module__": __name__, "_state_class": state})


# --- running bytecode directly in a py-evm computation ---------------------------------

CALLER = b"\x10" * 20
CONTRACT = b"\x20" * 20


@dataclass(frozen=True)
class PyEvmResult:
    """What a py-evm computation ended with, in the terms of ExecutionResult."""
    success: bool
    output: bytes
    gas_used: int
    error: Optional[str]


@lru_cache(maxsize=None)
def _empty_state_factory(vm_class: Type[VirtualMachineAPI]) -> Callable[[], StateAPI]:
    chain_class = MiningChain.configure(vm_configuration=((0, vm_class),), chain_id=1)
    chain = chain_class.from_genesis(AtomicDB(), {"difficulty": 0, "gas_limit": 30_000_000,
                                                  "timestamp": 1, "nonce": b"\0" * 8})
    return lambda: chain.get_vm().state


def execute_in_pyevm(code: bytes, calldata: bytes = b"", *, gas: int = 30_000_000,
                     vm_class: Optional[Type[VirtualMachineAPI]] = None,
                     to: bytes = CONTRACT) -> PyEvmResult:
    """Run ``code`` as a message call to ``to`` (no transaction costs) in an empty py-evm
    state. With ``to`` a precompile's address (e.g. ``(0x0F).to_bytes(20, "big")``, EIP-2537's
    pairing check) and empty ``code``, the precompile runs.

    ``vm_class`` defaults to ``with_evm384()``; pass a plain py-evm VM to run without EVM384,
    or ``with_evm384(opcodes="evmmax")`` to run EVMMAX code.
    """
    vm_class = vm_class or with_evm384()
    state = _empty_state_factory(vm_class)()
    message = Message(gas=gas, to=to, sender=CALLER, value=0, data=calldata, code=code)
    context = state.get_transaction_context_class()(gas_price=1, origin=CALLER)
    computation = state.computation_class.apply_computation(state, message, context)
    error = None if computation.is_success else str(computation.error) or type(computation.error).__name__
    return PyEvmResult(computation.is_success, bytes(computation.output),
                       gas - computation.get_gas_remaining(), error)
