"""Test helpers for the EVM interpreter: tiny assembly, a runner that checks every
backend and dispatch mode agree, and py-evm (the independent oracle), with EVM384 through
evm384_native.integrations.pyevm, so these tests also check that integration."""
from __future__ import annotations

from functools import lru_cache
from typing import Tuple, Union

from eth.vm.forks import PragueVM

from evm384_native.evm import ExecutionResult, Tracer
from evm384_native.evm.api import run
from evm384_native.evm.gas import EVM384_NAMES
from evm384_native.evm.opcodes import BY_NAME
from evm384_native.integrations.pyevm import execute_in_pyevm, with_evm384

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
MODES.append(dict(engine="fast", backend="native"))


def run_everywhere(code: bytes, calldata: bytes = b"", gas: int = 1_000_000,
                   schedule="evmone-v7", fork: str = "osaka",
                   opcodes: str = "evm384") -> ExecutionResult:
    """Runs ``code`` with both backends, with and without fused EVM384 blocks, on the
    fast engine, and traced (instruction by instruction); asserts that all results are
    identical."""
    options = dict(gas=gas, schedule=schedule, fork=fork, opcodes=opcodes)
    results = [run(code, calldata, **options, **mode) for mode in MODES]
    results.append(run(code, calldata, **options, tracer=Tracer()))
    for mode, result in zip(MODES + ["traced"], results):
        assert result == results[0], f"{mode} differs: {result} vs {results[0]}"
    return results[0]


# --- py-evm ----------------------------------------------------------------------------

PYEVM_FORK = "prague"     # py-evm 0.12's newest fork: ours runs under it to compare

@lru_cache(maxsize=None)
def _pyevm_vm(evm384_gas: Tuple[int, int, int] | None, opcodes: str):
    """py-evm's Prague VM, through our py-evm integration for the opcode set (EVM384's
    opcodes at this gas; plain EVM: Prague as it is) unless evm384_gas is None."""
    if evm384_gas is None:
        return PragueVM
    return with_evm384(PragueVM, schedule=dict(zip(EVM384_NAMES, evm384_gas)), opcodes=opcodes)


def pyevm_run(code: bytes, calldata: bytes = b"", gas: int = 1_000_000,
              evm384_gas: Tuple[int, int, int] | None = (8, 8, 24),
              opcodes: str = "evm384") -> Tuple[bool, bytes, int]:
    """(success, output, gas used) from py-evm's latest fork; evm384_gas=None runs
    plain Prague (the EVM384 bytes are then invalid opcodes), as ``opcodes="evm"`` does."""
    result = execute_in_pyevm(code, calldata, gas=gas, vm_class=_pyevm_vm(evm384_gas, opcodes))
    return result.success, result.output, result.gas_used


def assert_matches_pyevm(code: bytes, calldata: bytes = b"", gas: int = 1_000_000,
                         schedule="evmone-v7", evm384_gas=(8, 8, 24),
                         opcodes: str = "evm384") -> ExecutionResult:
    ours = run_everywhere(code, calldata, gas, schedule, fork=PYEVM_FORK, opcodes=opcodes)
    expected = pyevm_run(code, calldata, gas, evm384_gas, opcodes)
    assert (ours.success, ours.output, ours.gas_used) == expected, (ours, expected)
    return ours
