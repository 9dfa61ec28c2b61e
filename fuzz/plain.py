"""Plain EVM cases (``opcodes="evm"``): today's mainnet instructions, with EVM384's and
EVMMAX's bytes 0xc0..0xc5 among them, undefined there (an exceptional halt).

A case is random bytes over the plain table (Osaka's: CLZ too) or a structured program
without EVM384's fragments, and sometimes one of 0xc0..0xc5 put in at an instruction
boundary (after an EVMMAX byte, the six bytes that would be its immediates run as code).
"""
from __future__ import annotations

import random
from dataclasses import replace

from evm384_native.evm.opcode_sets import resolve_opcodes

from .cases import Case
from .programs import Limits, instructions, random_bytes, structured

OPCODES = "evm"
TABLE = resolve_opcodes(OPCODES).table
EXTENSION_BYTES = range(0xC0, 0xC6)       # EVM384's 0xc0..0xc2, EVMMAX's 0xc0..0xc5


def plain_program(rng: random.Random, limits: Limits) -> Case:
    if rng.random() < 0.6:
        case = structured(rng, limits, evm384=False)
    else:
        case = random_bytes(rng, limits, TABLE)
    code = case.code
    if rng.random() < 0.3:
        at = rng.choice([pc for pc, _ in instructions(code)] + [len(code)])
        code = code[:at] + bytes([rng.choice(EXTENSION_BYTES)]) + code[at:]
    return replace(case, code=code, opcodes=OPCODES)
