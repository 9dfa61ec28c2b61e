"""Test helpers for the EVM interpreter: tiny assembly, a runner that checks every
backend and dispatch mode agree, and py-evm (the independent oracle) with a
TEST-ONLY shim that adds the three EVM384 opcodes on top of our kernel."""
from __future__ import annotations

from functools import lru_cache
from typing import Tuple, Union

from eth import constants
from eth.constants import BLANK_ROOT_HASH
from eth.db.atomic import AtomicDB
from eth.vm.execution_context import ExecutionContext
from eth.vm.forks.prague.computation import PragueComputation
from eth.vm.logic import sha3 as sha3_logic
from eth.vm.forks.prague.state import PragueState
from eth.vm.message import Message
from eth.vm.opcode import as_opcode

from evm384_native import kernel
from evm384_native.evm import ExecutionResult, Tracer
from evm384_native.evm.api import run
from evm384_native.evm.opcodes import BY_NAME

Part = Union[str, bytes, int]


# --- assembly ----------------------------------------------------------------------

def push(value: int, width: int = 32) -> bytes:
    """PUSH<width> value (PUSH0 when width is 0)."""
    if width == 0:
        assert value == 0
        return bytes([0x5F])
    return bytes([0x5F + width]) + value.to_bytes(width, "big")


def asm(*parts: Part) -> bytes:
    """Mnemonics (str) and raw bytes, concatenated."""
    out = bytearray()
    for part in parts:
        out += bytes([BY_NAME[part].code]) if isinstance(part, str) else part
    return bytes(out)


def evm384_word(out: int, x: int, y: int, mod: int) -> int:
    return (out << 96) | (x << 64) | (y << 32) | mod


# Store the top of stack at memory 0 and return those 32 bytes: 3 + 3 + 3 (memory) + 3 + 3.
RETURN_TOP = asm(push(0, 1), "MSTORE", push(32, 1), push(0, 1), "RETURN")
RETURN_TOP_GAS = 15


def memory_gas(size_bytes: int) -> int:
    """The yellow paper's C_mem for a memory of size_bytes (rounded up to words)."""
    words = (size_bytes + 31) // 32
    return 3 * words + words * words // 512


# --- our interpreter, in every mode ----------------------------------------------------

MODES = [dict(backend=backend, fuse_evm384=fuse)
         for backend in ("native", "reference") for fuse in (True, False)]


def run_everywhere(code: bytes, calldata: bytes = b"", gas: int = 1_000_000,
                   schedule="evmone-v7") -> ExecutionResult:
    """Runs ``code`` with both backends, with and without fused EVM384 blocks, and
    traced (instruction by instruction); asserts that all results are identical."""
    results = [run(code, calldata, gas=gas, schedule=schedule, **mode) for mode in MODES]
    results.append(run(code, calldata, gas=gas, schedule=schedule, tracer=Tracer()))
    for mode, result in zip(MODES + ["traced"], results):
        assert result == results[0], f"{mode} differs: {result} vs {results[0]}"
    return results[0]


# --- py-evm ----------------------------------------------------------------------------

_CONTEXT = ExecutionContext(coinbase=b"\0" * 20, timestamp=1, block_number=1, difficulty=0,
                            mix_hash=b"\0" * 32, gas_limit=2**62, prev_hashes=(), chain_id=1,
                            base_fee_per_gas=1, excess_blob_gas=0)
_SENDER = b"\x11" * 20
_CONTRACT = b"\x22" * 20


def _evm384_shim(name: str, kernel_op, gas: int, mod_size: int):
    """py-evm opcode: pop the packed offsets, expand memory like MLOAD, run our kernel."""
    def logic(computation) -> None:
        word = computation.stack_pop1_int()
        out, x, y, mod = ((word >> shift) & 0xFFFFFFFF for shift in (96, 64, 32, 0))
        end = max(out + 48, x + 48, y + 48, mod + mod_size)
        computation.extend_memory(0, end)
        kernel_op(computation._memory._bytes, out, x, y, mod)
    return as_opcode(logic_fn=logic, mnemonic=name, gas_cost=gas)


@lru_cache(maxsize=None)
def _computation_class(evm384_gas: Tuple[int, int, int] | None):
    opcodes = dict(PragueComputation.opcodes)
    # titanoboa (used elsewhere in this test session) wraps py-evm's shared SHA3 entry
    # in place with a tracer that fails on an empty stack: use py-evm's own opcode.
    opcodes[0x20] = as_opcode(logic_fn=sha3_logic.sha3, mnemonic="SHA3",
                              gas_cost=constants.GAS_SHA3)
    if evm384_gas is not None:
        add, sub, mul = evm384_gas
        opcodes[0xC0] = _evm384_shim("ADDMOD384", kernel.addmod384, add, 48)
        opcodes[0xC1] = _evm384_shim("SUBMOD384", kernel.submod384, sub, 48)
        opcodes[0xC2] = _evm384_shim("MULMODMONT384", kernel.mulmodmont384, mul, 56)
    return type("OraclePragueComputation", (PragueComputation,), {"opcodes": opcodes})


def pyevm_run(code: bytes, calldata: bytes = b"", gas: int = 1_000_000,
              evm384_gas: Tuple[int, int, int] | None = (8, 8, 24)) -> Tuple[bool, bytes, int]:
    """(success, output, gas used) from py-evm's latest fork; evm384_gas=None runs
    plain Prague (the EVM384 bytes are then invalid opcodes)."""
    state = PragueState(AtomicDB(), _CONTEXT, BLANK_ROOT_HASH)
    transaction_context = PragueState.get_transaction_context_class()(gas_price=1, origin=_SENDER)
    message = Message(gas=gas, to=_CONTRACT, sender=_SENDER, value=0, data=calldata, code=code)
    computation = _computation_class(evm384_gas).apply_computation(state, message,
                                                                   transaction_context)
    return computation.is_success, bytes(computation.output), gas - computation.get_gas_remaining()


def assert_matches_pyevm(code: bytes, calldata: bytes = b"", gas: int = 1_000_000,
                         schedule="evmone-v7", evm384_gas=(8, 8, 24)) -> ExecutionResult:
    ours = run_everywhere(code, calldata, gas, schedule)
    expected = pyevm_run(code, calldata, gas, evm384_gas)
    assert (ours.success, ours.output, ours.gas_used) == expected, (ours, expected)
    return ours
