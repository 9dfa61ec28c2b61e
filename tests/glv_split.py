"""The GLV scalar split of ECMUL and ECRECOVER (:mod:`evm384_native.ec.glv`) as EVM code
on its own, and what its model says that code must leave: the tests of both contracts check
one against the other."""
from __future__ import annotations

from typing import List, Union

from evm384_native import execute
from evm384_native.ec import glv
from evm384_native.curves.model import PairingCurve, WeierstrassCurve
from evm384_native.tower.contract import assemble
from evm384_native.tower.targets import resolve_target

# How far the digit words are shifted: EVMMAX's 64-byte records, or none under EVM384
# (96-byte records: a MUL)
PRE_SHIFT = {"evmmax": 6, "evm384": 0}


def split_program(curve: Union[WeierstrassCurve, PairingCurve], target: str) -> bytes:
    """Code that reads k (the calldata's first word) and returns the words A1, A2 of the
    split and recoded k1, k2 (:func:`glv.push_digit_words`)."""
    isa = resolve_target(target)

    def build(e) -> None:
        asm = e.asm
        asm.push(0)
        asm.op("CALLDATALOAD")
        glv.push_digit_words(e, curve.glv, PRE_SHIFT[target])
        for offset in (32, 0):                          # A2 on top
            asm.push(offset)
            asm.op("MSTORE")
        asm.push(64)
        asm.push(0)
        asm.op("RETURN")
    return assemble("split", curve, isa, build, isa.compact).code


def split_words(code: bytes, k: int, target: str) -> List[int]:
    """The words A1, A2 that :func:`split_program`'s ``code`` returns for k."""
    output = execute(code, k.to_bytes(32, "big"), opcodes=target, engine="fast").output
    return [int.from_bytes(output[i:i + 32], "big") for i in (0, 32)]


def modelled_words(k: int, curve: Union[WeierstrassCurve, PairingCurve], target: str) -> List[int]:
    """A1, A2 as :func:`glv.split`'s k1, k2 make them: (k_i + 2^HALF_BITS - 1) / 2,
    shifted as the target's records need."""
    return [(k_i + 2**glv.HALF_BITS - 1) * 2**PRE_SHIFT[target] // 2 % 2**256
            for k_i in glv.split(k, curve.glv, curve.r)]
