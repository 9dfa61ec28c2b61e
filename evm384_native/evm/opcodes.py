"""The opcode tables: every opcode stated once.

``MAINNET_OPCODES`` covers all mainnet Cancun/Prague opcodes: the "evm" opcode set's table,
and the base of the other two. ``OPCODES`` is that table plus EVM384's ADDMOD384, SUBMOD384
and MULMODMONT384 (0xc0..0xc2); ``EVMMAX_OPCODES`` the same base with EIP-6690's SETMODX,
LOADX, STOREX, ADDMODX, SUBMODX and MULMODX at 0xc0..0xc5 instead (the two extensions
share 0xc0..0xc2, so an execution runs one of the sets: see :mod:`.opcode_sets`);
``EVM768_OPCODES`` the base with EVM768's ADDMOD768, SUBMOD768 and MULMODMONT768 there
(EVM384's three at 96-byte values).
``FORK_OPCODES`` holds what later forks add (Osaka's CLZ); which fork has which is
:mod:`.forks`' data, and an execution's table is its opcode set's plus its fork's
(:func:`.opcode_sets.resolve_opcodes`). The interpreter, the tracer and the assembler all
read these tables; nothing else lists opcodes.

``gas`` is the static part of the cost, charged before the instruction runs. Dynamic
parts (memory expansion, copies, EXP bytes, KECCAK256 words) live in
:mod:`evm384_native.evm.gas`; EVM384 costs come from the chosen schedule, so their
entries here hold the default (``evmone-v7``) values. For opcodes that need world
state (accounts, storage, logs, calls, block context) ``gas`` is the mainnet base
cost, given for tools only: this interpreter halts on them ("unsupported opcode").

``inputs`` and ``outputs`` are the items popped and pushed (the yellow paper's delta
and alpha), so DUPn pops n and pushes n + 1, SWAPn pops and pushes n + 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List


@dataclass(frozen=True)
class OpcodeInfo:
    code: int
    name: str
    gas: int
    inputs: int
    outputs: int
    immediate: int = 0        # bytes of immediate data after the opcode (PUSHn: n)
    needs_state: bool = False  # needs accounts/storage/block context: unsupported here


def _mainnet_table() -> List[OpcodeInfo]:
    ops: List[OpcodeInfo] = []

    def op(code: int, name: str, gas: int, inputs: int, outputs: int, *,
           immediate: int = 0, state: bool = False) -> None:
        ops.append(OpcodeInfo(code, name, gas, inputs, outputs, immediate, state))

    # 0x00s: stop and arithmetic
    op(0x00, "STOP", 0, 0, 0)
    op(0x01, "ADD", 3, 2, 1)
    op(0x02, "MUL", 5, 2, 1)
    op(0x03, "SUB", 3, 2, 1)
    op(0x04, "DIV", 5, 2, 1)
    op(0x05, "SDIV", 5, 2, 1)
    op(0x06, "MOD", 5, 2, 1)
    op(0x07, "SMOD", 5, 2, 1)
    op(0x08, "ADDMOD", 8, 3, 1)
    op(0x09, "MULMOD", 8, 3, 1)
    op(0x0A, "EXP", 10, 2, 1)
    op(0x0B, "SIGNEXTEND", 5, 2, 1)
    # 0x10s: comparison and bitwise
    op(0x10, "LT", 3, 2, 1)
    op(0x11, "GT", 3, 2, 1)
    op(0x12, "SLT", 3, 2, 1)
    op(0x13, "SGT", 3, 2, 1)
    op(0x14, "EQ", 3, 2, 1)
    op(0x15, "ISZERO", 3, 1, 1)
    op(0x16, "AND", 3, 2, 1)
    op(0x17, "OR", 3, 2, 1)
    op(0x18, "XOR", 3, 2, 1)
    op(0x19, "NOT", 3, 1, 1)
    op(0x1A, "BYTE", 3, 2, 1)
    op(0x1B, "SHL", 3, 2, 1)
    op(0x1C, "SHR", 3, 2, 1)
    op(0x1D, "SAR", 3, 2, 1)
    op(0x20, "KECCAK256", 30, 2, 1)
    # 0x30s: environment
    op(0x30, "ADDRESS", 2, 0, 1, state=True)
    op(0x31, "BALANCE", 100, 1, 1, state=True)
    op(0x32, "ORIGIN", 2, 0, 1, state=True)
    op(0x33, "CALLER", 2, 0, 1, state=True)
    op(0x34, "CALLVALUE", 2, 0, 1, state=True)
    op(0x35, "CALLDATALOAD", 3, 1, 1)
    op(0x36, "CALLDATASIZE", 2, 0, 1)
    op(0x37, "CALLDATACOPY", 3, 3, 0)
    op(0x38, "CODESIZE", 2, 0, 1)
    op(0x39, "CODECOPY", 3, 3, 0)
    op(0x3A, "GASPRICE", 2, 0, 1, state=True)
    op(0x3B, "EXTCODESIZE", 100, 1, 1, state=True)
    op(0x3C, "EXTCODECOPY", 100, 4, 0, state=True)
    op(0x3D, "RETURNDATASIZE", 2, 0, 1)
    op(0x3E, "RETURNDATACOPY", 3, 3, 0)
    op(0x3F, "EXTCODEHASH", 100, 1, 1, state=True)
    # 0x40s: block context
    op(0x40, "BLOCKHASH", 20, 1, 1, state=True)
    op(0x41, "COINBASE", 2, 0, 1, state=True)
    op(0x42, "TIMESTAMP", 2, 0, 1, state=True)
    op(0x43, "NUMBER", 2, 0, 1, state=True)
    op(0x44, "PREVRANDAO", 2, 0, 1, state=True)
    op(0x45, "GASLIMIT", 2, 0, 1, state=True)
    op(0x46, "CHAINID", 2, 0, 1, state=True)
    op(0x47, "SELFBALANCE", 5, 0, 1, state=True)
    op(0x48, "BASEFEE", 2, 0, 1, state=True)
    op(0x49, "BLOBHASH", 3, 1, 1, state=True)
    op(0x4A, "BLOBBASEFEE", 2, 0, 1, state=True)
    # 0x50s: stack, memory, storage and flow
    op(0x50, "POP", 2, 1, 0)
    op(0x51, "MLOAD", 3, 1, 1)
    op(0x52, "MSTORE", 3, 2, 0)
    op(0x53, "MSTORE8", 3, 2, 0)
    op(0x54, "SLOAD", 100, 1, 1, state=True)
    op(0x55, "SSTORE", 100, 2, 0, state=True)
    op(0x56, "JUMP", 8, 1, 0)
    op(0x57, "JUMPI", 10, 2, 0)
    op(0x58, "PC", 2, 0, 1)
    op(0x59, "MSIZE", 2, 0, 1)
    op(0x5A, "GAS", 2, 0, 1)
    op(0x5B, "JUMPDEST", 1, 0, 0)
    op(0x5C, "TLOAD", 100, 1, 1, state=True)
    op(0x5D, "TSTORE", 100, 2, 0, state=True)
    op(0x5E, "MCOPY", 3, 3, 0)
    op(0x5F, "PUSH0", 2, 0, 1)
    for n in range(1, 33):
        op(0x5F + n, f"PUSH{n}", 3, 0, 1, immediate=n)
    for n in range(1, 17):
        op(0x7F + n, f"DUP{n}", 3, n, n + 1)
    for n in range(1, 17):
        op(0x8F + n, f"SWAP{n}", 3, n + 1, n + 1)
    for n in range(5):
        op(0xA0 + n, f"LOG{n}", 375 * (n + 1), n + 2, 0, state=True)
    # 0xf0s: system
    op(0xF0, "CREATE", 32000, 3, 1, state=True)
    op(0xF1, "CALL", 100, 7, 1, state=True)
    op(0xF2, "CALLCODE", 100, 7, 1, state=True)
    op(0xF3, "RETURN", 0, 2, 0)
    op(0xF4, "DELEGATECALL", 100, 6, 1, state=True)
    op(0xF5, "CREATE2", 32000, 4, 1, state=True)
    op(0xFA, "STATICCALL", 100, 6, 1, state=True)
    op(0xFD, "REVERT", 0, 2, 0)
    op(0xFE, "INVALID", 0, 0, 0)
    op(0xFF, "SELFDESTRUCT", 5000, 1, 0, state=True)
    return ops


def _evm384_table() -> List[OpcodeInfo]:
    """EVM384's opcodes (interface v7); each pops one word of packed memory offsets."""
    return [OpcodeInfo(0xC0, "ADDMOD384", 8, 1, 0), OpcodeInfo(0xC1, "SUBMOD384", 8, 1, 0),
            OpcodeInfo(0xC2, "MULMODMONT384", 24, 1, 0)]


def _extended(base: Dict[int, OpcodeInfo], added: List[OpcodeInfo]) -> Dict[int, OpcodeInfo]:
    """``base`` with the ``added`` entries, in opcode order."""
    assert not base.keys() & {info.code for info in added}, "an extension redefines an opcode"
    return dict(sorted({**base, **{info.code: info for info in added}}.items()))


_MAINNET = _mainnet_table()
MAINNET_OPCODES: Dict[int, OpcodeInfo] = {info.code: info for info in _MAINNET}
assert len(MAINNET_OPCODES) == len(_MAINNET), "duplicate opcode byte"
OPCODES: Dict[int, OpcodeInfo] = _extended(MAINNET_OPCODES, _evm384_table())
BY_NAME: Dict[str, OpcodeInfo] = {info.name: info for info in OPCODES.values()}
# Older names that source code still uses, mapped to the current mnemonic.
ALIASES: Dict[str, str] = {"SHA3": "KECCAK256", "DIFFICULTY": "PREVRANDAO"}

EVM384_MNEMONICS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")
EVM384_OPCODES = tuple(BY_NAME[name].code for name in EVM384_MNEMONICS)
STACK_LIMIT = 1024

assert len(OPCODES) == len(BY_NAME), "duplicate opcode name"

# Instructions forks add after Prague, stated here once; :mod:`.forks` says which fork
# defines which. Not in MAINNET_OPCODES: under the earlier forks their bytes stay undefined.
CLZ = OpcodeInfo(0x1E, "CLZ", 5, 1, 1)     # EIP-7939 (Osaka): gas 5, as MUL
FORK_OPCODES: Dict[int, OpcodeInfo] = {CLZ.code: CLZ}
assert not FORK_OPCODES.keys() & MAINNET_OPCODES.keys()
# Every mnemonic the assembler may emit, whatever fork the code is meant for
_ANY_FORK_BY_NAME: Dict[str, OpcodeInfo] = {
    **BY_NAME, **{info.name: info for info in FORK_OPCODES.values()}}


def _evmmax_table() -> List[OpcodeInfo]:
    """EIP-6690's opcodes. Static gas is the EIP's base cost (SETMODX, LOADX, STOREX:
    1; the arithmetic has none); the rest depends on the active field context
    (:mod:`.evmmax`). The arithmetic carries seven immediate bytes, no stack operands."""
    return [OpcodeInfo(0xC0, "SETMODX", 1, 4, 0), OpcodeInfo(0xC1, "LOADX", 1, 3, 0),
            OpcodeInfo(0xC2, "STOREX", 1, 3, 0),
            OpcodeInfo(0xC3, "ADDMODX", 0, 0, 0, immediate=7),
            OpcodeInfo(0xC4, "SUBMODX", 0, 0, 0, immediate=7),
            OpcodeInfo(0xC5, "MULMODX", 0, 0, 0, immediate=7)]


EVMMAX_OPCODES: Dict[int, OpcodeInfo] = _extended(MAINNET_OPCODES, _evmmax_table())
EVMMAX_BY_NAME: Dict[str, OpcodeInfo] = {info.name: info for info in EVMMAX_OPCODES.values()}
assert len(EVMMAX_OPCODES) == len(EVMMAX_BY_NAME) == len(OPCODES) + 3


def _evm768_table() -> List[OpcodeInfo]:
    """EVM768's opcodes: EVM384's interface v7 at 96-byte values. Static gas here is the
    default schedule's (evmone-v7) under the per-limb model of :mod:`.gas`."""
    return [OpcodeInfo(0xC0, "ADDMOD768", 16, 1, 0), OpcodeInfo(0xC1, "SUBMOD768", 16, 1, 0),
            OpcodeInfo(0xC2, "MULMODMONT768", 96, 1, 0)]


EVM768_OPCODES: Dict[int, OpcodeInfo] = _extended(MAINNET_OPCODES, _evm768_table())
EVM768_BY_NAME: Dict[str, OpcodeInfo] = {info.name: info for info in EVM768_OPCODES.values()}
EVM768_MNEMONICS = ("ADDMOD768", "SUBMOD768", "MULMODMONT768")
# The instructions of EVM384's interface v7 (EVM384's and EVM768's): each pops one word of
# four packed memory offsets, which the tools show by name (out, x, y, mod); name -> byte
PACKED_OFFSET_OPCODES: Dict[str, int] = {
    **{name: BY_NAME[name].code for name in EVM384_MNEMONICS},
    **{name: EVM768_BY_NAME[name].code for name in EVM768_MNEMONICS}}
PACKED_OFFSET_MNEMONICS = tuple(PACKED_OFFSET_OPCODES)


def lookup(name: str) -> OpcodeInfo:
    """The opcode called ``name`` (case-insensitive; old aliases accepted), including the
    instructions of later forks (CLZ)."""
    key = name.upper()
    key = ALIASES.get(key, key)
    try:
        return _ANY_FORK_BY_NAME[key]
    except KeyError:
        raise KeyError(f"unknown mnemonic {name!r}") from None
