"""evmone's EVMMAX bytecode (its branches ``evmmax-poseidon`` and ``evmmax-vectorized``)
rewritten into this project's EIP-6690 bytecode, so evmone's vectors run on these engines.

The two agree on the opcodes (0xc0..0xc5), on LOADX's and STOREX's operands (memory or
register first, then the other, then the count) and on the seven immediates of ADDMODX,
SUBMODX and MULMODX. They differ in:

- SETMODX. evmone's pops (modulus offset, modulus size, value slots) and has no context id:
  each one sets up a new context. Its size is in bits on ``evmmax-poseidon`` and in bytes on
  ``evmmax-vectorized``. EIP-6690's pops (id, offset, size in bytes, registers): the adapter
  rewrites each SETMODX into a stack shuffle that gives it a fresh id (its index among the
  code's SETMODX), the size in bytes, and one more register (next item).
- Vector bounds. This project reads the EIP's formula literally, ``idx + stride * count <
  registers``, one register stricter than the registers accessed (docs/evmmax.md); evmone
  checks the registers accessed. One more register gives evmone's code the room it counts on.
- A one-element operation. evmone's helper writes strides 0 for it; EIP-6690 asserts
  ``out_stride != 0``. With count 1 a stride addresses nothing, so the adapter writes 1.
- Memory. evmone's LOADX/STOREX expand memory as MSTORE does; EIP-6690, as read here, asserts
  that the range lies inside memory. The adapter expands memory first (``memory`` bytes) with
  an MSTORE8 of zero: contents are unchanged, only MSIZE and gas differ.
- Value width. This project sizes a register from the modulus's value (``8 * limbs``
  bytes); evmone from SETMODX's declared size: ``evmmax-vectorized`` as ``8 * limbs`` of the
  declared bytes, ``evmmax-poseidon`` as the declared byte length. They agree where the
  declared size is the value's (BN254's 254-bit modulus: 32 bytes everywhere; a 1- or 2-byte
  modulus on ``evmmax-vectorized``: 8 bytes). No rewrite changes a width: code that declares
  more bytes than its modulus needs gives another answer here (tests/test_evmone_vectors.py
  shows the one such vector).

Rewriting moves code offsets, so code with a jump is refused (ValueError); evmone's EVMMAX
vectors and its legacy-code Poseidon are straight-line.
"""
from __future__ import annotations

from typing import Dict

SETMODX, VECTOR_OPS = 0xC0, (0xC3, 0xC4, 0xC5)
JUMPS = (0x56, 0x57, 0x5B)                       # JUMP, JUMPI, JUMPDEST
PUSH1, PUSH3, PUSH32 = 0x60, 0x62, 0x7F
SWAP1, SWAP2, ADD, SHR, MSTORE8 = 0x90, 0x91, 0x01, 0x1C, 0x53

# bytes that turn SETMODX's size operand into bytes (the stack then: offset, size, slots)
_BITS_TO_BYTES = bytes([SWAP1, PUSH1, 7, ADD, PUSH1, 3, SHR, SWAP1])
VARIANTS: Dict[str, bytes] = {"evmmax-poseidon": _BITS_TO_BYTES, "evmmax-vectorized": b""}
MEMORY = 1 << 16


def _setmodx(variant: str, context_id: int) -> bytes:
    """(offset, size, slots) on the stack -> SETMODX(id, offset, size in bytes, slots + 1)."""
    one_more = bytes([SWAP2, PUSH1, 1, ADD, SWAP2])
    return one_more + VARIANTS[variant] + bytes([PUSH1, context_id, SETMODX])


def adapt(code: bytes, variant: str, memory: int = MEMORY) -> bytes:
    """evmone's ``code`` (of branch ``variant``) as this project's EVMMAX code."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown evmone variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    out = bytearray([PUSH1, 0, PUSH3, *(memory - 1).to_bytes(3, "big"), MSTORE8])
    pc, contexts = 0, 0
    while pc < len(code):
        op = code[pc]
        if op in JUMPS:
            raise ValueError(f"opcode {op:#04x} at {pc}: code with jumps cannot be rewritten "
                             "(its offsets would move)")
        if PUSH1 <= op <= PUSH32:
            size = op - PUSH1 + 2
            out += code[pc:pc + size]
        elif op == SETMODX:
            if contexts > 255:
                raise ValueError("more than 256 SETMODX: no context id left")
            out += _setmodx(variant, contexts)
            contexts, size = contexts + 1, 1
        elif op in VECTOR_OPS:
            immediates = bytearray(code[pc + 1:pc + 8])
            if len(immediates) < 7:
                raise ValueError(f"opcode {op:#04x} at {pc}: truncated immediates")
            if immediates[6] == 1 and immediates[1] == 0:
                immediates[1] = 1
            out += bytes([op]) + immediates
            size = 8
        else:
            out.append(op)
            size = 1
        pc += size
    return bytes(out)
