"""Test programs for the record groups the native loops run as one step
(evm384_native/evm/fp2_squares.py, fp4_squares.py): a memory layout with a slot per role,
the group's ops on those slots, and what the tests check them with."""
from __future__ import annotations

import random
from typing import Dict, List, Sequence, Tuple

import numpy as np

from evm384_native.evm.code import decode
from evm384_native.evm.gas import resolve_schedule
from evm384_native.evm.opcode_sets import EVM384

from evm_helpers import asm, evm384_word, push
from evm_programs import P, P_INV

SCHEDULE = resolve_schedule("update5-A")
NAMES = {0xc0: "ADDMOD384", 0xc1: "SUBMOD384", 0xc2: "MULMODMONT384"}


def op(name: str, out: int, x: int, y: int, mod: int = 0) -> bytes:
    return asm(push(evm384_word(out, x, y, mod), 16), name)


class GroupLayout:
    """Memory for one shape's programs: the modulus with its inv at 0, a 48-byte slot per
    role from 64 on (``slot``), then a spare slot; ``end`` bytes in all."""

    def __init__(self, shape: Sequence[Tuple[int, str, str, str]], roles: Sequence[str]):
        self.shape = shape
        self.slot = {role: 64 + 48 * i for i, role in enumerate(roles)}
        self.spare = 64 + 48 * len(roles)
        self.end = self.spare + 48

    def group(self, **moved: int) -> bytes:
        """The shape's ops on the slots, roles moved to other offsets."""
        at = {**self.slot, **moved}
        return b"".join(op(NAMES[operation], at[out], at[x], at[y])
                        for operation, out, x, y in self.shape)

    def kill(self, *temporaries: str) -> bytes:
        """Writes these temporaries without reading them."""
        return b"".join(op("ADDMOD384", self.slot[t], self.slot["a0"], self.slot["a1"])
                        for t in temporaries)

    def program(self, *pieces: bytes) -> bytes:
        """Calldata into memory, the pieces, all memory returned."""
        return asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY", b"".join(pieces),
                   push(self.end, 2), push(0, 1), "RETURN")

    def calldata(self, values: Dict[str, int], modulus: int = P, inv: int = P_INV,
                 rng: random.Random = random.Random(0)) -> bytes:
        """The memory image: the modulus and inv, the roles' values, random bytes
        elsewhere (so that what is left alone is seen to be left alone)."""
        image = bytearray(rng.randbytes(self.end))
        image[0:56] = modulus.to_bytes(48, "little") + inv.to_bytes(8, "little")
        for role, value in values.items():
            image[self.slot[role]:self.slot[role] + 48] = value.to_bytes(48, "little")
        return bytes(image)


def marked_rows(code: bytes, flag: int) -> List[int]:
    """The records of ``code`` that start a group marked with ``flag``."""
    records = decode(code, SCHEDULE, True, EVM384).marked_records
    return [int(row) for row in np.flatnonzero(records[:, 1] & flag)]
