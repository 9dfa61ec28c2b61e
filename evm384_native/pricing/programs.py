"""The programs the prices are fitted on: straight-line code whose counts of each priced
operation are chosen, so that a regression of whole-program time on the counts finds
each operation's time (EIP-7904's method).

An EVMMAX program of ``limbs`` limbs: its calldata (an odd modulus, 128 values below it,
one more modulus per context SETMODX may create) copied to memory; context 0 with 128
registers, all stored from memory; then runs of MULMODX, ADDMODX, SUBMODX (elements
split into instructions of 1..62 elements, so that elements and instructions vary
apart), LOADX and STOREX of up to 128 values, PUSH1/POP filler, new contexts (SETMODX)
last, as they change the active context, and STOP. An EVM384 program: a modulus and two
operands copied to memory, then runs of PUSH16/op pairs of ADDMOD384, SUBMOD384,
MULMODMONT384, filler and STOP; an EVM768 program the same with 96-byte values and
ADDMOD768, SUBMOD768, MULMODMONT768. Values are random but below the modulus (STOREX requires it)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from ..evm.evmmax import MAX_CONTEXT_ID
from ..evm.kernels.modx_common import LIMB_BITS, MAX_REGISTER_BYTES
from ..evm.kernels.montgomery import montgomery_inv
from ..evm.opcode_sets import resolve_opcodes
from ..evm.opcodes import BY_NAME, EVM768_BY_NAME, EVMMAX_BY_NAME
from ..evm.result import ExecutionResult

# What each fit's columns count, besides the intercept: elements (vector ops), new
# contexts (SETMODX), values (LOADX/STOREX), ops (EVM384, each with its PUSH16: the engines
# run the pair as one), and the other instructions run (PUSHes, POPs, CALLDATACOPY, STOP).
# A priced instruction's own dispatch is in its units' time: one PUSH1/POP pair costs more
# than a fused PUSH16/ADDMOD384 or a MULMODX inside a run of them.
# In a design (the amounts a program is built with) "instructions" asks for PUSH1/POP pairs.
INSTRUCTIONS = "instructions"
EVMMAX_FEATURES = ("MULMODX", "ADDMODX", "SUBMODX", "SETMODX", "LOADX", "STOREX", INSTRUCTIONS)
EVM384_FEATURES = ("ADDMOD384", "SUBMOD384", "MULMODMONT384", INSTRUCTIONS)
EVM768_FEATURES = ("ADDMOD768", "SUBMOD768", "MULMODMONT768", INSTRUCTIONS)
# the opcode sets of EVM384's interface (PUSH16/op pairs) and the features they price
PACKED_FEATURES = {"evm384": EVM384_FEATURES, "evm768": EVM768_FEATURES}
# the instructions each priced op takes: EVM384's (EVM768's) with its PUSH16
PRICED = {"evmmax": {name: 1 for name in EVMMAX_FEATURES[:-1]},
          **{opcodes: {name: 2 for name in features[:-1]}
             for opcodes, features in PACKED_FEATURES.items()}}

REGISTERS = 128                  # context 0's registers
VECTOR_OUT, VECTOR_X, VECTOR_Y = 0, 64, 65
MAX_COUNT = REGISTERS - 1 - VECTOR_Y     # the EIP's bound: idx + stride * count < registers
MAX_TRANSFER = REGISTERS                 # values per LOADX/STOREX


@dataclass(frozen=True)
class Program:
    """Code to time, and the amounts of its priced operations (by feature name; the
    instructions are counted by running it)."""
    code: bytes
    calldata: bytes
    opcodes: str                 # execute(opcodes=...): "evmmax", "evm384" or "evm768"
    amounts: Dict[str, int] = field(default_factory=dict)


def other_instructions(program: Program, result: ExecutionResult) -> int:
    """The instructions a run of ``program`` ran besides the priced ones (and their PUSH16)."""
    priced = PRICED[program.opcodes]
    return result.steps - sum(per_op * result.opcode_counts.get(name, 0)
                              for name, per_op in priced.items())


def op(name: str) -> bytes:
    """The byte of opcode ``name``, EVMMAX's (0xC0-0xC5 under ``opcodes="evmmax"``),
    EVM768's or the EVM's and EVM384's."""
    table = next(table for table in (BY_NAME, EVMMAX_BY_NAME, EVM768_BY_NAME) if name in table)
    return bytes([table[name].code])


def push(value: int, width: Optional[int] = None) -> bytes:
    """PUSH``width`` of ``value`` (width 0: PUSH0); by default the shortest PUSHn (PUSH1
    for 0)."""
    if width is None:
        width = max(1, (value.bit_length() + 7) // 8)
    return bytes([0x5F + width]) + value.to_bytes(width, "big")


def _filler(pairs: int) -> bytes:
    return (push(1) + op("POP")) * pairs


def _copy_calldata(size: int) -> bytes:
    return push(size) + push(0) + push(0) + op("CALLDATACOPY")


def _grow_memory(end: int) -> bytes:
    """Memory covering [0, end): LOADX writes only inside it."""
    return push(0) + push(end - 32) + op("MSTORE")


def _split(total: int, most: int, rng: random.Random) -> List[int]:
    """``total`` as parts of 1..most, random sizes (the last may be smaller)."""
    parts = []
    while total > 0:
        part = min(total, rng.randint(1, most))
        parts.append(part)
        total -= part
    return parts


# --- EVMMAX ------------------------------------------------------------------------------

def max_new_contexts(limbs: int) -> int:
    """SETMODX's new contexts of one register each that fit beside context 0."""
    return min(MAX_CONTEXT_ID, MAX_REGISTER_BYTES // (8 * limbs) - REGISTERS)


def _odd_modulus(limbs: int, rng: random.Random) -> int:
    bits = LIMB_BITS * limbs
    return rng.getrandbits(bits) | 1 << (bits - 1) | 1


def evmmax_calldata(limbs: int, seed: int = 0) -> bytes:
    """Context 0's modulus, its 128 values, the moduli of the new contexts."""
    rng = random.Random(seed * 100 + limbs)
    size = 8 * limbs
    modulus = _odd_modulus(limbs, rng)
    values = [rng.randrange(modulus) for _ in range(REGISTERS)]
    moduli = [_odd_modulus(limbs, rng) for _ in range(max_new_contexts(limbs))]
    return b"".join(v.to_bytes(size, "big") for v in [modulus, *values, *moduli])


def _vector(name: str, elements: int, rng: random.Random) -> bytes:
    return b"".join(op(name) + bytes([VECTOR_OUT, 1, VECTOR_X, 1, VECTOR_Y, 1, count])
                    for count in _split(elements, MAX_COUNT, rng))


def _transfer(name: str, values: int, memory: int, rng: random.Random) -> bytes:
    """LOADX (registers to ``memory``) or STOREX (``memory`` to registers) of ``values``."""
    code = b""
    for count in _split(values, MAX_TRANSFER, rng):
        dest, source = (memory, 0) if name == "LOADX" else (0, memory)
        code += push(count) + push(source) + push(dest) + op(name)
    return code


def evmmax_program(limbs: int, amounts: Mapping[str, int], rng: random.Random,
                   calldata: bytes) -> Program:
    """A program with ``amounts`` of EVMMAX_FEATURES (INSTRUCTIONS: PUSH1/POP pairs) at
    ``limbs`` limbs; ``calldata`` is ``evmmax_calldata(limbs)``."""
    size = 8 * limbs
    values_at, moduli_at, out_at = size, size * (1 + REGISTERS), len(calldata)
    contexts = amounts.get("SETMODX", 0)
    if not 0 <= contexts <= max_new_contexts(limbs):
        raise ValueError(f"{contexts} new contexts do not fit at {limbs} limbs")
    code = (_copy_calldata(len(calldata)) + _grow_memory(out_at + size * REGISTERS)
            + push(REGISTERS) + push(size) + push(0) + push(0) + op("SETMODX")
            + _transfer("STOREX", REGISTERS, values_at, rng)
            + b"".join(_vector(name, amounts.get(name, 0), rng)
                       for name in ("MULMODX", "ADDMODX", "SUBMODX"))
            + _transfer("LOADX", amounts.get("LOADX", 0), out_at, rng)
            + _transfer("STOREX", amounts.get("STOREX", 0), values_at, rng)
            + _filler(amounts.get(INSTRUCTIONS, 0))
            + b"".join(push(1) + push(size) + push(moduli_at + i * size) + push(i + 1)
                       + op("SETMODX") for i in range(contexts))
            + op("STOP"))
    counted = {name: amounts.get(name, 0) for name in EVMMAX_FEATURES if name != INSTRUCTIONS}
    counted["STOREX"] += REGISTERS          # the prefix's
    return Program(code, calldata, "evmmax", counted)


def evmmax_limits(limbs: int) -> Dict[str, int]:
    """The most of each feature one program holds: the register space, and code small
    enough that a fit's decoded programs stay in the engines' caches (code.DECODE_CACHE_BYTES:
    about ten bytes a byte of code), or every timed run would decode again."""
    return {"MULMODX": 400_000, "ADDMODX": 400_000, "SUBMODX": 400_000,
            "SETMODX": max_new_contexts(limbs), "LOADX": 40_000, "STOREX": 40_000,
            INSTRUCTIONS: 30_000}


# --- EVM384 and EVM768 ----------------------------------------------------------------------

def _packed_layout(opcodes: str) -> Tuple[int, int, int, int]:
    """(value bytes, x, y, out) of the opcode set's programs: the modulus and its inv at 0
    (padded to 16 bytes past the modulus), then x, y and out."""
    size = 8 * resolve_opcodes(opcodes).value_limbs
    x = size + 16
    return size, x, x + size, x + 2 * size


def packed_modulus(opcodes: str) -> int:
    """Odd, top bits set (for EVM384, the BLS12-381 field's shape): 2**bits - 317."""
    return 2 ** (8 * _packed_layout(opcodes)[0]) - 317


def evm384_calldata(seed: int = 0, opcodes: str = "evm384") -> bytes:
    """The modulus and its Montgomery inverse (little-endian, at 0 and after the modulus),
    x and y, of the opcode set ``opcodes`` ("evm384" or "evm768")."""
    size = _packed_layout(opcodes)[0]
    rng = random.Random(seed * 100 + 8 * size)
    modulus = packed_modulus(opcodes)
    x, y = (rng.randrange(modulus) for _ in range(2))
    return (modulus.to_bytes(size, "little")
            + montgomery_inv(modulus, size // 8).to_bytes(8, "little").ljust(16, b"\0")
            + x.to_bytes(size, "little") + y.to_bytes(size, "little"))


def evm384_program(amounts: Mapping[str, int], calldata: bytes,
                   opcodes: str = "evm384") -> Program:
    """A program with ``amounts`` of the opcode set's PACKED_FEATURES (INSTRUCTIONS: PUSH1/POP
    pairs); ``calldata`` is ``evm384_calldata(seed, opcodes)``."""
    size, x, y, out = _packed_layout(opcodes)
    word = out << 96 | x << 64 | y << 32 | 0
    pair = {name: b"\x6f" + word.to_bytes(16, "big") + op(name)      # PUSH16 word, op
            for name in PACKED_FEATURES[opcodes] if name != INSTRUCTIONS}
    # runs of one op, as for EVMMAX: ops in random order would time the engine's branch
    # predictor as much as the ops (up to half as much again, measured)
    code = (_copy_calldata(len(calldata)) + _grow_memory(out + size + 16)
            + b"".join(pair[name] * amounts.get(name, 0) for name in pair)
            + _filler(amounts.get(INSTRUCTIONS, 0))
            + op("STOP"))
    return Program(code, calldata, opcodes, {name: amounts.get(name, 0) for name in pair})


def evm384_limits(opcodes: str = "evm384") -> Dict[str, int]:
    """As ``evmmax_limits``: a PUSH16/op pair is 18 bytes of code."""
    return {**{name: 16_000 for name in PACKED_FEATURES[opcodes][:-1]}, INSTRUCTIONS: 30_000}


# --- designs -----------------------------------------------------------------------------

def design(features: Sequence[str], unit_ns: Mapping[str, float], budget_ns: float,
           limits: Mapping[str, int], programs: int, rng: random.Random
           ) -> List[Dict[str, int]]:
    """``programs`` amounts: the first all zero (the intercept's), each other with one to
    three features at random amounts of up to ``budget_ns`` of time each (by the pilot's
    ``unit_ns``), the rest zero: a program's timing noise grows with its time, so a cheap
    operation is measured best in programs where it is most of the time."""
    found: List[Dict[str, int]] = [{name: 0 for name in features}]
    for _ in range(programs - 1):
        active = rng.sample(list(features), rng.randint(1, min(3, len(features))))
        found.append({name: min(limits[name], round(rng.uniform(0.1, 1.0) * budget_ns
                                                    / unit_ns[name]))
                      if name in active else 0 for name in features})
    return found
