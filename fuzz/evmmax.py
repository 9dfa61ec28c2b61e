"""Structured EVMMAX (EIP-6690) programs: every assert's edges, and valid work around them.

A program grows memory, writes moduli and values into it, and runs a random sequence
of SETMODX (ids 0..256 and past, moduli of every limb count, odd, powers of two, even,
below 3, with leading zero bytes, sizes past 96, alloc_count 0..257, the 24,576-byte
register cap), STOREX/LOADX (values below and at the modulus, register and memory
ranges at and past their ends, count 0, huge words), ADDMODX/SUBMODX/MULMODX (bounds
just inside and one past, count 0, out_stride 0, broadcast and overlapping vectors),
memory growth after registers exist (expansion gas counts them), a gas-bounded loop and
a vector op cut off by the end of the code.
"""
from __future__ import annotations

import random
from typing import Dict, List, Tuple

from .cases import Case
from .programs import U256, Limits, op, pick_gas, push

SETMODX, LOADX, STOREX, ADDMODX, SUBMODX, MULMODX = range(0xC0, 0xC6)
VECTOR_OPS = (ADDMODX, SUBMODX, MULMODX)
MEMORY = 8192                      # memory the program grows first (most accesses inside)
MODULUS_AT, VALUES_AT = 0, 1024    # where moduli and values are written
HUGE = [2**64, 2**64 + 1, 2**255, U256 - 1]


def pick_modulus(rng: random.Random, valid: bool) -> int:
    """An odd modulus (filling its limbs or just over the limb below) or a power of two
    at a random limb count; or one SETMODX refuses (or a tiny one)."""
    limbs = rng.randint(1, 12)
    if not valid:
        return rng.choice([0, 1, 2, 6, 2**64 + 2, 2**768 - 2, 2**767 * 3 // 2, 3, 4, 5])
    if rng.random() < 0.7:
        low = 2**(64 * limbs - 1) if rng.random() < 0.5 else 2**(64 * (limbs - 1))
        return max(3, rng.randrange(low, 2**(64 * limbs)) | 1)
    return 2**rng.randint(max(2, 64 * limbs - 64), 64 * limbs - 1)


def _store_bytes(offset: int, data: bytes) -> bytes:
    data = data.ljust(-(-len(data) // 32) * 32, b"\0")
    return b"".join(push(int.from_bytes(data[i:i + 32], "big")) + push(offset + i) + op("MSTORE")
                    for i in range(0, len(data), 32))


class _Program:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.code = bytearray(push(0) + push(MEMORY - 32) + op("MSTORE"))
        # what the active context probably is (element bytes, modulus, registers), and
        # the contexts by id (a SETMODX of an existing id activates it)
        self.size, self.modulus, self.registers = 8, 97, 8
        self.contexts: Dict[int, Tuple[int, int, int]] = {}

    def word(self, usual: List[int]) -> int:
        return self.rng.choice(HUGE) if self.rng.random() < 0.05 else self.rng.choice(usual)

    def edge(self) -> bool:
        return self.rng.random() < 0.015

    def setmodx(self) -> None:
        rng = self.rng
        modulus = pick_modulus(rng, not self.edge())
        size = max(1, (modulus.bit_length() + 7) // 8)   # sometimes with leading zeros:
        modulus_be = modulus.to_bytes(min(96, size + rng.choice([0, 0, 0, 1, 5])), "big")
        self.code += _store_bytes(MODULUS_AT, modulus_be)
        size = rng.choice([0, 96, 97, 2**64]) if self.edge() else len(modulus_be)
        alloc = self.word([0, 1, 257]) if self.edge() else rng.choice([2, 3, 8, 24, 100, 255, 256])
        context_id = self.word([257]) if self.edge() else rng.choice([0, 0, 1, 2, 7, 255, 256])
        offset = rng.choice([MEMORY - 8, MEMORY, 2**64]) if self.edge() else MODULUS_AT
        self.code += push(alloc) + push(size) + push(offset) + push(context_id) + bytes([SETMODX])
        if context_id in self.contexts:
            self.size, self.modulus, self.registers = self.contexts[context_id]
        elif 3 <= modulus < 2**768 and (modulus % 2 or modulus & (modulus - 1) == 0) \
                and isinstance(alloc, int) and 0 < alloc <= 256:
            self.size = 8 * -(-modulus.bit_length() // 64)
            self.modulus, self.registers = modulus, alloc
            self.contexts[context_id] = (self.size, modulus, alloc)

    def transfer(self) -> None:
        rng = self.rng
        count = min(self.registers, rng.choice([0, 1, 2, 3, 8, self.registers]))
        first = rng.randint(0, self.registers - count)
        if self.edge():
            count, first = self.word([count, self.registers + 1]), self.word([first + 1])
        memory = rng.choice([MEMORY - self.size * max(1, count) // 2, MEMORY - self.size,
                             MEMORY, 2**64, U256 - 1]) if self.edge() else VALUES_AT
        if rng.random() < 0.5:   # STOREX: values, mostly below the modulus
            values = [self.modulus if self.edge() else
                      rng.choice([0, 1, self.modulus - 1, rng.randrange(self.modulus)])
                      for _ in range(min(count, 64))]
            data = b"".join(v.to_bytes(self.size, "big") for v in values if v < 256**self.size)
            self.code += _store_bytes(VALUES_AT, data[:MEMORY - VALUES_AT])
            self.code += push(count) + push(memory) + push(first) + bytes([STOREX])
        else:
            self.code += push(count) + push(first) + push(memory) + bytes([LOADX])

    def immediates(self) -> bytes:
        rng, registers = self.rng, self.registers
        if self.edge():
            return bytes(rng.choice([0, 1, 2, 255, rng.randrange(256)]) for _ in range(7))
        count = max(1, min(rng.choice([1, 1, 2, 3, 8, 255]), (registers - 1) // 2))
        fields = []
        for kind in range(3):
            stride = rng.choice([1, 1, 2] + ([0] if kind else []))
            last = registers - 1 - stride * count   # idx + stride * count < registers
            idx = rng.randint(0, last) if last >= 0 else 0
            if self.edge():
                idx = last + 1                        # one past the EIP's bound
            fields += [max(0, min(255, idx)), stride]
        im = fields + [count]
        if self.edge():
            im[rng.choice([1, 6])] = 0                # out_stride 0 or count 0
        return bytes(im)

    def vector(self) -> None:
        self.code += bytes([self.rng.choice(VECTOR_OPS)]) + self.immediates()

    def loop(self) -> None:
        """A vector op repeated until gas runs out (bounded by the case's gas)."""
        start = len(self.code)
        self.code += op("JUMPDEST")
        self.vector()
        self.code += push(start) + op("JUMP")

    def grow_memory(self) -> None:
        self.code += push(1) + push(self.rng.choice([MEMORY, MEMORY + 1000, 70_000])) + op("MSTORE8")


def evmmax_program(rng: random.Random, limits: Limits) -> Case:
    """A random EVMMAX program (see the module docstring); its gas bounds time and memory."""
    program = _Program(rng)
    actions = [program.setmodx] * 3 + [program.transfer] * 3 + [program.vector] * 5 \
        + [program.grow_memory]
    if rng.random() < 0.95:
        program.setmodx()
    for _ in range(rng.randint(1, 25)):
        rng.choice(actions)()
    ending = rng.randrange(5)
    if ending == 0:
        program.loop()
    elif ending == 1:
        program.code += push(512) + push(VALUES_AT) + op("RETURN")   # LOADX'd or stored values
    elif ending == 2:
        program.code += bytes([rng.choice(VECTOR_OPS)]) + program.immediates()[:rng.randint(0, 6)]
    gas = pick_gas(rng, limits) if rng.random() < 0.3 else limits.max_gas
    return Case(bytes(program.code), b"", gas, opcodes="evmmax")
