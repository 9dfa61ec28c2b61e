"""The python engine's joined segments: EVM384 segments that only PUSHes and MCOPYs with
fixed operands separate run as one native call, the copies as records in their place
(csrc/evm384_block.c), with the same bytes, gas and counts as every other way of running
them (engines, backends, unfused, traced) and as py-evm's MCOPY where it applies."""
from __future__ import annotations

import random

import pytest

from evm384_native.evm.code import decode
from evm384_native.evm.evm384 import MCOPY, op_segment
from evm384_native.evm.gas import resolve_schedule
from evm384_native.evm.instructions import op_mcopy_static
from evm384_native.evm.opcode_sets import EVM384

from evm_helpers import asm, evm384_word, push, run_everywhere
from evm_programs import P, P_INV

MOD, A, B, C = 0, 64, 112, 160
SCHEDULE = resolve_schedule("evmone-v7")


def op(name: str, out: int, x: int, y: int) -> bytes:
    return asm(push(evm384_word(out, x, y, MOD), 16), name)


def mcopy(dest: int, source: int, size: int) -> bytes:
    return asm(push(size, 4), push(source, 4), push(dest, 4), "MCOPY")


def returning_memory(body: bytes, size: int) -> bytes:
    """Calldata to memory 0, the body, then memory [0, size) returned."""
    return asm("CALLDATASIZE", push(0, 1), push(0, 1), "CALLDATACOPY", body,
               push(size, 4), push(0, 1), "RETURN")


def image(rng: random.Random, size: int = 256) -> bytes:
    memory = bytearray(rng.randbytes(size))
    memory[MOD:MOD + 56] = P.to_bytes(48, "little") + P_INV.to_bytes(8, "little")
    for slot in (A, B, C):
        memory[slot:slot + 48] = rng.randrange(P).to_bytes(48, "little")
    return bytes(memory)


def body_of(code: bytes, pc: int = 6) -> list:
    """The body of the block after the calldata copy (which ends the first block)."""
    return list(decode(code, SCHEDULE, True, EVM384).dispatch_at[pc][5])


def test_a_copy_between_segments_is_a_record_of_one_native_call():
    copy_then_use = op("ADDMOD384", C, A, B) + mcopy(A, C, 48) + op("MULMODMONT384", B, A, A)
    code = returning_memory(copy_then_use, 256)
    handlers = [handler for handler, _, _ in body_of(code)]
    assert handlers.count(op_segment) == 1 and op_mcopy_static not in handlers
    segment = next(arg for handler, arg, _ in body_of(code) if handler is op_segment)
    assert [operation[0] for operation in segment.operations] == [0xc0, MCOPY, 0xc2]
    rng = random.Random(1)
    for _ in range(5):
        memory = image(rng)
        out = run_everywhere(code, memory).output
        a, b = (int.from_bytes(memory[s:s + 48], "little") for s in (A, B))
        total = (a + b) % P
        assert out[A:A + 48] == out[C:C + 48] == total.to_bytes(48, "little")
        r_inv = pow(2**384, -1, P)
        assert out[B:B + 48] == (total * total * r_inv % P).to_bytes(48, "little")


@pytest.mark.parametrize("dest, source, size", [
    (A + 7, A, 100),             # overlapping, forwards
    (A, A + 7, 100),             # overlapping, backwards
    (4000, A, 48),               # grows memory (charged with the block)
    (A, 9000, 33),               # reads past memory: grows it too, zeros copied
    (C, A, 1),
])
def test_copies_of_every_kind_give_the_same_bytes_and_gas_everywhere(dest, source, size):
    code = returning_memory(op("SUBMOD384", C, A, B) + mcopy(dest, source, size)
                            + op("ADDMOD384", A, C, B), max(dest, source) + size)
    assert run_everywhere(code, image(random.Random(size))).success


def test_copies_that_are_not_records_stay_handlers():
    """Size 0 copies nothing (no record); an end at or past 2**32 does not fit a record's
    32-bit field (and is out of gas)."""
    for copy in (mcopy(A, B, 0), asm(push(48, 4), push(B, 4), push(2**32 - 16, 5), "MCOPY")):
        code = returning_memory(op("ADDMOD384", C, A, B) + copy + op("ADDMOD384", A, C, B),
                                256)
        handlers = [handler for handler, _, _ in body_of(code)]
        assert op_mcopy_static in handlers and handlers.count(op_segment) == 2
        run_everywhere(code, image(random.Random(3)), gas=10**7)


def test_a_known_jump_destination_pushed_after_a_joined_copy_stays_known():
    """The body entries of values decoding knows move when a copy's entry leaves the
    body: a PUSH of a jump destination between the copy and the next segment."""
    def body(target: int) -> bytes:
        return (op("ADDMOD384", C, A, B) + mcopy(A, C, 48) + push(target, 2)
                + op("ADDMOD384", B, A, A) + asm("JUMP", "INVALID", "JUMPDEST"))
    target = len(body(0)) - 1 + len(asm("CALLDATASIZE", push(0, 1), push(0, 1),
                                        "CALLDATACOPY"))
    code = returning_memory(body(target), 256)
    assert code[target] == 0x5B
    handlers = [handler for handler, _, _ in body_of(code)]
    assert op_mcopy_static not in handlers and handlers.count(op_segment) == 1
    result = run_everywhere(code, image(random.Random(4)))
    assert result.success and "INVALID" not in result.opcode_counts
