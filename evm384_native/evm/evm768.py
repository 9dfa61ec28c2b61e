"""The EVM768 instructions: EVM384's interface v7 (:mod:`.evm384`) at 768-bit values.

ADDMOD768, SUBMOD768 and MULMODMONT768 (0xc0..0xc2) each pop one word of four packed
32-bit memory offsets (out, x, y, mod, as EVM384's), expand memory like MLOAD to cover
every operand (96 bytes each; 104 at ``mod`` for MULMODMONT768: the modulus, then its
64-bit Montgomery constant), and apply EVM384's formulas with twelve 64-bit limbs
(R = 2**768), values 96 bytes little-endian. The arithmetic is the frame's backend's
(``Backend.evm768``: :mod:`.kernels.kernel` or :mod:`.kernels.reference`). No segments:
each instruction runs alone on both engines.
"""
from __future__ import annotations

from typing import Dict

from .evm384 import operands_end, unpack_offsets
from .frame import Frame
from .instructions import Handler
from .kernels.limbs import BYTES768
from .kernels.operands import MONT_CONSTANT_BYTES
from .opcodes import EVM768_BY_NAME

ADDMOD768 = EVM768_BY_NAME["ADDMOD768"].code
SUBMOD768 = EVM768_BY_NAME["SUBMOD768"].code
MULMODMONT768 = EVM768_BY_NAME["MULMODMONT768"].code
MODULUS_WITH_INV_BYTES768 = BYTES768 + MONT_CONSTANT_BYTES


def memory_end768(opcode: int, out: int, x: int, y: int, mod: int) -> int:
    """First byte past every operand the instruction reads or writes."""
    mod_size = MODULUS_WITH_INV_BYTES768 if opcode == MULMODMONT768 else BYTES768
    return operands_end(out, x, y, mod, BYTES768, mod_size)


def op_evm768(f: Frame, opcode: int) -> None:
    """ADDMOD768, SUBMOD768 or MULMODMONT768 (``opcode``), one backend call."""
    out, x, y, mod = unpack_offsets(f.stack.pop())
    end = memory_end768(opcode, out, x, y, mod)
    if end > len(f.memory):
        f.expand(end)
    f.backend.evm768[opcode](f.memory, out, x, y, mod)


EVM768_HANDLERS: Dict[int, Handler] = {ADDMOD768: op_evm768, SUBMOD768: op_evm768,
                                       MULMODMONT768: op_evm768}
