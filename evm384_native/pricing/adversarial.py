"""An adversarial corpus for the engines: programs that make the most of each unit of gas.

Each program is a loop that runs until it is out of gas: a loop per opcode (with the
operands that cost the most time, the formerly-host ones SDIV ... RETURNDATACOPY
included), all on 1 MiB of memory and 1,000 stack items; EVM384 loops under the
cheapest schedules (update5-B and all-zero); EVMMAX loops (MULMODX/ADDMODX/SUBMODX of
255 elements at 768 bits, in place and buffered, and of one element at 64 and 768 bits;
SETMODX re-activating contexts after creating the most a frame holds; LOADX/STOREX of 256
registers); 1 MiB of code.

It lives in the package, not in bench/, because ``evm384 price`` reprices the EVMMAX
programs and must find them from a plain wheel install; ``bench/adversarial.py`` times the
whole corpus on every engine and backend, ``bench/test_bench_adversarial.py`` under
pytest-benchmark.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Union

from ..evm.evm384 import pack_offsets
from .programs import op, push

MIB = 2**20
MEMORY = MIB                      # EVM memory every opcode loop works in
STACK_DEPTH = 1000                # items below the loop's own
WORD = 32                         # PUSH32: a value's width wherever the loop sets one up
CALLDATA = bytes(range(256)) * 4
ZERO_SCHEDULE = {"ADDMOD384": 0, "SUBMOD384": 0, "MULMODMONT384": 0}
W = 2**256 - 1
DIVISOR = 2**127 + 2**64 + 12345  # two limbs: algorithm D's longest quotient
# The values the setup leaves just above the deep stack, for DUPs in the loop bodies:
# DUP1 = W, DUP2 = DIVISOR, DUP3 = 2**255 + 1, DUP4 = 31, DUP5 = 255, DUP6 = MEMORY - 32.
VALUES = [MEMORY - 32, 255, 31, 2**255 + 1, DIVISOR, W]


@dataclass(frozen=True)
class Program:
    """One loop of the corpus, with how to run it (``execute``'s schedule and opcodes)."""
    name: str
    code: bytes
    memory: int                   # bytes of EVM memory the program reaches
    schedule: object = "evmone-v7"
    evm384: bool = False          # runs EVM384 ops (so the backends differ)
    calldata: bytes = field(default=CALLDATA, repr=False)
    opcodes: str = "evm384"       # execute(opcodes=...); EVMMAX programs use the backends too

    @property
    def code_size_mib(self) -> float:
        return len(self.code) / MIB


def asm(*parts: Union[str, bytes]) -> bytes:
    """Mnemonics (str) and raw bytes, concatenated."""
    return b"".join(op(part) if isinstance(part, str) else part for part in parts)


def loop(setup: bytes, body: bytes) -> bytes:
    """``setup``, then ``body`` over and over until the gas is gone."""
    return setup + asm("JUMPDEST", body, push(len(setup), 4), "JUMP")


# 1 MiB of memory (its top word set), 1,000 zeros on the stack, then VALUES.
SETUP = asm(push(1, 1), push(MEMORY - 32, 4), "MSTORE", push(0, 0) * STACK_DEPTH,
            *[push(value, WORD) for value in VALUES])


def op_loop(name: str, body: bytes, memory: int = MEMORY) -> Program:
    return Program(name, loop(SETUP, body), memory)


def _stack_ops() -> List[Program]:
    binary = {  # name: the DUPs of its operands (second operand first)
        "ADD": "DUP1 DUP2", "MUL": "DUP1 DUP2", "SUB": "DUP1 DUP2", "DIV": "DUP2 DUP2",
        "SDIV": "DUP2 DUP4", "MOD": "DUP2 DUP2", "SMOD": "DUP2 DUP4", "EXP": "DUP1 DUP4",
        "SIGNEXTEND": "DUP1 DUP5", "LT": "DUP1 DUP2", "GT": "DUP1 DUP2", "SLT": "DUP1 DUP4",
        "SGT": "DUP1 DUP4", "EQ": "DUP1 DUP2", "AND": "DUP1 DUP2", "OR": "DUP1 DUP2",
        "XOR": "DUP1 DUP2", "BYTE": "DUP1 DUP5", "SHL": "DUP1 DUP6", "SHR": "DUP1 DUP6",
        "SAR": "DUP4 DUP6"}
    programs = [op_loop(name, asm(*dups.split(), name, "POP")) for name, dups in binary.items()]
    programs += [op_loop(name, asm("DUP2", "DUP2", "DUP3", name, "POP"))  # W, DIVISOR, W mod
                 for name in ("ADDMOD", "MULMOD")]
    programs += [op_loop(name, asm("DUP1", name, "POP")) for name in ("ISZERO", "NOT")]
    programs += [op_loop(name, asm(name, "POP")) for name in
                 ("PC", "MSIZE", "GAS", "CALLDATASIZE", "CODESIZE", "RETURNDATASIZE")]
    programs += [op_loop("PUSH0", asm(push(0, 0), "POP")),
                 op_loop("PUSH32", asm(push(W, WORD), "POP")),
                 op_loop("DUP16", asm("DUP16", "POP")), op_loop("SWAP16", asm("SWAP16")),
                 op_loop("JUMPI", asm(push(0, 0), push(0, 0), "JUMPI")),
                 op_loop("JUMPDEST", asm("JUMPDEST") * 1000)]
    return programs


def _memory_ops() -> List[Program]:
    top = MEMORY - 32
    return [
        op_loop("MLOAD", asm("DUP6", "MLOAD", "POP")),
        op_loop("MSTORE", asm("DUP1", "DUP7", "MSTORE")),
        op_loop("MSTORE8", asm("DUP1", "DUP7", "MSTORE8")),
        op_loop("CALLDATALOAD", asm(push(1000, 2), "CALLDATALOAD", "POP")),
        op_loop("KECCAK256 32 B", asm(push(32, 1), push(top, 4), "KECCAK256", "POP")),
        op_loop("KECCAK256 1 MiB", asm(push(MEMORY, 4), push(0, 0), "KECCAK256", "POP")),
        op_loop("CALLDATACOPY 1 MiB", asm(push(MEMORY, 4), push(0, 0), push(0, 0), "CALLDATACOPY")),
        op_loop("CALLDATACOPY 32 B", asm(push(32, 1), push(1000, 2), push(top, 4), "CALLDATACOPY")),
        op_loop("CODECOPY 1 MiB", asm(push(MEMORY, 4), push(0, 0), push(0, 0), "CODECOPY")),
        op_loop("MCOPY 512 KiB",
                asm(push(MEMORY // 2, 4), push(0, 0), push(MEMORY // 2, 4), "MCOPY")),
        op_loop("RETURNDATACOPY", asm(push(0, 0), push(0, 0), push(top, 4), "RETURNDATACOPY")),
        # memory growing until the gas is gone: MSTORE at MSIZE
        Program("MSTORE at MSIZE (growing)", loop(b"", asm("MSIZE", "MSIZE", "MSTORE")), 4 * MIB),
    ]


EVM384_OPS = ("ADDMOD384", "SUBMOD384", "MULMODMONT384")


def _evm384_ops() -> List[Program]:
    # modulus (BLS12-381 p shape: odd, top bits set) at 0, inv at 48, operands at 64 and 112
    setup = asm(push(2**384 - 317 >> 128, 32), push(16, 1), "MSTORE",
                push(2**128 - 317, 16), push(128, 1), "SHL", push(0, 0), "MSTORE")
    programs = []
    for name in EVM384_OPS:
        word = pack_offsets(160, 64, 112, 0)
        bodies = {  # the setup with the loop body
            "fused": (setup, asm(push(word, 16), name) * 64),  # one fused segment per iteration
            # not fusable (no PUSH right before), so op by op: 3 gas per op under zero gas
            "after DUP1": (setup + push(word, 16), asm("DUP1", name) * 64),
        }
        for kind, (start, body) in bodies.items():
            for label, schedule in (("update5-B", "update5-B"), ("zero gas", ZERO_SCHEDULE)):
                programs.append(Program(f"{name} {kind}, {label}", loop(start, body), 256,
                                        schedule, True))
    return programs


def _fp2_products(emit: Callable[[str, int, int, int], bytes], slot: int) -> bytes:
    """Fp2 products (tower.fp2.mul's six ops) on locations ``slot`` apart, each with its
    own t2, which no later op writes: the engines' analysis (evm/fp2_products.py,
    modx_common.fp2_products) looks the furthest ahead for each."""
    a0, a1, b0, b1, t0, t1, c1, c0 = (slot * (i + 1) for i in range(8))
    return b"".join(
        emit("MULMODMONT384", t0, a0, b0) + emit("MULMODMONT384", t1, a1, b1)
        + emit("MULMODMONT384", t2, a0, b1) + emit("MULMODMONT384", c1, a1, b0)
        + emit("ADDMOD384", c1, c1, t2) + emit("SUBMOD384", c0, t0, t1)
        for t2 in (slot * (9 + i) for i in range(12)))


def _big_code() -> List[Program]:
    pair = asm(push(pack_offsets(160, 64, 112, 0), 16), "MULMODMONT384")
    products = _fp2_products(lambda name, out, x, y: asm(push(pack_offsets(out, x, y, 0), 16),
                                                         name), 48)
    return [
        Program("1 MiB of Fp2 products, t2 live, zero gas",
                loop(b"", products * ((MIB - 6) // len(products))), 48 * 22, ZERO_SCHEDULE, True),
        Program("1 MiB of JUMPDEST", loop(b"", asm("JUMPDEST") * (MIB - 6)), 0),
        Program("1 MiB of MULMODMONT384 pairs, zero gas",
                loop(b"", pair * ((MIB - 6) // len(pair))), 256, ZERO_SCHEDULE, True),
        Program("1 MiB of PUSH1/POP", loop(b"", asm(push(1, 1), "POP") * ((MIB - 6) // 3)), 0),
    ]


EVMMAX_VALUES_AT = 1024           # STOREX's source and LOADX's destination
EVMMAX_MEMORY = 32 * 1024         # covers the modulus at 0 and 256 values of 96 bytes
# the values STOREX reads: no byte of this has its top bit set, so they are below every
# modulus used here (2**768 - 159 - 2 i, 2**64 - 59, 2**767)
EVMMAX_CALLDATA = bytes(range(128)) * 192


def _evmmax_setup(modulus: int, registers: int) -> bytes:
    """Memory grown to EVMMAX_MEMORY with the calldata's values at EVMMAX_VALUES_AT, the
    modulus at 0, context 0 with ``registers`` registers, all of them stored from memory."""
    size = 8 * -(-modulus.bit_length() // 64)
    modulus_be = modulus.to_bytes(size, "big").rjust(96, b"\0")
    return asm(push(len(EVMMAX_CALLDATA), 2), push(0, 0), push(EVMMAX_VALUES_AT, 2),
               "CALLDATACOPY", push(1, 1), push(EVMMAX_MEMORY - 32, 2), "MSTORE",
               *[asm(push(int.from_bytes(modulus_be[i:i + 32], "big"), WORD), push(i, 1),
                     "MSTORE") for i in range(0, 96, 32)],
               push(registers, 2), push(size, 1), push(96 - size, 1), push(0, 0), "SETMODX",
               push(registers, 2), push(EVMMAX_VALUES_AT, 2), push(0, 0), "STOREX")


def evmmax_corpus() -> List[Program]:
    """The corpus's EVMMAX programs (``opcodes="evmmax"``): what ``evm384 price`` reprices."""
    wide, narrow, power = 2**768 - 159, 2**64 - 59, 2**767

    def program(name: str, modulus: int, registers: int, body: bytes, setup: bytes = b"",
                ) -> Program:
        return Program(name, loop(_evmmax_setup(modulus, registers) + setup, body),
                       EVMMAX_MEMORY, calldata=EVMMAX_CALLDATA, opcodes="evmmax")

    def vector(name: str, *immediates: int) -> bytes:
        return op(name) + bytes(immediates)

    # 256 contexts, each of one register of a distinct 768-bit modulus: 24,576 bytes, the cap
    contexts = asm(*[asm(push(wide - 2 * i - 2 & (2**256 - 1), WORD), push(64, 1), "MSTORE",
                         push(1, 1), push(96, 1), push(0, 0), push(i + 1, 2), "SETMODX")
                     for i in range(255)])
    transfer = (push(256, 2), push(EVMMAX_VALUES_AT, 2), push(0, 0))   # count, memory, first
    names = {"MULMODMONT384": "MULMODX", "ADDMOD384": "ADDMODX", "SUBMOD384": "SUBMODX"}
    products = _fp2_products(lambda name, out, x, y: vector(names[name], out, 1, x, 1, y, 1, 1), 1)
    return [
        program("EVMMAX MULMODX 768-bit x255", wide, 256, vector("MULMODX", 0, 1, 0, 1, 0, 1, 255)),
        program("EVMMAX MULMODX 768-bit x254, buffered", wide, 256,
                vector("MULMODX", 1, 1, 0, 1, 2, 0, 254)),   # out overlaps x: results wait
        program("EVMMAX ADDMODX 768-bit x255", wide, 256, vector("ADDMODX", 0, 1, 0, 1, 0, 1, 255)),
        program("EVMMAX MULMODX 768-bit x1", wide, 256,
                vector("MULMODX", 0, 1, 1, 1, 2, 1, 1) * 100),
        program("EVMMAX MULMODX 64-bit x1", narrow, 256,
                vector("MULMODX", 0, 1, 1, 1, 2, 1, 1) * 1000),
        program("EVMMAX SUBMODX 64-bit x1", narrow, 256,
                vector("SUBMODX", 0, 1, 1, 1, 2, 1, 1) * 1000),
        # a JUMPDEST after each: no two run as one step on the python engine
        program("EVMMAX SUBMODX 64-bit x1, JUMPDEST", narrow, 256,
                (vector("SUBMODX", 0, 1, 1, 1, 2, 1, 1) + asm("JUMPDEST")) * 1000),
        program("EVMMAX SUBMODX 2**767 x255", power, 256, vector("SUBMODX", 0, 1, 0, 1, 0, 1, 255)),
        program("EVMMAX SETMODX (activating, 256 contexts)", wide, 1,
                asm("DUP4", "DUP4", "DUP4", "DUP4", "SETMODX"), contexts + asm(
                    push(9, 1), push(9, 1), push(9, 1), push(200, 1))),
        program("EVMMAX STOREX 256 x 768-bit", wide, 256, asm(*transfer, "STOREX")),
        program("EVMMAX LOADX 256 x 768-bit", wide, 256,
                asm(push(256, 2), push(0, 0), push(EVMMAX_VALUES_AT, 2), "LOADX")),
        program("EVMMAX STOREX 256 x 64-bit", narrow, 256, asm(*transfer, "STOREX")),
        program("EVMMAX LOADX 256 x 2**767", power, 256,
                asm(push(256, 2), push(0, 0), push(EVMMAX_VALUES_AT, 2), "LOADX")),
        program("EVMMAX LOADX count 0", narrow, 256,
                asm(push(0, 0), push(0, 0), push(0, 0), "LOADX")),
        program("EVMMAX 1 MiB of Fp2 products, t2 live", narrow, 256, products * (
            (MIB - 600) // len(products))),
    ]


def corpus() -> List[Program]:
    """Every program: the EVM's opcodes, memory, EVM384, EVMMAX, then 1 MiB of code."""
    return _stack_ops() + _memory_ops() + _evm384_ops() + evmmax_corpus() + _big_code()
