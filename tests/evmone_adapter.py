"""evmone's EVMMAX bytecode (its branches ``evmmax-poseidon`` and ``evmmax-vectorized``)
rewritten into this project's EIP-6690 bytecode, so evmone's vectors run on these engines.

The two agree on the opcodes (0xc0..0xc5), on LOADX's and STOREX's operands (memory or
register first, then the other, then the count) and on the seven immediates of ADDMODX,
SUBMODX and MULMODX. They differ in:

- SETMODX. evmone's pops (modulus offset, modulus size, value slots) and has no context id:
  each one sets up a new context. Its size is in bits on ``evmmax-poseidon`` and in bytes on
  ``evmmax-vectorized``. EIP-6690's pops (id, offset, size in bytes, registers): the adapter
  rewrites each SETMODX into a stack shuffle that gives it a fresh id (its index among the
  code's SETMODX), the size in bytes, and one more register (next item; at most 256, EIP-6690's
  limit: code asking for 256 gets 256).
- Vector bounds. This project reads the EIP's formula literally, ``idx + stride * count <
  registers``, one register stricter than the registers accessed (docs/evmmax.md); evmone
  checks the registers accessed. One more register gives evmone's code the room it counts on.
- A one-element operation. evmone's helper writes strides 0 for it; EIP-6690 asserts
  ``out_stride != 0``. With count 1 a stride addresses nothing, so the adapter writes 1.
- The last register. By the bound read literally, ``out_idx + out_stride * count`` below
  256, a 256-register context's register 255 is never an operation's output; evmone's NTT
  code writes it (its zero register: ``SUBMODX 255 255 255``, one element). Where code so
  writes 255, the adapter renames register 255 to the highest register the code never
  touches (a renaming of one unused register changes no value): in every operation's
  immediates and in the slot that a PUSH gives LOADX or STOREX right before it. It refuses
  (ValueError) where a register is not known statically (a LOADX or STOREX operand not
  pushed just before it), where 255 lies inside a strided vector or a multi-value range, or
  where no register is free.
- Memory. evmone's LOADX/STOREX expand memory as MSTORE does; EIP-6690, as read here, asserts
  that the range lies inside memory. The adapter expands memory first (``memory`` bytes) with
  an MSTORE8 of zero: contents are unchanged, only MSIZE and gas differ.
- Value width. This project sizes a register from the modulus's value (``8 * limbs``
  bytes); evmone from SETMODX's declared size: ``evmmax-vectorized`` as ``8 * limbs`` of the
  declared bytes, ``evmmax-poseidon`` as the declared byte length. They agree where the
  declared size is the value's (BN254's 254-bit modulus: 32 bytes everywhere; a 1- or 2-byte
  modulus on ``evmmax-vectorized``: 8 bytes). Where they differ (evmone-poseidon's 1- and
  2-byte moduli, its NTT over 12289 with 2-byte values, a 32-byte declared size for the
  modulus 7), the adapter rewrites LOADX and STOREX when given ``widths = (w, e)``: evmone's
  bytes a value (1 to 32) and this project's (8, 16, 24 or 32). Every STOREX first copies
  its ``count`` values, ``w`` bytes each from its memory offset, into a scratch area as
  ``e``-byte big-endian values and stores from there; every LOADX loads into the scratch area
  and copies each value's low ``w`` bytes to its memory offset. The values are below the
  modulus, so these are evmone's bytes: the registers, the operations and the outputs are
  unchanged, only gas differs. The copies are two routines after the code, reached by a JUMP
  with the return address pushed (the stack is then as the instruction found it). The scratch
  area is the last ``256 * e`` bytes of the pre-expanded memory: the code must not use them.

Legacy code is rewritten instruction by instruction, so code with a jump is refused
(ValueError: its offsets would move); evmone's EVMMAX vectors and its legacy-code Poseidon
are straight-line. An EOF container (evmone's EOF Poseidon and NTT) goes through
tests/eof_legacy.py, which rewrites its CALLF, RETF, RJUMPs and DATACOPY into legacy code
and refuses the rest of EOF.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from eof_legacy import (EOF_IMMEDIATES, MAGIC, Label, Piece, Ref, assemble, instructions, parse,
                        to_legacy)

SETMODX, LOADX, STOREX, VECTOR_OPS = 0xC0, 0xC1, 0xC2, (0xC3, 0xC4, 0xC5)
IMMEDIATES = {op: 7 for op in VECTOR_OPS}
JUMPS = (0x56, 0x57, 0x5B)                       # JUMP, JUMPI, JUMPDEST
PUSH1, PUSH2, PUSH3 = 0x60, 0x61, 0x62
STOP, ADD, SUB, MUL, GT, ISZERO, SHR, POP = 0x00, 0x01, 0x03, 0x02, 0x11, 0x15, 0x1C, 0x50
MLOAD, MSTORE, MSTORE8, JUMP, JUMPI = 0x51, 0x52, 0x53, 0x56, 0x57
DUP1, DUP2, DUP3, DUP4, DUP5, DUP6 = 0x80, 0x81, 0x82, 0x83, 0x84, 0x85
SWAP1, SWAP2, SWAP3 = 0x90, 0x91, 0x92

# bytes that turn SETMODX's size operand into bytes (the stack then: offset, size, slots)
_BITS_TO_BYTES = bytes([SWAP1, PUSH1, 7, ADD, PUSH1, 3, SHR, SWAP1])
VARIANTS: Dict[str, bytes] = {"evmmax-poseidon": _BITS_TO_BYTES, "evmmax-vectorized": b""}
MEMORY = 1 << 16
MAX_REGISTERS = 256
MAX_VALUES = 256                                 # registers a STOREX or LOADX can move


def _setmodx(variant: str, context_id: int) -> bytes:
    """(offset, size, slots) on the stack -> SETMODX(id, offset, size in bytes, slots + 1),
    the registers at most 256 (code asking for 256 gets 256)."""
    one_more = bytes([SWAP2, PUSH1, 1, ADD, PUSH2, *MAX_REGISTERS.to_bytes(2, "big"), DUP2, GT,
                      SWAP1, SUB, SWAP2])
    return one_more + VARIANTS[variant] + bytes([PUSH1, context_id, SETMODX])


class _Widths:
    """The value-width rewrite of LOADX and STOREX: the scratch area and the two routines."""

    def __init__(self, widths: Tuple[int, int], memory: int) -> None:
        self.value, self.element = widths
        if not 1 <= self.value <= 32 or self.element not in (8, 16, 24, 32):
            raise ValueError(f"widths {widths}: evmone's 1 to 32 bytes, this project's 8, 16, "
                             "24 or 32")
        self.scratch = memory - MAX_VALUES * self.element
        self.widen, self.narrow = Label(), Label()

    def call(self, routine: Label, op: int) -> List[Piece]:
        back = Label()
        tail = [bytes([op])] if op == STOREX else []     # LOADX runs inside its routine
        return [Ref(back), Ref(routine), bytes([JUMP]), back] + tail

    def _scratch_word(self, index_depth: int) -> bytes:
        """[i, ...] -> [the word address whose low ``element`` bytes are value i, i, ...]"""
        return bytes([DUP1 + index_depth - 1, PUSH1, self.element, MUL, PUSH2,
                      *(self.scratch - (32 - self.element)).to_bytes(2, "big"), ADD])

    def routines(self) -> List[Piece]:
        w, shift = self.value, 256 - 8 * self.value
        widen_loop, widen_done = Label(), Label()
        widen: List[Piece] = [
            self.widen,                                   # [ret, slot, p, n]
            bytes([DUP4]),                                # [i = n, ret, slot, p, n]
            widen_loop,                                   # last value first: each MSTORE
            bytes([DUP1, ISZERO]), Ref(widen_done), bytes([JUMPI]),  # clears the 32 - e bytes
            bytes([PUSH1, 1, SWAP1, SUB]),                # below its value, the ones done next
            bytes([DUP1, PUSH1, w, MUL, DUP5, ADD, MLOAD, PUSH1, shift, SHR]),  # [v, i, ...]
            self._scratch_word(2), bytes([MSTORE]),            # [i, ret, slot, p, n]
            Ref(widen_loop), bytes([JUMP]),
            widen_done,
            bytes([POP, SWAP2, POP, PUSH2, *self.scratch.to_bytes(2, "big"), SWAP2]),
            bytes([JUMP]),                                # [slot, scratch, n]: STOREX next
        ]
        narrow_loop, narrow_done = Label(), Label()
        copy = ([bytes([DUP1, DUP3, PUSH1, w, MUL, DUP6, ADD, MSTORE])] if w == 32 else
                [bytes([DUP1, PUSH1, 8 * (w - 1 - j), SHR, DUP3, PUSH1, w, MUL, DUP6, ADD,
                        PUSH1, j, ADD, MSTORE8]) for j in range(w)])
        narrow: List[Piece] = [
            self.narrow,                                  # [ret, p, slot, n]
            bytes([DUP4, DUP4, PUSH2, *self.scratch.to_bytes(2, "big"), LOADX]),
            bytes([DUP4]),                                # [i = n, ret, p, slot, n]
            narrow_loop,
            bytes([DUP1, ISZERO]), Ref(narrow_done), bytes([JUMPI]),
            bytes([PUSH1, 1, SWAP1, SUB]),
            self._scratch_word(1), bytes([MLOAD]),             # [v, i, ret, p, slot, n]
            *copy,
            bytes([POP]), Ref(narrow_loop), bytes([JUMP]),
            narrow_done,
            bytes([POP, SWAP3, POP, POP, POP, JUMP]),     # [] as LOADX leaves it
        ]
        return widen + narrow


def _section_spans(code: bytes) -> List[Tuple[int, int]]:
    """(start, end) of each code section: legacy code is one."""
    if code[:2] != MAGIC:
        return [(0, len(code))]
    parsed = parse(code)
    start = len(code) - len(parsed.data) - sum(len(s.code) for s in parsed.sections)
    spans = []
    for section in parsed.sections:
        spans.append((start, start + len(section.code)))
        start += len(section.code)
    return spans


def spare_last_register(code: bytes) -> bytes:
    """``code`` with register 255 renamed to the highest register it never touches, where a
    one-element operation writes 255 (module docstring); ``code`` unchanged otherwise. The
    rename patches bytes in place (same lengths: offsets hold)."""
    touched: set = set()
    at_255: List[int] = []                      # byte offsets that name register 255
    writes_255, unknown, inside = False, [], []     # unknown, inside: offsets
    for start, end in _section_spans(code):
        pushes: List[Tuple[int, int]] = []     # (offset of the value's last byte, value)
        for pc, op, imm in instructions(code[start:end], {**EOF_IMMEDIATES, **IMMEDIATES}):
            at = start + pc
            if op in VECTOR_OPS:
                count = imm[6]
                writes_255 |= imm[0] == 255 and count == 1
                for j in (0, 2, 4):
                    idx, stride = imm[j], imm[j + 1]
                    touched.update(idx + stride * k for k in range(count))
                    if idx == 255 and (stride == 0 or count == 1):
                        at_255.append(at + 1 + j)
                    elif 255 in range(idx, idx + stride * count, max(stride, 1)):
                        inside.append(at)
            elif op in (LOADX, STOREX):
                if len(pushes) < 3:
                    unknown.append(at)
                else:
                    (_, count), slot_push = pushes[-3], pushes[-1 if op == STOREX else -2]
                    first = slot_push[1]
                    touched.update(range(first, first + count))
                    if first == 255 and count == 1:
                        at_255.append(slot_push[0])
                    elif first <= 255 < first + count:
                        inside.append(at)
            is_push = PUSH1 <= op <= PUSH1 + 31        # the pushes right before an op
            pushes = pushes + [(at + len(imm), int.from_bytes(imm, "big"))] if is_push else []
    if not writes_255:
        return code
    free = [r for r in range(255) if r not in touched]
    if unknown or inside or not free:
        raise ValueError(f"register 255 is written by a one-element operation and cannot be "
                         f"renamed: LOADX/STOREX without pushed operands at {unknown}, 255 "
                         f"inside a range at {inside}, {len(free)} registers free")
    patched = bytearray(code)
    for at in at_255:
        patched[at] = free[-1]
    return bytes(patched)


def adapt(code: bytes, variant: str, memory: int = MEMORY,
          widths: Optional[Tuple[int, int]] = None) -> bytes:
    """evmone's ``code`` (legacy bytecode or an EOF container; of branch ``variant``) as
    this project's EVMMAX legacy code; ``widths`` (evmone's value bytes, this project's)
    where they differ."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown evmone variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    prefix = [bytes([PUSH1, 0, PUSH3, *(memory - 1).to_bytes(3, "big"), MSTORE8])]
    width = None if widths is None else _Widths(widths, memory)
    contexts = [0]

    def rewrite(pc: int, op: int, immediate: bytes) -> Optional[List[Piece]]:
        if op in JUMPS:
            raise ValueError(f"opcode {op:#04x} at {pc}: code with jumps cannot be rewritten "
                             "(its offsets would move)")
        if op == SETMODX:
            if contexts[0] > 255:
                raise ValueError("more than 256 SETMODX: no context id left")
            contexts[0] += 1
            return [_setmodx(variant, contexts[0] - 1)]
        if op in VECTOR_OPS and immediate[6] == 1 and immediate[1] == 0:
            return [bytes([op, immediate[0], 1]) + immediate[2:]]
        if width is not None and op in (LOADX, STOREX):
            return width.call(width.narrow if op == LOADX else width.widen, op)
        return None

    routines = [bytes([STOP])] + ([] if width is None else width.routines())
    code = spare_last_register(code)
    if code[:2] == MAGIC:
        return to_legacy(code, IMMEDIATES, rewrite, prefix, routines)
    pieces: List[Piece] = list(prefix)
    for pc, op, immediate in instructions(code, IMMEDIATES):
        rewritten = rewrite(pc, op, immediate)
        pieces += [bytes([op]) + immediate] if rewritten is None else rewritten
    return assemble(pieces + routines)
