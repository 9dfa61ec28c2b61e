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
MULMODMONT384, filler and STOP. Values are random but below the modulus (STOREX requires it)."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Sequence

from ..evm.evmmax import MAX_CONTEXT_ID
from ..evm.kernels.modx_common import LIMB_BITS, MAX_REGISTER_BYTES
from ..evm.kernels.montgomery import montgomery_inv
from ..evm.opcodes import BY_NAME, EVMMAX_BY_NAME
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
# the instructions each priced op takes: EVM384's with its PUSH16
PRICED = {"evmmax": {name: 1 for name in EVMMAX_FEATURES[:-1]},
          "evm384": {name: 2 for name in EVM384_FEATURES[:-1]}}

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
    opcodes: str                 # execute(opcodes=...): "evmmax" or "evm384"
    amounts: Dict[str, int] = field(default_factory=dict)


def other_instructions(program: Program, result: ExecutionResult) -> int:
    """The instructions a run of ``program`` ran besides the priced ones (and their PUSH16)."""
    priced = PRICED[program.opcodes]
    return result.steps - sum(per_op * result.opcode_counts.get(name, 0)
                              for name, per_op in priced.items())


def op(name: str) -> bytes:
    """The byte of opcode ``name``, EVMMAX's (0xC0-0xC5 under ``opcodes="evmmax"``) or the
    EVM's and EVM384's."""
    table = EVMMAX_BY_NAME if name in EVMMAX_BY_NAME else BY_NAME
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


# --- EVM384 ------------------------------------------------------------------------------

EVM384_MODULUS = 2**384 - 317     # odd, top bits set: the BLS12-381 field's shape
EVM384_X, EVM384_Y, EVM384_OUT = 64, 112, 160


def evm384_calldata(seed: int = 0) -> bytes:
    """The modulus and its Montgomery inverse (little-endian, at 0 and 48), x and y."""
    rng = random.Random(seed * 100 + 384)
    x, y = (rng.randrange(EVM384_MODULUS) for _ in range(2))
    return (EVM384_MODULUS.to_bytes(48, "little")
            + montgomery_inv(EVM384_MODULUS).to_bytes(8, "little").ljust(16, b"\0")
            + x.to_bytes(48, "little") + y.to_bytes(48, "little"))


def evm384_program(amounts: Mapping[str, int], calldata: bytes) -> Program:
    """A program with ``amounts`` of EVM384_FEATURES (INSTRUCTIONS: PUSH1/POP pairs)."""
    word = EVM384_OUT << 96 | EVM384_X << 64 | EVM384_Y << 32 | 0
    pair = {name: b"\x6f" + word.to_bytes(16, "big") + op(name)      # PUSH16 word, op
            for name in EVM384_FEATURES if name != INSTRUCTIONS}
    # runs of one op, as for EVMMAX: ops in random order would time the engine's branch
    # predictor as much as the ops (up to half as much again, measured)
    code = (_copy_calldata(len(calldata)) + _grow_memory(EVM384_OUT + 64)
            + b"".join(pair[name] * amounts.get(name, 0) for name in pair)
            + _filler(amounts.get(INSTRUCTIONS, 0))
            + op("STOP"))
    return Program(code, calldata, "evm384", {name: amounts.get(name, 0) for name in pair})


def evm384_limits() -> Dict[str, int]:
    """As ``evmmax_limits``: a PUSH16/op pair is 18 bytes of code."""
    return {"ADDMOD384": 16_000, "SUBMOD384": 16_000, "MULMODMONT384": 16_000,
            INSTRUCTIONS: 30_000}


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
