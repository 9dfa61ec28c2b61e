"""EVM768 cases (``opcodes="evm768"``): the structured programs of EVM384's cases, whose
PUSH16 word; 0xc0..0xc2 pairs are then ADDMOD768, SUBMOD768 and MULMODMONT768 on 96-byte
values (offsets past a value's end, aliasing and memory growth as they fall), checked on
every engine variant and in py-evm through the integration."""
from __future__ import annotations

import random
from dataclasses import replace

from .cases import Case
from .programs import Limits, structured

OPCODES = "evm768"


def evm768_program(rng: random.Random, limits: Limits) -> Case:
    return replace(structured(rng, limits), opcodes=OPCODES)
